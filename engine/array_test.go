package engine

import (
	"strings"
	"testing"

	"certsym/internal/testprog"
	"certsym/spec"
	"certsym/spec/integer"
	"certsym/spec/syntax"
)

// TestArrayPrograms runs the bug finder on programs with arrays and quantifiers: the
// verdict, the kind and line of the first bug, and a property of its input (which the engine has
// replayed on the concrete semantics before reporting it).
func TestArrayPrograms(t *testing.T) {
	for _, c := range []struct {
		name, src string
		verdict   Verdict
		kind      syntax.FailKind
		line      int
		input     func(p *syntax.Program, in spec.Store) bool
	}{
		{"out-of-range write", "array a[1..5];\na[n] = 1", VerdictBug, syntax.FailIndex, 2,
			func(p *syntax.Program, in spec.Store) bool {
				return in[0].Cmp(integer.Of(1)) < 0 || in[0].Cmp(integer.Of(5)) > 0
			}},
		{"aliasing", "array a[0..4];\nassume i >= 0 and i <= 4 and j >= 0 and j <= 4;\na[i] = 1;\na[j] = 2;\nassert a[i] == 1",
			VerdictBug, syntax.FailAssert, 5, func(p *syntax.Program, in spec.Store) bool { return in[0].Equal(in[1]) }},
		{"aliasing excluded", "array a[0..4];\nassume i >= 0 and i <= 4 and j >= 0 and j <= 4 and i != j;\na[i] = 1;\na[j] = 2;\nassert a[i] == 1",
			VerdictSafe, 0, 0, nil},
		{"quantified assume prunes", "array a[0..4];\nassume forall k in 0..4: a[k] > 0;\nassume i >= 0 and i <= 4;\nif a[i] <= 0 then fail fi",
			VerdictSafe, 0, 0, nil},
		{"quantified assume over a symbolic range", "array a[0..9];\nassume n >= 0 and n <= 9;\nassume forall k in 0..n: a[k] == 0;\nif n >= 3 then assert a[3] == 0 fi",
			VerdictSafe, 0, 0, nil},
		{"exists", "array a[0..4];\nif exists k in 0..4: a[k] > 10 then\n  fail\nfi", VerdictBug, syntax.FailExplicit, 3,
			func(p *syntax.Program, in spec.Store) bool {
				for _, v := range in[p.Arrays[0].Offset:] {
					if v.Cmp(integer.Of(10)) > 0 {
						return true
					}
				}
				return false
			}},
		{"negative bounds", "array b[-3..3];\nassume i >= -5 and i <= 0;\nb[i] = 1", VerdictBug, syntax.FailIndex, 3,
			func(p *syntax.Program, in spec.Store) bool { return in[0].Cmp(integer.Of(-3)) < 0 }},
		{"negative bounds in range", "array b[-3..3];\nassume i >= -3 and i <= 3;\nb[i] = i;\nassert b[i] == i",
			VerdictSafe, 0, 0, nil},
		{"index with / and %", "array a[0..3];\nassume n >= -10 and n <= 10;\nx = a[n / 2 % 4]", VerdictBug, syntax.FailIndex, 3,
			func(p *syntax.Program, in spec.Store) bool {
				return in[0].Sign() < 0 && in[0].Quo(integer.Of(2)).Rem(integer.Of(4)).Sign() < 0
			}},
		{"division before index in evaluation order", "array a[0..3];\nassume d == 0 and i >= 0 and i <= 3;\nx = a[i] / d", VerdictBug, syntax.FailDivZero, 3, nil},
		{"index before division in evaluation order", "array a[0..3];\nassume i > 3;\nx = a[i] / 0", VerdictBug, syntax.FailIndex, 3, nil},
	} {
		p := testprog.Parse(t, c.src)
		rep, err := New(p, Options{}).FindBugs(nil)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if rep.Verdict != c.verdict {
			t.Errorf("%s: verdict %v (%s), want %v", c.name, rep.Verdict, rep.Reason, c.verdict)
			continue
		}
		if c.verdict != VerdictBug {
			continue
		}
		b := rep.Bugs[0]
		if b.Fail.Kind != c.kind || b.Fail.Line() != c.line {
			t.Errorf("%s: bug %v at line %d, want %v at line %d", c.name, b.Fail.Kind, b.Fail.Line(), c.kind, c.line)
		}
		if len(b.Input) != p.Slots() {
			t.Errorf("%s: input of %d values, want %d", c.name, len(b.Input), p.Slots())
		}
		if c.input != nil && !c.input(p, b.Input) {
			t.Errorf("%s: input %s", c.name, spec.StoreString(p, b.Input))
		}
	}
}

// TestQuantUnknownNeverDecides checks that a path condition the instantiation cannot decide
// (200 instances needed, 8 rounds) neither prunes nor confirms: the verdict is unknown, with the
// solver's reason, not safe and not bug.
func TestQuantUnknownNeverDecides(t *testing.T) {
	p := testprog.Parse(t, "assume x >= 0 and x <= 199;\nassume forall k in 0..199: x != k;\nfail")
	rep, err := New(p, Options{}).FindBugs(nil)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Verdict != VerdictUnknown || !strings.Contains(rep.Reason, "instantiation") {
		t.Errorf("verdict %v (%s), want unknown from the instantiation", rep.Verdict, rep.Reason)
	}
}

// TestArrayRunsDeterministic checks that two runs of an array program with quantifiers over
// symbolic ranges give the same report (states, queries, the bug's input).
func TestArrayRunsDeterministic(t *testing.T) {
	src := "array a[0..9];\nassume n >= 1 and n <= 9;\nassume forall k in 0..n - 1: a[k] <= a[k + 1];\ni = i;\nassume i >= 0 and i <= n;\nassert a[i] >= a[0] and a[i] < 100"
	var first string
	for run := 0; run < 3; run++ {
		p := testprog.Parse(t, src)
		rep, err := New(p, Options{AllBugs: true}).FindBugs(nil)
		if err != nil {
			t.Fatal(err)
		}
		got := rep.Verdict.String()
		for _, b := range rep.Bugs {
			got += " " + spec.StoreString(p, b.Input)
		}
		got += " " + integer.Of(int64(rep.Stats.Expanded)).String() + " " + integer.Of(int64(rep.Stats.Solver.Queries)).String()
		if run == 0 {
			first = got
			if rep.Verdict != VerdictBug {
				t.Fatalf("verdict %s, want bug (a[i] >= 100)", got)
			}
		} else if got != first {
			t.Errorf("run %d: %s, first run %s", run, got, first)
		}
	}
}
