package spec

import (
	"strings"
	"testing"

	"certsym/spec/integer"
	"certsym/spec/syntax"
)

// run runs src from the input given by set (name -> values) and returns the result.
func runWith(t *testing.T, src string, set map[string][]int64) (*syntax.Program, Result) {
	t.Helper()
	p := mustParse(t, src)
	in := make(Store, p.Slots())
	for name, vs := range set {
		vals := make([]integer.Int, len(vs))
		for i, v := range vs {
			vals[i] = integer.Of(v)
		}
		if err := SetInput(p, in, name, vals, p.ArrayIndex(name) != nil); err != nil {
			t.Fatal(err)
		}
	}
	r := Run(p, in, 10_000)
	// The bounded big-step semantics agrees: same end, same Fail, same store.
	br := ExecBounded(p, in, 10_000)
	switch r.Outcome {
	case Failed:
		if br.Behaviour != Error || br.Fail != r.Fail {
			t.Errorf("%q: ExecBounded ends %v at %v, Run fails at %v", src, br.Behaviour, br.Fail, r.Fail)
		}
	case Final:
		if br.Behaviour != Normal || StoreString(p, br.Store) != StoreString(p, r.Final.Store) {
			t.Errorf("%q: ExecBounded ends %v with %s, Run with %s", src, br.Behaviour, StoreString(p, br.Store), StoreString(p, r.Final.Store))
		}
	}
	return p, r
}

