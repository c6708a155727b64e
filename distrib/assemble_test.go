package distrib_test

import (
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"sort"
	"strings"
	"testing"

	"certsym/distrib"
	"certsym/engine"
	"certsym/engine/job"
	"certsym/engine/steal"
	"certsym/internal/budget"
	"certsym/internal/expect"
	"certsym/spec/syntax/parser"
	"certsym/sym"
)

// bugText is what the in-process test renders of a bug: its place, kind and path condition.
func bugText(e *engine.Engine, b *engine.Bug) (json.RawMessage, error) {
	p := b.Fail.Pos()
	return json.Marshal(fmt.Sprintf("%d:%d %s %s", p.Line, p.Col, b.Kind(), b.State.PC.String(sym.SlotNames(e.Prog))))
}

// exploreAll explores the job tree of spec's program in this process, as the workers and the
// coordinator would: jobs taken in breadth-first order of their roots, and, without --all-bugs,
// none whose root comes after the first bug or stop found so far. It returns the results.
func exploreAll(t *testing.T, spec *distrib.Spec) map[string]*distrib.Result {
	prog, err := parser.Parse(spec.File, []byte(spec.Source))
	if err != nil {
		t.Fatal(err)
	}
	results := map[string]*distrib.Result{}
	queue := []distrib.Pending{{Job: job.Root}}
	var best *job.Job
	for len(queue) > 0 {
		sort.Slice(queue, func(i, k int) bool { return queue[i].Job.Compare(queue[k].Job) < 0 })
		j, root := queue[0].Job, queue[0].Root
		queue = queue[1:]
		if best != nil && j.Compare(*best) > 0 {
			continue
		}
		r, err := distrib.Explore(prog, spec, j, root, budget.NewMonitor(), bugText)
		if err != nil || r.Status == distrib.StatusFailed {
			t.Fatalf("%s: job %v: %v %s", spec.File, j, err, r.Reason)
		}
		results[r.Job] = r
		subs, err := r.SplitOff()
		if err != nil {
			t.Fatal(err)
		}
		queue = append(queue, subs...)
		if !spec.AllBugs {
			for _, ev := range r.Events {
				if at, _ := job.Parse(ev.At); ev.Outcome == distrib.OutcomeBug && (best == nil || at.Compare(*best) < 0) {
					best = &at
				}
			}
		}
		if len(results) > 20000 {
			t.Fatalf("%s: more than 20,000 jobs", spec.File)
		}
	}
	return results
}

