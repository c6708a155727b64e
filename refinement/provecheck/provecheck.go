// Package provecheck is the refinement layer's check of certsym prove (package prove): the
// invariant transition's exhaustiveness, sampled, and the answers' soundness. On each program it
// runs the proof twice: with the loops' own clauses, and with the clause true given for every
// loop (so that the loops of generated programs, which carry no clauses, go through the
// transition too: every variable and array their body may assign is then havocked). Then:
//
//   - prove/exhaustive, prove/exhaustive-store: for each application of the transition, for
//     concrete stores that satisfy its path condition (its model, and random valuations that
//     satisfy it), the concrete run of the loop from that store (the concrete semantics, spec)
//     is covered by a successor: when it ends normally, the exit successor's path condition
//     holds under the valuation V' that differs from the store's on the fresh symbols only
//     (Transition.Fresh, with the store of the run's last arrival at the loop's head), and its
//     store evaluates to the run's final store; when the loop's condition fails, the condition
//     error successor of that kind holds under V' of that arrival; when the body fails, the body
//     successor holds under V' of the arrival the failing iteration started from. A run on
//     which a clause is false at some arrival is a claim's failure, which the rule allows; such
//     runs are not checked. Never precision: that a successor's stores are all reached is not
//     asked (they are not).
//   - prove/exit-invariant: the exit successor assumes the clauses: no model of its path
//     condition breaks one in its store (asked of the model and the sampled valuations).
//   - prove/proved-safe: for a program proved, random concrete runs (spec.RunFastLimited) all
//     end without error (Runs of them).
//   - prove/refuted-replays: a refutation's input reaches, on the concrete semantics, the error
//     it names.
package provecheck

import (
	"fmt"
	"time"

	"certsym/internal/budget"
	"certsym/pathcond"
	"certsym/prove"
	"certsym/refinement/checker"
	"certsym/spec"
	"certsym/spec/integer"
	"certsym/spec/syntax"
)

// The budget of one program's check.
const (
	Runs        = 2000   // random concrete runs of a proved program
	RunSteps    = 20000  // steps of each of them
	LoopSteps   = 100000 // steps of a concrete run of one loop
	Samples     = 24     // random valuations tried per transition (those satisfying its path condition are checked)
	MaxTime     = 6 * time.Second
	ReachStates = 300 // prove.Options.ReachStates
)

// Oracle is the check of one program.
type Oracle struct {
	Prog *syntax.Program
	// Random draws a random valuation of the program's flat store.
	Random func() []integer.Int
	// Report records a mismatch of check under input v (nil: none).
	Report func(check string, v []integer.Int, format string, args ...any)
	// Expired says when to stop.
	Expired func() bool
	// Limits bound each proof attempt.
	Limits budget.Limits

	// Transitions, Loops and Proved count the transitions checked, the concrete runs of loops
	// compared with them and the programs proved.
	Transitions, Loops, Proved int
}

// Run is the check of the current unit of c.
func Run(c *checker.Checker) {
	deadline := time.Now().Add(c.Left(2*MaxTime) / 2)
	o := &Oracle{Prog: c.U.Prog, Random: c.RandomValuation,
		Expired: func() bool { return c.Expired() || time.Now().After(deadline) },
		Limits:  budget.Limits{MaxStates: 20000, Timeout: time.Until(deadline), QueryTimeout: 2 * time.Second, RLimit: c.Cfg.EngineRLimit},
		Report: func(check string, v []integer.Int, format string, args ...any) {
			in := ""
			if v != nil {
				in = c.InputString(v)
			}
			c.Report(check, in, -1, format, args...)
		}}
	o.Check()
	c.Sum.ProveTransitions += o.Transitions
	c.Sum.ProveLoopRuns += o.Loops
	c.Sum.Proved += o.Proved
}

