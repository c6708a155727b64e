package steal_test

import (
	"strings"
	"testing"

	"certsym/engine"
	"certsym/engine/steal"
	"certsym/internal/testprog"
)

// undecidedSrc has a bug on line 1 and, on its last line, an error state the solver cannot
// decide: x + 1 squared nine times is a polynomial of degree 512, over the solver's limit.
var undecidedSrc = "if x == 1 then fail fi;\ny = x + 1;\n" + strings.Repeat("y = y * y;\n", 9) + "if y == 7 then fail fi\n"

// TestAllBugsSaysWhatItMisses: with --all-bugs, a run that confirms a bug and meets an error
// state the solver could not decide says, beside its verdict bug, that its list may miss that
// error (which and why), in the single run and in the partitioned run alike. It said nothing
// before: the list looked complete.
func TestAllBugsSaysWhatItMisses(t *testing.T) {
	prog := testprog.Parse(t, undecidedSrc)
	opts := engine.Options{AllBugs: true, Limits: testLimits(1000)}
	e := engine.New(prog, opts)
	rep, err := e.FindBugs(nil)
	e.Close()
	if err != nil {
		t.Fatal(err)
	}
	want := "the list may miss errors: the solver could not decide whether the fail at line 12 is reachable (a polynomial of degree 512"
	if rep.Verdict != engine.VerdictBug || len(rep.Bugs) != 1 || !strings.HasPrefix(rep.Reason, want) {
		t.Fatalf("the single run: %v (%s), %d bugs; want bug, one bug, and the reason %q...", rep.Verdict, rep.Reason, len(rep.Bugs), want)
	}
	for _, n := range []int{1, 2} {
		o := opts
		o.Workers = n
		res, err := steal.Run(prog, steal.Options{Options: o}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if r := res.Report; r.Verdict != rep.Verdict || r.Reason != rep.Reason || len(r.Bugs) != 1 {
			t.Errorf("%d workers: %v (%s), %d bugs; the single run: %v (%s)", n, r.Verdict, r.Reason, len(r.Bugs), rep.Verdict, rep.Reason)
		}
	}
	opts.AllBugs = false // the first bug alone: nothing is missed
	e = engine.New(prog, opts)
	rep, err = e.FindBugs(nil)
	e.Close()
	if err != nil || rep.Verdict != engine.VerdictBug || rep.Reason != "" {
		t.Errorf("first bug: %v (%s), %v; want bug without a reason", rep.Verdict, rep.Reason, err)
	}
}
