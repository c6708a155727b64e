package buginput

import (
	"testing"

	"certsym/engine"
	"certsym/internal/testprog"
	"certsym/spec"
	"certsym/spec/integer"
	"certsym/spec/syntax"
)

// TestZeroFree: the values the formulas leave free become 0, whatever their place; those they pin
// stay, and so do two values tied to each other (a[41] == m: 0 for both would do, 0 for either
// alone does not); with no budget nothing changes.
func TestZeroFree(t *testing.T) {
	prog := testprog.Parse(t, "array a[0..63];\nassume n >= 0 and n < 63;\nassume a[n] == 7 and a[n + 1] == m;\nfail\n")
	bug := firstBug(t, prog)
	in := make(spec.Store, len(bug.Input))
	for i := range in {
		in[i] = integer.Of(5) // a model completion's choice for what the path condition leaves free
	}
	n, m := prog.VarIndex("n"), prog.VarIndex("m")
	in[n] = integer.Of(40)
	a := prog.ArrayIndex("a").Offset
	in[a+40], in[a+41] = integer.Of(7), integer.Of(5)
	pc := bug.State.PC.Conjuncts()
	got := ZeroFree(pc, in, 1000)
	for i, v := range got {
		want := int64(0)
		switch i {
		case n:
			want = 40
		case a + 40:
			want = 7
		case a + 41, m:
			want = 5
		}
		if !v.Equal(integer.Of(want)) {
			t.Errorf("slot %d: %s, want %d", i, v, want)
		}
	}
	if got := ZeroFree(pc, in, 0); !equal(got, in) {
		t.Errorf("with no budget the input changed")
	}
}

// TestRepair: the repaired input of a bug replays to its error; the irrelevant variables are 0
// and named; the text names them apart.
func TestRepair(t *testing.T) {
	prog := testprog.Parse(t, "array a[0..9];\nt = 4;\nif a[x] == 3 and x >= 0 and x < 10 then\n  fail\nfi\n")
	bug := firstBug(t, prog)
	s := New(prog, "")
	for i := range bug.Input {
		if i != prog.VarIndex("x") && !bug.Input[i].Equal(integer.Of(3)) {
			bug.Input[i] = integer.Of(9)
		}
	}
	s.Repair(bug)
	if r := spec.Run(prog, bug.Input, 100); r.Outcome != spec.Failed || r.Fail != bug.Fail || r.Steps != bug.Replay.Steps {
		t.Errorf("the repaired input %v ends %v", bug.Input, r.Outcome)
	}
	if got, want := s.Text(bug.Input), "x=0, a=[3, 0, 0, 0, 0, 0, 0, 0, 0, 0] (any value of t: assigned before read)"; got != want {
		t.Errorf("text %q, want %q", got, want)
	}
}

func firstBug(t *testing.T, prog *syntax.Program) *engine.Bug {
	t.Helper()
	rep, err := engine.New(prog, engine.Options{}).FindBugs(nil)
	if err != nil || len(rep.Bugs) != 1 {
		t.Fatalf("%v, %d bugs", err, len(rep.Bugs))
	}
	return rep.Bugs[0]
}
