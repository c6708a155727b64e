package engine

import (
	"fmt"
	"time"

	"certsym/internal/fault"
	"certsym/spec"
)

// BState is a symbolic state (σ | C ; ghost ρ) of the bounded interpreter (proofs/why3). σ maps
// each program variable to a term over the symbols; shadowed values are eliminated by
// substitution rather than kept as fresh existentially quantified symbols, so the only symbols
// are the inputs and ρ never needs extending. C is the constraint (a path condition).
//
// Ghost is the ghost part: nil unless the interpreter runs in ghost mode and this state is on the
// path of the ghost input. It costs one nil test per step when off.
type BState struct {
	Sigma []*Term
	C     *PC
	Ghost *Ghost
}

// Ghost is the ghost interpretation ρ of a state in ghost mode, with the concrete store of the
// execution from ρ that the state must concretize to.
type Ghost struct {
	Rho  spec.Store // the ghost interpretation: a value for each symbol (the concrete input)
	Conc spec.Store // the concrete store at this point of the execution from Rho
}

// BResult is one result state of the bounded interpreter with its behaviour, and where the
// behaviour arose: the Fail reached (Error), the Assume (Infeasible), the While cut off
// (Incomplete).
type BResult struct {
	State     BState
	Behaviour spec.Behaviour
	Fail      *spec.Fail
	At        spec.Stmt
}

// GhostError is a violated ghost assertion: the bounded interpreter's state does not concretize,
// under the ghost interpretation, to the concrete execution's. It is a defect of the engine.
type GhostError struct {
	Stmt spec.Stmt
	Msg  string
}

func (e *GhostError) Error() string { return "ghost check failed: " + e.Msg }

// Bounded is the bounded symbolic interpreter: the Go transcription of sym_interp of the Why3
// development, for the whole language, with Z3 pruning. A Bounded belongs to one goroutine.
type Bounded struct {
	Prog *spec.Program
	// N is the loop limit: each while loop may start at most N iterations each time it is entered.
	N int
	// MaxStates bounds the number of branch states created (0: none); Timeout the time; MaxMemory
	// the bytes of Go heap (0: none).
	MaxStates int
	Timeout   time.Duration
	MaxMemory uint64
	// NoPrune keeps branches whose constraint the solver proves unsatisfiable.
	NoPrune bool
	// Observer, when not nil, is told of every program point a path reaches (certsym verify);
	// nil costs one test per statement.
	Observer BObserver

	terms    *terms
	solver   *Solver
	states   int
	start    time.Time
	deadline time.Time
	polled   int // the state count at the last pollLimits
	mon      *Monitor
	heap     heapMeter
	stopped  string
	active   int // loop iterations under way on the current path (MaxActiveIterations)
	ghostErr *GhostError
	// GhostChecks counts the ghost assertions checked.
	GhostChecks int
}

// MaxActiveIterations bounds the loop iterations under way on one path of the bounded
// interpreter (the sum over the loops being executed of the iterations each has started): each
// nests a Go call, so a large loop bound on a long loop would otherwise overflow the stack.
const MaxActiveIterations = 100_000

// BObserver watches the bounded interpreter (certsym verify's hook). At is called with the state
// in which a statement starts, before any of its branches is taken: once per execution of an
// assignment, conditional, assert, assume, skip or fail, and for a while loop once per evaluation
// of its condition (each iteration and the exit). Sequences are not program points and are not
// reported. When At returns false the path is cut off there: the interpreter returns an
// Incomplete result at s instead of executing it.
type BObserver interface {
	At(st BState, s spec.Stmt) bool
}

// NewBounded creates a bounded interpreter for prog with loop limit n.
func NewBounded(prog *spec.Program, n int) *Bounded {
	b := &Bounded{Prog: prog, N: n, terms: newTerms(prog.Vars), solver: NewSolver(prog.Vars)}
	b.SetMonitor(NewMonitor())
	return b
}

// SetMonitor makes m the monitor of the interpretation: it receives the live counters (branch
// states, solver queries) and its Interrupt stops the interpretation ("interrupted").
func (b *Bounded) SetMonitor(m *Monitor) {
	b.mon = m
	b.solver.SetMonitor(m)
}

// Monitor returns the interpreter's monitor.
func (b *Bounded) Monitor() *Monitor { return b.mon }

