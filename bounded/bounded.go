package bounded

import (
	"fmt"
	"time"

	"certsym/internal/budget"
	"certsym/internal/fault"
	"certsym/pathcond"
	"certsym/solver"
	"certsym/spec"
	"certsym/spec/syntax"
	"certsym/step"
	"certsym/sym"
)

// State is a symbolic state (σ | C ; ghost ρ) of the bounded interpreter (proofs/why3). σ maps
// each program variable to a term over the symbols; shadowed values are eliminated by
// substitution rather than kept as fresh existentially quantified symbols, so the only symbols
// are the inputs and ρ never needs extending. C is the constraint (a path condition).
//
// Ghost is the ghost part: nil unless the interpreter runs in ghost mode and this state is on the
// path of the ghost input. It costs one nil test per step when off.
type State struct {
	Store []*sym.Term
	PC    *pathcond.PC
	Ghost *Ghost
	// Over is xSymExe's flag g (Section III-B3): nil on a state that over-approximates nothing;
	// otherwise the assumes, latest first, whose evaluation ran out of the quantifier bound on this
	// path (QuantLoop), so that the state and all its successors may admit stores no concrete
	// execution reaches.
	Over *OverApprox
	// Trunc is set only in the state passed to Observer.At for a statement whose quantifiers ran
	// out of the bound (QuantLoop) on this path: the condition the statement evaluates there, each
	// exhausted quantifier cut to its first N instances. Nil otherwise.
	Trunc syntax.BExpr
	// Gen is the number of applications of the invariant transition on this path (Interp's
	// Invariant mode): the generation of fresh symbols its next havoc uses.
	Gen int
}

// OverApprox is one assume at which the quantifier bound ran out on a path (the over-approximation
// location of xSymExe, Section V), or one loop executed by the invariant transition (Interp's
// Invariant mode), with the earlier ones.
type OverApprox struct {
	At   *syntax.Assume // nil for a loop
	Loop *syntax.While  // the loop whose transition havocked the store; nil for an assume
	Prev *OverApprox
}

// Ghost is the ghost interpretation ρ of a state in ghost mode, with the concrete store of the
// execution from ρ that the state must concretize to.
type Ghost struct {
	Rho  spec.Store // the ghost interpretation: a value for each symbol (the concrete input)
	Conc spec.Store // the concrete store at this point of the execution from Rho
}

// Result is one result state of the bounded interpreter with its behaviour, and where the
// behaviour arose: the Fail reached (Error), the Assume (Infeasible), the While cut off
// (Incomplete).
//
// Cut tells a path the interpreter did not finish (the outcome Stopped of the Why3 development)
// from an outcome of the program: a budget or the observer stopped it at the statement At. State
// is where the unexplored part starts: the branch check_sat answered exhausted on, or the state in
// which At was reached. A cut result has Behaviour spec.Incomplete, so counters of incomplete paths
// include it.
type Result struct {
	State     State
	Behaviour spec.Behaviour
	Fail      *syntax.Fail
	At        syntax.Stmt
	Cut       Cut
	// QuantCut reports a path cut off at At because a quantifier of At's condition has more
	// instances than the loop bound (QuantLoop, quant.go): Behaviour is Incomplete and Cut is
	// CutNone, a cutoff of the bounds like a loop's (xSymExe, Section III-B2), which the bounded
	// concrete semantics (spec.ExecBounded, exact on quantifiers) does not have.
	QuantCut bool
}

// Cut says why a result of the bounded interpreter is not an outcome of the program.
type Cut uint8

const (
	// CutNone: the result is an outcome of the program (Why3: Beh b).
	CutNone Cut = iota
	// CutBudget: a budget (MaxStates, Timeout, MaxMemory, an interrupt, MaxIntBits,
	// MaxActiveIterations) stopped the path; Stopped says which (Why3: Stopped, from the answer
	// Exhausted of check_sat).
	CutBudget
	// CutObserver: the observer answered false (certsym verify's depth bound; Why3: Stopped, from
	// observe).
	CutObserver
)

// String names the cut: "", "stopped" or "observer".
func (c Cut) String() string {
	switch c {
	case CutBudget:
		return "stopped"
	case CutObserver:
		return "observer"
	}
	return ""
}

// GhostError is a violated ghost assertion: the bounded interpreter's state does not concretize,
// under the ghost interpretation, to the concrete execution's. It is a defect of the engine.
type GhostError struct {
	Stmt syntax.Stmt
	Msg  string
}

func (e *GhostError) Error() string { return "ghost check failed: " + e.Msg }

