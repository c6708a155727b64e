package prove

import (
	"fmt"
	"strings"

	"certsym/engine"
	"certsym/havoc"
	"certsym/internal/budget"
	"certsym/pathcond"
	"certsym/solver"
	"certsym/spec"
	"certsym/spec/integer"
	"certsym/spec/syntax"
	"certsym/sym"
)

// DefaultReplaySteps bounds the concrete runs that replay a counterexample (Options.ReplaySteps).
const DefaultReplaySteps = 1 << 22

// replaySteps is the bound of the attempt's replays.
func (a *attempt) replaySteps() int {
	if a.opts.ReplaySteps > 0 {
		return a.opts.ReplaySteps
	}
	return DefaultReplaySteps
}

// attempt is the state of one proof attempt.
type attempt struct {
	prog *syntax.Program
	ls   *loops
	opts Options
	mon  *budget.Monitor
	sy   *havoc.Layout
	res  *Result
	// ctiState is the error state of the first counterexample to induction, for its pre-state's
	// reachability.
	cti *CTI
}

// newChain builds the solver chain of the attempt's symbols, bounded as the options say.
func (a *attempt) newChain() *solver.Chain {
	c := solver.New(a.sy.Ext, solver.Options{})
	c.SetLimits(a.opts.Limits, a.mon.Deadline())
	c.SetMonitor(a.mon)
	return c
}

// run is Check's attempt: the proof mode's execution, then, when it did not prove the program,
// the searches for a refutation and for a reachable pre-state of the counterexample to
// induction.
func run(prog *syntax.Program, ls *loops, opts Options) *Result {
	a := &attempt{prog: prog, ls: ls, opts: opts, mon: opts.Monitor, res: &Result{Loops: ls.invariants()}}
	a.sy = havoc.NewLayout(prog, ls.sets(), max(1, ls.generations(prog.Body, opts.Unroll)))
	chain := a.newChain()
	x := &exec{sy: a.sy, ls: ls, chain: chain, transition: true, unroll: opts.Unroll, stats: &a.res.Stats, cut: map[*syntax.While]bool{},
		onTransition: opts.OnTransition}
	stopped := a.explore(x)
	a.res.Stopped = stopped
	a.res.Stats.Queries += chain.Stats.Queries
	chain.Close()
	for _, w := range x.cutOrder {
		a.res.Unbounded = append(a.res.Unbounded, w.Pos())
	}
	r := a.res
	if r.Answer == Refuted {
		return r
	}
	if stopped == "" && len(r.Failures) == 0 && len(r.Unbounded) == 0 && !x.gensOut {
		r.Answer = Proved
		return r
	}
	var why []string
	if stopped != "" {
		why = append(why, stopped)
	}
	if a.cti != nil {
		why = append(why, fmt.Sprintf("the invariant of the loop at %s is not inductive: clause %s (at %s) can break in one iteration", at(a.cti.Loop), a.cti.Clause, at(a.cti.At)))
	}
	for _, f := range r.Failures {
		if f.Claim == PreservationClaim && a.cti != nil {
			continue
		}
		why = append(why, f.Reason)
		break
	}
	for _, p := range r.Unbounded {
		why = append(why, fmt.Sprintf("the loop at %s has no invariant: unrolled %d times, a path goes further, so no answer can be proved", at(p), opts.Unroll))
	}
	if x.gensOut {
		why = append(why, "too many fresh symbols for the loops' havocs on one path")
	}
	r.Reason = strings.Join(why, "; ")
	if !opts.NoSearch && a.mon.Stop() == "" && (len(r.Failures) > 0 || len(r.Unbounded) > 0 || x.gensOut) {
		if b := a.searchBug(); b != nil {
			r.Answer, r.Bug, r.Reason = Refuted, b, ""
			return r
		}
		if a.mon.Stop() == "" {
			r.Reason += fmt.Sprintf("; the bug finder found no input that reaches an error within %d states", opts.ReachStates)
		}
	}
	if a.cti != nil && !opts.NoSearch && a.mon.Stop() == "" {
		a.reach(a.cti)
	} else if a.cti != nil {
		a.cti.Why = "not searched"
	}
	r.CTI = a.cti
	return r
}

// at formats a position as line:col.
func at(p syntax.Pos) string { return fmt.Sprintf("%d:%d", p.Line, p.Col) }

// explore runs x breadth-first from the initial state, classifying each error state. It
// returns why it stopped early ("" when every path ended).
func (a *attempt) explore(x *exec) string {
	init := &state{pc: x.chain.Root(a.sy.Terms.Slots()), store: a.sy.Terms.Syms(), k: &kont{s: a.prog.Body}}
	if f := init.errorOf(); f != nil { // a program that starts with fail
		a.classify(x.chain, init, f)
		return ""
	}
	queue := []*state{init}
	var buf []*state
	for len(queue) > 0 {
		if r := a.mon.Stop(); r != "" {
			return r
		}
		if a.opts.MaxStates > 0 && a.res.Stats.States >= a.opts.MaxStates {
			return fmt.Sprintf("state bound reached (%d states)", a.res.Stats.States)
		}
		st := queue[0]
		queue[0] = nil
		queue = queue[1:]
		a.res.Stats.States++
		a.mon.SetStates(a.res.Stats.States)
		a.mon.SetPending(len(queue))
		a.mon.SetDepth(st.depth)
		buf = x.expand(st, buf[:0])
		for _, s := range buf {
			if f := s.errorOf(); f != nil {
				if a.classify(x.chain, s, f) {
					return ""
				}
				continue
			}
			if s.pc != st.pc && x.chain.Check(s.pc) == pathcond.Unsat {
				continue
			}
			if !s.final() {
				queue = append(queue, s)
			}
		}
		clear(buf)
	}
	return ""
}

