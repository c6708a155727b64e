// Package concolic is concolic execution of IMP (DART, CUTE) and SAGE's generational search built
// on it. A concolic run executes the program concretely on one input and, alongside, symbolically
// with the engine's own symbolic step (step.SplitCond and step.Assign over sym.Terms, the kernel
// engine.Expand uses): at each branch it takes the side the concrete run takes and records that
// side's constraint, so the run yields its path condition, whose conjuncts, negated one at a time
// under the prefix before them, give the inputs that take the other sides (Trace). Generational
// searches the program's paths this way from a seed input (SAGE, generational.go).
//
// A branch point is every step with more than one successor in the symbolic semantics: the test
// of an if, of a while (its unfolding) and of an assert, an assume, and an assignment or
// condition that divides, whose division-by-zero error is a side of its own. An assume whose
// condition is false ends the run (blocked): its blocked side is recorded as a branch point too.
//
// Nothing in this package is covered by the Coq proofs: the fair-scheduler theorems are about the
// breadth-first search of package engine.
package concolic

import (
	"fmt"
	"time"

	"certsym/engine"
	"certsym/internal/budget"
	"certsym/internal/concrete"
	"certsym/pathcond"
	"certsym/solver"
	"certsym/spec"
	"certsym/spec/integer"
	"certsym/spec/syntax"
	"certsym/step"
	"certsym/sym"
)

// Side is the side a branch point takes.
type Side uint8

// The sides of a branch point. True: the condition holds (an assignment: its divisors are not
// zero; an assume: the run goes on). False: the condition is false (an assert: violated; an
// assume: the run is blocked). DivZero: a division or remainder by zero in the condition or the
// assigned expression, a run-time error.
const (
	True Side = iota
	False
	DivZero
	// IndexErr: an array index out of range in the condition or the statement's expressions, a
	// run-time error.
	IndexErr
)

// String is "true", "false", "division-by-zero" or "index-out-of-range".
func (s Side) String() string {
	return [...]string{"true", "false", "division-by-zero", "index-out-of-range"}[s]
}

// Kind is the kind of statement a branch point is at: "if", "while", "assert", "invariant" (an
// invariant clause of a loop), "assume", "assign" or "element assign".
type Kind string

// Branch is one branch point of a concolic run.
type Branch struct {
	Stmt syntax.Stmt // the statement that branches (for a while, its unfolding's if)
	Kind Kind
	Pos  syntax.Pos // where reports place the statement (the macro call's for an inlined one)
	// Cond is the condition in IMP syntax (for an assignment, the assignment x = a).
	Cond string
	// Step is the number of steps of the run before the branch point.
	Step int
	// Taken is the side the concrete run took, and Conj its constraint: D(b) ∧ b, D(b) ∧ ¬b or
	// ¬D(b) of step.SplitCond (D(a) or ¬D(a) of step.Assign for an assignment), over the input
	// symbols.
	Taken Side
	Conj  *sym.Formula
	// Prefix is the path condition before the branch point and PC the one after it, Prefix ∧ Conj.
	Prefix, PC *pathcond.PC
	// Flips are the other sides of the branch point (Sides), each with the input that takes it
	// or why there is none; empty with Options.NoFlip.
	Flips []Flip

	sides [4]*sym.Formula // the constraint of each side (nil: the statement does not have it)
}

// Sides returns the sides of the branch point other than Taken that a search must try to cover
// every path that may hold an error, in the order True, False, DivZero: those the statement has
// (DivZero only when it divides; an assignment has True and DivZero), except the blocked side of
// an assume that let the run on (it ends the run without error, a path that holds no bug; the
// engine does not produce it either).
func (b *Branch) Sides() []Side {
	var out []Side
	for _, s := range []Side{True, False, DivZero, IndexErr} {
		switch {
		case s == b.Taken, s == DivZero && !b.divides(), s == IndexErr && !b.indexes(),
			s == False && (b.Kind == "assign" || b.Kind == "element assign"),
			s == False && b.Kind == "assume" && b.Taken == True:
			continue
		}
		out = append(out, s)
	}
	return out
}