// Solver returns the interpreter's solver.
func (b *Bounded) Solver() *Solver { return b.solver }

// Stopped says why a bound (MaxStates, Timeout, MaxMemory) cut the interpretation short, or "".
func (b *Bounded) Stopped() string { return b.stopped }

// SymInterp is sym_interp N (σ | C ; ρ) p from the initial state (id | true ; ρ): every result
// state with its behaviour. ghost, when not nil, is the concrete input ρ: the interpreter then
// runs in ghost mode and returns a *GhostError if a ghost assertion fails.
func (b *Bounded) SymInterp(ghost spec.Store) ([]BResult, error) {
	b.states, b.stopped, b.ghostErr, b.GhostChecks = 0, "", nil, 0
	b.start, b.polled, b.deadline = time.Now(), -1, time.Time{}
	if b.Timeout > 0 {
		b.deadline = b.start.Add(b.Timeout)
	}
	b.solver.Deadline = b.deadline
	init := BState{Sigma: b.terms.syms, C: rootPC(len(b.Prog.Vars))}
	if ghost != nil {
		init.Ghost = &Ghost{Rho: ghost, Conc: ghost}
	}
	rs := b.interpStmt(init, b.Prog.Body)
	if ghost != nil && b.stopped == "" {
		b.checkGhostResult(rs, ghost)
	}
	if b.ghostErr != nil {
		return rs, b.ghostErr
	}
	return rs, nil
}

// checkGhostResult is the ghost assertion on the results: exactly one result is on the ghost
// path, and it has the behaviour, the place and the store of the bounded concrete execution from
// ρ (spec.ExecBounded, the big-step semantics of the Why3 development).
func (b *Bounded) checkGhostResult(rs []BResult, rho spec.Store) {
	want := spec.ExecBounded(b.Prog, rho, b.N)
	var mine []BResult
	for _, r := range rs {
		if r.State.Ghost != nil {
			mine = append(mine, r)
		}
	}
	b.GhostChecks++
	if len(mine) != 1 {
		b.ghostFail(nil, "%d result states are on the path of the ghost input %s, want 1", len(mine), InputString(rho, b.Prog.Vars))
		return
	}
	r := mine[0]
	if r.Behaviour != want.Behaviour || r.Fail != want.Fail || r.At != want.At {
		b.ghostFail(r.At, "the ghost input %s ends %s at line %d symbolically, but %s at line %d concretely",
			InputString(rho, b.Prog.Vars), r.Behaviour, resultLine(r.Fail, r.At), want.Behaviour, resultLine(want.Fail, want.At))
		return
	}
	for i, v := range want.Store {
		if got := r.State.Sigma[i].Eval(rho); !got.Equal(v) {
			b.ghostFail(nil, "the ghost input %s ends with %s = %s symbolically, %s concretely", InputString(rho, b.Prog.Vars), b.Prog.Vars[i], got, v)
			return
		}
	}
}

func resultLine(f *spec.Fail, at spec.Stmt) int {
	if f != nil {
		return f.Line()
	}
	return spec.LineOf(at)
}

// ghostFail records the first violated ghost assertion. Once a bound has stopped the
// interpretation, branches are dropped without being refuted, so no later ghost check counts.
func (b *Bounded) ghostFail(s spec.Stmt, format string, args ...any) {
	if b.ghostErr == nil && b.stopped == "" {
		b.ghostErr = &GhostError{Stmt: s, Msg: fmt.Sprintf(format, args...)}
	}
}

// checkGhost is the ghost assertion after a step: ρ satisfies C and ρ∘σ is the concrete store.
func (b *Bounded) checkGhost(st BState, s spec.Stmt) {
	g := st.Ghost
	b.GhostChecks++
	if !st.C.Formula().Eval(g.Rho) {
		b.ghostFail(s, "at line %d the ghost interpretation %s does not satisfy the constraint %s",
			spec.LineOf(s), InputString(g.Rho, b.Prog.Vars), st.C.String(b.Prog.Vars))
		return
	}
	for i, t := range st.Sigma {
		if v := t.Eval(g.Rho); !v.Equal(g.Conc[i]) {
			b.ghostFail(s, "at line %d variable %s is %s = %s under the ghost interpretation, but %s in the concrete execution",
				spec.LineOf(s), b.Prog.Vars[i], t.String(b.Prog.Vars), v, g.Conc[i])
			return
		}
	}
}