// TestArraySemantics: element reads and writes, typed errors in evaluation order, quantifiers.
func TestArraySemantics(t *testing.T) {
	const decl = "array a[0..1];\narray b[-3..-1];\n"
	cases := []struct {
		src  string
		set  map[string][]int64
		want string // "ok: STORE", or the kind of the error reached and its Fail's statement line
	}{
		{"a[0] = 5; b[-1] = a[0] + 1; b[-3] = b[-1] * 2; x = a[1]", map[string][]int64{"a": {0, 9}}, "ok: x=9, a=[5, 9], b=[12, 0, 6]"},
		{"b[0] = 1", nil, "index-out-of-range"},
		{"b[-4] = 1", nil, "index-out-of-range"},
		{"x = b[-4]", nil, "index-out-of-range"},
		{"x = a[99999999999999999999999]", nil, "index-out-of-range"},
		// Evaluation order: operands left to right, then the operation.
		{"x = a[5] + 1 / 0", nil, "index-out-of-range"},
		{"x = 1 / 0 + a[5]", nil, "division-by-zero"},
		{"x = a[1 / 0]", nil, "division-by-zero"},
		{"x = 1 / a[5]", nil, "index-out-of-range"},
		{"x = -a[2]", nil, "index-out-of-range"},
		{"x = a[0] / a[1]", nil, "division-by-zero"},
		// a[e1] = e2: e1, then e2, then the range check of the write.
		{"a[1 / y] = a[7]", nil, "division-by-zero"},
		{"a[7] = 1 / 0", nil, "division-by-zero"},
		{"a[7] = a[8]", nil, "index-out-of-range"},
		{"a[7] = 1", nil, "index-out-of-range"},
		{"a[a[5]] = 1 / 0", nil, "index-out-of-range"},
		// Conditions: strict, left then right.
		{"assert a[9] > 0 and 1 / 0 == 0", nil, "index-out-of-range"},
		{"assert 1 / 0 == 0 or a[9] > 0", nil, "division-by-zero"},
		{"assert false and a[9] > 0", nil, "index-out-of-range"},
		{"if not (a[5] == 0) then skip fi", nil, "index-out-of-range"},
		{"assume a[2] == 0", nil, "index-out-of-range"},
		{"while a[i] == 0 do i = i + 1 od", nil, "index-out-of-range"},
		{"while a[i] == 0 do i = i + 1 od", map[string][]int64{"a": {0, 3}}, "ok: i=1, a=[0, 3], b=[0, 0, 0]"},
		// Quantifiers: empty ranges, every instance evaluated, the first erring instance decides.
		{"assert forall k in 0..-1: a[k] > 0", nil, "ok: a=[0, 0], b=[0, 0, 0]"},
		{"assert exists k in 0..-1: true", nil, "assert"},
		{"assert forall k in 1..0: false", nil, "ok: a=[0, 0], b=[0, 0, 0]"},
		{"assert forall k in 0..3: a[k] > 0", nil, "index-out-of-range"},
		{"assert exists k in 0..3: a[k] == 5", map[string][]int64{"a": {5, 0}}, "index-out-of-range"},
		{"assert exists k in 0..1: a[k] == 5", map[string][]int64{"a": {0, 5}}, "ok: a=[0, 5], b=[0, 0, 0]"},
		{"assert forall k in 0..1: a[k] == 5", map[string][]int64{"a": {0, 5}}, "assert"},
		{"assert forall k in -3..-1: b[k] < 0", map[string][]int64{"b": {-1, -2, -3}}, "ok: a=[0, 0], b=[-1, -2, -3]"},
		{"assert forall k in 1 / x..3: true", nil, "division-by-zero"},
		{"assert forall k in 0..a[4]: true", nil, "index-out-of-range"},
		{"assert forall k in 0..1: 1 / k == 0 or a[k * 9] > 0", nil, "division-by-zero"},
		{"assert forall k in 0..1: 1 / (1 - k) == 0 or a[9 - 9 * k] > 0", nil, "index-out-of-range"},
		{"assert forall k in 0..1: a[k] > 0 and 1 / (k - 1) > 0", map[string][]int64{"a": {0, 1}}, "division-by-zero"},
		// Nested quantifiers: sortedness, a maximum.
		{"assert forall i in -3..-1: forall j in i..-1: b[i] <= b[j]", map[string][]int64{"b": {1, 2, 2}}, "ok: a=[0, 0], b=[1, 2, 2]"},
		{"assert forall i in -3..-1: forall j in i..-1: b[i] <= b[j]", map[string][]int64{"b": {1, 3, 2}}, "assert"},
		{"assert exists i in -3..-1: forall j in -3..-1: b[i] >= b[j]", map[string][]int64{"b": {1, 3, 2}}, "ok: a=[0, 0], b=[1, 3, 2]"},
		{"assert exists i in 0..1: exists j in i..i + 1: a[j] == 7", map[string][]int64{"a": {7, 0}}, "index-out-of-range"},
		// A body without its variable over a huge range is evaluated once.
		{"assert forall k in 0..1000000000000000: x == 0", nil, "ok: x=0, a=[0, 0], b=[0, 0, 0]"},
		{"assume forall k in 0..1000000000000000: x == 1", nil, "blocked"},
	}
	for _, c := range cases {
		src := decl + c.src
		p, r := runWith(t, src, c.set)
		var got string
		switch r.Outcome {
		case Final:
			got = "ok: " + StoreString(p, r.Final.Store)
		case Failed:
			got = r.Fail.Kind.String()
			if r.Fail.Line() != 3 {
				got += " at another line"
			}
		case Blocked:
			got = "blocked"
		default:
			got = r.Outcome.String()
		}
		if got != c.want {
			t.Errorf("%q from %v: got %s, want %s", c.src, c.set, got, c.want)
		}
	}
}

// TestArrayMacros: macros substitute array names by name.
func TestArrayMacros(t *testing.T) {
	src := "macro inc(v, i) begin v[i] = v[i] + 1 end\nmacro both(v, w) begin inc(v, 0); inc(w, 0 - 2) end\narray a[0..1];\narray b[-2..0];\nboth(a, b); inc(b, x)"
	p := mustParse(t, src)
	want := "array a[0..1];\narray b[-2..0];\na[0] = a[0] + 1;\nb[0 - 2] = b[0 - 2] + 1;\nb[x] = b[x] + 1\n"
	if got := syntax.PrintProgram(p); got != want {
		t.Fatalf("inlined:\n%s\nwant:\n%s", got, want)
	}
	r := Run(p, make(Store, p.Slots()), 100)
	if r.Outcome != Final || StoreString(p, r.Final.Store) != "x=0, a=[1, 0], b=[1, 0, 1]" {
		t.Fatalf("run: %v %s", r.Outcome, StoreString(p, r.Final.Store))
	}
}