func (b *Branch) divides() bool {
	switch s := b.Stmt.(type) {
	case *syntax.Assign:
		return s.Err != nil
	case *syntax.If:
		return s.Err != nil
	case *syntax.Assert:
		return s.Err != nil
	case *syntax.Assume:
		return s.Err != nil
	case *syntax.ArrAssign:
		return s.Err != nil
	default:
		panic(fmt.Sprintf("concolic: a branch point at %T", s))
	}
}

func (b *Branch) indexes() bool {
	switch s := b.Stmt.(type) {
	case *syntax.Assign:
		return s.IdxErr != nil
	case *syntax.If:
		return s.IdxErr != nil
	case *syntax.Assert:
		return s.IdxErr != nil
	case *syntax.Assume:
		return s.IdxErr != nil
	case *syntax.ArrAssign:
		return s.IdxErr != nil
	default:
		panic(fmt.Sprintf("concolic: a branch point at %T", s))
	}
}

// SideName names a side of this branch point for a reader: "then"/"else" for an if, "enter"/
// "exit" for a while, "holds"/"violated" for an assert, "passes"/"blocked" for an assume,
// "defined" for an assignment, and "division-by-zero".
func (b *Branch) SideName(s Side) string {
	if s == DivZero || s == IndexErr {
		return s.String()
	}
	names := map[Kind][2]string{"if": {"then", "else"}, "while": {"enter", "exit"}, "assert": {"holds", "violated"}, "invariant": {"holds", "violated"},
		"assume": {"passes", "blocked"}, "assign": {"defined", "undefined"}, "element assign": {"defined", "undefined"}}[b.Kind]
	return names[s]
}

// Constraint is the constraint of side s at the branch point, over the input symbols (nil for a
// side the statement does not have, and on a run without symbolic execution).
func (b *Branch) Constraint(s Side) *sym.Formula { return b.sides[s] }

// Flip is what the solver says of one other side of a branch point: the input that takes it, or
// why there is none.
type Flip struct {
	Side Side
	// Status is Sat (Input takes the side), Unsat (no input follows the path to the branch point
	// and takes the side) or Unknown (Reason says why; for a Sat flip, why it is not Confirmed,
	// when its run reached its bound on quantifier instances).
	Status pathcond.SatStatus
	Reason string
	Input  spec.Store
	// Confirmed reports that the concrete run of Input takes the same sides as the path at every
	// earlier branch point and Side at this one (checked for every Sat answer; Trace returns an
	// error when it fails). A Sat flip not confirmed was stopped before the branch point, by the
	// monitor (Path.FlipsCut) or by its bound on quantifier instances (Reason says so).
	Confirmed bool
}

// Outcome is how a concolic run ends.
type Outcome uint8

// The outcomes. Finished: the program ended (skip). Error: it reached a fail (Path.Fail says
// which). Blocked: an assume's condition was false. StepBound: the run's step bound was reached.
// Stopped: the run was cut short otherwise (Path.Reason: an integer bound, the search's budget,
// an interrupt).
const (
	Finished Outcome = iota
	Error
	Blocked
	StepBound
	Stopped
)

// String is "finished", "error", "blocked", "step-bound" or "stopped".
func (o Outcome) String() string {
	return [...]string{"finished", "error", "blocked", "step-bound", "stopped"}[o]
}