// Check runs both proofs of the program and checks them.
func (o *Oracle) Check() {
	o.attempt(nil)
	if o.Expired() {
		return
	}
	all := prove.Invariants{}
	syntax.Inspect(o.Prog.Body, func(n syntax.Node) bool {
		if w, ok := n.(*syntax.While); ok {
			all[w.Pos()] = prove.Clauses{Conds: []syntax.BExpr{&syntax.BoolLit{P: w.Pos(), Val: true}}}
		}
		return true
	})
	if len(all) > 0 {
		o.attempt(all)
	}
}

// attempt runs one proof with the clauses inv and checks its transitions and its answer.
func (o *Oracle) attempt(inv prove.Invariants) {
	opts := prove.Options{Limits: o.Limits, ReachStates: ReachStates, OnTransition: o.transition}
	res, err := prove.Check(o.Prog, inv, opts)
	if err != nil {
		o.Report("prove/error", nil, "prove.Check: %v", err)
		return
	}
	switch res.Answer {
	case prove.Proved:
		o.Proved++
		o.provedSafe()
	case prove.Refuted:
		b := res.Bug
		r := spec.Run(o.Prog, b.Input, b.Steps+1)
		given := b.Fail.Kind == syntax.FailInvariant && !inProgram(o.Prog, b.Fail)
		if !given && (r.Outcome != spec.Failed || r.Fail != b.Fail) {
			o.Report("prove/refuted-replays", b.Input, "refuted at %d:%d (%s), but the concrete run ends %v at %v", b.Fail.Pos().Line, b.Fail.Pos().Col, b.Fail.Kind, r.Outcome, failPos(r.Fail))
		}
	}
}

// inProgram reports whether f is a Fail of the program (not of a clause given beside it).
func inProgram(p *syntax.Program, f *syntax.Fail) bool {
	found := false
	syntax.Inspect(p.Body, func(n syntax.Node) bool {
		if a, ok := n.(*syntax.Assert); ok && (a.Violation == f || a.Err == f || a.IdxErr == f) {
			found = true
		}
		return !found
	})
	return found
}

func failPos(f *syntax.Fail) string {
	if f == nil {
		return "no error"
	}
	return fmt.Sprintf("%d:%d (%s)", f.Pos().Line, f.Pos().Col, f.Kind)
}

// provedSafe runs random inputs of a proved program: none may reach an error.
func (o *Oracle) provedSafe() {
	for i := 0; i < Runs && !o.Expired(); i++ {
		in := o.Random()
		r := spec.RunFastLimited(o.Prog, append(spec.Store(nil), in...), spec.Limits{Steps: RunSteps, Instances: 1 << 16})
		if r.Outcome == spec.Failed {
			o.Report("prove/proved-safe", in, "proved, but the concrete run of this input reaches an error at %s after %d steps", failPos(r.Fail), r.Steps)
			return
		}
	}
}

// transition checks one application of the transition on sampled concrete stores.
func (o *Oracle) transition(t *prove.Transition) {
	if o.Expired() {
		return
	}
	o.Transitions++
	var vals [][]integer.Int
	if t.PC.Status == pathcond.Sat && t.PC.Witness != nil {
		vals = append(vals, t.PC.Witness)
	}
	f := t.PC.Formula()
	n := t.Terms.Slots()
	for i := 0; i < Samples; i++ {
		v := make([]integer.Int, n)
		copy(v, o.Random())
		if len(vals) > 0 { // the symbols beyond the program's: the model's values
			copy(v[t.Slots:], vals[0][t.Slots:])
		}
		if ok, defined := f.EvalOK(v); ok && defined {
			vals = append(vals, v)
		}
	}
	for _, v := range vals {
		if o.Expired() {
			return
		}
		o.exitInvariant(t, v)
		o.loopRun(t, v)
	}
}