// TestArrayInputs: SetInput and StoreString.
func TestArrayInputs(t *testing.T) {
	p := mustParse(t, "array a[1..3];\nx = a[1] + n")
	s := make(Store, p.Slots())
	if err := SetInput(p, s, "a", []integer.Int{integer.Of(5), integer.Of(0), integer.Of(-7)}, true); err != nil {
		t.Fatal(err)
	}
	if err := SetInput(p, s, "n", []integer.Int{integer.Of(3)}, false); err != nil {
		t.Fatal(err)
	}
	if got := StoreString(p, s); got != "x=0, n=3, a=[5, 0, -7]" {
		t.Errorf("InputString = %q", got)
	}
	for _, c := range []struct {
		name string
		vals []int64
		list bool
		want string
	}{
		{"a", []int64{1, 2}, true, "array a has 3 elements (1..3), found a list of 2"},
		{"a", []int64{1}, false, "a is an array of 3 elements (1..3): expected a list"},
		{"n", []int64{1}, true, "n is a variable: expected an integer, found a list"},
		{"q", []int64{1}, false, `the program has no variable "q" (variables: x, n; arrays: a)`},
	} {
		vals := make([]integer.Int, len(c.vals))
		for i, v := range c.vals {
			vals[i] = integer.Of(v)
		}
		err := SetInput(p, s, c.name, vals, c.list)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("SetInput(%s, %v, %v) = %v, want %q", c.name, c.vals, c.list, err, c.want)
		}
	}
	q := mustParse(t, "array a[0..0];\na[0] = 1")
	if got := StoreString(q, make(Store, q.Slots())); got != "a=[0]" {
		t.Errorf("InputString without variables = %q", got)
	}
}

// TestQuantifierWorkBound: RunLimited bounds the quantifier instances a run evaluates, so a
// quantifier over a huge range ends the run at the bound instead of hanging it; Run is exact.
func TestQuantifierWorkBound(t *testing.T) {
	p := mustParse(t, "x = 1;\nassert forall k in 0..1000000000000000: k >= 0;\nx = 2")
	r := RunFastLimited(p, make(Store, p.Slots()), Limits{Steps: 1000, Instances: 1000})
	if r.Outcome != Stepped || !r.QuantBound || r.Steps != 2 || Head(r.Final.Prog).Pos().Line != 2 {
		t.Fatalf("huge range: outcome %v after %d steps at line %d, want the step bound at line 2", r.Outcome, r.Steps, Head(r.Final.Prog).Pos().Line)
	}
	// Within the bound the run is exact.
	p = mustParse(t, "array a[0..3];\nassert forall i in 0..3: forall j in i..3: a[i] <= a[j]")
	if r := Run(p, make(Store, p.Slots()), 100); r.Outcome != Final {
		t.Fatalf("small range: %v", r.Outcome)
	}
	if r := RunFastLimited(p, make(Store, p.Slots()), Limits{Steps: 100, Instances: 5}); r.Outcome != Stepped || !r.QuantBound {
		t.Fatalf("14 instances under a bound of 5: %v", r.Outcome)
	}
	// Run's step bound does not bound the instances: a replay with the exact number of steps of
	// a path is exact (1 step evaluating 14 instances).
	if r := Run(p, make(Store, p.Slots()), 1); r.Outcome != Stepped || r.QuantBound || r.Steps != 1 || r.Final.Prog.(*syntax.Skip) == nil {
		t.Fatalf("Run with 1 step: %+v", r)
	}
}
