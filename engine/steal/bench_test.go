package steal_test

import (
	"path/filepath"
	"runtime"
	"runtime/debug"
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
// gcd (1,000,000 states), 18 independent ifs (to the end: 1,835,004 states) and the comb (to the
// end), with GOMAXPROCS 2, the three run alternately. On a machine shared with other work the
// speedup is the one measured under that load.
// allocB/state and allocs/state are the single run's bytes and allocations per state expanded.
// The garbage collector is paced as the command paces it (budget.PaceGC).
func BenchmarkWorkers(b *testing.B) {
	prev := debug.SetGCPercent(100)
	debug.SetGCPercent(prev)
	budget.PaceGC(0)
	defer debug.SetGCPercent(prev)
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
			var bytes, allocs uint64 // allocated by the single runs
			states := 0
			for i := 0; i < b.N; i++ {
				for k := 0; k < 3; k++ {
					runtime.GC()
					opts := engine.Options{Limits: budget.Limits{MaxStates: c.states}, AllBugs: true}
					start := time.Now()
					var rep *engine.Report
					if k == 0 {
						var before, after runtime.MemStats
						runtime.ReadMemStats(&before)
						e := engine.New(c.prog, opts)
						if rep, err = e.FindBugs(nil); err != nil {
							b.Fatal(err)
						}
						e.Close()
						runtime.ReadMemStats(&after)
						bytes += after.TotalAlloc - before.TotalAlloc
						allocs += after.Mallocs - before.Mallocs
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
			b.ReportMetric(float64(bytes)/float64(states*b.N), "allocB/state")
			b.ReportMetric(float64(allocs)/float64(states*b.N), "allocs/state")
		})
	}
}