// addConstraint is add_constraint: the state st with constraint C ∧ f. On the ghost path, the
// result keeps the ghost exactly when ρ satisfies f.
func (b *Bounded) addConstraint(st BState, f *Formula) BState {
	b.states++
	b.mon.states.Store(int64(b.states))
	out := BState{Sigma: st.Sigma, C: extend(st.C, f, len(st.Sigma))}
	if st.Ghost != nil && f.Eval(st.Ghost.Rho) {
		out.Ghost = st.Ghost
	}
	return out
}

// checkSat is check_sat, the pruning test, with the contract of the Why3 val: it answers false
// only when st's constraint has no solution (the solver proved it unsatisfiable; unknown answers
// true). It also answers false once a bound (MaxStates, Timeout, MaxMemory) has stopped the
// interpretation, which Stopped then reports: the results are incomplete, never wrong.
func (b *Bounded) checkSat(st BState) bool {
	switch {
	case b.stopped != "":
		return false
	case b.mon.halted.Load():
		b.stopped = "interrupted"
		return false
	case b.MaxStates > 0 && b.states > b.MaxStates:
		b.stopped = fmt.Sprintf("state bound reached (%d branch states)", b.MaxStates)
		return false
	case b.states&255 == 0 && b.pollLimits():
		return false
	}
	if b.NoPrune {
		return true
	}
	switch b.solver.Check(st.C) {
	case Unsat:
		if st.Ghost != nil {
			b.ghostFail(nil, "a constraint satisfied by the ghost interpretation was pruned as unsatisfiable: %s", st.C.String(b.Prog.Vars))
		}
		return false
	case Unknown:
		// The time bound cut the query short: stop here rather than keep a branch only because
		// no time was left to decide it.
		return !b.timeUp(time.Now())
	}
	return true
}

// pollLimits checks the time and memory bounds, once per 256 branch states;
// it reports whether a bound has stopped the interpretation (Stopped then says which).
func (b *Bounded) pollLimits() bool {
	if b.states == b.polled {
		return false
	}
	b.polled = b.states
	now := time.Now()
	if b.timeUp(now) {
		return true
	}
	if b.MaxMemory > 0 && b.states&4095 == 0 {
		if used := b.heap.bytes(); used > b.MaxMemory {
			b.stopped = fmt.Sprintf("memory bound reached (heap %d MiB > %d MiB, %d branch states)", used>>20, b.MaxMemory>>20, b.states)
			return true
		}
	}
	return false
}

// timeUp reports whether the time bound has passed at now, and then stops the interpretation.
func (b *Bounded) timeUp(now time.Time) bool {
	if b.deadline.IsZero() || !now.After(b.deadline) {
		return false
	}
	if b.stopped == "" {
		b.stopped = fmt.Sprintf("time bound reached (%v, %d branch states)", b.Timeout, b.states)
	}
	return true
}

// branch is add_constraint followed by check_sat, as every branching point of the Why3
// interpreter does: the state with C ∧ f, and whether it survives pruning.
func (b *Bounded) branch(st BState, f *Formula) (BState, bool) {
	out := b.addConstraint(st, f)
	return out, b.checkSat(out)
}

// ghostSplit checks, at a branching point on the ghost path, that exactly one of the branches
// keeps the ghost, and that it is the one the concrete semantics takes (want).
func (b *Bounded) ghostSplit(st BState, s spec.Stmt, branches []BState, ok []bool, want int) {
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
				b.ghostFail(s, "at line %d the ghost interpretation follows branch %d, the concrete execution branch %d", spec.LineOf(s), i, want)
			}
			if !ok[i] {
				b.ghostFail(s, "at line %d the branch of the ghost interpretation was pruned", spec.LineOf(s))
			}
		}
	}
	if n != 1 {
		b.ghostFail(s, "at line %d %d branches hold under the ghost interpretation, want exactly 1", spec.LineOf(s), n)
	}
}

