package spec_test

import (
	"math/rand"
	"testing"

	"certsym/internal/testprog"
	"certsym/refinement/gen"
	"certsym/spec"
	"certsym/spec/integer"
	"certsym/spec/syntax/parser"
)

// TestRunFastGenerated: RunFast's results are Run's on the refinement layer's random programs
// (refinement/gen, drawn with gofuzz: loops, corners, huge constants, arrays and macros) from
// gofuzz inputs (testprog.InputFuzzer: small, large, beyond 64 bits), under step bounds that
// stop the runs mid-way (spec.CompareRuns).
func TestRunFastGenerated(t *testing.T) {
	r := rand.New(rand.NewSource(31))
	f := testprog.InputFuzzer(31)
	outcomes := map[spec.Outcome]int{}
	for seed := int64(1); seed <= 400; seed++ {
		g, err := gen.Generate(seed, gen.Default)
		if err != nil {
			t.Fatal(err)
		}
		p, err := parser.Parse("gen.imp", []byte(g.Text))
		if err != nil {
			t.Fatalf("seed %d: %v\n%s", seed, err, g.Text)
		}
		for trial := 0; trial < 3; trial++ {
			in := testprog.RandomInput(f, p.Slots())
			if len(p.Arrays) > 0 { // quantifiers over an input-sized range: small inputs only
				for i := range in {
					in[i] = integer.Of(int64(r.Intn(9) - 4))
				}
			}
			res := spec.CompareRuns(t, p, in, 5000, r)
			outcomes[res.Outcome]++
		}
	}
	for _, o := range []spec.Outcome{spec.Final, spec.Failed, spec.Blocked} {
		if outcomes[o] == 0 {
			t.Errorf("no generated run ends %v: %v", o, outcomes)
		}
	}
}
