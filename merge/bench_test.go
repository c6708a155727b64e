package merge

import (
	"fmt"
	"os"
	"testing"

	"certsym/engine"
	"certsym/internal/testprog"
	"certsym/pathcond"
)

// BenchmarkIndependentIfs runs the program of k independent ifs breadth-first to its end, with
// and without merging the states of each level that have the same remaining program (the states
// meet at each join), and reports the final states, the states expanded and the solver's Z3
// queries. Without merging, k=13 runs only with CERTSYM_BENCH_LONG set (make bench would spend
// five minutes on it). Measured once on the 2-core machine: k=10, 4.7 s and 4,091 states expanded
// without merging (1,024 final states, 1,023 Z3 queries), 0.34 s and 39 with (1 final state, 10
// merges, 10 Z3 queries); k=13, 64 s and 32,763 without (8,192 final states, 8,191 Z3 queries),
// 0.25 s and 51 with (1 final state, 13 merges, 13 Z3 queries).
func BenchmarkIndependentIfs(b *testing.B) {
	for _, k := range []int{10, 13} {
		for _, merging := range []bool{false, true} {
			name := fmt.Sprintf("k=%d/merge=%v", k, merging)
			b.Run(name, func(b *testing.B) {
				if k == 13 && !merging && os.Getenv("CERTSYM_BENCH_LONG") == "" {
					// 8,192 paths, one Z3 query each: about a minute a run on the 2-core machine
					b.Skip("set CERTSYM_BENCH_LONG=1 to run k=13 without merging (about 64 s a run)")
				}
				p := testprog.Parse(b, testprog.NonlinearIfs(k))
				for i := 0; i < b.N; i++ {
					e := engine.New(p, engine.Options{})
					level, expanded, merges := []*engine.State{e.Initial()}, 0, 0
					for len(level) > 0 {
						var next []*engine.State
						done := 0
						for _, s := range level {
							if s.IsFinal() {
								next = append(next, s)
								done++
								continue
							}
							expanded++
							for _, c := range e.Expand(s, nil) {
								if e.Solver().Check(c.PC) != pathcond.Unsat {
									next = append(next, c)
								}
							}
						}
						if merging {
							var ms []*Merged
							next, ms, _ = Level(e.Terms(), next)
							merges += len(ms)
						}
						if done == len(level) {
							b.ReportMetric(float64(len(level)), "final-states")
							break
						}
						level = next
					}
					b.ReportMetric(float64(expanded), "expanded")
					b.ReportMetric(float64(merges), "merges")
					b.ReportMetric(float64(e.Solver().Stats.Z3Queries), "z3-queries")
					e.Close()
				}
			})
		}
	}
}
