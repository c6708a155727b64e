package steal_test

import (
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"certsym/engine"
	"certsym/engine/steal"
	"certsym/internal/budget"
	"certsym/internal/testprog"
	"certsym/spec/syntax"
	"certsym/spec/syntax/parser"
)

// BenchmarkWorkers measures states expanded per second by the single run (engine.FindBugs, one
// goroutine: what run --workers 1 was) and by the partitioned run with 1 and 2 workers, on the open
// gcd (1,000,000 states), 18 independent ifs (to the end: 786,431 states) and the comb (to the
// end), with GOMAXPROCS 2, the three run alternately. On a machine shared with other work the
// speedup is the one measured under that load.
func BenchmarkWorkers(b *testing.B) {
	gcd, err := parser.ParseFile(filepath.Join(testprog.Root(), "engine", "testdata", "gcd.imp"))
	if err != nil {
		b.Fatal(err)
	}
	for _, c := range []struct {
		name   string
		prog   *syntax.Program
		states int
	}{
		{"gcd", gcd, 1_000_000},
		{"ifs18", testprog.Parse(b, testprog.IndependentIfs(18)), 0},
		{"comb", testprog.Parse(b, Comb), 0},
	} {
		b.Run(c.name, func(b *testing.B) {
			defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(2))
			var wall [3]time.Duration
			states := 0
			for i := 0; i < b.N; i++ {
				for k := 0; k < 3; k++ {
					runtime.GC()
					opts := engine.Options{Limits: budget.Limits{MaxStates: c.states}, AllBugs: true}
					start := time.Now()
					var rep *engine.Report
					if k == 0 {
						e := engine.New(c.prog, opts)
						if rep, err = e.FindBugs(nil); err != nil {
							b.Fatal(err)
						}
						e.Close()
					} else {
						opts.Workers = k
						res, err := steal.Run(c.prog, steal.Options{Options: opts}, nil)
						if err != nil {
							b.Fatal(err)
						}
						rep = res.Report
					}
					wall[k] += time.Since(start)
					if k > 0 && rep.Stats.Expanded != states {
						b.Fatalf("%d workers: %d states, the single run %d", k, rep.Stats.Expanded, states)
					}
					states = rep.Stats.Expanded
				}
			}
			rate := func(k int) float64 { return float64(states) * float64(b.N) / wall[k].Seconds() }
			b.ReportMetric(float64(states), "states")
			b.ReportMetric(rate(0), "states/s-single")
			b.ReportMetric(rate(1), "states/s-w1")
			b.ReportMetric(rate(2), "states/s-w2")
			b.ReportMetric(rate(2)/rate(1), "speedup-w2")
			b.ReportMetric(rate(1)/rate(0), "w1/single")
		})
	}
}