// Path is the result of a concolic run.
type Path struct {
	Input    spec.Store
	Branches []*Branch
	Outcome  Outcome
	Fail     *syntax.Fail // the error reached, when Outcome is Error
	Reason   string       // why the run stopped, when Outcome is Stopped or StepBound
	Steps    int          // steps of the concrete semantics taken
	Final    spec.Store   // the concrete store at the end
	// PC is the path condition of the whole run and Store the final symbolic store.
	PC    *pathcond.PC
	Store []*sym.Term
	// Kont is the remaining program at the end (a Fail at its head for an error).
	Kont *engine.Kont
	// Stmts are the statements executed, each once, in order of first execution.
	Stmts []syntax.Stmt
	// Solver counts the queries Trace asked (zero when it was not asked to flip).
	Solver solver.Stats
	// FlipsCut says why the flips of the later branch points were not asked, when the monitor
	// stopped Trace before it had asked them all ("" otherwise).
	FlipsCut string
	// quantCut says that the run ended StepBound at its bound on quantifier instances, not steps.
	quantCut bool
}

// Options configure Trace.
type Options struct {
	// MaxSteps bounds the run (0: DefaultMaxSteps).
	MaxSteps int
	// NoFlip leaves Branch.Flips empty: no solver query.
	NoFlip bool
	// QueryTimeout and RLimit bound each solver query (budget.Limits; the state and time bounds
	// there are not used).
	Limits budget.Limits
	// Monitor, when set, bounds the run and the flips by its time and memory bounds and
	// interrupts (budget.Monitor.Stop, polled every 256 steps and before each query; its
	// deadline bounds each query, and Interrupt cuts a running one short). A run it stops is
	// Stopped; flips it leaves out are said in Path.FlipsCut.
	Monitor *budget.Monitor
}

// DefaultMaxSteps is the step bound of a concolic run when none is given.
const DefaultMaxSteps = 100_000

// tracer runs one program concolically; it holds the terms of the program's symbols, which the
// runs of one search share (a Terms belongs to one goroutine, like the solver).
type tracer struct {
	prog   *syntax.Program
	terms  *sym.Terms
	whiles map[*syntax.If]bool
}

func newTracer(prog *syntax.Program) *tracer {
	t := &tracer{prog: prog, terms: sym.NewTermsFor(prog), whiles: map[*syntax.If]bool{}}
	syntax.Inspect(prog.Body, func(n syntax.Node) bool {
		if w, ok := n.(*syntax.While); ok {
			t.whiles[w.Unfold] = true
		}
		return true
	})
	return t
}

// head flattens a sequence at the head of k, as the engine's Kont does.
func head(k *engine.Kont) *engine.Kont {
	for {
		seq, ok := k.S.(*syntax.Seq)
		if !ok {
			return k
		}
		k = &engine.Kont{S: seq.First, Next: &engine.Kont{S: seq.Second, Next: k.Next}}
	}
}

