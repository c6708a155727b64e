package engine

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"certsym/internal/budget"
	"certsym/internal/testprog"
	"certsym/spec"
	"certsym/spec/syntax"
	"certsym/spec/syntax/parser"
)

// runTranscript runs prog with opts and renders everything a run reports: the stream of states
// (depth, path condition, and the number of successors queued), the verdict and reason, each bug
// (statement, kind, input, depth, path condition, replay), and the counters (the solver's time
// left out). Two runs print the same text when they are the same run.
func runTranscript(t *testing.T, prog *syntax.Program, opts Options) (string, *Engine) {
	t.Helper()
	e := New(prog, opts)
	names := e.Names()
	var b strings.Builder
	var bugs []*Bug
	for {
		s, err := e.Next()
		if err != nil {
			fmt.Fprintf(&b, "error: %v\n", err)
			break
		}
		if s.Kind == Finished || s.Kind == Stopped {
			fmt.Fprintf(&b, "%v\n", s.Kind)
			break
		}
		fmt.Fprintf(&b, "%v depth %d pending %d pc %s\n", s.Kind, s.State.Depth, e.Pending(), s.State.PC.String(names))
		if s.Kind == BugFound {
			bugs = append(bugs, s.Bug)
			if !opts.AllBugs {
				break
			}
		}
	}
	rep := e.Verdict(bugs)
	fmt.Fprintf(&b, "verdict %v reason %q\n", rep.Verdict, rep.Reason)
	for _, bug := range rep.Bugs {
		fmt.Fprintf(&b, "bug %s line %d input %s depth %d replay %v/%d\n", bug.Kind(), bug.Line(),
			spec.InputString(bug.Input, names), bug.State.Depth, bug.Replay.Outcome, bug.Replay.Steps)
	}
	st := rep.Stats
	st.Solver.Time = 0
	fmt.Fprintf(&b, "stats %+v\n", st)
	return b.String(), e
}

// TestWorkersCorpus runs every program of the corpus (testdata/, the PyWiSE programs when
// present; 5,000 states each) and the case studies of engine/testdata (20,000 states) with 1, 2
// and 4 workers, first bug and --all-bugs, and compares the whole transcripts: the states of the
// stream in order, the bugs, their inputs, the verdict and the counters must be the same. The
// programs the workers stay off (ParallelOK) are left out: their runs are one worker's. Each run
// is made with the default batch threshold and with batches from 2 states on, so that the small
// programs' narrow queues are expanded in batches too; the test checks that they were (else the
// comparison would test nothing).
func TestWorkersCorpus(t *testing.T) {
	files := testprog.Corpus(t)
	if len(files) < 40 {
		t.Fatalf("found %d programs, want at least 40", len(files))
	}
	cases, _ := filepath.Glob("testdata/*.imp")
	bound := map[string]int{}
	for _, f := range cases {
		bound[f] = 20_000
	}
	files = append(files, cases...)
	parallel := map[string]int{}
	small := map[string]bool{}
	compared, batched := 0, 0
	defer func(m int) { minPerWorker = m }(minPerWorker)
	for _, file := range files {
		prog, err := parser.ParseFile(file)
		if err != nil || !ParallelOK(prog) {
			continue // the corpus holds programs that must be rejected
		}
		compared++
		n := bound[file]
		if n == 0 {
			n = 5_000
		}
		for _, all := range []bool{false, true} {
			opts := Options{AllBugs: all, Limits: budget.Limits{MaxStates: n}}
			want, _ := runTranscript(t, prog, opts)
			for _, w := range []int{2, 4} {
				for _, m := range []int{64, 1} { // the default batch threshold, and batches of 2 states on
					minPerWorker = m
					opts.Workers = w
					got, e := runTranscript(t, prog, opts)
					if m == 64 {
						parallel[filepath.Base(file)] += e.batches
					} else if e.batches > 0 {
						small[filepath.Base(file)] = true
					}
					if got != want {
						t.Errorf("%s (all-bugs %v, batch threshold %d): %d workers differ from one:\n%s", file, all, 2*m, w, firstDiff(want, got))
					}
				}
			}
		}
	}
	for _, n := range parallel {
		if n > 0 {
			batched++
		}
	}
	t.Logf("%d programs compared, %d of them expanded in batches, %d with batches of 2 states on", compared, batched, len(small))
	if !(parallel["gcd.imp"] > 0) {
		t.Errorf("gcd.imp: the workers computed no batch")
	}
	if len(small) < compared/2 {
		t.Errorf("with batches of 2 states on, %d of %d programs expanded in batches, want at least half", len(small), compared)
	}
}

// firstDiff shows the first line where two transcripts differ.
func firstDiff(a, b string) string {
	la, lb := strings.Split(a, "\n"), strings.Split(b, "\n")
	for i := 0; i < len(la) || i < len(lb); i++ {
		var x, y string
		if i < len(la) {
			x = la[i]
		}
		if i < len(lb) {
			y = lb[i]
		}
		if x != y {
			return fmt.Sprintf("line %d:\n  one: %s\n  got: %s", i+1, x, y)
		}
	}
	return "(same)"
}

// TestWorkersParallelOK: the workers stay off the programs whose expansion creates atoms, off
// the other strategies and off runs without pruning.
func TestWorkersParallelOK(t *testing.T) {
	for _, c := range []struct {
		src string
		ok  bool
	}{
		{"x = x + 2 * y; assert x != 3", true},
		{"x = y * 2 - 1", true},
		{"x = x * y", false},
		{"x = x / 2", false},
		{"x = x % 3", false},
		{"array a[0..2]; x = a[1]", false},
		{"array a[0..2]; assert forall k in 0..2: a[k] >= 0", false},
	} {
		if got := ParallelOK(testprog.Parse(t, c.src)); got != c.ok {
			t.Errorf("ParallelOK(%q) = %v, want %v", c.src, got, c.ok)
		}
	}
	prog := testprog.Parse(t, "x = x + 1")
	for _, c := range []struct {
		opts Options
		want int
	}{
		{Options{Workers: 4}, 4},
		{Options{Workers: 4, Strategy: DFS}, 1},
		{Options{Workers: 4, Strategy: Coverage}, 1},
		{Options{Workers: 4, NoPrune: true}, 1},
		{Options{}, 1},
	} {
		if got := New(prog, c.opts).workers; got != c.want {
			t.Errorf("%+v: %d workers, want %d", c.opts, got, c.want)
		}
	}
	if got := New(testprog.Parse(t, "x = x * y"), Options{Workers: 4}).workers; got != 1 {
		t.Errorf("a product of two variables: %d workers, want 1", got)
	}
}
