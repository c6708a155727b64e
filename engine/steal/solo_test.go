package steal_test

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"certsym/engine"
	"certsym/engine/steal"
	"certsym/internal/budget"
	"certsym/internal/testprog"
	"certsym/spec/syntax/parser"
)

// TestAloneStopsWithTheSingleRun runs one worker (on the merger's goroutine) on programs whose
// single run stops at a bug or at the state bound while the tree goes on below: the worker
// expands the states the single run expands and no others (it ran on before, a few hundred
// states past the report's end, into deep states whose queries take seconds).
func TestAloneStopsWithTheSingleRun(t *testing.T) {
	for _, c := range []struct {
		file   string
		all    bool
		states int
	}{
		{"gcd_mutant_wrong_loop_test.imp", false, 0},
		{"gcd_mutant_wrong_loop_test.imp", true, 40},
		{"gcd_subtractive_mutant_zero_input.imp", true, 60},
	} {
		prog, err := parser.ParseFile(filepath.Join(testprog.Root(), "testdata", c.file))
		if err != nil {
			t.Fatal(err)
		}
		opts := engine.Options{Limits: testLimits(c.states), AllBugs: c.all}
		e := engine.New(prog, opts)
		want, err := e.FindBugs(nil)
		e.Close()
		if err != nil {
			t.Fatal(err)
		}
		opts.Workers = 1
		res, err := steal.Run(prog, steal.Options{Options: opts}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if got := res.Workers[0].Expanded; got != want.Stats.Expanded {
			t.Errorf("%s, all bugs %v, bound %d: the worker expanded %d states, the single run %d", c.file, c.all, c.states, got, want.Stats.Expanded)
		}
	}
}

// TestCutShortSaysSo runs a program whose queries reach Z3 with a query time bound of a
// nanosecond, so that every one of them is cut short, deterministically: the partitioned run's
// tree then depends on which queries a bound cut (the load, each worker's solver), and its reason
// says so, with 1 and 2 workers, on goroutines and interleaved.
func TestCutShortSaysSo(t *testing.T) {
	prog, err := parser.ParseFile(filepath.Join(testprog.Root(), "testdata", "gcd_mutant_wrong_loop_test.imp"))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		workers int
		il      int64
	}{{1, 0}, {2, 0}, {2, 1}} {
		opts := engine.Options{Limits: testLimits(60), AllBugs: true, Workers: c.workers}
		opts.QueryTimeout = time.Nanosecond
		res, err := steal.Run(prog, steal.Options{Options: opts, Interleave: c.il}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if res.Stats.Solver.Unknown == 0 {
			t.Fatalf("%d workers, interleaving %d: no answer unknown (%+v): the reproduction needs a query cut short", c.workers, c.il, res.Stats.Solver)
		}
		if !strings.Contains(res.Reason, fmt.Sprintf("%d solver answers were cut short by a time or resource bound", res.Stats.Solver.Unknown)) {
			t.Errorf("%d workers, interleaving %d: %d answers unknown, and the reason does not say the run depends on them: %q", c.workers, c.il, res.Stats.Solver.Unknown, res.Reason)
		}
	}
	// Without a cut the reason is the single run's (the comparisons of TestCorpus): none here.
	opts := engine.Options{Limits: testLimits(60), AllBugs: true, Workers: 2}
	res, err := steal.Run(testprog.Parse(t, testprog.IndependentIfs(4)), steal.Options{Options: opts}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(res.Reason, "cut short") {
		t.Errorf("no query cut short, and the reason says one was: %q", res.Reason)
	}
}

// TestProgressCounters requires the run's monitor (the progress line) to count the states the
// report takes, its pending states and its depth, with 1 and 2 workers (it said 0 states).
func TestProgressCounters(t *testing.T) {
	prog := testprog.Parse(t, testprog.IndependentIfs(6))
	for _, n := range []int{1, 2} {
		mon := budget.NewMonitor()
		opts := engine.Options{Limits: budget.Limits{MaxStates: 50}, AllBugs: true, Workers: n, Monitor: mon}
		res, err := steal.Run(prog, steal.Options{Options: opts}, nil)
		if err != nil {
			t.Fatal(err)
		}
		s := mon.Snapshot()
		if s.States != res.Stats.Expanded || s.Depth != res.Stats.MaxDepth || s.Pending == 0 {
			t.Errorf("%d workers: the monitor says %d states, depth %d, %d pending; the report %d states, depth %d (stopped with states pending)",
				n, s.States, s.Depth, s.Pending, res.Stats.Expanded, res.Stats.MaxDepth)
		}
	}
}
