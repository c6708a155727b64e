// Package boundedcheck holds the refinement layer's checks of the bounded interpreter
// (bounded.Interp, the transcription of the Why3 sym_interp): bounded/precise,
// bounded/exhaustive and bounded/ghost.
package boundedcheck

import (
	"fmt"
	"time"

	"certsym/bounded"
	"certsym/refinement/checker"
	"certsym/refinement/conv"
	"certsym/spec"
	"certsym/spec/integer"
	"certsym/sym"
)

// The checks of the bounded interpreter (bounded.Interp, the transcription of the Why3
// sym_interp). Its oracle for the loop limit is spec.ExecBounded (the big-step semantics with
// loop limit of the Why3 development); the reference, which has no loop limit, checks the
// stores and behaviours of the results that did not hit the limit.

// bchecker is the checker of a program, seen by the bounded interpreter's checks.
type bchecker struct{ *checker.Checker }

// Run runs the checks of the bounded interpreter on the checker's current program.
func Run(c *checker.Checker) { bchecker{c}.boundedChecks() }

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

func (c bchecker) sigmaString(sigma []*sym.Term) string { return sym.StoreString(sigma, c.Slots) }

func (c bchecker) resultString(r bounded.Result) string {
	return fmt.Sprintf("%s result ⟨%s | %s⟩", r.Behaviour, r.State.PC.String(c.Slots), c.sigmaString(r.State.Store))
}

