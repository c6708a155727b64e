package refinement

import (
	"fmt"
	"time"

	"certsym/bounded"
	"certsym/spec"
	"certsym/spec/integer"
	"certsym/sym"
)

// The checks of the bounded interpreter (bounded.Interp, the transcription of the Why3
// sym_interp). Its oracle for the loop limit is spec.ExecBounded (the big-step semantics with
// loop limit of the Why3 development); the reference, which has no loop limit, checks the
// stores and behaviours of the results that did not hit the limit.

// boundedMaxStates bounds the branch states of each bounded run (a variable so that a test can
// stop runs early).
var boundedMaxStates = 600

// boundedRefSteps bounds the reference runs the bounded checks compare results with.
const boundedRefSteps = 400

func behaviourKind(b spec.Behaviour) string {
	switch b {
	case spec.Normal:
		return "final"
	case spec.Error:
		return "error"
	case spec.Infeasible:
		return "stuck"
	}
	return "incomplete"
}

func (c *checker) sigmaString(sigma []*sym.Term) string { return sym.StoreString(sigma, c.slots) }

func (c *checker) resultString(r bounded.Result) string {
	return fmt.Sprintf("%s result ⟨%s | %s⟩", r.Behaviour, r.State.PC.String(c.slots), c.sigmaString(r.State.Store))
}

// sameStore reports whether σ(v) is the store s.
func sameStore(sigma []*sym.Term, v []integer.Int, s spec.Store) bool {
	for i, t := range sigma {
		if a := t.ArrayValue(); a != nil { // an array (issue 13): element by element
			arr := a.Arr
			for j := arr.Lo; j <= arr.Hi; j++ {
				if k := arr.Offset + int(j-arr.Lo); k >= len(s) || !arrayRead(a, integer.Of(j), v).Equal(s[k]) {
					return false
				}
			}
			continue
		}
		if !t.Eval(v).Equal(s[i]) {
			return false
		}
	}
	return true
}

// refEnd runs the reference from v to the end of the run (at most maxSteps steps); ok is false
// when the run is longer.
func (c *checker) refEnd(v []integer.Int, maxSteps int) (kind string, last refState, ok bool, err error) {
	t := c.traceTo(v, maxSteps)
	if t.err != nil {
		return "", refState{}, false, t.err
	}
	if t.end == "" || t.end == cutRun {
		return "", refState{}, false, nil
	}
	return t.end, t.states[len(t.states)-1], true, nil
}

