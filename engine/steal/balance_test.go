package steal_test

import (
	"fmt"
	"path/filepath"
	"testing"

	"certsym/engine"
	"certsym/engine/steal"
	"certsym/internal/budget"
	"certsym/internal/testprog"
	"certsym/spec/syntax"
	"certsym/spec/syntax/parser"
)

// Comb is the comb of the balance measure: a loop of up to 3,000 iterations whose every
// iteration branches once (on i < n), the exit leaving after a few steps.
const Comb = "assume n >= 0 and n <= 3000; i = 0; s = 0; while i < n do s = s + i; i = i + 1 od; assert s >= 0\n"

// balanceCases are the programs of the balance measure: the comb, 13 independent ifs (8,192
// paths) and the open gcd (engine/testdata), with the states each runs (0: to its end).
func balanceCases(t testing.TB) []struct {
	name   string
	prog   *syntax.Program
	states int
} {
	gcd, err := parser.ParseFile(filepath.Join(testprog.Root(), "engine", "testdata", "gcd.imp"))
	if err != nil {
		t.Fatal(err)
	}
	return []struct {
		name   string
		prog   *syntax.Program
		states int
	}{
		{"comb", testprog.Parse(t, Comb), 0},
		{"ifs13", testprog.Parse(t, testprog.IndependentIfs(13)), 0},
		{"gcd", gcd, 20_000},
	}
}

// imbalance is the most states a worker expanded over the mean.
func imbalance(ws []steal.WorkerStats) float64 {
	most, sum := 0, 0
	for _, w := range ws {
		most = max(most, w.Expanded)
		sum += w.Expanded
	}
	return float64(most) * float64(len(ws)) / float64(sum)
}

// balanceParts is the number of slices of TestBalance's cases (testprog.Sample): one by default,
// all with make check-steal.
const balanceParts = 2

// TestBalance counts the states each worker expands in interleaved runs (each step's worker drawn
// at random: the balance of the partitioning, free of the machine's scheduling) of the comb, 13
// independent ifs and the open gcd with 2, 4, 8 and 16 workers: the most any worker expands is at
// most 1.25 times the mean. By default it runs a slice of these cases, rotating with the day.
func TestBalance(t *testing.T) {
	if testing.Short() {
		t.Skip("short mode: the balance of 2 to 16 workers on three programs")
	}
	var names []string
	for _, c := range balanceCases(t) {
		for _, n := range []int{2, 4, 8, 16} {
			names = append(names, fmt.Sprintf("%s/%d", c.name, n))
		}
	}
	take := map[string]bool{}
	for _, name := range testprog.Sample(t, names, balanceParts) {
		take[name] = true
	}
	for _, c := range balanceCases(t) {
		for _, n := range []int{2, 4, 8, 16} {
			if !take[fmt.Sprintf("%s/%d", c.name, n)] {
				continue
			}
			opts := engine.Options{Limits: budget.Limits{MaxStates: c.states}, AllBugs: true, Workers: n}
			res, err := steal.Run(c.prog, steal.Options{Options: opts, Interleave: int64(n)}, nil)
			if err != nil {
				t.Fatal(err)
			}
			r := imbalance(res.Workers)
			var per, replayed, steals string
			for _, w := range res.Workers {
				per += fmt.Sprintf(" %d", w.Expanded)
				replayed += fmt.Sprintf(" %d", w.Replayed)
				steals += fmt.Sprintf(" %d", w.Steals)
			}
			t.Logf("%s, %d workers: %d states, max/mean %.3f; expanded%s; replayed%s; steals%s", c.name, n, res.Stats.Expanded, r, per, replayed, steals)
			if r > 1.25 {
				t.Errorf("%s, %d workers: max/mean %.3f > 1.25", c.name, n, r)
			}
		}
	}
}