// Interp is the bounded symbolic interpreter: the Go transcription of sym_interp of the Why3
// development, for the whole language, with Z3 pruning. An Interp belongs to one goroutine.
//
// It has no Coq counterpart: its functions are proved in Why3 only (proofs/why3/interp.mlw), each
// by the postconditions of the Why3 function it transcribes (same_ghost, under, over; for the
// whole run, sym_interp's), so no Coq theorem covers them.
type Interp struct {
	Prog *syntax.Program
	// N is the loop limit: each while loop may start at most N iterations each time it is entered.
	N int
	// Limits bound the interpretation: MaxStates counts the branch states created; QueryTimeout
	// and RLimit are set on the solver by SymInterp.
	budget.Limits
	// NoPrune keeps branches whose constraint the solver proves unsatisfiable.
	NoPrune bool
	// QuantLoop executes quantifiers as loops bounded by N, as Kiasan does (xSymExe, Section
	// III-B3; certsym verify): a quantifier whose range has more than N elements is evaluated on its
	// first N; in an assume the rest is a nondeterministic value and the state is flagged (Over); in
	// any other statement the path is cut off there (a result with QuantCut). Off (the default,
	// and run --loop-bound, which the Why3 development describes), a quantifier is decided whole.
	// quant.go says what is the paper's and what is certsym's design.
	QuantLoop bool
	// Invariant, when not nil, executes each loop with invariant clauses by the invariant
	// transition instead of unrolling it (invariant.go; certsym verify --loops invariant). The
	// interpreter must then be built over Invariant.Layout.Ext, and not run in ghost mode.
	Invariant *Invariants
	// Observer, when not nil, is told of every program point a path reaches (certsym verify);
	// nil costs one test per statement.
	Observer Observer

	terms    *sym.Terms
	solver   *solver.Chain
	states   int
	meter    *budget.Meter
	polled   int // the state count at the last pollLimits
	mon      *budget.Monitor
	stopped  string
	active   int // loop iterations under way on the current path (MaxActiveIterations)
	ghostErr *GhostError
	// ghostLost: the ghost input left the symbolic paths at an assume whose quantifier bound ran
	// out (QuantLoop): the concrete run ended there, the over-approximating path went on.
	ghostLost  bool
	quantSites map[syntax.BExpr][]*syntax.Quant
	// GhostChecks counts the ghost assertions checked.
	GhostChecks int
}

// MaxActiveIterations bounds the loop iterations under way on one path of the bounded
// interpreter (the sum over the loops being executed of the iterations each has started): each
// nests a Go call, so a large loop bound on a long loop would otherwise overflow the stack.
const MaxActiveIterations = 100_000

// Observer watches the bounded interpreter (certsym verify's hook). At is called with the state
// in which a statement starts, before any of its branches is taken: once per execution of an
// assignment, conditional, assert, assume, skip or fail, and for a while loop once per evaluation
// of its condition (each iteration and the exit). Sequences are not program points and are not
// reported. When At returns false the path is cut off there: the interpreter returns an
// Incomplete result at s instead of executing it. With QuantLoop, a statement whose condition has
// quantifiers is reported once per case of their range sizes (quant.go), each case's state with
// its constraint, and Trunc set in the cases where the bound runs out.
type Observer interface {
	At(st State, s syntax.Stmt) bool
}

// New creates a bounded interpreter for prog with loop limit n.
func New(prog *syntax.Program, n int) *Interp { return NewWith(prog, n, solver.Options{}) }

// NewWith is New with a solver built with opts (certsym verify's abstraction of products, the
// refinement layer's crosscheck).
func NewWith(prog *syntax.Program, n int, opts solver.Options) *Interp {
	b := &Interp{Prog: prog, N: n, terms: sym.NewTermsFor(prog), solver: solver.New(prog, opts)}
	b.meter = budget.NewMeter(budget.Limits{})
	b.SetMonitor(budget.NewMonitor())
	return b
}

// Close releases the interpreter's solver (solver.Chain.Close); the results stay readable. The
// interpreter may be run more than once (SymInterp), so its owner closes it when it is done.
func (b *Interp) Close() { b.solver.Close() }

// SetMonitor makes m the monitor of the interpretation: it receives the live counters (branch
// states, solver queries) and its Interrupt stops the interpretation ("interrupted").
func (b *Interp) SetMonitor(m *budget.Monitor) {
	b.mon = m
	b.solver.SetMonitor(m)
}

// Monitor returns the interpreter's monitor.
func (b *Interp) Monitor() *budget.Monitor { return b.mon }

// Solver returns the interpreter's solver.
func (b *Interp) Solver() *solver.Chain { return b.solver }

// Terms returns the interpreter's term factory, for an observer that builds terms over the
// states it is shown (certsym verify).
func (b *Interp) Terms() *sym.Terms { return b.terms }

// Stopped says why a bound (MaxStates, Timeout, MaxMemory) cut the interpretation short, or "".
func (b *Interp) Stopped() string { return b.stopped }

