package record_test

import (
	"fmt"
	"path/filepath"
	"testing"

	"certsym/cmd/certsym/internal/record"
	"certsym/cmd/certsym/internal/testcase"
	"certsym/engine"
	"certsym/internal/budget"
	"certsym/internal/testprog"
	"certsym/spec/syntax"
)

// countdown ends a path at each iteration of its loop: a run of n states has about n/5 terminal
// paths, the k-th of which has a path condition of k conjuncts (bounds of n, printed as one
// interval).
const countdown = "i = 0;\nwhile i < n do\n  i = i + 1\nod\n"

// BenchmarkTests measures what run --tests adds to a run, at three sizes of the run: none is the
// run alone; record adds the recorder, which keeps the terminal paths and renders their path
// conditions, and gathers the test cases; write also writes one file per test case. A cost
// linear in the run doubles with its size.
func BenchmarkTests(b *testing.B) {
	prog := testprog.Parse(b, countdown)
	for _, n := range []int{15_000, 30_000, 60_000} {
		b.Run(fmt.Sprintf("states=%d/none", n), func(b *testing.B) {
			for b.Loop() {
				eng := engine.New(prog, engine.Options{Limits: budget.Limits{MaxStates: n}})
				if _, err := eng.FindBugs(nil); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(fmt.Sprintf("states=%d/record", n), func(b *testing.B) {
			cases := 0
			for b.Loop() {
				cases = len(recordTests(b, prog, n).Cases)
			}
			b.ReportMetric(float64(cases), "cases")
		})
		b.Run(fmt.Sprintf("states=%d/write", n), func(b *testing.B) {
			files := 0
			for b.Loop() {
				paths, err := testcase.Write(filepath.Join(b.TempDir(), "tests"), recordTests(b, prog, n), func() bool { return false })
				if err != nil {
					b.Fatal(err)
				}
				files = len(paths)
			}
			b.ReportMetric(float64(files), "files")
		})
	}
}

// recordTests runs the bug finder on prog for n states with a recorder of test cases, and returns
// them.
func recordTests(b *testing.B, prog *syntax.Program, n int) testcase.Set {
	rec := record.New(prog, true, false, 1)
	eng := engine.New(prog, engine.Options{Limits: budget.Limits{MaxStates: n}, Observer: rec})
	if _, err := eng.FindBugs(nil); err != nil {
		b.Fatal(err)
	}
	rec.Finish()
	return rec.TestCases("p.imp", []byte(countdown))
}