// run executes prog on input concretely and symbolically (symbolic false: concretely only, the
// Branch constraints and path conditions then stay nil) for at most max steps, its conditions
// evaluating at most max quantifier instances in all (as exec's run: StepBound). stopAt >= 0 ends
// the run after that many branch points (a flip's confirmation). poll, when not nil, is called
// every 256 steps, and once in 1,024 quantifier instances, with the step count and returns a
// reason to stop, or "".
func (t *tracer) run(input spec.Store, max int, symbolic bool, stopAt int, poll func(int) string) (*Path, error) {
	n := t.prog.Slots()
	if len(input) != n {
		return nil, fmt.Errorf("concolic: the input has %d values, the program %d inputs", len(input), n)
	}
	conc := append(spec.Store(nil), input...)
	p := &Path{Input: append(spec.Store(nil), input...)}
	var ss []*sym.Term
	var pc *pathcond.PC
	if symbolic {
		ss, pc = t.terms.Syms(), pathcond.RootPC(n)
	}
	seen := map[syntax.Stmt]bool{}
	k := &engine.Kont{S: t.prog.Body}
	var stop func() bool
	if poll != nil {
		stop = func() bool { return poll(p.Steps) != "" }
	}
	lim := spec.NewLimiter(concrete.Limits(-1, max, stop))
	// branch records a branch point at statement s whose sides have the constraints sides.
	branch := func(s syntax.Stmt, kind Kind, pos syntax.Pos, cond string, taken Side, sides [4]*sym.Formula) error {
		b := &Branch{Stmt: s, Kind: kind, Pos: pos, Cond: cond, Step: p.Steps, Taken: taken, sides: sides}
		if symbolic {
			b.Conj = sides[taken]
			// The check that the input satisfies the side's constraint: an evaluation that gave
			// up (more than sym.EvalInstances quantifier instances, where the concrete run may
			// have needed one: a body without the bound variable) checks nothing.
			if holds, ok := b.Conj.EvalOK(input); ok && !holds {
				return fmt.Errorf("concolic: internal error: the input %s does not satisfy the constraint %s of the side it takes at %d:%d",
					spec.StoreString(t.prog, input), b.Conj.String(t.terms.Names()), pos.Line, pos.Col)
			}
			b.Prefix = pc
			pc = pathcond.Extend(pc, b.Conj, n)
			if pc.Status == pathcond.Unchecked {
				// The input satisfies every conjunct: it is a witness of the path condition.
				pc.Status, pc.Witness = pathcond.Sat, []integer.Int(p.Input)
			}
			b.PC = pc
		}
		p.Branches = append(p.Branches, b)
		return nil
	}
	defer func() {
		p.Final, p.PC, p.Store, p.Kont = conc, pc, ss, k
	}()
	for {
		k = head(k)
		if f, ok := k.S.(*syntax.Fail); ok {
			p.Outcome, p.Fail = Error, f
			return p, nil
		}
		if stopAt >= 0 && len(p.Branches) >= stopAt {
			p.Outcome, p.Reason = Stopped, "branch point reached"
			return p, nil
		}
		if p.Steps >= max {
			p.Outcome, p.Reason = StepBound, fmt.Sprintf("step bound reached (%d steps)", max)
			return p, nil
		}
		if _, ok := k.S.(*syntax.Skip); ok && k.Next == nil {
			p.Outcome = Finished
			return p, nil
		}
		if poll != nil && p.Steps&255 == 0 && p.Steps > 0 {
			if r := poll(p.Steps); r != "" {
				p.Outcome, p.Reason = Stopped, r
				return p, nil
			}
		}
		if s := k.S; s != step.Skip && !seen[s] {
			if _, ok := s.(*syntax.Skip); !ok {
				seen[s] = true
				p.Stmts = append(p.Stmts, s)
			}
		}
		switch s := k.S.(type) {
		case *syntax.Skip:
			k = k.Next
		case *syntax.Assign:
			v, ek, ok := spec.EvalKind(s.A, conc, nil)
			var as step.Assignment
			if symbolic {
				as = step.Assign(t.terms, s, ss)
			}
			if s.Err != nil || s.IdxErr != nil {
				taken := True
				if !ok {
					taken = errSide(ek)
				}
				if err := branch(s, "assign", s.Pos(), s.X.Name+" = "+syntax.PrintA(s.A), taken, [4]*sym.Formula{True: as.Def, DivZero: as.Err, IndexErr: as.IdxErr}); err != nil {
					return nil, err
				}
			}
			if !ok {
				k = &engine.Kont{S: spec.FailFor(ek, s.Err, s.IdxErr), Next: k.Next}
				break
			}
			conc = append(spec.Store(nil), conc...)
			conc[s.X.Index] = v
			k = &engine.Kont{S: step.Skip, Next: k.Next}
			if symbolic {
				ss = as.Store
			}
			if as.Huge || v.BitLen() > step.MaxIntBits { // the symbolic value's constants, or the concrete value
				p.Steps++
				p.Outcome, p.Reason = Stopped, step.HugeReason(s)
				return p, nil
			}
		case *syntax.ArrAssign:
			slot, v, ek, ok := spec.EvalArrAssign(s, conc)
			var as step.ArrAssignment
			if symbolic {
				as = step.ArrAssign(t.terms, s, ss)
			}
			taken := True
			if !ok {
				taken = errSide(ek)
			}
			if err := branch(s, "element assign", s.Pos(), s.Arr.Name+"["+syntax.PrintA(s.I)+"] = "+syntax.PrintA(s.A), taken, [4]*sym.Formula{True: as.Def, DivZero: as.Err, IndexErr: as.IdxErr}); err != nil {
				return nil, err
			}
			if !ok {
				k = &engine.Kont{S: spec.FailFor(ek, s.Err, s.IdxErr), Next: k.Next}
				break
			}
			conc = append(spec.Store(nil), conc...)
			conc[slot] = v
			k = &engine.Kont{S: step.Skip, Next: k.Next}
			if symbolic {
				ss = as.Store
			}
			if v.BitLen() > step.MaxIntBits { // the integer bound, for elements too
				p.Steps++
				p.Outcome, p.Reason = Stopped, fmt.Sprintf("integer bound reached (a value of more than %d bits assigned at %d:%d)",
					step.MaxIntBits, s.Pos().Line, s.Pos().Col)
				return p, nil
			}
		case *syntax.If, *syntax.Assert, *syntax.Assume:
			var cond syntax.BExpr
			var th, el syntax.Stmt
			var errF, idxF *syntax.Fail
			kind := Kind("if")
			var where syntax.Pos
			switch s := s.(type) {
			case *syntax.If:
				cond, th, el, errF, idxF, where = s.Cond, s.Then, s.Else, s.Err, s.IdxErr, s.Pos()
				if t.whiles[s] {
					kind = "while"
				}
			case *syntax.Assert:
				cond, th, el, errF, idxF, where, kind = s.Cond, step.Skip, s.Violation, s.Err, s.IdxErr, s.Pos(), "assert"
				if s.Violation.Kind == syntax.FailInvariant {
					kind = "invariant"
				}
			case *syntax.Assume:
				cond, th, el, errF, idxF, where, kind = s.Cond, step.Skip, nil, s.Err, s.IdxErr, s.Pos(), "assume"
			default:
				panic(fmt.Sprintf("concolic: unknown statement %T", s))
			}
			v, ek, ok, cut := lim.EvalBKind(cond, conc, nil)
			switch cut {
			case budget.NotCut:
			case budget.CutInstances:
				p.Outcome, p.Reason, p.quantCut = StepBound, concrete.Reason(cut, s, max, ""), true
				return p, nil
			default: // the poll
				p.Outcome, p.Reason = Stopped, concrete.Reason(cut, s, max, poll(p.Steps))
				return p, nil
			}
			taken := False
			next := el
			switch {
			case !ok:
				taken, next = errSide(ek), spec.FailFor(ek, errF, idxF)
			case v:
				taken, next = True, th
			}
			var sides [4]*sym.Formula
			if symbolic {
				sp := step.SplitKinds(t.terms, cond, ss, errF != nil, idxF != nil)
				sides = [4]*sym.Formula{True: sp.Then, False: sp.Else, DivZero: sp.Err, IndexErr: sp.IdxErr}
			}
			if err := branch(s, kind, where, syntax.PrintB(cond), taken, sides); err != nil {
				return nil, err
			}
			if next == nil { // an assume whose condition is false
				p.Outcome = Blocked
				return p, nil
			}
			k = &engine.Kont{S: next, Next: k.Next}
		case *syntax.While: // [E-While], [E-While-Inv]
			k = &engine.Kont{S: s.Entry, Next: k.Next}
		default:
			panic(fmt.Sprintf("concolic: unknown statement %T", k.S))
		}
		p.Steps++
	}
}