// SymInterp is sym_interp N (σ | C ; ρ) p from the initial state (id | true ; ρ): every result
// state with its behaviour. ghost, when not nil, is the concrete input ρ: the interpreter then
// runs in ghost mode and returns a *GhostError if a ghost assertion fails. It is SymInterpEach
// with the results collected in a list.
//
// Why3: sym_interp (interp.mlw); its postcondition: every instance of a result with behaviour b
// is the bounded concrete run with behaviour b (under), and the run from the ghost input ends in
// a result with its behaviour or is an instance of a cut result (over). Coq: none.
func (b *Interp) SymInterp(ghost spec.Store) ([]Result, error) {
	var rs []Result
	err := b.SymInterpEach(ghost, func(r Result) { rs = append(rs, r) })
	return rs, err
}

// SymInterpEach is sym_interp as a stream: it hands each result state of SymInterp to yield as
// soon as the interpretation makes it, in the order of SymInterp's list, and keeps none, so that
// a caller that keeps only what it needs of each result (certsym verify: counts and the cutoff
// points) holds the interpreter's memory to the paths under way rather than to the paths
// explored. The interpretation is the same, step for step (the observer sees the same states in
// the same order, the solver is asked the same queries): only the lists of sym_interp's results
// at the tail of each statement are handed on instead of built; the results of the first part of
// a sequence and of a loop's body are still collected before the rest runs from them, as
// interp_seq and interp_loop_next take them. yield runs on the interpreter's goroutine, inside
// the interpretation: it must not use the interpreter. In ghost mode it returns a *GhostError
// if a ghost assertion fails, once every result has been handed on.
//
// Why3: sym_interp (interp.mlw), as SymInterp. Coq: none.
func (b *Interp) SymInterpEach(ghost spec.Store, yield func(Result)) error {
	b.states, b.stopped, b.ghostErr, b.GhostChecks, b.ghostLost = 0, "", nil, 0, false
	b.meter, b.polled = budget.NewMeter(b.Limits), -1
	b.solver.SetLimits(b.Limits, b.meter.Deadline())
	init := State{Store: b.terms.Syms(), PC: b.solver.Root(b.Prog.Slots())}
	out := yield
	var mine []Result // the results on the ghost path, for checkGhostResult
	if ghost != nil {
		init.Ghost = &Ghost{Rho: ghost, Conc: ghost}
		out = func(r Result) {
			if r.State.Ghost != nil {
				mine = append(mine, r)
			}
			yield(r)
		}
	}
	b.interpStmt(init, b.Prog.Body, out)
	if ghost != nil {
		b.checkGhostResult(mine, ghost)
	}
	if b.ghostErr != nil {
		return b.ghostErr
	}
	return nil
}

// results collects the results of executing statement c from st (interp_stmt as a list): the
// first part of a sequence and a loop's body, whose results interpSeq and interpLoopNext go on
// from once all of them are made.
func (b *Interp) results(st State, c syntax.Stmt) []Result {
	var rs []Result
	b.interpStmt(st, c, func(r Result) { rs = append(rs, r) })
	return rs
}

// checkGhostResult is the ghost assertion on the results rs (those on the ghost path suffice):
// exactly one result is on the ghost path, and it has the behaviour, the place and the store of the bounded concrete execution from
// ρ (spec.ExecBounded, the big-step semantics of the Why3 development), unless it is a cut result
// (the postcondition of sym_interp: the ghost input is covered by a result with its behaviour, or
// is an instance of a stopped result). A cut result on the ghost path needs nothing more: the
// ghost checks of the steps before it (checkGhost, ghostSplit) already hold for its state.
func (b *Interp) checkGhostResult(rs []Result, rho spec.Store) {
	want := spec.ExecBounded(b.Prog, rho, b.N)
	var mine []Result
	for _, r := range rs {
		if r.State.Ghost != nil {
			mine = append(mine, r)
		}
	}
	b.GhostChecks++
	if len(mine) == 0 && b.ghostLost {
		return // the concrete run ended at an over-approximated assume (QuantLoop)
	}
	if len(mine) != 1 {
		b.ghostFail(nil, "%d result states are on the path of the ghost input %s, want 1", len(mine), spec.StoreString(b.Prog, rho))
		return
	}
	r := mine[0]
	if r.Cut != CutNone || r.QuantCut {
		return
	}
	if r.Behaviour != want.Behaviour || r.Fail != want.Fail || r.At != want.At {
		b.ghostFail(r.At, "the ghost input %s ends %s at line %d symbolically, but %s at line %d concretely",
			spec.StoreString(b.Prog, rho), r.Behaviour, resultLine(r.Fail, r.At), want.Behaviour, resultLine(want.Fail, want.At))
		return
	}
	conc := b.terms.Concretize(r.State.Store, rho)
	for i, v := range want.Store {
		if got := conc[i]; !got.Equal(v) {
			b.ghostFail(nil, "the ghost input %s ends with %s = %s symbolically, %s concretely", spec.StoreString(b.Prog, rho), b.terms.Names()[i], got, v)
			return
		}
	}
}

