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

// benchRun runs the bug finder on prog reps times with opts, with merging or without, and
// reports the mean of its runs: states expanded, solver queries (and those Z3 answered), merges,
// time and the process's CPU time (Z3's and the collector's included: on a machine shared with
// other jobs, the less noisy of the two).
func benchRun(b *testing.B, prog *syntax.Program, opts engine.Options, merging bool, reps int) {
	b.Helper()
	var wall, cpu time.Duration
	var rep *engine.Report
	var ms *Searcher
	for r := 0; r < reps; r++ {
		o := opts
		if merging {
			o.Merge = func(e *engine.Engine) engine.Merger { ms = Of(New(e)); return ms }
		}
		runtime.GC() // the garbage of the runs before is not this run's
		cpu0, start := cpuTime(), time.Now()
		e := engine.New(prog, o)
		var err error
		rep, err = e.FindBugs(nil)
		wall += time.Since(start)
		e.Close()
		cpu += cpuTime() - cpu0
		if err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(wall.Seconds()/float64(reps), "s/run")
	b.ReportMetric(cpu.Seconds()/float64(reps), "cpu-s/run")
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
					benchRun(b, prog, c.opts, merging, 1)
				}
			})
		}
	}
}

// BenchmarkMergeCaseStudies runs the case studies without and with merging, in one process: the
// unbounded factorial, gcd and isqrt of engine/testdata for as many states as
// BenchmarkCaseStudies gives them, and the programs of the PyWiSE corpus (when it is beside the
// repository) with --all-bugs to their end or 5,000 states, ten runs an iteration (a run takes
// milliseconds). The target: merging no slower than 1.2 times the run without it (the ratio of
// the cpu-s/run metrics).
func BenchmarkMergeCaseStudies(b *testing.B) {
	type study struct {
		file   string
		states int
		all    bool
		reps   int // runs an iteration: the short ones are run several times
	}
	studies := []study{
		{"../testdata/factorial.imp", 150_000, false, 1},
		{"../testdata/isqrt.imp", 150_000, false, 1},
		{"../testdata/gcd.imp", 20_000, false, 1},
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
		for _, merging := range []bool{false, true} {
			b.Run(fmt.Sprintf("%s/merge=%v", filepath.Base(s.file), merging), func(b *testing.B) {
				for i := 0; i < b.N; i++ {
					benchRun(b, prog, opts, merging, s.reps)
				}
			})
		}
	}
}
