package engine

import (
	"fmt"
	"runtime"
	"syscall"
	"testing"
	"time"

	"gonum.org/v1/gonum/stat"

	"certsym/internal/budget"
	"certsym/internal/testprog"
	"certsym/spec/syntax"
	"certsym/spec/syntax/parser"
)

// explore runs the breadth-first bug finder's run stream on prog for n states and returns the
// engine, the wall time and the bytes allocated.
func explore(tb testing.TB, prog *syntax.Program, n int) (*Engine, time.Duration, uint64) {
	return exploreOpts(tb, prog, n, Options{})
}

// exploreOpts is explore with options (MaxStates is set to n).
func exploreOpts(tb testing.TB, prog *syntax.Program, n int, opts Options) (*Engine, time.Duration, uint64) {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	start := time.Now()
	opts.Limits = budget.Limits{MaxStates: n}
	e := New(prog, opts)
	for {
		if _, ok := e.NextState(); !ok {
			break
		}
	}
	d := time.Since(start)
	runtime.ReadMemStats(&after)
	if e.Stats.Expanded != n {
		tb.Fatalf("%s: expanded %d states, want %d (%s)", prog.File, e.Stats.Expanded, n, e.Stopped())
	}
	return e, d, after.TotalAlloc - before.TotalAlloc
}

// BenchmarkCaseStudies measures states expanded per second, solver queries per second and the
// fraction of time spent inside Z3 on the three case studies with unbounded inputs, pruning on.
// The target for factorial is 150,000 states in under 1.5 s on one core.
func BenchmarkCaseStudies(b *testing.B) {
	for _, c := range []struct {
		name   string
		states int
	}{{"factorial", 150_000}, {"isqrt", 150_000}, {"gcd", 20_000}} {
		prog, err := parser.ParseFile("testdata/" + c.name + ".imp")
		if err != nil {
			b.Fatal(err)
		}
		b.Run(fmt.Sprintf("%s/states=%d", c.name, c.states), func(b *testing.B) {
			var total, last time.Duration
			var e *Engine
			var alloc uint64
			for i := 0; i < b.N; i++ {
				e, last, alloc = explore(b, prog, c.states)
				total += last
			}
			per := total / time.Duration(b.N)
			s := e.solver.Stats
			b.ReportMetric(per.Seconds(), "s/run")
			b.ReportMetric(float64(c.states)/per.Seconds(), "states/s")
			b.ReportMetric(float64(s.Queries)/per.Seconds(), "queries/s")
			b.ReportMetric(float64(s.Queries), "queries/run")
			b.ReportMetric(s.Time.Seconds()/last.Seconds(), "z3-fraction") // of the last run, whose stats s are
			b.ReportMetric(float64(alloc)/float64(c.states), "allocB/state")
		})
	}
}

// BenchmarkScaling checks that cost is linear in the number of states (a real FIFO queue): it
// times factorial at growing state counts, fits time = a + b·states with gonum's least squares,
// and reports the slope (ns per state), R² of the fit, and the ratio of the per-state cost of the
// largest run to the smallest (1 for linear cost, growing with the state count if quadratic).
func BenchmarkScaling(b *testing.B) {
	prog, err := parser.ParseFile("testdata/factorial.imp")
	if err != nil {
		b.Fatal(err)
	}
	sizes := []int{50_000, 100_000, 200_000, 400_000, 800_000}
	for i := 0; i < b.N; i++ {
		xs := make([]float64, len(sizes))
		ys := make([]float64, len(sizes))
		var heapPerState []float64
		for k, n := range sizes {
			_, d, _ := explore(b, prog, n)
			xs[k], ys[k] = float64(n), float64(d.Nanoseconds())
			var ms runtime.MemStats
			runtime.ReadMemStats(&ms)
			heapPerState = append(heapPerState, float64(ms.HeapInuse)/float64(n))
		}
		alpha, beta := stat.LinearRegression(xs, ys, nil, false)
		r2 := stat.RSquared(xs, ys, nil, alpha, beta)
		b.ReportMetric(beta, "ns/state")
		b.ReportMetric(r2, "R²")
		b.ReportMetric((ys[len(ys)-1]/xs[len(xs)-1])/(ys[0]/xs[0]), "cost-ratio")
		b.ReportMetric(heapPerState[len(heapPerState)-1], "heapB/state")
	}
}