// resultLine is the line where a run ended: its Fail's, else its At statement's, else 0.
func resultLine(f *syntax.Fail, at syntax.Stmt) int {
	if f != nil {
		return f.Line()
	}
	if at == nil {
		return 0
	}
	return at.Pos().Line
}

// ghostFail records the first violated ghost assertion. A bound that stops the interpretation
// drops no branch (each becomes a cut result), so the ghost checks hold after a stop as well.
func (b *Interp) ghostFail(s syntax.Stmt, format string, args ...any) {
	if b.ghostErr == nil {
		b.ghostErr = &GhostError{Stmt: s, Msg: fmt.Sprintf(format, args...)}
	}
}

// checkGhost is the ghost assertion after a step: ρ satisfies C and ρ∘σ is the concrete store.
func (b *Interp) checkGhost(st State, s syntax.Stmt) {
	g := st.Ghost
	b.GhostChecks++
	if !st.PC.Formula().Eval(g.Rho) {
		b.ghostFail(s, "at line %d the ghost interpretation %s does not satisfy the constraint %s",
			s.Pos().Line, spec.StoreString(b.Prog, g.Rho), st.PC.String(b.terms.Names()))
		return
	}
	conc := b.terms.Concretize(st.Store, g.Rho)
	for i, v := range conc {
		if !v.Equal(g.Conc[i]) {
			b.ghostFail(s, "at line %d %s is %s under the ghost interpretation, but %s in the concrete execution",
				s.Pos().Line, b.terms.Names()[i], v, g.Conc[i])
			return
		}
	}
}

// addConstraint is add_constraint: the state st with constraint C ∧ f. On the ghost path, the
// result keeps the ghost exactly when ρ satisfies f. Coq: none (Why3 only).
func (b *Interp) addConstraint(st State, f *sym.Formula) State {
	b.states++
	b.mon.SetStates(b.states)
	out := State{Store: st.Store, PC: pathcond.Extend(st.PC, f, b.terms.Slots()), Over: st.Over, Gen: st.Gen}
	if fault.Active == fault.OverNotInherited {
		out.Over = nil // fault injection (build tag faults only)
	}
	if st.Ghost != nil && f.Eval(st.Ghost.Rho) {
		out.Ghost = st.Ghost
	}
	return out
}

// answer is the answer of check_sat (Why3: type answer in symbolic.mlw): prune the branch (its
// constraint has no solution), keep it (satisfiable, or undecided), or stop it because a budget
// is exhausted. The zero value is prune, the answer for a branch that is not built (the division
// branch of a condition that does not divide).
type answer uint8

const (
	prune     answer = iota // Prune: the solver proved the constraint unsatisfiable
	keep                    // Keep: go on with the branch
	exhausted               // Exhausted: a budget stopped the interpretation; the branch is cut
)

// checkSat is check_sat, the pruning test, with the contract of the Why3 val: it answers prune
// only when st's constraint has no solution (the solver proved it unsatisfiable; unknown answers
// keep, and so does every constraint under NoPrune). It answers exhausted once a bound
// (MaxStates, Timeout, MaxMemory, an interrupt) has stopped the interpretation, which Stopped
// then reports: the branch becomes a cut result, so the results are incomplete, never wrong.
//
// Why3: the val check_sat (symbolic.mlw), whose only contract is Prune ⇒ unsatisfiable. Coq: the
// same contract is the premise oracle_sound (Bugfinder.v) of the pruned-search theorems.
func (b *Interp) checkSat(st State) answer {
	switch {
	case b.stopped != "":
		return exhausted
	case b.mon.Interrupted():
		b.stopped = "interrupted"
		return exhausted
	case b.MaxStates > 0 && b.states > b.MaxStates:
		b.stopped = fmt.Sprintf("state bound reached (%d branch states)", b.MaxStates)
		return exhausted
	case b.states&255 == 0 && b.pollLimits():
		return exhausted
	}
	if b.NoPrune {
		return keep
	}
	switch b.solver.Check(st.PC) {
	case pathcond.Unsat:
		if st.Ghost != nil {
			b.ghostFail(nil, "a constraint satisfied by the ghost interpretation was pruned as unsatisfiable: %s", st.PC.String(b.terms.Names()))
		}
		return prune
	case pathcond.Unknown:
		// The time bound cut the query short: stop here rather than keep a branch only because
		// no time was left to decide it.
		if b.TimeUp() {
			return exhausted
		}
	}
	return keep
}

