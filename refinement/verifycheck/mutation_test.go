//go:build faults

package verifycheck

import (
	"testing"
	"time"

	"certsym/internal/budget"
	"certsym/internal/fault"
	"certsym/refinement/checker"
	"certsym/refinement/gen"
	"certsym/spec/integer"
	"certsym/spec/syntax/parser"
	"certsym/verify"
)

// TestMutationSnippets: the generator's verify snippets alone, without the layer's targeted
// programs, show the faults of the status table's order and of the control-flow graph's back
// edges to the checks verify/status and verify/cutoff (their conditions, run here on the
// generated programs of seeds 0 on, products exact): some claim's status is not the paper
// table's under status-row-order, and some run cut off inside an inner loop goes on to a
// VERIFIED claim under cfg-no-back-edge; with no fault on, neither happens.
func TestMutationSnippets(t *testing.T) {
	if !fault.Enabled {
		t.Fatal("build with -tags faults")
	}
	defer func() { fault.Active = fault.None }()
	cfg := checker.DefaultConfig()
	// found runs verify on the generated programs with verify snippets of seeds 0..n-1 and
	// returns the first seed where the check of the fault f fails.
	found := func(f fault.Fault, n int64) (int64, bool) {
		fault.Active = f
		for seed := int64(0); seed < n; seed++ {
			g, err := gen.Generate(seed, gen.Default)
			if err != nil {
				t.Fatal(err)
			}
			if g.Verify < 0 {
				continue
			}
			p, err := parser.Parse("gen", []byte(g.Text))
			if err != nil {
				t.Fatal(err)
			}
			rep := verify.Verify(p, verify.Options{LoopBound: cfg.BoundedN,
				Limits: budget.Limits{MaxStates: checker.BoundedMaxStates, Timeout: 4 * time.Second, QueryTimeout: cfg.EngineTimeout, RLimit: cfg.EngineRLimit}})
			for _, cl := range rep.Claims {
				if cl.Status != paperStatus(cl.Summary) {
					return seed, true
				}
			}
			if rep.Stopped != "" {
				continue
			}
			for _, v := range [][]integer.Int{make([]integer.Int, p.Slots()), inputs(p, 4)} {
				_, after, _ := afterCut(p, rep, v, cfg.BoundedN)
				for _, s := range after {
					for _, cl := range rep.ClaimsAt(s) {
						if cl.Status == verify.StatusVerified || cl.Status == verify.StatusDead {
							return seed, true
						}
					}
				}
			}
		}
		return 0, false
	}
	const seeds = 400
	for _, f := range []fault.Fault{fault.StatusRowOrder, fault.CFGNoBackEdge} {
		seed, ok := found(f, seeds)
		if !ok {
			t.Errorf("fault %s: no generated program of seeds 0..%d shows it", f, seeds-1)
			continue
		}
		t.Logf("fault %s: shown by the generated program of seed %d", f, seed)
	}
	if seed, ok := found(fault.None, seeds); ok {
		t.Errorf("no fault: the generated program of seed %d fails the checks", seed)
	}
}