// condBranches are the three branches of a condition c in st: D(c) ∧ c, D(c) ∧ ¬c, ¬D(c) (the
// last only when c divides), each made by branch (add_constraint, check_sat) on sym_bexpr σ c,
// which is S(c) here (terms.substB). On the ghost path it checks that ρ takes the branch the
// concrete execution takes.
func (b *Bounded) condBranches(st BState, s spec.Stmt, cond spec.BExpr, divides bool) (br [3]BState, ok [3]bool) {
	c := b.terms.substB(cond, st.Sigma)
	d := True
	if divides {
		d = b.terms.defined(spec.DivisorsB(cond, nil), st.Sigma)
	}
	notC := notF(c)
	if fault.Active == fault.DropElseNegation {
		notC = c
	}
	br[0], ok[0] = b.branch(st, andF(d, c))
	br[1], ok[1] = b.branch(st, andF(d, notC))
	n := 2
	if divides && fault.Active != fault.NoDivZeroBranch {
		br[2], ok[2] = b.branch(st, notF(d))
		n = 3
	}
	if st.Ghost != nil {
		want := 1
		switch v, def := spec.EvalB(cond, st.Ghost.Conc); {
		case !def:
			want = 2
		case v:
			want = 0
		}
		b.ghostSplit(st, s, br[:n], ok[:n], want)
	}
	return br, ok
}

// interpStmt is interp_stmt: the results of executing statement c from st.
func (b *Bounded) interpStmt(st BState, c spec.Stmt) []BResult {
	if b.Observer != nil {
		switch c.(type) {
		case *spec.Seq, *spec.While: // not a program point; observed in interpLoop
		default:
			if !b.Observer.At(st, c) {
				return []BResult{{State: st, Behaviour: spec.Incomplete, At: c}}
			}
		}
	}
	switch c := c.(type) {
	case *spec.Skip:
		return []BResult{{State: st, Behaviour: spec.Normal}}
	case *spec.Fail:
		return []BResult{{State: st, Behaviour: spec.Error, Fail: c}}
	case *spec.Assign:
		return b.assign(st, c)
	case *spec.Seq:
		return b.interpSeq(b.interpStmt(st, c.First), c.Second)
	case *spec.If:
		return b.interpIf(st, c, c.Cond, c.Then, c.Else, c.Err)
	case *spec.Assert:
		return b.interpIf(st, c, c.Cond, skipStmt, c.Violation, c.Err)
	case *spec.Assume:
		return b.interpAssume(st, c)
	case *spec.While:
		return b.interpLoop(st, c, 0)
	}
	panic(fmt.Sprintf("engine: unknown statement %T", c))
}

// interpSeq is interp_seq: c2 run from every Normal result of the first statement; the other
// results are kept.
func (b *Bounded) interpSeq(rs []BResult, c2 spec.Stmt) []BResult {
	var out []BResult
	for _, r := range rs {
		if r.Behaviour != spec.Normal {
			out = append(out, r)
			continue
		}
		out = append(out, b.interpStmt(r.State, c2)...)
	}
	return out
}

// assign is assign, with the division error of the full language: σ[x ↦ S(a)] under D(a), Error
// under ¬D(a). The Why3 assign binds x to a fresh symbol v with the constraint v = sym_aexpr σ a
// and extends ρ with v's value; here the shadowed value is eliminated by substitution instead
// (S(a) is sym_aexpr), so ρ needs no extension and the ghost check is ρ∘σ against the concrete
// store, as in the Why3 postcondition of assign.
func (b *Bounded) assign(st BState, c *spec.Assign) []BResult {
	t := b.terms.subst(c.A, st.Sigma)
	if t.huge() { // MaxIntBits: a resource bound, the path is dropped and Stopped says why
		if b.stopped == "" {
			b.stopped = hugeReason(c)
		}
		return nil
	}
	sigma := make([]*Term, len(st.Sigma))
	copy(sigma, st.Sigma)
	sigma[c.X.Index] = t
	if k, isConst := t.IsConst(); isConst && k.IsZero() && fault.Active == fault.LostStoreUpdate {
		sigma[c.X.Index] = st.Sigma[c.X.Index]
	}
	next := func(s BState) BState {
		s.Sigma = sigma
		if s.Ghost != nil {
			v, _ := spec.Eval(c.A, s.Ghost.Conc)
			conc := make(spec.Store, len(s.Ghost.Conc))
			copy(conc, s.Ghost.Conc)
			conc[c.X.Index] = v
			s.Ghost = &Ghost{Rho: s.Ghost.Rho, Conc: conc}
			b.checkGhost(s, c)
		}
		return s
	}
	if c.Err == nil || fault.Active == fault.NoDivZeroBranch {
		return []BResult{{State: next(st), Behaviour: spec.Normal}}
	}
	d := b.terms.defined(spec.DivisorsA(c.A, nil), st.Sigma)
	var out []BResult
	okS, ok := b.branch(st, d)
	errS, okErr := b.branch(st, notF(d))
	if st.Ghost != nil {
		want := 0
		if _, def := spec.Eval(c.A, st.Ghost.Conc); !def {
			want = 1
		}
		b.ghostSplit(st, c, []BState{okS, errS}, []bool{ok, okErr}, want)
	}
	if ok {
		out = append(out, BResult{State: next(okS), Behaviour: spec.Normal})
	}
	if okErr {
		out = append(out, BResult{State: errS, Behaviour: spec.Error, Fail: c.Err})
	}
	return out
}

