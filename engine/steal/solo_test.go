package steal_test

import (
	"path/filepath"
	"testing"

	"certsym/engine"
	"certsym/engine/steal"
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
