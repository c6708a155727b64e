package verifycheck

import (
	"testing"
	"time"

	"certsym/internal/budget"
	"certsym/refinement/checker"
	"certsym/refinement/gen"
	"certsym/spec/integer"
	"certsym/spec/syntax"
	"certsym/spec/syntax/parser"
	"certsym/verify"
)

// TestSnippetsReachOrder: the generator's verify snippets (gen/verify.go) reach, in the layer's
// three verify runs (products exact, abstracted, starved solver), claims whose status the order
// of the status table decides between FALSE and FALSE?, UNDEFINED and FALSE?, DONTKNOW and
// FALSE; and runs cut off inside an inner loop that meet a claim again, after the cut, through
// the outer loop's back edge.
func TestSnippetsReachOrder(t *testing.T) {
	want := map[string]bool{"REFUTED over REFUTED?": false, "FAULTY over REFUTED?": false, "REFUTED over INDETERMINATE": false}
	backEdge := 0
	cfg := checker.DefaultConfig()
	programs := 0
	for seed := int64(0); seed < 2000 && (backEdge == 0 || !all(want)); seed++ {
		g, err := gen.Generate(seed, gen.Default)
		if err != nil {
			t.Fatal(err)
		}
		if g.Verify < 0 {
			continue
		}
		p, err := parser.Parse("gen", []byte(g.Text))
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		programs++
		for run := 0; run < 3; run++ {
			rlimit := cfg.EngineRLimit
			if run == 2 {
				rlimit = 1
			}
			rep := verify.Verify(p, verify.Options{LoopBound: cfg.BoundedN, AbstractNonlinear: run == 1,
				Limits: budget.Limits{MaxStates: checker.BoundedMaxStates, Timeout: 4 * time.Second, QueryTimeout: cfg.EngineTimeout, RLimit: rlimit}})
			for _, cl := range rep.Claims {
				for _, k := range orderDecided(cl.Summary) {
					if _, ok := want[k]; ok {
						want[k] = true
					}
				}
			}
			if g.Verify == 4 && rep.Stopped == "" {
				for _, v := range [][]integer.Int{make([]integer.Int, p.Slots()), inputs(p, 4)} {
					if _, _, again := afterCut(p, rep, v, cfg.BoundedN); again {
						backEdge++
					}
				}
			}
		}
	}
	t.Logf("%d generated programs with verify snippets; pairs reached %v; runs meeting a claim again after an inner loop's cut: %d", programs, want, backEdge)
	for k, ok := range want {
		if !ok {
			t.Errorf("no claim whose status is %s", k)
		}
	}
	if backEdge == 0 {
		t.Errorf("no run cut off that meets a claim again through a loop's back edge")
	}
}

func all(m map[string]bool) bool {
	for _, ok := range m {
		if !ok {
			return false
		}
	}
	return true
}

// inputs is the store of p with every variable x.
func inputs(p *syntax.Program, x int64) []integer.Int {
	v := make([]integer.Int, p.Slots())
	for i := range p.Vars {
		v[i] = integer.Of(x)
	}
	return v
}
