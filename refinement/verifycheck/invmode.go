package verifycheck

import (
	"certsym/internal/budget"
	"certsym/refinement/checker"
	"certsym/spec"
	"certsym/spec/integer"
	"certsym/spec/syntax"
	"certsym/verify"
)

// InvariantMode is the soundness oracle of certsym verify --loops invariant
// (verify.Options.InvariantLoops, the bounded interpreter's invariant mode), check
// verify/invariant-sound: along every concrete run from the random inputs, without loop limit
// (spec.Step, checked against the reference by the layer's concrete-step check), no statement
// with a DEAD claim is executed and no VERIFIED claim is falsified. The transition's states
// over-approximate the runs that pass the loop's clauses, and the language checks the clauses
// at every arrival at the loop's head, so a VERIFIED or DEAD answer is one about every run, with
// no loop bound: a run that contradicts it shows the transition misses a store (a modifies set
// too small, a clause assumed that the runs need not satisfy, a path not flagged).
type InvariantMode struct {
	Prog      *syntax.Program
	LoopBound int // for the loops without clauses
	Limits    budget.Limits
	// Random is a random input of Prog (Prog.Slots() values); Runs how many runs to check.
	Random func() []integer.Int
	Runs   int
	// Steps bounds each run.
	Steps  int
	Report func(check string, v []integer.Int, format string, args ...any)

	// Verified counts the VERIFIED and DEAD claims, Checked the claim evaluations on the runs
	// (arrivals of runs at a statement with such a claim).
	Verified, Checked int
	// Rep is the report checked.
	Rep *verify.Report
}

// Check runs verify --loops invariant on the program and checks its VERIFIED and DEAD claims
// on the random runs.
func (o *InvariantMode) Check() {
	rep := verify.Verify(o.Prog, verify.Options{LoopBound: o.LoopBound, InvariantLoops: true, Limits: o.Limits})
	o.Rep = rep
	for _, e := range rep.ReplayErrors {
		o.Report("verify/invariant-replay", nil, "%s", e)
	}
	for _, cl := range rep.Claims {
		if cl.Status == verify.StatusVerified || cl.Status == verify.StatusDead {
			o.Verified++
		}
	}
	if o.Verified == 0 {
		return
	}
	for i := 0; i < o.Runs; i++ {
		o.run(rep, o.Random())
	}
}

// run checks one concrete run from v.
func (o *InvariantMode) run(rep *verify.Report, v []integer.Int) {
	st := spec.State{Store: v, Prog: o.Prog.Body}
	for step := 0; step < o.Steps; step++ {
		for _, cl := range rep.ClaimsAt(spec.Head(st.Prog)) {
			switch cl.Status {
			case verify.StatusDead:
				o.Report("verify/invariant-sound", v, "step %d: the run executes line %d with store %v, but the %s claim %s there is DEAD",
					step, cl.Line, st.Store, cl.Kind, cl.Describe())
				return
			case verify.StatusVerified:
				o.Checked++
				if cl.Falsified(st.Store) {
					o.Report("verify/invariant-sound", v, "step %d: the run falsifies the %s claim %s at line %d (VERIFIED) with store %v",
						step, cl.Kind, cl.Describe(), cl.Line, st.Store)
					return
				}
			}
		}
		next, out := spec.Step(st)
		if out != spec.Stepped || checker.TooBigStore(next.Store) {
			return
		}
		st = next
	}
}
