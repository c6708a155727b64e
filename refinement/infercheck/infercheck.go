// Package infercheck is the refinement layer's check of invariant inference (packages
// prove/infer and prove/auto, certsym prove --infer):
//
//   - infer/states: every clause of Houdini's fixpoint (when it was reached within its time
//     bound) holds in the loop-head states of concrete runs: those of a larger sample than the
//     inference itself read (more random inputs, the bug finder's inputs, another seed). An
//     invariant false in a reachable state is no invariant, so a violation is a defect of the
//     inference or of its oracle (the fault houdini-keeps-entry-refuted is caught here).
//   - infer/proved-safe: a program proved with inferred clauses has no error on random concrete
//     runs.
package infercheck

import (
	"fmt"
	"hash/fnv"
	"time"

	"certsym/internal/budget"
	"certsym/prove"
	"certsym/prove/auto"
	"certsym/prove/infer"
	"certsym/refinement/checker"
	"certsym/spec"
	"certsym/spec/integer"
	"certsym/spec/syntax"
)

// The budget of one program's check.
const (
	InferRuns = 4 // random runs the inference samples (few, so that the oracle has work)
	CheckRuns = 80
	Runs      = 300 // random concrete runs of a program proved
	RunSteps  = 20000
	MaxTime   = 2 * time.Second
)

// Run is the check of the current unit of c, on a sampled quarter of the programs with loops
// (Sampled): the inference costs up to MaxTime per program, and the layer runs hundreds.
func Run(c *checker.Checker) {
	if !Sampled(c.U.Prog) {
		return
	}
	Check(c.U.Prog, c.Left(2*MaxTime)/2, c.Cfg.EngineRLimit, c.RandomValuation, c.Expired,
		func(check string, in spec.Store, format string, args ...any) {
			c.Report(check, c.InputString([]integer.Int(in)), -1, format, args...)
		})
}

// Check checks inference on the program within the time left: random draws a random valuation
// of its flat store, report records a mismatch (in, its input or loop-head state, may be nil).
func Check(prog *syntax.Program, left time.Duration, rlimit uint, random func() []integer.Int, expired func() bool,
	report func(check string, in spec.Store, format string, args ...any)) {
	if len(infer.Loops(prog)) == 0 {
		return
	}
	out, err := auto.Prove(prog, auto.Options{
		Prove:     prove.Options{Limits: budget.Limits{MaxStates: 20000, Timeout: left, QueryTimeout: 2 * time.Second, RLimit: rlimit}, ReachStates: 200},
		Sample:    infer.SampleOptions{Runs: InferRuns, EngineStates: -1, Seed: 1},
		InferTime: left / 2,
	})
	if err != nil {
		report("infer/error", nil, "auto.Prove: %v", err)
		return
	}
	if out.Complete {
		states := infer.Sample(prog, infer.SampleOptions{Runs: CheckRuns, Seed: 2})
		for _, v := range infer.CheckStates(out.Fixpoint, states) {
			report("infer/states", v.State, "%s", v.String())
			break
		}
	}
	if out.Result.Answer == prove.Proved {
		for i := 0; i < Runs && !expired(); i++ {
			in := spec.Store(random()[:prog.Slots()])
			r := spec.RunFastLimited(prog, in, spec.Limits{Steps: RunSteps, Instances: -1})
			if r.Outcome == spec.Failed {
				report("infer/proved-safe", in, "proved with inferred clauses, but the run fails at %s", failAt(r.Fail))
				return
			}
		}
	}
}

func failAt(f *syntax.Fail) string {
	return fmt.Sprintf("%s at %d:%d", f.Kind, f.Pos().Line, f.Pos().Col)
}

// Sampled reports whether the layer checks the inference on p: one program in four, chosen by a
// hash of its text (another quarter than provecheck.Sampled's).
func Sampled(p *syntax.Program) bool {
	h := fnv.New32a()
	h.Write([]byte(syntax.Print(p.Body)))
	return h.Sum32()%4 == 1
}