// classify decides the error state s (its Fail f): nothing when its path condition is
// unsatisfiable; a refutation when its counterexample replays from the program's start (it
// reports true: the attempt ends); a failure of the proof otherwise.
func (a *attempt) classify(chain *solver.Chain, s *state, f *syntax.Fail) bool {
	switch chain.Check(s.pc) {
	case pathcond.Unsat:
		return false
	case pathcond.Unknown:
		a.res.Failures = append(a.res.Failures, a.failure(s, f,
			fmt.Sprintf("the solver could not decide the %s at %s (%s)", describe(f, s.claim), at(f.Pos()), s.pc.Reason)))
		return false
	}
	w := s.pc.Witness
	input := spec.Store(append([]integer.Int(nil), w[:a.prog.Slots()]...))
	if b := a.replay(input); b != nil {
		b.Claim, b.Found = s.claim, "proof"
		a.res.Answer, a.res.Bug = Refuted, b
		return true
	}
	why := fmt.Sprintf("the %s at %s fails but its counterexample does not replay within %d steps", describe(f, s.claim), at(f.Pos()), a.replaySteps())
	if s.over {
		why = fmt.Sprintf("the %s at %s fails in a state the invariant transition over-approximates (the invariants may be too weak to show it), and its counterexample does not replay", describe(f, s.claim), at(f.Pos()))
	}
	a.res.Failures = append(a.res.Failures, a.failure(s, f, why))
	if s.claim == PreservationClaim && a.cti == nil && s.fr != nil {
		a.cti = a.makeCTI(s, f, w)
	}
	return false
}

// failure is the failed claim of the error state s (its Fail f), with its clause when it is an
// entry or preservation claim.
func (a *attempt) failure(s *state, f *syntax.Fail, why string) Failure {
	fl := Failure{Fail: f, Claim: s.claim, Over: s.over, Reason: why, Clause: -1}
	if s.claim == EntryClaim || s.claim == PreservationClaim {
		if r, ok := a.ls.clauseOf[f]; ok {
			fl.Loop, fl.Clause = r.loop, r.i
		}
	}
	return fl
}

// describe names a failed claim.
func describe(f *syntax.Fail, c Claim) string {
	switch c {
	case EntryClaim:
		return "entry claim of the invariant clause"
	case PreservationClaim:
		return "preservation claim of the invariant clause"
	}
	return fmt.Sprintf("%s claim", f.Kind)
}

// makeCTI is the counterexample to induction of the error state s of a preservation claim
// under the model w: the havocked store the body started from and the store after it.
func (a *attempt) makeCTI(s *state, f *syntax.Fail, w []integer.Int) *CTI {
	li := s.fr.loop
	c := &CTI{Loop: li.w.Pos()}
	for _, cl := range li.clauses {
		if cl.Violation == f || cl.Err == f || cl.IdxErr == f {
			c.Clause, c.At = syntax.PrintB(cl.Cond), cl.Pos()
		}
	}
	n := a.prog.Slots()
	c.Pre = spec.Store(a.sy.Terms.Concretize(s.fr.pre, w)[:n])
	c.Post = spec.Store(a.sy.Terms.Concretize(s.store, w)[:n])
	return c
}

// replay runs the program concretely from the input and returns the bug it reaches, or nil: an
// error of the program, or a clause given beside the program that is false (or fails) when the
// run arrives at its loop's head.
func (a *attempt) replay(input spec.Store) *Bug {
	givenAt := map[syntax.Stmt]*loopInfo{}
	for _, li := range a.ls.order {
		for _, g := range li.given {
			if g {
				givenAt[li.arrival] = li
				break
			}
		}
	}
	st := spec.State{Store: append(spec.Store(nil), input...), Prog: a.prog.Body}
	for n, bound := 0, a.replaySteps(); n < bound; n++ {
		if n&1023 == 1023 && a.mon.Stop() != "" {
			return nil
		}
		if li := givenAt[spec.Head(st.Prog)]; li != nil {
			for i, cl := range li.clauses {
				if !li.given[i] {
					continue
				}
				v, kind, ok := spec.EvalBKind(cl.Cond, st.Store, nil)
				switch {
				case !ok:
					return &Bug{Fail: spec.FailFor(kind, cl.Err, cl.IdxErr), Input: input, Steps: n}
				case !v:
					return &Bug{Fail: cl.Violation, Input: input, Steps: n}
				}
			}
		}
		next, out := spec.Step(st)
		switch out {
		case spec.Failed:
			return &Bug{Fail: spec.IsError(st.Prog), Input: input, Steps: n}
		case spec.Final, spec.Blocked:
			return nil
		}
		st = next
	}
	return nil
}

