package steal

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"certsym/engine"
	"certsym/internal/budget"
	"certsym/internal/testprog"
	"certsym/spec"
	"certsym/spec/syntax"
	"certsym/spec/syntax/parser"
	"certsym/sym"
)

// testLimits are the bounds of the tests' runs: the command's query bounds, few states.
func testLimits(states int) budget.Limits {
	return budget.Limits{MaxStates: states, QueryTimeout: 10 * time.Second, RLimit: 50_000_000}
}

// whole is everything a report says that the command prints: the verdict and reason, each bug
// (place, kind, depth, path condition, input, store, steps) and the counters.
func whole(prog *syntax.Program, rep *engine.Report) string {
	names := sym.SlotNames(prog)
	var b strings.Builder
	fmt.Fprintf(&b, "%v (%s)\n", rep.Verdict, rep.Reason)
	for _, g := range rep.Bugs {
		fmt.Fprintf(&b, "bug %s at %v depth %d\n  pc %s\n  input %s\n  store %s\n  steps %d\n", g.Kind(), g.Fail.Pos(), g.State.Depth,
			g.State.PC.String(names), spec.InputString(g.Input, names), sym.StoreString(g.State.Store, names), g.Replay.Steps)
	}
	s := rep.Stats
	fmt.Fprintf(&b, "expanded %d produced %d pruned %d depth %d queries %d (%d sat, %d unsat, %d unknown)\n",
		s.Expanded, s.Produced, s.Pruned, s.MaxDepth, s.Solver.Queries, s.Solver.Sat, s.Solver.Unsat, s.Solver.Unknown)
	return b.String()
}

// tree is what a report says that does not depend on the solver's history: the verdict and
// reason, each bug's place, kind and depth, and the counters of the states (not the queries).
func tree(rep *engine.Report) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%v (%s)\n", rep.Verdict, rep.Reason)
	for _, g := range rep.Bugs {
		fmt.Fprintf(&b, "bug %s at %v depth %d\n", g.Kind(), g.Fail.Pos(), g.State.Depth)
	}
	s := rep.Stats
	fmt.Fprintf(&b, "expanded %d produced %d pruned %d depth %d\n", s.Expanded, s.Produced, s.Pruned, s.MaxDepth)
	return b.String()
}

func single(t testing.TB, prog *syntax.Program, opts engine.Options) *engine.Report {
	t.Helper()
	e := engine.New(prog, opts)
	defer e.Close()
	rep, err := e.FindBugs(nil)
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

func partitioned(t testing.TB, prog *syntax.Program, opts engine.Options, workers int, interleave int64) *Result {
	t.Helper()
	opts.Workers = workers
	res, err := Run(prog, Options{Options: opts, Interleave: interleave}, nil)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func corpusPrograms(t *testing.T) map[string]*syntax.Program {
	files, _ := filepath.Glob(filepath.Join(testprog.Root(), "testdata", "*.imp"))
	if len(files) < 100 {
		t.Fatalf("found %d programs in testdata, want at least 100", len(files))
	}
	progs := map[string]*syntax.Program{}
	for _, f := range files {
		p, err := parser.ParseFile(f)
		if err != nil {
			t.Fatal(err)
		}
		progs[filepath.Base(f)] = p
	}
	return progs
}

func TestCorpusQuick(t *testing.T) {
	for name, prog := range corpusPrograms(t) {
		t0 := time.Now()
		for _, all := range []bool{false, true} {
			opts := engine.Options{Limits: testLimits(500), AllBugs: all}
			want := single(t, prog, opts)
			if want.Stats.Solver.Unknown > 0 {
				t.Logf("%s: skipped: the solver's unknown answers depend on time", name)
				break
			}
			var first string
			for _, n := range []int{1, 2, 4} {
				for _, il := range []int64{0, 7} {
					res := partitioned(t, prog, opts, n, il)
					if got := tree(res.Report); got != tree(want) {
						t.Errorf("%s all=%v n=%d il=%d: tree differs from the single run:\n%s---\n%s", name, all, n, il, got, tree(want))
					}
					got := whole(prog, res.Report)
					if first == "" {
						first = got
					} else if got != first {
						t.Errorf("%s all=%v n=%d il=%d: output differs from one worker's:\n%s---\n%s", name, all, n, il, got, first)
					}
				}
			}
		}
		t.Logf("%s %v", name, time.Since(t0))
	}
}
