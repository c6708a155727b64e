package distcheck

import (
	"fmt"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"certsym/internal/budget"
	"certsym/internal/testprog"
	"certsym/refinement/gen"
	"certsym/spec/syntax"
	"certsym/spec/syntax/parser"
)

// limits are the solver's bounds of the tests' runs.
var limits = budget.Limits{QueryTimeout: 2 * time.Second, RLimit: 5_000_000}

// programs are the programs of the checks' own tests: a few of testdata/ with several bugs at
// different depths, then random programs of the refinement layer's generator (seeds 1 to n), or,
// when sample is true, the slice of those seeds testprog.Sample takes (CERTSYM_SAMPLE_ALL=1
// takes them all).
func programs(t *testing.T, n int, sample bool) []*syntax.Program {
	var out []*syntax.Program
	for _, f := range []string{"all_bugs_bfs_depth_not_text_order.imp", "all_bugs_three_kinds_in_order.imp", "gcd_subtractive_mutant_zero_input.imp"} {
		p, err := parser.ParseFile(filepath.Join(testprog.Root(), "testdata", f))
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, p)
	}
	var seeds []string
	for seed := 1; seed <= n; seed++ {
		seeds = append(seeds, strconv.Itoa(seed))
	}
	if sample {
		seeds = testprog.Sample(t, seeds, seedParts)
	}
	for _, name := range seeds {
		seed, _ := strconv.ParseInt(name, 10, 64)
		g, err := gen.Generate(seed, gen.Default)
		if err != nil {
			t.Fatal(err)
		}
		p, err := parser.Parse(fmt.Sprintf("gen-%d", seed), []byte(g.Text))
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, p)
	}
	return out
}

// seedParts is the number of slices of the generator's seeds TestCompare takes one of by default.
const seedParts = 4

// TestCompare finds no mismatch on the programs (the seeds sampled), first bug and --all-bugs, with the jobs' size
// Budget picks for each, and compares most of them (the state bound or an unknown answer of the
// solver leaves a program out). The assembled runs must have made several jobs.
func TestCompare(t *testing.T) {
	if testing.Short() {
		t.Skip("short mode: each program's job tree explored twice")
	}
	progs := programs(t, 40, true)
	compared, skipped, jobs := 0, 0, 0
	for _, p := range progs {
		for _, all := range []bool{false, true} {
			out, err := Compare(p, Options{AllBugs: all, MaxStates: 300, Limits: limits}, nil)
			if err != nil {
				t.Fatal(err)
			}
			if out.Skip != "" {
				skipped++
				break
			}
			compared++
			jobs += out.Jobs
			for _, m := range out.Mismatches {
				t.Errorf("%s, all bugs %v: %v", p.File, all, m)
			}
		}
	}
	t.Logf("%d runs compared (%d jobs), %d programs left out", compared, jobs, skipped)
	if skipped > len(progs)/4 {
		t.Errorf("%d of %d programs left out", skipped, len(progs))
	}
	if jobs < 3*compared {
		t.Errorf("%d jobs in %d runs: the jobs are too large to split the programs", jobs, compared)
	}
}