// Trace runs prog concolically on input (a flat store: a value for every variable, indexed like
// prog.Vars, then every array element, prog.Slots) and
// returns its path: each branch point with the side taken and the path condition so far, and the
// outcome. Unless opts.NoFlip, it asks the solver, for each branch point and each of its other
// sides (Branch.Sides), for an input that follows the path to the branch point and takes that
// side (the path condition before it ∧ the side's constraint), and replays each input found on
// the concrete semantics to confirm that it does; an input that does not is an internal error.
func Trace(prog *syntax.Program, input spec.Store, opts Options) (*Path, error) {
	t := newTracer(prog)
	max := opts.MaxSteps
	if max <= 0 {
		max = DefaultMaxSteps
	}
	var poll func(int) string
	var deadline time.Time
	if m := opts.Monitor; m != nil {
		poll, deadline = func(int) string { return m.Stop() }, m.Deadline()
	}
	p, err := t.run(input, max, true, -1, poll)
	if err != nil || opts.NoFlip {
		return p, err
	}
	sv := solver.New(prog, solver.Options{})
	defer sv.Close()
	if opts.Monitor != nil {
		sv.SetMonitor(opts.Monitor)
	}
	sv.SetLimits(opts.Limits, deadline)
	asked := 0
	for j, b := range p.Branches {
		for _, s := range b.Sides() {
			if poll != nil {
				if r := poll(0); r != "" {
					p.FlipsCut = fmt.Sprintf("%s: the flips of branch points %d to %d not asked (%d asked)", r, j+1, len(p.Branches), asked)
					p.Solver = sv.Stats
					return p, nil
				}
			}
			asked++
			f := Flip{Side: s}
			phi := pathcond.Extend(b.Prefix, b.sides[s], prog.Slots())
			f.Status = sv.Check(phi)
			switch f.Status {
			case pathcond.Unknown:
				f.Reason = phi.Reason
			case pathcond.Sat:
				f.Input = spec.Store(phi.Witness)
				ok, why, err := t.confirm(p, j, s, f.Input, max, poll)
				if err != nil {
					return nil, err
				}
				f.Confirmed, f.Reason = ok, why
			}
			b.Flips = append(b.Flips, f)
		}
	}
	p.Solver = sv.Stats
	return p, nil
}

