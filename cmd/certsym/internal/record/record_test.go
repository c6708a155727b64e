package record

import (
	"testing"

	"certsym/engine"
	"certsym/internal/testprog"
)

// TestRecorderKeepsWhatIsAsked: the recorder counts the expansions of each statement and the
// feasible directions of each branch, keeps terminal paths only when asked for test cases, and
// draws a tree only when asked for one; with --no-prune, the unsatisfiable states it is shown are
// not counted as executed.
func TestRecorderKeepsWhatIsAsked(t *testing.T) {
	prog := testprog.Parse(t, "if x > 0 then\n  if x < 0 then\n    y = 1\n  fi\nfi\n")
	run := func(tests, tree, noPrune bool) *Recorder {
		r := New(prog, tests, tree, 100)
		if _, err := engine.New(prog, engine.Options{Observer: r, NoPrune: noPrune}).FindBugs(nil); err != nil {
			t.Fatal(err)
		}
		r.Finish()
		return r
	}
	r := run(false, false, false)
	if r.Tree() != nil || r.tests != nil || len(r.TestCases("p.imp", nil).Cases) != 0 {
		t.Errorf("without tests and tree: tree %v, collector %v", r.Tree(), r.tests)
	}
	// Terminal paths: x <= 0, and x > 0 past the inner if (its then arm is infeasible).
	r = run(true, true, false)
	if n := len(r.TestCases("p.imp", nil).Cases); r.Tree() == nil || n != 2 {
		t.Errorf("with tests and tree: tree %v, %d test cases", r.Tree(), n)
	}
	for _, noPrune := range []bool{false, true} {
		j := run(false, false, noPrune).Coverage().JSON()
		if j.Statements != 3 || j.StatementsCovered != 2 || j.Branches != 4 || j.BranchesCovered != 3 {
			t.Errorf("no-prune %v: coverage %+v, want 2 of 3 statements and 3 of 4 branch directions", noPrune, j)
		}
	}
}