// pollLimits checks the time and memory bounds (budget.Meter), once per 256 branch states;
// it reports whether a bound has stopped the interpretation (Stopped then says which).
func (b *Interp) pollLimits() bool {
	if b.states == b.polled {
		return false
	}
	b.polled = b.states
	switch reached, used := b.meter.Poll(b.states); reached {
	case budget.TimeReached:
		b.stopTime()
		return true
	case budget.MemoryReached:
		b.stopped = fmt.Sprintf("memory bound reached (heap %d MiB > %d MiB, %d branch states)", used>>20, b.MaxMemory>>20, b.states)
		return true
	}
	return false
}

// TimeUp reports whether the time bound has passed, and then stops the interpretation (Stopped
// says so). certsym verify asks it when a query it made answers unknown.
func (b *Interp) TimeUp() bool {
	if !b.meter.TimeUp(time.Now()) {
		return false
	}
	b.stopTime()
	return true
}

func (b *Interp) stopTime() {
	if b.stopped == "" {
		b.stopped = fmt.Sprintf("time bound reached (%v, %d branch states)", b.Timeout, b.states)
	}
}

// branch is add_constraint followed by check_sat, as every branching point of the Why3
// interpreter does: the state with C ∧ f, and check_sat's answer for it.
func (b *Interp) branch(st State, f *sym.Formula) (State, answer) {
	out := b.addConstraint(st, f)
	return out, b.checkSat(out)
}

// ghostSplit checks, at a branching point on the ghost path, that exactly one of the branches
// keeps the ghost, that it is the one the concrete semantics takes (want), and that check_sat did
// not prune it (the contract of check_sat; a budget stop is allowed).
func (b *Interp) ghostSplit(st State, s syntax.Stmt, branches []State, ans []answer, want int) {
	if st.Ghost == nil {
		return
	}
	b.GhostChecks++
	n := 0
	for i, br := range branches {
		if br.Ghost != nil {
			n++
			b.checkGhost(br, s)
			if i != want {
				b.ghostFail(s, "at line %d the ghost interpretation follows branch %d, the concrete execution branch %d", s.Pos().Line, i, want)
			}
			if ans[i] == prune {
				b.ghostFail(s, "at line %d the branch of the ghost interpretation was pruned", s.Pos().Line)
			}
		}
	}
	if n != 1 {
		b.ghostFail(s, "at line %d %d branches hold under the ghost interpretation, want exactly 1", s.Pos().Line, n)
	}
}

// condBranches is cond_branches: the three branches of a condition c in st, D(c) ∧ c, D(c) ∧ ¬c,
// ¬D(c) (the step kernel's split, step.SplitCond, on sym_bexpr σ c, which is S(c) here),
// each made by branch (add_constraint, check_sat), with check_sat's answers. The last is built
// only when c divides; otherwise ans[2] is prune, as in Why3. On the ghost path it checks that ρ
// takes the branch the concrete execution takes.
func (b *Interp) condBranches(st State, s syntax.Stmt, cond syntax.BExpr, divides, indexes bool) (br [4]State, ans [4]answer) {
	sp := step.SplitKinds(b.terms, cond, st.Store, divides, indexes)
	br[0], ans[0] = b.branch(st, sp.Then)
	br[1], ans[1] = b.branch(st, sp.Else)
	var ghostBr []State
	var ghostAns []answer
	ghostBr, ghostAns = append(ghostBr, br[0], br[1]), append(ghostAns, ans[0], ans[1])
	errAt, idxAt := -1, -1
	if sp.Err != nil {
		br[2], ans[2] = b.branch(st, sp.Err)
		errAt = len(ghostBr)
		ghostBr, ghostAns = append(ghostBr, br[2]), append(ghostAns, ans[2])
	}
	if sp.IdxErr != nil {
		br[3], ans[3] = b.branch(st, sp.IdxErr)
		idxAt = len(ghostBr)
		ghostBr, ghostAns = append(ghostBr, br[3]), append(ghostAns, ans[3])
	}
	if st.Ghost != nil {
		want := 1
		switch v, k, def := spec.EvalBKind(cond, st.Ghost.Conc, nil); {
		case !def && k == syntax.FailIndex:
			want = idxAt
		case !def:
			want = errAt
		case v:
			want = 0
		}
		b.ghostSplit(st, s, ghostBr, ghostAns, want)
	}
	return br, ans
}

// leaf is leaf: the results of a branch that ends at s, handed to yield: none when check_sat
// pruned it, r when it kept it, and a budget cut at s in r's state when the budget is exhausted.
func leaf(a answer, r Result, s syntax.Stmt, yield func(Result)) {
	switch a {
	case keep:
		yield(r)
	case exhausted:
		yield(cutResult(r.State, s))
	}
}

