package mergesearch

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"syscall"
	"testing"
	"time"

	"certsym/engine"
	"certsym/internal/budget"
	"certsym/internal/corpus"
	"certsym/internal/testprog"
	"certsym/spec/syntax"
	"certsym/spec/syntax/parser"
)

// benchRun runs the bug finder on prog once with opts, with merging or without, and reports its
// states expanded, solver queries (and those Z3 answered), merges, time and the process's CPU
// time (Z3's and the collector's included: on a machine shared with other jobs, the less noisy of
// the two).
func benchRun(b *testing.B, prog *syntax.Program, opts engine.Options, merging bool) {
	b.Helper()
	var ms *Searcher
	if merging {
		opts.Merge = Option(&ms)
	}
	runtime.GC() // the garbage of the runs before is not this run's
	cpu0, start := cpuTime(), time.Now()
	e := engine.New(prog, opts)
	rep, err := e.FindBugs(nil)
	wall := time.Since(start)
	e.Close()
	cpu := cpuTime() - cpu0
	if err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(wall.Seconds(), "s/run")
	b.ReportMetric(cpu.Seconds(), "cpu-s/run")
	b.ReportMetric(float64(rep.Stats.Expanded), "states")
	b.ReportMetric(float64(rep.Stats.Solver.Queries), "queries")
	b.ReportMetric(float64(rep.Stats.Solver.Z3Queries), "z3-queries")
	if ms != nil {
		b.ReportMetric(float64(ms.Stats.Merges), "merges")
	}
}

// cpuTime is the CPU time (user and system) the process has used so far.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// long says whether the benchmarks that take minutes a run are on (CERTSYM_BENCH_LONG set).
func long() bool { return os.Getenv("CERTSYM_BENCH_LONG") != "" }

// BenchmarkMergeIfs runs the chains of ifs of the merging targets to their end, without and
// with merging, in one process: testprog.NonlinearIfs(13) (8,192 paths, a product in each
// condition) exhaustively, and testprog.IndependentIfs(18) (262,144 paths meeting again at
// different depths, then an assert that fails) to its first bug and, with --all-bugs, to its
// end. The runs without merging that take minutes (13 nonlinear ifs: about a minute; 18 linear
// ifs: longer) run only with CERTSYM_BENCH_LONG set; 10 nonlinear ifs always give a before and an
// after. docs/merging.md records the figures.
func BenchmarkMergeIfs(b *testing.B) {
	for _, c := range []struct {
		name string
		src  string
		opts engine.Options
		slow bool // the run without merging takes minutes
	}{
		{"nonlinear-10", testprog.NonlinearIfs(10), engine.Options{}, false},
		{"nonlinear-13", testprog.NonlinearIfs(13), engine.Options{}, true},
		{"linear-18", testprog.IndependentIfs(18), engine.Options{}, true},
		{"linear-18-all-bugs", testprog.IndependentIfs(18), engine.Options{AllBugs: true}, true},
	} {
		prog := testprog.Parse(b, c.src)
		for _, merging := range []bool{false, true} {
			b.Run(fmt.Sprintf("%s/merge=%v", c.name, merging), func(b *testing.B) {
				if c.slow && !merging && !long() {
					b.Skip("set CERTSYM_BENCH_LONG=1 for the run without merging (minutes)")
				}
				for i := 0; i < b.N; i++ {
					benchRun(b, prog, c.opts, merging)
				}
			})
		}
	}
}

// BenchmarkMergeCaseStudies runs the case studies without and with merging, alternately in one
// process (so that the load of a shared machine weighs on both alike): the unbounded factorial,
// gcd and isqrt of engine/testdata for as many states as BenchmarkCaseStudies gives them, three
// pairs of runs an iteration, and the programs of the PyWiSE corpus (when it is beside the
// repository) with --all-bugs to their end or 5,000 states, ten pairs an iteration (a run takes
// milliseconds). It reports each side's states, time and CPU time per run (plain-*, merge-*) and
// cpu-ratio, the CPU time with merging over the CPU time without. The target: a cpu-ratio of at
// most 1.2.
func BenchmarkMergeCaseStudies(b *testing.B) {
	type study struct {
		file   string
		states int
		all    bool
		reps   int // pairs of runs an iteration
	}
	studies := []study{
		{"../testdata/factorial.imp", 150_000, false, 3},
		{"../testdata/isqrt.imp", 150_000, false, 3},
		{"../testdata/gcd.imp", 20_000, false, 3},
	}
	if dir := corpus.Dir(); dir != "" {
		files, _ := filepath.Glob(filepath.Join(dir, "*.imp"))
		for _, f := range files {
			studies = append(studies, study{f, 5_000, true, 10})
		}
	}
	for _, s := range studies {
		prog, err := parser.ParseFile(s.file)
		if err != nil {
			b.Fatal(err)
		}
		opts := engine.Options{Limits: budget.Limits{MaxStates: s.states}, AllBugs: s.all}
		b.Run(filepath.Base(s.file), func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				var wall, cpu [2]time.Duration
				var states [2]int
				for r := 0; r < s.reps; r++ {
					for side, merging := range []bool{false, true} {
						o := opts
						if merging {
							o.Merge = New
						}
						runtime.GC() // the garbage of the runs before is not this run's
						cpu0, start := cpuTime(), time.Now()
						e := engine.New(prog, o)
						rep, err := e.FindBugs(nil)
						wall[side] += time.Since(start)
						e.Close()
						cpu[side] += cpuTime() - cpu0
						if err != nil {
							b.Fatal(err)
						}
						states[side] = rep.Stats.Expanded
					}
				}
				for side, name := range []string{"plain", "merge"} {
					b.ReportMetric(float64(states[side]), name+"-states")
					b.ReportMetric(wall[side].Seconds()/float64(s.reps), name+"-s/run")
					b.ReportMetric(cpu[side].Seconds()/float64(s.reps), name+"-cpu-s/run")
				}
				b.ReportMetric(cpu[1].Seconds()/cpu[0].Seconds(), "cpu-ratio")
			}
		})
	}
}
