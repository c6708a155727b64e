package stealcheck

import (
	"fmt"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"certsym/engine"
	"certsym/internal/budget"
	"certsym/internal/testprog"
	"certsym/internal/z3worker"
	"certsym/refinement/gen"
	"certsym/spec/syntax"
	"certsym/spec/syntax/parser"
)

func limits(states int) budget.Limits {
	return budget.Limits{MaxStates: states, QueryTimeout: 2 * time.Second, RLimit: 5_000_000}
}

// programs are the programs of the checks' own tests: a few of testdata/ with several bugs at
// different depths, then random programs of the refinement layer's generator (seeds 1 to 40),
// or, when sample is true, the slice of those seeds testprog.Sample takes (make check-steal
// takes them all).
func programs(t *testing.T, sample bool) []*syntax.Program {
	var out []*syntax.Program
	for _, f := range []string{"all_bugs_bfs_depth_not_text_order.imp", "all_bugs_three_kinds_in_order.imp", "gcd_subtractive_mutant_zero_input.imp"} {
		p, err := parser.ParseFile(filepath.Join(testprog.Root(), "testdata", f))
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, p)
	}
	var seeds []string
	for seed := 1; seed <= 40; seed++ {
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
const seedParts = 10

// TestCompare finds no mismatch on the programs (the seeds sampled, programs(t, true)), first bug
// and --all-bugs, and compares most of them (an unknown answer of the solver leaves a program out).
func TestCompare(t *testing.T) {
	if testing.Short() {
		t.Skip("short mode: the programs with 1 to 4 workers and 3 interleavings")
	}
	progs := programs(t, true)
	skipped := 0
	for _, p := range progs {
		settle(t)
		for _, all := range []bool{false, true} {
			ms, skip, err := Compare(p, engine.Options{Limits: limits(300), AllBugs: all}, nil)
			if err != nil {
				t.Fatal(err)
			}
			if skip {
				t.Logf("%s, all bugs %v, left out: an unknown answer (%d abandoned solver queries running)", p.File, all, z3worker.Abandoned())
				skipped++
				break
			}
			for _, m := range ms {
				t.Errorf("%s, all bugs %v: %v", p.File, all, m)
			}
		}
	}
	if skipped > len(progs)/5 {
		t.Errorf("%d of %d programs left out", skipped, len(progs))
	}
}

// settle waits, a minute at most, until no solver query that an earlier test of this binary
// abandoned is still running: at most z3worker.MaxAbandoned may run in a process, and past them a
// query answers unknown at once. TestConfirmerBackstop's queries, abandoned at the lowest CPU
// priority, can outlive it on a loaded machine (make check compiles the Coq development beside
// the Go tests) and would leave this test's programs out.
func settle(t *testing.T) {
	deadline := time.Now().Add(time.Minute)
	for z3worker.Abandoned() > 0 && time.Now().Before(deadline) {
		time.Sleep(50 * time.Millisecond)
	}
	if n := z3worker.Abandoned(); n > 0 {
		t.Logf("%d abandoned solver queries still running after a minute", n)
	}
}
