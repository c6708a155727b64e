package mergecheck

import (
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"testing"
	"time"

	"certsym/engine"
	"certsym/internal/budget"
	"certsym/internal/testprog"
	"certsym/pathcond"
	"certsym/refinement/gen"
	"certsym/spec/integer"
	"certsym/spec/syntax"
	"certsym/spec/syntax/parser"
)

// mismatch is one report of the oracle.
type mismatch struct{ check, detail string }

// runOracle runs the merge oracle on p with the engine's own models and small random
// valuations, and returns its reports.
func runOracle(t testing.TB, p *syntax.Program, seed int64) (*Oracle, []mismatch) {
	e := engine.New(p, engine.Options{Limits: budget.Limits{RLimit: 2_000_000, QueryTimeout: 500 * time.Millisecond}})
	defer e.Close()
	rng := rand.New(rand.NewSource(seed))
	var out []mismatch
	deadline := time.Now().Add(10 * time.Second)
	o := &Oracle{Prog: p, Rng: rng, Valuations: 10,
		Random: func() []integer.Int {
			v := make([]integer.Int, p.Slots())
			for i := range v {
				v[i] = integer.Of(int64(rng.Intn(13) - 6))
			}
			return v
		},
		Model: func(pc *pathcond.PC) ([]integer.Int, bool) {
			if pc.Status != pathcond.Sat {
				e.Solver().Check(pc)
			}
			return pc.Witness, pc.Status == pathcond.Sat
		},
		Report: func(check string, v []integer.Int, format string, args ...any) {
			out = append(out, mismatch{check, fmt.Sprintf("input %v: ", v) + fmt.Sprintf(format, args...)})
		},
		Expired: func() bool { return time.Now().After(deadline) },
	}
	o.Run(e)
	return o, out
}

// programs are the generated programs of seeds 1..n (the layer's default generator) and the
// programs of testdata/ with at least one if.
func programs(t testing.TB, n int) map[string]*syntax.Program {
	out := map[string]*syntax.Program{}
	for seed := int64(1); seed <= int64(n); seed++ {
		g, err := gen.Generate(seed, gen.Default)
		if err != nil {
			t.Fatal(err)
		}
		p, err := parser.Parse(fmt.Sprintf("gen-%d", seed), []byte(g.Text))
		if err != nil {
			t.Fatal(err)
		}
		g.FixArrays(p)
		out[fmt.Sprintf("gen-%d", seed)] = p
	}
	files, _ := filepath.Glob(filepath.Join(testprog.Root(), "testdata", "*.imp"))
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		p, err := parser.Parse(f, src)
		if err != nil {
			continue // the testdata of parse errors
		}
		out[filepath.Base(f)] = p
	}
	return out
}

// TestMergeOracles runs the merge oracles on the merges of the states of generated programs and
// of testdata/'s programs, expanded breadth-first and merged level by level: no mismatch, and
// enough merges and inputs that the oracles sampled real merges.
func TestMergeOracles(t *testing.T) {
	merges, inputs, refused, progs, withMerge := 0, 0, 0, 0, 0
	for name, p := range programs(t, 150) {
		o, ms := runOracle(t, p, 1)
		for _, m := range ms {
			t.Errorf("%s: %s: %s", name, m.check, m.detail)
		}
		progs++
		if o.Merges > 0 {
			withMerge++
		}
		merges, inputs, refused = merges+o.Merges, inputs+o.Inputs, refused+o.Refused
	}
	t.Logf("%d programs, %d with merges: %d merges checked on %d inputs, %d merges of different programs refused", progs, withMerge, merges, inputs, refused)
	if merges < 100 || inputs < 10*merges || refused < 50 {
		t.Errorf("too few merges (%d), inputs (%d) or refusals (%d): the oracles are not exercised", merges, inputs, refused)
	}
}
