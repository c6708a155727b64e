package steal_test

import (
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"strconv"
	"testing"
	"time"

	"certsym/engine"
	"certsym/engine/steal"
	"certsym/internal/budget"
	"certsym/internal/testprog"
	"certsym/refinement/gen"
	"certsym/refinement/stealcheck"
	"certsym/spec/syntax"
	"certsym/spec/syntax/parser"
)

// testLimits are the bounds of the tests' runs: the command's query bounds, at most states.
func testLimits(states int) budget.Limits {
	return budget.Limits{MaxStates: states, QueryTimeout: 2 * time.Second, RLimit: 5_000_000}
}

func corpus(t *testing.T) map[string]*syntax.Program {
	files, _ := filepath.Glob(filepath.Join(testprog.Root(), "testdata", "*.imp"))
	if len(files) < 100 {
		t.Fatalf("found %d programs in testdata, want at least 100", len(files))
	}
	progs := map[string]*syntax.Program{}
	for _, f := range files {
		p, err := parser.ParseFile(f)
		if err != nil {
			t.Fatal(err)
		}
		progs[filepath.Base(f)] = p
	}
	return progs
}

// compare runs stealcheck.Compare (the partitioned runs against each other and the single run),
// first bug and --all-bugs, and fails on each mismatch; it returns whether the program was left
// out (an unknown answer of the solver).
func compare(t *testing.T, name string, prog *syntax.Program, states int) bool {
	t.Helper()
	for _, all := range []bool{false, true} {
		ms, skipped, err := stealcheck.Compare(prog, engine.Options{Limits: testLimits(states), AllBugs: all}, nil)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if skipped {
			return true
		}
		for _, m := range ms {
			t.Errorf("%s, all bugs %v: %v", name, all, m)
		}
	}
	return false
}

// corpusParts and generatedParts are the slices TestCorpus and TestGenerated take by default
// (testprog.Sample, rotating with the day); make check-steal takes every program.
const (
	corpusParts    = 16
	generatedParts = 20
)

// TestCorpus compares the partitioned runs of the programs of testdata/ (at most 400 states)
// with 1 to 4 workers, on goroutines and interleaved, with each other and with the single run:
// one slice of the corpus by default (testprog.Sample), every program with make check-steal.
func TestCorpus(t *testing.T) {
	if testing.Short() {
		t.Skip("short mode: the corpus with 1 to 4 workers and 3 interleavings")
	}
	progs := corpus(t)
	names := slices.Sorted(maps.Keys(progs))
	skipped, n := 0, 0
	for _, name := range testprog.Sample(t, names, corpusParts) {
		n++
		if compare(t, name, progs[name], 400) {
			skipped++
		}
	}
	t.Logf("%d programs compared, %d left out (an unknown answer of the solver)", n-skipped, skipped)
	if skipped > max(n/10, 1) {
		t.Errorf("%d of %d programs left out", skipped, n)
	}
}

// TestGenerated compares the partitioned runs of random programs of the refinement layer's
// generator (at most 300 states): a slice of seeds 1 to 60 by default (testprog.Sample), all of
// them with make check-steal.
func TestGenerated(t *testing.T) {
	count := 60
	if testing.Short() {
		count = 8
	}
	var names []string
	for seed := 1; seed <= count; seed++ {
		names = append(names, strconv.Itoa(seed))
	}
	if !testing.Short() {
		names = testprog.Sample(t, names, generatedParts)
	}
	for _, name := range names {
		seed, _ := strconv.ParseInt(name, 10, 64)
		g, err := gen.Generate(seed, gen.Default)
		if err != nil {
			t.Fatal(err)
		}
		prog, err := parser.Parse(fmt.Sprintf("gen-%d", seed), []byte(g.Text))
		if err != nil {
			t.Fatal(err)
		}
		compare(t, prog.File, prog, 300)
	}
}

// TestWorkersShare runs 8 independent ifs with 2 and 4 workers, with and without a state bound,
// on goroutines and interleaved: every worker steals and expands states (a thief that computes
// its limit of depths wrong takes nothing and leaves the whole tree to the first worker).
func TestWorkersShare(t *testing.T) {
	prog := testprog.Parse(t, testprog.IndependentIfs(8))
	for _, n := range []int{2, 4} {
		for _, states := range []int{0, 400} {
			for _, il := range []int64{0, 5} {
				opts := engine.Options{Limits: budget.Limits{MaxStates: states}, AllBugs: true, Workers: n}
				res, err := steal.Run(prog, steal.Options{Options: opts, Interleave: il}, nil)
				if err != nil {
					t.Fatal(err)
				}
				if il == 0 {
					continue // on goroutines the machine decides who runs: the interleaving shares for sure
				}
				for i, w := range res.Workers {
					if w.Expanded == 0 || (i > 0 && w.Steals == 0) {
						t.Errorf("%d workers, bound %d, interleaving %d: worker %d expanded %d states after %d steals", n, states, il, i, w.Expanded, w.Steals)
					}
				}
			}
		}
	}
}

// depthCounter counts the states a single run expands at each depth.
type depthCounter map[int]int

func (c depthCounter) Expanded(st *engine.State, _ []*engine.State) { c[st.Depth]++ }
func (c depthCounter) Pruned(*engine.State)                         {}

// TestBoundAtDepthEnd sets the state bound to the number of states of the first depths of a
// program, so that the bound is reached as a depth ends with states pending: the partitioned run
// stops there with the single run's report (it waited before for a depth its workers, held back
// by the bound, would never expand).
func TestBoundAtDepthEnd(t *testing.T) {
	prog := testprog.Parse(t, testprog.IndependentIfs(6))
	count := depthCounter{}
	e := engine.New(prog, engine.Options{Observer: count})
	if _, err := e.FindBugs(nil); err != nil {
		t.Fatal(err)
	}
	e.Close()
	for _, d := range []int{3, 7, 10} {
		bound := 0
		for k := 0; k <= d; k++ {
			bound += count[k]
		}
		opts := engine.Options{Limits: budget.Limits{MaxStates: bound}, AllBugs: true}
		e := engine.New(prog, opts)
		want, err := e.FindBugs(nil)
		e.Close()
		if err != nil {
			t.Fatal(err)
		}
		for _, il := range []int64{0, 1, 2} {
			opts.Workers = 2
			done := make(chan *steal.Result, 1)
			go func() {
				res, err := steal.Run(prog, steal.Options{Options: opts, Interleave: il}, nil)
				if err != nil {
					t.Error(err)
				}
				done <- res
			}()
			select {
			case res := <-done:
				if res != nil && stealcheck.Tree(res.Report) != stealcheck.Tree(want) {
					t.Errorf("bound %d (depths to %d), interleaving %d:\n%s---\n%s", bound, d, il, stealcheck.Tree(res.Report), stealcheck.Tree(want))
				}
			case <-time.After(2 * time.Minute):
				t.Fatalf("bound %d (depths to %d), interleaving %d: no report after 2 minutes", bound, d, il)
			}
		}
	}
}