// cutResult is the result (st, Stopped) of a branch a budget stopped at s.
func cutResult(st State, s syntax.Stmt) Result {
	return Result{State: st, Behaviour: spec.Incomplete, At: s, Cut: CutBudget}
}

// interpStmt is interp_stmt: the results of executing statement c from st, handed to yield in
// order. A path the observer stops (observe answers false) is a cut result at c. Coq: none (Why3
// only).
func (b *Interp) interpStmt(st State, c syntax.Stmt, yield func(Result)) {
	if b.QuantLoop {
		if cond := condOf(c); cond != nil {
			if qs := b.sites(cond); len(qs) > 0 {
				b.quantCases(st, c, cond, qs, func(st State) { b.interpStmtAt(st, c, yield) }, yield)
				return
			}
		}
	}
	b.interpStmtAt(st, c, yield)
}

// interpStmtAt is interpStmt once QuantLoop's case split, if any, is done.
func (b *Interp) interpStmtAt(st State, c syntax.Stmt, yield func(Result)) {
	if b.Observer != nil {
		switch c.(type) {
		case *syntax.Seq, *syntax.While: // not a program point; observed in interpLoop
		case *syntax.Skip, *syntax.Fail, *syntax.Assign, *syntax.ArrAssign, *syntax.If, *syntax.Assert, *syntax.Assume:
			if !b.Observer.At(st, c) {
				yield(Result{State: st, Behaviour: spec.Incomplete, At: c, Cut: CutObserver})
				return
			}
		default:
			panic(fmt.Sprintf("bounded: unknown statement %T", c))
		}
	}
	switch c := c.(type) {
	case *syntax.Skip:
		yield(Result{State: st, Behaviour: spec.Normal})
	case *syntax.Fail:
		yield(Result{State: st, Behaviour: spec.Error, Fail: c})
	case *syntax.Assign:
		b.assign(st, c, yield)
	case *syntax.Seq:
		b.interpSeq(b.results(st, c.First), c.Second, yield)
	case *syntax.ArrAssign:
		b.arrAssign(st, c, yield)
	case *syntax.If:
		b.interpIf(st, c, c.Cond, c.Then, c.Else, c.Err, c.IdxErr, yield)
	case *syntax.Assert:
		b.interpIf(st, c, c.Cond, step.Skip, c.Violation, c.Err, c.IdxErr, yield)
	case *syntax.Assume:
		b.interpAssume(st, c, yield)
	case *syntax.While:
		b.interpLoop(st, c, 0, yield)
	default:
		panic(fmt.Sprintf("bounded: unknown statement %T", c))
	}
}

// interpSeq is interp_seq: c2 run from every Normal result rs of the first statement; the other
// results (cut results too) are kept; all handed to yield in order. Each result of rs is dropped
// from the list once it is done with, so that its state does not outlive it. Coq: none (Why3
// only).
func (b *Interp) interpSeq(rs []Result, c2 syntax.Stmt, yield func(Result)) {
	for i, r := range rs {
		rs[i] = Result{}
		if r.Behaviour != spec.Normal {
			yield(r)
			continue
		}
		b.interpStmt(r.State, c2, yield)
	}
}

// assign is assign, with the division error of the full language: σ[x ↦ S(a)] under D(a), Error
// under ¬D(a) (the branch on D(a) only when a divides). Like the Why3 assign, it substitutes: x
// is bound to S(a) (sym_aexpr σ a), the constraint gets no conjunct for it and ρ is unchanged, so
// the ghost check is ρ∘σ against the concrete store, as in the Why3 postcondition of assign.
// When check_sat answers exhausted on D(a), the result is a cut at c in the state before the
// update; the error branch is a leaf. Coq: none (Why3 only; the Coq rules E_Assign and
// E_AssignErr are the small-step counterparts).
func (b *Interp) assign(st State, c *syntax.Assign, yield func(Result)) {
	as := step.Assign(b.terms, c, st.Store)
	if as.Huge { // MaxIntBits: a resource bound, the path is cut and Stopped says why
		if b.stopped == "" {
			b.stopped = step.HugeReason(c)
		}
		yield(cutResult(st, c))
		return
	}
	next := func(s State) State {
		s.Store = as.Store
		if s.Ghost != nil {
			v, _, _ := spec.EvalKind(c.A, s.Ghost.Conc, nil)
			conc := make(spec.Store, len(s.Ghost.Conc))
			copy(conc, s.Ghost.Conc)
			conc[c.X.Index] = v
			s.Ghost = &Ghost{Rho: s.Ghost.Rho, Conc: conc}
			b.checkGhost(s, c)
		}
		return s
	}
	if as.Def == nil { // D(a) = true: no branch
		yield(Result{State: next(st), Behaviour: spec.Normal})
		return
	}
	k, def := syntax.FailKind(0), true
	if st.Ghost != nil {
		_, k, def = spec.EvalKind(c.A, st.Ghost.Conc, nil)
	}
	b.errBranches(st, c, as.Def, as.Err, as.IdxErr, c.Err, c.IdxErr, next, def, k, yield)
}