// confirm replays in concretely and checks that it takes the sides of p at its first j branch
// points and side s at branch point j; confirmed is false when poll stopped the replay first, or
// when its conditions evaluated more quantifier instances than its bound before the branch point
// (why says so).
func (t *tracer) confirm(p *Path, j int, s Side, in spec.Store, max int, poll func(int) string) (confirmed bool, why string, err error) {
	q, err := t.run(in, max, false, j+1, poll)
	if err != nil {
		return false, "", err
	}
	switch {
	case len(q.Branches) > j:
	case q.quantCut:
		return false, "not confirmed: " + q.Reason, nil
	case q.Outcome == Stopped && q.Reason != "branch point reached":
		return false, "", nil // stopped before the branch point: the flips after it are cut (FlipsCut)
	}
	return true, "", diverges(p, j, s, q, t.prog)
}

// diverges returns an error unless q takes the sides of p at its first j branch points and side s
// at branch point j.
func diverges(p *Path, j int, s Side, q *Path, prog *syntax.Program) error {
	b := p.Branches[j]
	bad := len(q.Branches) <= j
	for i := 0; !bad && i <= j; i++ {
		want := p.Branches[i].Taken
		if i == j {
			want = s
		}
		bad = q.Branches[i].Stmt != p.Branches[i].Stmt || q.Branches[i].Taken != want || q.Branches[i].Step != p.Branches[i].Step
	}
	if bad {
		return fmt.Errorf("concolic: internal error: the solver's input %s for the %s side of the %s at %d:%d does not take it on the concrete semantics",
			spec.StoreString(prog, q.Input), b.SideName(s), b.Kind, b.Pos.Line, b.Pos.Col)
	}
	return nil
}

// errSide is the side of a run-time error of kind k.
func errSide(k syntax.FailKind) Side {
	if k == syntax.FailIndex {
		return IndexErr
	}
	return DivZero
}