// BenchmarkStrategies compares the cost per state of the strategies on a loop with a branch in
// its body, unpruned, whose frontier grows past 100,000 pending states: the fair strategies'
// picks must stay logarithmic (coverage: a heap with lazy re-scoring) or proportional to the
// branchings on a path (random-path), not linear in the pending states.
func BenchmarkStrategies(b *testing.B) {
	prog := testprog.Parse(b, "i = 0;\nwhile i < n do\n  if a > i then s = s + 1 else s = s - 1 fi;\n  i = i + 1\nod;\nassert s != 1000")
	const n = 700_000
	for _, s := range []Strategy{BFS, DFS, Coverage, RandomPath} {
		b.Run(s.String(), func(b *testing.B) {
			var total time.Duration
			var pending int
			for i := 0; i < b.N; i++ {
				start := time.Now()
				e := New(prog, Options{Strategy: s, Limits: budget.Limits{MaxStates: n}, NoPrune: true})
				for {
					if _, ok := e.NextState(); !ok {
						break
					}
				}
				total += time.Since(start)
				pending = e.Pending()
			}
			per := total / time.Duration(b.N)
			b.ReportMetric(per.Seconds(), "s/run")
			b.ReportMetric(float64(n)/per.Seconds(), "states/s")
			b.ReportMetric(float64(pending), "pending")
		})
	}
}

// BenchmarkSolverCaching measures the solver caching (solver/cache.go) with the caching
// on and off in the same run: time, solver queries (Check calls the path condition's facts did
// not decide), the queries that reached Z3, and the share of the queries each layer answered,
// on the open gcd (20,000 and 100,000 states), factorial, isqrt, and the jm2006 reproduction
// (5,000 to 40,000 states; per-state cost should be flat with the caching on). The runs without
// caching of jm2006 stop at 10,000 states (their cost grows with the square of the depth: 40,000
// states would take minutes). Run it once: go test ./engine -run - -bench SolverCaching -benchtime 1x
func BenchmarkSolverCaching(b *testing.B) {
	for _, c := range []struct {
		name   string
		states int
		off    bool // also run with the caching off
	}{{"gcd", 20_000, true}, {"gcd", 100_000, true}, {"factorial", 150_000, true}, {"isqrt", 150_000, true},
		{"jm2006", 5_000, true}, {"jm2006", 10_000, true}, {"jm2006", 20_000, false}, {"jm2006", 40_000, false}} {
		prog, err := parser.ParseFile("testdata/" + c.name + ".imp")
		if err != nil {
			b.Fatal(err)
		}
		for _, off := range []bool{false, true} {
			if off && !c.off {
				continue
			}
			mode := "cache=on"
			if off {
				mode = "cache=off"
			}
			b.Run(fmt.Sprintf("%s/states=%d/%s", c.name, c.states, mode), func(b *testing.B) {
				var total time.Duration
				var e *Engine
				cpu0 := cpuTime()
				for i := 0; i < b.N; i++ {
					var d time.Duration
					e, d, _ = exploreOpts(b, prog, c.states, Options{NoCache: off})
					total += d
				}
				cpu := (cpuTime() - cpu0) / time.Duration(b.N)
				per := total / time.Duration(b.N)
				// the process's CPU time (Z3 included) is steadier than wall time on a shared machine
				b.ReportMetric(cpu.Seconds(), "cpu-s/run")
				b.ReportMetric(float64(cpu.Microseconds())/float64(c.states), "cpu-µs/state")
				s := e.solver.Stats
				rate := func(n int) float64 {
					if s.Queries == 0 {
						return 0
					}
					return float64(n) / float64(s.Queries)
				}
				b.ReportMetric(per.Seconds(), "s/run")
				b.ReportMetric(float64(per.Microseconds())/float64(c.states), "µs/state")
				b.ReportMetric(float64(s.Queries), "queries/run")
				b.ReportMetric(float64(s.Z3Queries), "z3-queries/run")
				b.ReportMetric(float64(s.Sliced), "sliced/run")
				b.ReportMetric(rate(s.CacheHits), "cache-hit-rate")
				b.ReportMetric(rate(s.CexModelHits), "cex-model-hit-rate")
				b.ReportMetric(rate(s.CexUnsatHits), "cex-unsat-hit-rate")
				b.ReportMetric(rate(s.RepairHits), "repair-hit-rate")
				b.ReportMetric(rate(s.SliceEmpty), "slice-empty-rate")
			})
		}
	}
}

// cpuTime is the process's user and system CPU time so far.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// insertionSort is the insertion sort of n symbolic elements a[0..n-1] with its sortedness
// asserted with forall; the inner loop tests j < 0 before reading a[j] (evaluation is
// strict).
func insertionSort(n int) string {
	return fmt.Sprintf(`array a[0..%[1]d];
i = 1;
while i <= %[1]d do
  v = a[i];
  j = i - 1;
  done = 0;
  while done == 0 do
    if j < 0 then
      done = 1
    else
      if a[j] > v then
        a[j + 1] = a[j];
        j = j - 1
      else
        done = 1
      fi
    fi
  od;
  a[j + 1] = v;
  i = i + 1
od;
assert forall k in 0..%[2]d: a[k] <= a[k + 1]`, n-1, n-2)
}