// errBranches is the branching of a statement that updates the store under D and errs under
// F_div or F_idx (each when not nil): the normal result next(state under D) and the error
// leaves, in that order, handed to yield; on the ghost path, def and k say which branch the
// concrete run takes.
func (b *Interp) errBranches(st State, c syntax.Stmt, def, fdiv, fidx *sym.Formula, errDiv, errIdx *syntax.Fail,
	next func(State) State, ok bool, k syntax.FailKind, yield func(Result)) {
	okS, aOK := b.branch(st, def)
	brs, anss := []State{okS}, []answer{aOK}
	want := 0
	var errs []*syntax.Fail
	for i, f := range []*sym.Formula{fdiv, fidx} {
		if f == nil {
			continue
		}
		s, a := b.branch(st, f)
		fail := errDiv
		if i == 1 {
			fail = errIdx
		}
		if !ok && (k == syntax.FailIndex) == (i == 1) {
			want = len(brs)
		}
		brs, anss, errs = append(brs, s), append(anss, a), append(errs, fail)
	}
	if st.Ghost != nil {
		b.ghostSplit(st, c, brs, anss, want)
	}
	switch aOK {
	case keep:
		yield(Result{State: next(okS), Behaviour: spec.Normal})
	case exhausted:
		yield(cutResult(okS, c))
	}
	for i, f := range errs {
		leaf(anss[i+1], Result{State: brs[i+1], Behaviour: spec.Error, Fail: f}, c, yield)
	}
}

// arrAssign is the element assignment a[i] = e: the store with a ↦ store(S(a), S(i),
// S(e)) under D, the division and index errors under F_div and F_idx (step.ArrAssign). Coq: the
// rules E_ArrAssign, E_ArrAssignErr (Symbolic.v) are its small-step counterparts.
func (b *Interp) arrAssign(st State, c *syntax.ArrAssign, yield func(Result)) {
	as := step.ArrAssign(b.terms, c, st.Store)
	next := func(s State) State {
		s.Store = as.Store
		if s.Ghost != nil {
			slot, v, _, _ := spec.EvalArrAssign(c, s.Ghost.Conc)
			conc := make(spec.Store, len(s.Ghost.Conc))
			copy(conc, s.Ghost.Conc)
			conc[slot] = v
			s.Ghost = &Ghost{Rho: s.Ghost.Rho, Conc: conc}
			b.checkGhost(s, c)
		}
		return s
	}
	k, def := syntax.FailKind(0), true
	if st.Ghost != nil {
		_, _, k, def = spec.EvalArrAssign(c, st.Ghost.Conc)
	}
	b.errBranches(st, c, as.Def, as.Err, as.IdxErr, c.Err, c.IdxErr, next, def, k, yield)
}

// interpIf is interp_if, the conditional case of interp_stmt (assert b is if b then skip else
// fail fi): th under D(b) ∧ b, el under D(b) ∧ ¬b, Error under ¬D(b). A branch check_sat
// answers exhausted on is a cut at s; the error branch is a leaf. The results go to yield.
func (b *Interp) interpIf(st State, s syntax.Stmt, cond syntax.BExpr, th, el syntax.Stmt, err, idxErr *syntax.Fail, yield func(Result)) {
	br, ans := b.condBranches(st, s, cond, err != nil, idxErr != nil)
	for i, c := range [2]syntax.Stmt{th, el} {
		switch ans[i] {
		case keep:
			b.interpStmt(br[i], c, yield)
		case exhausted:
			yield(cutResult(br[i], s))
		}
	}
	leaf(ans[2], Result{State: br[2], Behaviour: spec.Error, Fail: err}, s, yield)
	leaf(ans[3], Result{State: br[3], Behaviour: spec.Error, Fail: idxErr}, s, yield)
}

// interpAssume is interp_assume, the assume case of interp_stmt: Normal under D(b) ∧ b,
// Infeasible under D(b) ∧ ¬b, Error under ¬D(b), each branch a leaf handed to yield.
func (b *Interp) interpAssume(st State, c *syntax.Assume, yield func(Result)) {
	br, ans := b.condBranches(st, c, c.Cond, c.Err != nil, c.IdxErr != nil)
	leaf(ans[0], Result{State: br[0], Behaviour: spec.Normal}, c, yield)
	leaf(ans[1], Result{State: br[1], Behaviour: spec.Infeasible, At: c}, c, yield)
	leaf(ans[2], Result{State: br[2], Behaviour: spec.Error, Fail: c.Err}, c, yield)
	leaf(ans[3], Result{State: br[3], Behaviour: spec.Error, Fail: c.IdxErr}, c, yield)
}