// interpIf is the conditional case of interp_stmt (assert b is if b then skip else fail fi).
func (b *Bounded) interpIf(st BState, s spec.Stmt, cond spec.BExpr, th, el spec.Stmt, err *spec.Fail) []BResult {
	br, ok := b.condBranches(st, s, cond, err != nil)
	var out []BResult
	if ok[0] {
		out = append(out, b.interpStmt(br[0], th)...)
	}
	if ok[1] {
		out = append(out, b.interpStmt(br[1], el)...)
	}
	if ok[2] {
		out = append(out, BResult{State: br[2], Behaviour: spec.Error, Fail: err})
	}
	return out
}

// interpAssume is the assume case of interp_stmt: Normal under D(b) ∧ b, Infeasible under
// D(b) ∧ ¬b, Error under ¬D(b).
func (b *Bounded) interpAssume(st BState, c *spec.Assume) []BResult {
	br, ok := b.condBranches(st, c, c.Cond, c.Err != nil)
	var out []BResult
	if ok[0] {
		out = append(out, BResult{State: br[0], Behaviour: spec.Normal})
	}
	if ok[1] {
		out = append(out, BResult{State: br[1], Behaviour: spec.Infeasible, At: c})
	}
	if ok[2] {
		out = append(out, BResult{State: br[2], Behaviour: spec.Error, Fail: c.Err})
	}
	return out
}

// interpLoop is interp_loop: the results of while b do p od from st when k iterations of this
// execution of the loop are done. Under b the loop is cut off (Incomplete) when k has reached
// the limit, and otherwise runs the body and goes on with k + 1 (interp_loop_next); under ¬b it
// exits; under ¬D(b) (the full language) it errs.
func (b *Bounded) interpLoop(st BState, w *spec.While, k int) []BResult {
	// Each iteration nests a call: past MaxActiveIterations the interpretation stops, with a
	// reason, before the Go stack does.
	b.active++
	defer func() { b.active-- }()
	if b.active > MaxActiveIterations {
		if b.stopped == "" {
			b.stopped = fmt.Sprintf("iteration bound reached (%d loop iterations under way on one path)", MaxActiveIterations)
		}
		return nil
	}
	if b.Observer != nil && !b.Observer.At(st, w) {
		return []BResult{{State: st, Behaviour: spec.Incomplete, At: w}}
	}
	br, ok := b.condBranches(st, w, w.Cond, w.Unfold.Err != nil)
	var out []BResult
	if ok[0] {
		limit := b.N
		if fault.Active == fault.LoopBoundOffByOne {
			limit++
		}
		if k >= limit { // L_limit
			out = append(out, BResult{State: br[0], Behaviour: spec.Incomplete, At: w})
		} else { // L_iter, L_abrupt
			out = b.interpLoopNext(b.interpStmt(br[0], w.Body), w, k)
		}
	}
	if ok[1] { // L_exit
		out = append(out, BResult{State: br[1], Behaviour: spec.Normal})
	}
	if ok[2] {
		out = append(out, BResult{State: br[2], Behaviour: spec.Error, Fail: w.Unfold.Err})
	}
	return out
}

// interpLoopNext is interp_loop_next: after one iteration of the body, the loop again (k + 1
// iterations done) from every Normal result; the other results are kept.
func (b *Bounded) interpLoopNext(rs []BResult, w *spec.While, k int) []BResult {
	var out []BResult
	for _, r := range rs {
		if r.Behaviour != spec.Normal {
			out = append(out, r)
			continue
		}
		out = append(out, b.interpLoop(r.State, w, k+1)...)
	}
	return out
}