// sameStore reports whether σ(v) is the store s.
func sameStore(sigma []*sym.Term, v []integer.Int, s spec.Store) bool {
	for i, t := range sigma {
		if a := t.ArrayValue(); a != nil { // an array: element by element
			arr := a.Arr
			for j := arr.Lo; j <= arr.Hi; j++ {
				if k := arr.Offset + int(j-arr.Lo); k >= len(s) || !conv.ArrayRead(a, integer.Of(j), v).Equal(s[k]) {
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

func (c bchecker) boundedChecks() {
	n := c.Cfg.BoundedN
	b := c.NewBounded(n)
	b.MaxStates, b.Timeout = checker.BoundedMaxStates, c.Left(4*time.Second)
	b.RLimit, b.QueryTimeout = c.Cfg.EngineRLimit, c.Cfg.EngineTimeout
	rs, err := b.SymInterp(nil)
	if err != nil {
		c.Report("bounded/ghost", "", -1, "symbolic interpretation without ghost: %v", err)
		return
	}
	complete := b.Stopped() == ""
	// Precision: each result's model has that behaviour, at that place, with that store, in the
	// bounded semantics; and, when the limit was not hit, on the reference.
	for i, r := range rs {
		if i >= 3*c.Cfg.PreciseStates || c.Expired() {
			break
		}
		if r.Cut == bounded.CutBudget {
			// A path a budget stopped (Why3's Stopped) says nothing of how its inputs end; its
			// inputs are checked below, by the exhaustiveness of a stopped run.
			continue
		}
		v, ok := c.Model(r.State.PC)
		if !ok {
			continue
		}
		c.Sum.BoundedResults++
		in := c.InputString(v)
		want := spec.ExecBounded(c.U.Prog, v, n)
		if want.Behaviour != r.Behaviour || want.Fail != r.Fail || want.At != r.At || !sameStore(r.State.Store, v, want.Store) {
			c.Report("bounded/precise", in, -1, "imprecise: the model of the %s ends %s with store %s in the bounded semantics (loop limit %d)",
				c.resultString(r), want.Behaviour, c.InputString(want.Store), n)
			continue
		}
		if r.Behaviour == spec.Incomplete {
			continue
		}
		kind, last, ok, err := c.RefEnd(v, checker.BoundedRefSteps)
		if err != nil {
			c.Report("reference", in, -1, "%v", err)
			return
		}
		if !ok {
			continue
		}
		if kind != behaviourKind(r.Behaviour) || !c.refStoreIs(last, r.State.Store, v) {
			c.Report("bounded/precise", in, -1, "imprecise: the model of the %s ends %s at %s on the reference",
				c.resultString(r), kind, checker.RefStateString(last, c.Names))
		}
	}
	inputs := c.Inputs(c.Cfg.OracleInputs, nil)
	// Exhaustiveness relative to the bounded semantics (must hold), and relative to the
	// reference (expected to fail when a run needs more iterations than the limit). When a
	// budget stopped the run, the postcondition of a stopped sym_interp (proofs/why3/interp.mlw,
	// over): each input ends as an uncut result that holds under it says, or satisfies a stopped
	// path; the reference is then not compared.
	for _, v := range inputs {
		if c.Expired() {
			break
		}
		c.Sum.ExhaustiveRuns++
		if !complete {
			c.Sum.BoundedStoppedRuns++
		}
		in := c.InputString(v)
		want := spec.ExecBounded(c.U.Prog, v, n)
		covered := false
		for _, r := range rs {
			if r.State.PC.Formula().Eval(v) && (r.Cut == bounded.CutBudget ||
				r.Behaviour == want.Behaviour && r.Fail == want.Fail && r.At == want.At && sameStore(r.State.Store, v, want.Store)) {
				covered = true
				break
			}
		}
		if !covered {
			c.Report("bounded/exhaustive", in, -1, "not exhaustive w.r.t. the bounded semantics: the run ends %s with store %s, no result covers it%s",
				want.Behaviour, c.InputString(want.Store), stoppedNote(b.Stopped()))
			continue
		}
		if !complete {
			continue
		}
		kind, last, ok, err := c.RefEnd(v, checker.BoundedRefSteps)
		if err != nil {
			c.Report("reference", in, -1, "%v", err)
			return
		}
		if !ok {
			continue
		}
		if !c.boundedCovers(rs, v, kind, last) {
			c.Sum.BoundedNotExhaustive++
			if c.Sum.BoundedExample == "" {
				c.Sum.BoundedExample = fmt.Sprintf("program %s, input %s: the reference's run ends %s at %s; no result of the bounded interpreter (loop limit %d) covers it (the bounded semantics says %s)",
					c.U.Name, in, kind, checker.RefStateString(last, c.Names), n, want.Behaviour)
			}
		}
	}
	if !complete {
		return
	}
	// Ghost mode: the interpreter checks its own states against the ghost input's execution.
	for i, v := range inputs {
		if i >= c.Cfg.GhostInputs || c.Expired() {
			break
		}
		gb := c.NewBounded(n)
		gb.MaxStates, gb.Timeout = checker.BoundedMaxStates, c.Left(2*time.Second)
		gb.RLimit, gb.QueryTimeout = c.Cfg.EngineRLimit, c.Cfg.EngineTimeout
		_, err := gb.SymInterp(v)
		c.Sum.GhostChecks += gb.GhostChecks
		// Every ghost failure counts, also when a bound stopped the interpretation (bounded.Interp
		// reports none then; see docs/refinement.md, "Defects found").
		if err != nil {
			c.Report("bounded/ghost", c.InputString(v), -1, "%v", err)
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

func (c bchecker) refStoreIs(r checker.RefState, sigma []*sym.Term, v []integer.Int) bool {
	for i, x := range c.Names {
		if !sigma[i].Eval(v).Equal(r.Store[x]) {
			return false
		}
	}
	ok, _ := conv.ArraysConcretize(c.U.Prog, sigma, v, r.Arrays)
	return ok
}

// boundedCovers reports whether some result of the bounded interpreter covers the reference's
// complete run of v, which ended with kind at state last.
func (c bchecker) boundedCovers(rs []bounded.Result, v []integer.Int, kind string, last checker.RefState) bool {
	for _, r := range rs {
		if behaviourKind(r.Behaviour) == kind && r.State.PC.Formula().Eval(v) && c.refStoreIs(last, r.State.Store, v) {
			return true
		}
	}
	return false
}

// Exhaustive is is_probably_exhaustive of the bounded interpreter with loop limit n
// against the reference, on inputs: it returns the counterexamples (inputs whose complete
// concrete run no result covers). Loop unrolling is not exhaustive, so a program whose runs
// need more than n iterations has some.
func Exhaustive(refPath string, u *checker.Unit, n int, inputs [][]integer.Int) ([]string, error) {
	cfg := checker.DefaultConfig()
	cfg.RefPath = refPath
	cfg.ProgramBudget = 0
	ch, err := checker.New(cfg, 1)
	if err != nil {
		return nil, err
	}
	defer ch.Close()
	ch.Start(u)
	c := bchecker{ch}
	b := bounded.New(u.Prog, n)
	defer b.Close()
	rs, err := b.SymInterp(nil)
	if err != nil {
		return nil, err
	}
	if b.Stopped() != "" {
		return nil, fmt.Errorf("bounded interpretation stopped: %s", b.Stopped())
	}
	var out []string
	for _, v := range inputs {
		kind, last, ok, err := c.RefEnd(v, 100000)
		if err != nil {
			return nil, err
		}
		if ok && !c.boundedCovers(rs, v, kind, last) {
			out = append(out, fmt.Sprintf("input %s: the reference's run ends %s at %s; no bounded result covers it", c.InputString(v), kind, checker.RefStateString(last, c.Names)))
		}
	}
	return out, nil
}