// BenchmarkInsertionSort is the exhaustive run (breadth-first, pruning on) of the insertion sort
// of 4, 5, 6 and 7 symbolic elements, sortedness asserted with forall, which must finish safe:
// states expanded, solver queries (and those that reached Z3) and time. Run it once:
// go test ./engine -run - -bench InsertionSort -benchtime 1x
func BenchmarkInsertionSort(b *testing.B) {
	for _, n := range []int{4, 5, 6, 7} {
		prog := testprog.Parse(b, insertionSort(n))
		b.Run(fmt.Sprintf("elements=%d", n), func(b *testing.B) {
			var total time.Duration
			var rep *Report
			for i := 0; i < b.N; i++ {
				start := time.Now()
				var err error
				rep, err = New(prog, Options{}).FindBugs(nil)
				total += time.Since(start)
				if err != nil {
					b.Fatal(err)
				}
				if rep.Verdict != VerdictSafe {
					b.Fatalf("insertion sort of %d elements: %v (%s), want safe", n, rep.Verdict, rep.Reason)
				}
			}
			per := total / time.Duration(b.N)
			s := rep.Stats
			b.ReportMetric(per.Seconds(), "s/run")
			b.ReportMetric(float64(s.Expanded), "states")
			b.ReportMetric(float64(s.Pruned), "pruned")
			b.ReportMetric(float64(s.Solver.Queries), "queries")
			b.ReportMetric(float64(s.Solver.Z3Queries), "z3-queries")
			b.ReportMetric(s.Solver.Time.Seconds(), "z3-s")
		})
	}
}

// liveHeap is the heap in use by reachable objects after a full collection (HeapAlloc right
// after runtime.GC: the collection frees every unreachable object).
func liveHeap() uint64 {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.HeapAlloc
}

// wideLoop is a loop whose body branches on an input unpruned: the breadth-first frontier grows by
// about one pending state per iteration, so its size is known from the states expanded.
const wideLoop = "i = 0;\nwhile i < n do\n  if a > i then s = s + 1 else s = s - 1 fi;\n  i = i + 1\nod;\nassert s != 1000"

// BenchmarkMemory measures the memory of the run. pending=N: the live heap (after a
// collection, less the heap before the engine was made) per pending state, with a breadth-first
// frontier of N states on wideLoop unpruned: what one more pending state costs, its share of the
// path-condition nodes and stores it shares with its neighbours included. factorial/states=1000000:
// the open factorial's first million states, pruning on; the peak heap in use (sampled every 2^14
// states), the live heap at the end, and the peak resident set of the test process (getrusage: it
// covers every benchmark run before it in the same process, so it is an upper bound). The target
// is 1,000,000 factorial states in under 200 MB.
func BenchmarkMemory(b *testing.B) {
	wide := testprog.Parse(b, wideLoop)
	for _, want := range []int{100_000, 400_000} {
		b.Run(fmt.Sprintf("pending=%d", want), func(b *testing.B) {
			var perState float64
			for i := 0; i < b.N; i++ {
				base := liveHeap()
				e := New(wide, Options{NoPrune: true})
				for e.Pending() < want {
					if _, ok := e.NextState(); !ok {
						b.Fatalf("the run ended with %d pending states, before %d", e.Pending(), want)
					}
				}
				live := liveHeap()
				perState = float64(live-base) / float64(e.Pending())
				runtime.KeepAlive(e)
			}
			b.ReportMetric(perState, "B/pending-state")
		})
	}
	prog, err := parser.ParseFile("testdata/factorial.imp")
	if err != nil {
		b.Fatal(err)
	}
	const n = 1_000_000
	b.Run(fmt.Sprintf("factorial/states=%d", n), func(b *testing.B) {
		var peak, live, base uint64
		var pending int
		for i := 0; i < b.N; i++ {
			base = liveHeap()
			peak = 0
			e := New(prog, Options{Limits: budget.Limits{MaxStates: n}})
			var ms runtime.MemStats
			for {
				if _, ok := e.NextState(); !ok {
					break
				}
				if e.Stats.Expanded&(1<<14-1) == 0 {
					runtime.ReadMemStats(&ms)
					peak = max(peak, ms.HeapInuse)
				}
			}
			if e.Stats.Expanded != n {
				b.Fatalf("expanded %d states, want %d (%s)", e.Stats.Expanded, n, e.Stopped())
			}
			pending = e.Pending()
			live = liveHeap()
			runtime.KeepAlive(e)
		}
		b.ReportMetric(float64(peak)/(1<<20), "peak-heap-MB")
		b.ReportMetric(float64(live-base)/(1<<20), "live-heap-MB")
		b.ReportMetric(float64(pending), "pending")
		b.ReportMetric(float64(maxRSS())/(1<<20), "process-peak-rss-MB")
	})
}