// TestAssembleEqualsWorkers explores the job tree of every program of testdata/ that a
// distributed run takes in this process (no broker: the jobs in breadth-first order of their
// roots), with jobs of 8, 30 and 120 states (1, 3 and 10 with CERTSYM_DIST_LONG=1), and requires
// Assemble's report to be run --workers's (steal.Run, which is the single run's but for the
// solver's counts, a function of the tree there): verdict, reason, bugs in order (place, kind,
// path condition), states, pruned, depth, solver queries and their answers. Programs whose
// single run is stopped by its state bound are left out.
func TestAssembleEqualsWorkers(t *testing.T) {
	if testing.Short() {
		t.Skip("short mode: make check runs it")
	}
	t.Parallel() // beside the tests with processes, which mostly wait
	progs := corpusPrograms(t)
	budgets := []int{8, 30, 120}
	if long() {
		budgets = []int{1, 3, 10}
	}
	checked := 0
	for i, p := range progs {
		src, err := os.ReadFile(p.file)
		if err != nil {
			t.Fatal(err)
		}
		prog, err := parser.Parse(p.file, src)
		if err != nil {
			t.Fatal(err)
		}
		exp, _ := expect.Read(p.file)
		spec := &distrib.Spec{File: p.file, Source: string(src), AllBugs: slices.Contains(exp.Options, "--all-bugs"),
			NoPrune: slices.Contains(exp.Options, "--no-prune"), Budget: budgets[i%3]}
		for k, o := range exp.Options {
			if o == "--rlimit" && k+1 < len(exp.Options) {
				fmt.Sscan(exp.Options[k+1], &spec.RLimit)
			}
		}
		opts := engine.Options{AllBugs: spec.AllBugs, NoPrune: spec.NoPrune, Limits: budget.Limits{MaxStates: 20000, RLimit: spec.RLimit}}
		opts.Workers = 1
		res, err := steal.Run(prog, steal.Options{Options: opts}, nil)
		if err != nil {
			t.Fatalf("%s: %v", p.file, err)
		}
		rep := res.Report
		if strings.Contains(rep.Reason, "state bound reached") {
			continue
		}
		var want []string
		for _, b := range rep.Bugs {
			p := b.Fail.Pos()
			raw, _ := json.Marshal(fmt.Sprintf("%d:%d %s %s", p.Line, p.Col, b.Kind(), b.State.PC.String(sym.SlotNames(prog))))
			want = append(want, string(raw))
		}
		got, err := distrib.Assemble(exploreAll(t, spec), spec.AllBugs)
		if err != nil {
			t.Fatalf("%s: %v", p.file, err)
		}
		var gotBugs []string
		for _, b := range got.Bugs {
			gotBugs = append(gotBugs, string(b))
		}
		s := rep.Stats
		wantTotals := distrib.Level{States: s.Expanded, Pruned: s.Pruned, Queries: s.Solver.Queries, Sat: s.Solver.Sat, Unsat: s.Solver.Unsat, Unknown: s.Solver.Unknown}
		gotTotals := got.Totals
		gotTotals.Cut = 0 // the reason counts them
		if got.Verdict != rep.Verdict.String() || got.Reason != rep.Reason || !slices.Equal(gotBugs, want) || gotTotals != wantTotals || got.MaxDepth != s.MaxDepth {
			t.Errorf("%s (jobs of %d states): assembled %s (%s), bugs %v, %+v, depth %d\nrun --workers: %s (%s), bugs %v, %+v, depth %d",
				p.file, spec.Budget, got.Verdict, got.Reason, gotBugs, gotTotals, got.MaxDepth, rep.Verdict, rep.Reason, want, wantTotals, s.MaxDepth)
		}
		checked++
	}
	t.Logf("%d programs: the assembled report is run --workers's", checked)
	if checked < len(progs)*3/4 {
		t.Errorf("only %d of %d programs checked", checked, len(progs))
	}
}

// TestAssembleSaysWhatItMisses: with --all-bugs, the assembled report of a program with a bug
// and an error state the solver cannot decide (a polynomial of degree 512) says what the list
// may miss, as the single run does, in jobs of 1 and of 100 states.
func TestAssembleSaysWhatItMisses(t *testing.T) {
	src := "if x == 1 then fail fi;\ny = x + 1;\n" + strings.Repeat("y = y * y;\n", 9) + "if y == 7 then fail fi\n"
	prog, err := parser.Parse("undecided.imp", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	e := engine.New(prog, engine.Options{AllBugs: true})
	rep, err := e.FindBugs(nil)
	e.Close()
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(rep.Reason, "the list may miss errors: ") {
		t.Fatalf("the single run's reason is %q", rep.Reason)
	}
	for _, b := range []int{1, 100} {
		spec := &distrib.Spec{File: "undecided.imp", Source: src, AllBugs: true, Budget: b}
		got, err := distrib.Assemble(exploreAll(t, spec), true)
		if err != nil {
			t.Fatal(err)
		}
		if got.Verdict != rep.Verdict.String() || got.Reason != rep.Reason || len(got.Bugs) != 1 {
			t.Errorf("jobs of %d states: %s (%s), %d bugs; the single run: %v (%s)", b, got.Verdict, got.Reason, len(got.Bugs), rep.Verdict, rep.Reason)
		}
	}
}