// interpLoop is interp_loop: the results of while b do p od from st when k iterations of this
// execution of the loop are done. The loop's invariant clauses, if any, are checked first, as
// asserts (clauses). Under b the loop is cut off (Incomplete) when k has reached
// the limit, and otherwise runs the body and goes on with k + 1 (interp_loop_next); under ¬b it
// exits; under ¬D(b) (the full language) it errs. A continuing branch check_sat answers
// exhausted on is a cut at the loop; the exit and error branches are leaves. A path the observer
// stops at the condition is a cut result too. The results go to yield. Coq: none (Why3 only).
func (b *Interp) interpLoop(st State, w *syntax.While, k int, yield func(Result)) {
	// Each iteration nests a call: past MaxActiveIterations the interpretation stops, with a
	// reason, before the Go stack does.
	b.active++
	defer func() { b.active-- }()
	if b.active > MaxActiveIterations {
		if b.stopped == "" {
			b.stopped = fmt.Sprintf("iteration bound reached (%d loop iterations under way on one path)", MaxActiveIterations)
		}
		yield(cutResult(st, w))
		return
	}
	if len(w.Invariants) > 0 && b.Invariant != nil {
		b.transition(st, w, yield)
		return
	}
	if len(w.Invariants) > 0 {
		b.clauses(st, w, 0, func(st State) { b.loopTest(st, w, k, yield) }, yield)
		return
	}
	b.loopTest(st, w, k, yield)
}

// clauses executes the invariant clauses of w from the i-th on, each as its assert: an arrival
// at the loop's head checks them in order before the condition ([S-While-Inv]). The Normal
// results of the last go on to cont, the others to yield. Why3: the WhileInv case of
// interp_stmt, which runs i; while b do (c; i) od: the same checks, with the same results in the
// same order (here the check at the start of iteration k > 0 is Why3's at the end of iteration
// k - 1).
func (b *Interp) clauses(st State, w *syntax.While, i int, cont func(State), yield func(Result)) {
	if i == len(w.Invariants) {
		cont(st)
		return
	}
	b.interpStmt(st, w.Invariants[i], func(r Result) {
		if r.Behaviour != spec.Normal {
			yield(r)
			return
		}
		b.clauses(r.State, w, i+1, cont, yield)
	})
}

// loopTest is interpLoop at the loop's condition (its clauses done): QuantLoop's case split, if
// any, then loopAt.
func (b *Interp) loopTest(st State, w *syntax.While, k int, yield func(Result)) {
	if qs := b.sites(w.Cond); len(qs) > 0 {
		b.quantCases(st, w, w.Cond, qs, func(st State) { b.loopAt(st, w, k, yield) }, yield)
		return
	}
	b.loopAt(st, w, k, yield)
}

// loopAt is interpLoop once the iteration bound is checked and QuantLoop's case split, if any,
// is done: the observer, then the condition's branches.
func (b *Interp) loopAt(st State, w *syntax.While, k int, yield func(Result)) {
	if b.Observer != nil && !b.Observer.At(st, w) {
		yield(Result{State: st, Behaviour: spec.Incomplete, At: w, Cut: CutObserver})
		return
	}
	br, ans := b.condBranches(st, w, w.Cond, w.Unfold.Err != nil, w.Unfold.IdxErr != nil)
	switch ans[0] {
	case exhausted:
		yield(cutResult(br[0], w))
	case keep:
		limit := b.N
		if fault.Active == fault.LoopBoundOffByOne {
			limit++
		}
		if k >= limit { // L_limit
			yield(Result{State: br[0], Behaviour: spec.Incomplete, At: w})
		} else { // L_iter, L_abrupt
			b.interpLoopNext(b.results(br[0], w.Body), w, k, yield)
		}
	}
	leaf(ans[1], Result{State: br[1], Behaviour: spec.Normal}, w, yield) // L_exit
	leaf(ans[2], Result{State: br[2], Behaviour: spec.Error, Fail: w.Unfold.Err}, w, yield)
	leaf(ans[3], Result{State: br[3], Behaviour: spec.Error, Fail: w.Unfold.IdxErr}, w, yield)
}

// interpLoopNext is interp_loop_next: after one iteration of the body, the loop again (k + 1
// iterations done) from every Normal result rs of the body; the other results are kept; all
// handed to yield in order, each result of rs dropped from the list once done with (interpSeq).
// Coq: none (Why3 only).
func (b *Interp) interpLoopNext(rs []Result, w *syntax.While, k int, yield func(Result)) {
	for i, r := range rs {
		rs[i] = Result{}
		if r.Behaviour != spec.Normal {
			yield(r)
			continue
		}
		b.interpLoop(r.State, w, k+1, yield)
	}
}