// exitInvariant: under a valuation of the exit's path condition, the clauses hold in its store.
func (o *Oracle) exitInvariant(t *prove.Transition, v []integer.Int) {
	pc := t.Exit.PC.Formula()
	if ok, def := pc.EvalOK(v); !ok || !def {
		return
	}
	s := spec.Store(t.Terms.Concretize(t.Exit.Store, v)[:t.Slots])
	for _, c := range t.Clauses {
		if val, _, ok := spec.EvalBKind(c.Cond, s, nil); !ok || !val {
			o.Report("prove/exit-invariant", v[:t.Slots], "the exit successor of the loop at %d:%d admits a store where the clause %s does not hold: %s",
				t.Loop.Pos().Line, t.Loop.Pos().Col, syntax.PrintB(c.Cond), spec.StoreString(o.Prog, s))
			return
		}
	}
}

// loopRun runs the loop concretely from the store of v and requires a successor to cover it.
func (o *Oracle) loopRun(t *prove.Transition, v []integer.Int) {
	s0 := spec.Store(t.Terms.Concretize(t.Store, v)[:t.Slots])
	st := spec.State{Store: append(spec.Store(nil), s0...), Prog: t.Loop}
	var last spec.Store // the store of the last arrival at the loop's head
	for n := 0; n < LoopSteps; n++ {
		if spec.Head(st.Prog) == t.Arrival {
			for _, c := range t.Clauses {
				if val, _, ok := spec.EvalBKind(c.Cond, st.Store, nil); !ok || !val {
					return // a claim fails: allowed by the rule, not checked here
				}
			}
			last = append(spec.Store(nil), st.Store...)
		}
		next, out := spec.Step(st)
		switch out {
		case spec.Final:
			o.Loops++
			o.covered(t, "exit", t.Exit, v, last, st.Store)
			return
		case spec.Failed:
			f := spec.IsError(st.Prog)
			if last == nil {
				return // an entry claim's failure (a clause of the source)
			}
			o.Loops++
			for _, e := range t.CondErr {
				if e.Fail == f {
					o.covered(t, "condition error", e, v, last, nil)
					return
				}
			}
			if isClause(t, f) {
				return // a preservation claim's failure
			}
			o.covered(t, "body", t.Body, v, last, nil)
			return
		case spec.Blocked:
			if last != nil {
				o.Loops++
				o.covered(t, "body", t.Body, v, last, nil)
			}
			return
		}
		st = next
	}
}

// isClause reports whether f is the Fail of one of the transition's clauses.
func isClause(t *prove.Transition, f *syntax.Fail) bool {
	for _, c := range t.Clauses {
		if c.Violation == f || c.Err == f || c.IdxErr == f {
			return true
		}
	}
	return false
}

// covered requires the successor's path condition to hold under V' (v with the fresh symbols
// set from the arrival store at) and, when end is not nil, its store to evaluate to end.
func (o *Oracle) covered(t *prove.Transition, kind string, s prove.Successor, v []integer.Int, at, end spec.Store) {
	w := t.Fresh(v, at)
	if ok, def := s.PC.Formula().EvalOK(w); !def || !ok {
		o.Report("prove/exhaustive", v[:t.Slots], "the concrete run of the loop at %d:%d from %s ends (%s) from the arrival %s, which the %s successor's path condition excludes",
			t.Loop.Pos().Line, t.Loop.Pos().Col, spec.StoreString(o.Prog, spec.Store(v[:t.Slots])), kind, spec.StoreString(o.Prog, at), kind)
		return
	}
	if end == nil {
		return
	}
	got := spec.Store(t.Terms.Concretize(s.Store, w)[:t.Slots])
	for i := range got {
		if !got[i].Equal(end[i]) {
			o.Report("prove/exhaustive-store", v[:t.Slots], "the concrete run of the loop at %d:%d ends in %s, the exit successor's store is %s under the same values",
				t.Loop.Pos().Line, t.Loop.Pos().Col, spec.StoreString(o.Prog, end), spec.StoreString(o.Prog, got))
			return
		}
	}
}