// maxRSS is the peak resident set size of the process so far, in bytes (getrusage: Linux reports
// it in KiB).
func maxRSS() int64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return ru.Maxrss << 10
}

// BenchmarkWorkers measures the states expanded per second with 1 and 2 workers (Options.Workers,
// parallel.go) on the open gcd and factorial, pruning and caching on, and the speedup of 2
// workers over 1 in the same process. Both run with GOMAXPROCS 2 (make bench runs the other
// benchmarks with -cpu 1), so that the garbage collector has the second core in both and the
// speedup is the workers' alone; the two are run alternately. cores-w1 and cores-w2 are the
// process's CPU time (user and system, the garbage collector's included) over the wall time of
// the runs: what one worker already takes of the second core bounds the speedup (at most
// 2/cores-w1 on two cores). On a machine shared with other work the speedup is the one measured
// under that load. GOGC=off in the environment measures the bound without the collector.
func BenchmarkWorkers(b *testing.B) {
	for _, c := range []struct {
		name   string
		states int
	}{{"gcd", 100_000}, {"factorial", 1_000_000}} {
		prog, err := parser.ParseFile("testdata/" + c.name + ".imp")
		if err != nil {
			b.Fatal(err)
		}
		b.Run(fmt.Sprintf("%s/states=%d", c.name, c.states), func(b *testing.B) {
			defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(2))
			var wall, cpu [3]time.Duration
			var batches int
			for i := 0; i < b.N; i++ {
				for _, w := range []int{1, 2} {
					runtime.GC()
					cpu0, start := cpuTime(), time.Now()
					e := New(prog, Options{Workers: w, Limits: budget.Limits{MaxStates: c.states}})
					for {
						if _, ok := e.NextState(); !ok {
							break
						}
					}
					wall[w] += time.Since(start)
					cpu[w] += cpuTime() - cpu0
					if e.Stats.Expanded != c.states {
						b.Fatalf("expanded %d states, want %d (%s)", e.Stats.Expanded, c.states, e.Stopped())
					}
					if w == 2 {
						batches = e.batches
					}
				}
			}
			rate := func(w int) float64 { return float64(c.states) * float64(b.N) / wall[w].Seconds() }
			b.ReportMetric(rate(1), "states/s-w1")
			b.ReportMetric(rate(2), "states/s-w2")
			b.ReportMetric(cpu[1].Seconds()/wall[1].Seconds(), "cores-w1")
			b.ReportMetric(cpu[2].Seconds()/wall[2].Seconds(), "cores-w2")
			b.ReportMetric(float64(batches), "batches-w2")
			b.ReportMetric(rate(2)/rate(1), "speedup-w2")
		})
	}
}

// BenchmarkRandomPathDepth measures random-path's cost per state on a long counting loop, whose
// execution tree is one path as deep as the run is long (each iteration branches once, and the
// exit finishes at once): at 25,000, 50,000 and 100,000 states the cost per state should stay
// flat, as breadth-first search's does, not grow with the depth of the path.
func BenchmarkRandomPathDepth(b *testing.B) {
	prog := testprog.Parse(b, "i = 0;\nwhile i < n do\n  i = i + 1\nod")
	for _, n := range []int{25_000, 50_000, 100_000} {
		for _, s := range []Strategy{BFS, RandomPath} {
			b.Run(fmt.Sprintf("%v/states=%d", s, n), func(b *testing.B) {
				var total time.Duration
				cpu0 := cpuTime()
				for i := 0; i < b.N; i++ {
					e, d, _ := exploreOpts(b, prog, n, Options{Strategy: s})
					total += d
					if s == RandomPath && e.Stats.MaxDepth < n/2 {
						b.Fatalf("depth %d after %d states: the path is not deep", e.Stats.MaxDepth, n)
					}
				}
				per := total / time.Duration(b.N)
				cpu := (cpuTime() - cpu0) / time.Duration(b.N)
				b.ReportMetric(per.Seconds(), "s/run")
				b.ReportMetric(float64(per.Nanoseconds())/float64(n), "ns/state")
				b.ReportMetric(float64(cpu.Nanoseconds())/float64(n), "cpu-ns/state") // steadier on a shared machine
			})
		}
	}
}