func (c *checker) boundedChecks() {
	n := c.cfg.BoundedN
	b := bounded.New(c.u.Prog, n)
	b.MaxStates, b.Timeout = boundedMaxStates, c.left(4*time.Second)
	b.RLimit, b.QueryTimeout = c.cfg.EngineRLimit, c.cfg.EngineTimeout
	rs, err := b.SymInterp(nil)
	if err != nil {
		c.report("bounded/ghost", "", -1, "symbolic interpretation without ghost: %v", err)
		return
	}
	complete := b.Stopped() == ""
	// Precision: each result's model has that behaviour, at that place, with that store, in the
	// bounded semantics; and, when the limit was not hit, on the reference.
	for i, r := range rs {
		if i >= 3*c.cfg.PreciseStates || c.expired() {
			break
		}
		if r.Cut == bounded.CutBudget {
			// A path a budget stopped (Why3's Stopped) says nothing of how its inputs end; its
			// inputs are checked below, by the exhaustiveness of a stopped run.
			continue
		}
		v, ok := c.model(r.State.PC)
		if !ok {
			continue
		}
		c.sum.BoundedResults++
		in := c.inputString(v)
		want := spec.ExecBounded(c.u.Prog, v, n)
		if want.Behaviour != r.Behaviour || want.Fail != r.Fail || want.At != r.At || !sameStore(r.State.Store, v, want.Store) {
			c.report("bounded/precise", in, -1, "imprecise: the model of the %s ends %s with store %s in the bounded semantics (loop limit %d)",
				c.resultString(r), want.Behaviour, c.inputString(want.Store), n)
			continue
		}
		if r.Behaviour == spec.Incomplete {
			continue
		}
		kind, last, ok, err := c.refEnd(v, boundedRefSteps)
		if err != nil {
			c.report("reference", in, -1, "%v", err)
			return
		}
		if !ok {
			continue
		}
		if kind != behaviourKind(r.Behaviour) || !c.refStoreIs(last, r.State.Store, v) {
			c.report("bounded/precise", in, -1, "imprecise: the model of the %s ends %s at %s on the reference",
				c.resultString(r), kind, refStateString(last, c.names))
		}
	}
	inputs := c.inputs(c.cfg.OracleInputs, nil)
	// Exhaustiveness relative to the bounded semantics (must hold), and relative to the
	// reference (expected to fail when a run needs more iterations than the limit). When a
	// budget stopped the run, the postcondition of a stopped sym_interp (proofs/why3/interp.mlw,
	// over): each input ends as an uncut result that holds under it says, or satisfies a stopped
	// path; the reference is then not compared.
	for _, v := range inputs {
		if c.expired() {
			break
		}
		c.sum.ExhaustiveRuns++
		if !complete {
			c.sum.BoundedStoppedRuns++
		}
		in := c.inputString(v)
		want := spec.ExecBounded(c.u.Prog, v, n)
		covered := false
		for _, r := range rs {
			if r.State.PC.Formula().Eval(v) && (r.Cut == bounded.CutBudget ||
				r.Behaviour == want.Behaviour && r.Fail == want.Fail && r.At == want.At && sameStore(r.State.Store, v, want.Store)) {
				covered = true
				break
			}
		}
		if !covered {
			c.report("bounded/exhaustive", in, -1, "not exhaustive w.r.t. the bounded semantics: the run ends %s with store %s, no result covers it%s",
				want.Behaviour, c.inputString(want.Store), stoppedNote(b.Stopped()))
			continue
		}
		if !complete {
			continue
		}
		kind, last, ok, err := c.refEnd(v, boundedRefSteps)
		if err != nil {
			c.report("reference", in, -1, "%v", err)
			return
		}
		if !ok {
			continue
		}
		if !c.boundedCovers(rs, v, kind, last) {
			c.sum.BoundedNotExhaustive++
			if c.sum.BoundedExample == "" {
				c.sum.BoundedExample = fmt.Sprintf("program %s, input %s: the reference's run ends %s at %s; no result of the bounded interpreter (loop limit %d) covers it (the bounded semantics says %s)",
					c.u.Name, in, kind, refStateString(last, c.names), n, want.Behaviour)
			}
		}
	}
	if !complete {
		return
	}
	// Ghost mode: the interpreter checks its own states against the ghost input's execution.
	for i, v := range inputs {
		if i >= c.cfg.GhostInputs || c.expired() {
			break
		}
		gb := bounded.New(c.u.Prog, n)
		gb.MaxStates, gb.Timeout = boundedMaxStates, c.left(2*time.Second)
		gb.RLimit, gb.QueryTimeout = c.cfg.EngineRLimit, c.cfg.EngineTimeout
		_, err := gb.SymInterp(v)
		c.sum.GhostChecks += gb.GhostChecks
		// Every ghost failure counts, also when a bound stopped the interpretation (bounded.Interp
		// has reported none since 3bc5a83; see README, Findings).
		if err != nil {
			c.report("bounded/ghost", c.inputString(v), -1, "%v", err)
		}
	}
}

// stoppedNote says, in a mismatch, that the run was stopped by a budget (and so that its stopped
// paths were also allowed to cover the input).
func stoppedNote(stopped string) string {
	if stopped == "" {
		return ""
	}
	return " and no stopped path holds under it (the run was stopped: " + stopped + ")"
}

func (c *checker) refStoreIs(r refState, sigma []*sym.Term, v []integer.Int) bool {
	for i, x := range c.names {
		if !sigma[i].Eval(v).Equal(r.store[x]) {
			return false
		}
	}
	ok, _ := c.arraysConcretize(sigma, v, r.arrays)
	return ok
}

// boundedCovers reports whether some result of the bounded interpreter covers the reference's
// complete run of v, which ended with kind at state last.
func (c *checker) boundedCovers(rs []bounded.Result, v []integer.Int, kind string, last refState) bool {
	for _, r := range rs {
		if behaviourKind(r.Behaviour) == kind && r.State.PC.Formula().Eval(v) && c.refStoreIs(last, r.State.Store, v) {
			return true
		}
	}
	return false
}

// BoundedExhaustive is is_probably_exhaustive of the bounded interpreter with loop limit n
// against the reference, on inputs: it returns the counterexamples (inputs whose complete
// concrete run no result covers). Loop unrolling is not exhaustive, so a program whose runs
// need more than n iterations has some.
func BoundedExhaustive(refPath string, u *Unit, n int, inputs [][]integer.Int) ([]string, error) {
	cfg := DefaultConfig()
	cfg.RefPath = refPath
	c, err := newChecker(cfg, 1)
	if err != nil {
		return nil, err
	}
	defer c.close()
	c.u, c.names, c.traces = u, u.Prog.Vars, map[string]*trace{}
	b := bounded.New(u.Prog, n)
	rs, err := b.SymInterp(nil)
	if err != nil {
		return nil, err
	}
	if b.Stopped() != "" {
		return nil, fmt.Errorf("bounded interpretation stopped: %s", b.Stopped())
	}
	var out []string
	for _, v := range inputs {
		kind, last, ok, err := c.refEnd(v, 100000)
		if err != nil {
			return nil, err
		}
		if ok && !c.boundedCovers(rs, v, kind, last) {
			out = append(out, fmt.Sprintf("input %s: the reference's run ends %s at %s; no bounded result covers it", c.inputString(v), kind, refStateString(last, c.names)))
		}
	}
	return out, nil
}