// searchBug is the bug finder's search for an input that reaches an error, within
// opts.ReachStates states: the refutation of a program the proof could not prove.
func (a *attempt) searchBug() *Bug {
	lim := a.opts.Limits
	lim.MaxStates = a.opts.ReachStates
	eng := engine.New(a.prog, engine.Options{Limits: lim, Monitor: a.mon})
	defer eng.Close()
	rep, err := eng.FindBugs(nil)
	a.res.Stats.Queries += eng.Solver().Stats.Queries
	if err != nil || len(rep.Bugs) == 0 {
		return nil
	}
	b := rep.Bugs[0]
	return &Bug{Fail: b.Fail, Input: b.Input, Steps: b.Replay.Steps, Claim: ProgramClaim, Found: "search"}
}

// reach searches for a run from the program's start that arrives at the loop's head with the
// counterexample's pre-state: the symbolic execution of the concrete semantics (every loop
// unrolled), within opts.ReachStates states, asking at each arrival whether the store can equal
// the pre-state; an input found is confirmed by a concrete run.
func (a *attempt) reach(c *CTI) {
	li := a.ls.inv[a.loopAt(c.Loop)]
	chain := a.newChain()
	defer chain.Close()
	x := &exec{sy: a.sy, ls: a.ls, chain: chain, stats: &Stats{}, cut: map[*syntax.While]bool{}}
	ts := a.sy.Terms
	n := ts.Slots()
	init := &state{pc: chain.Root(n), store: a.sy.Terms.Syms(), k: &kont{s: a.prog.Body}}
	queue := []*state{init}
	var buf []*state
	expanded := 0
	defer func() { a.res.Stats.Queries += chain.Stats.Queries }()
	for len(queue) > 0 && expanded < a.opts.ReachStates {
		if a.mon.Stop() != "" {
			c.Why = "the search for a run reaching the pre-state was stopped: " + a.mon.Stop()
			return
		}
		st := queue[0]
		queue[0] = nil
		queue = queue[1:]
		expanded++
		if st.k.head().s == li.arrival {
			pc := pathcond.Extend(st.pc, a.equals(st.store, c.Pre), n)
			if chain.Check(pc) == pathcond.Sat {
				in := spec.Store(append([]integer.Int(nil), pc.Witness[:a.prog.Slots()]...))
				if a.arrives(in, li.arrival, c.Pre) {
					c.Reachable, c.ReachInput = true, in
					return
				}
			}
		}
		buf = x.expand(st, buf[:0])
		for _, s := range buf {
			if s.errorOf() != nil || s.final() {
				continue
			}
			if s.pc != st.pc && chain.Check(s.pc) == pathcond.Unsat {
				continue
			}
			queue = append(queue, s)
		}
		clear(buf)
	}
	if len(queue) == 0 {
		c.Why = fmt.Sprintf("no run arrives at the loop's head with the pre-state (every path explored, %d states)", expanded)
		return
	}
	c.Why = fmt.Sprintf("no run found arriving at the loop's head with the pre-state within %d states: only a proof failure", expanded)
}

// loopAt returns the loop with clauses at position p.
func (a *attempt) loopAt(p syntax.Pos) *syntax.While {
	for w := range a.ls.inv {
		if w.Pos() == p {
			return w
		}
	}
	return nil
}

// equals is the formula "the store s is the concrete store v" (its variables and elements).
func (a *attempt) equals(s []*sym.Term, v spec.Store) *sym.Formula {
	ts := a.sy.Terms
	var fs []*sym.Formula
	for i := range a.prog.Vars {
		fs = append(fs, sym.Pred(sym.FEq, sym.Sub(s[i], sym.Const(v[i]))))
	}
	for k, arr := range a.prog.Arrays {
		t := s[len(a.prog.Vars)+k].ArrayValue()
		for j := arr.Lo; j <= arr.Hi; j++ {
			e := ts.Select(t, sym.Const(integer.Of(j)))
			fs = append(fs, sym.Pred(sym.FEq, sym.Sub(e, sym.Const(v[arr.Offset+int(j-arr.Lo)]))))
		}
	}
	return sym.And(fs...)
}

// arrives reports whether the concrete run from the input arrives at the statement with the
// store pre.
func (a *attempt) arrives(input spec.Store, arrival syntax.Stmt, pre spec.Store) bool {
	st := spec.State{Store: append(spec.Store(nil), input...), Prog: a.prog.Body}
	for n, bound := 0, a.replaySteps(); n < bound; n++ {
		if spec.Head(st.Prog) == arrival && sameStore(st.Store, pre) {
			return true
		}
		next, out := spec.Step(st)
		if out != spec.Stepped {
			return false
		}
		st = next
	}
	return false
}

func sameStore(a, b spec.Store) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !a[i].Equal(b[i]) {
			return false
		}
	}
	return true
}
