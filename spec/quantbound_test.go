package spec

import (
	"testing"

	"certsym/spec/integer"
	"certsym/spec/syntax"
	"certsym/spec/syntax/parser"
)

// rangeCut is a cut for ExecBoundedCut in the manner of bounded.Exhausts (which this package
// cannot import): a quantifier of the condition whose range, defined in s, has more than n
// instances.
func rangeCut(n int) func(syntax.Stmt, syntax.BExpr, Store) bool {
	return func(_ syntax.Stmt, cond syntax.BExpr, s Store) bool {
		cut := false
		syntax.Inspect(cond, func(m syntax.Node) bool {
			if q, ok := m.(*syntax.Quant); ok {
				lo, ok1 := Eval(q.Lo, s)
				hi, ok2 := Eval(q.Hi, s)
				cut = cut || ok1 && ok2 && hi.Sub(lo).Cmp(integer.Of(int64(n)-1)) > 0
			}
			return !cut
		})
		return cut
	}
}

// TestExecBoundedCut: with a cut that bounds quantifiers, a statement whose quantifier has more
// instances than the bound is cut off, except an assume; within the bound the run is
// ExecBounded's.
func TestExecBoundedCut(t *testing.T) {
	cases := []struct {
		src   string
		input []int64
		n     int
		want  Behaviour
		line  int // the line of At (Incomplete) or of the Fail (Error); 0: not checked
	}{
		// 3 instances, bound 3: evaluated whole; the assert holds
		{"array a[1..3];\nassert forall k in 1..3: a[k] >= 0", []int64{0, 1, 2}, 3, Normal, 0},
		// 3 instances, bound 2: the assert is cut off at line 2
		{"array a[1..3];\nassert forall k in 1..3: a[k] >= 0", []int64{0, 1, 2}, 2, Incomplete, 2},
		// the same in an if and a while condition
		{"array a[1..3];\nif exists k in 1..3: a[k] > 5 then skip else skip fi", []int64{0, 1, 2}, 2, Incomplete, 2},
		{"array a[1..3];\nwhile forall k in 1..3: a[k] > 5 do skip od", []int64{0, 1, 2}, 2, Incomplete, 2},
		// in an assume the quantifier is evaluated whole: false, so infeasible
		{"array a[1..3];\nassume forall k in 1..3: a[k] > 0;\nassert false", []int64{1, 1, 0}, 2, Infeasible, 2},
		{"array a[1..3];\nassume forall k in 1..3: a[k] > 0;\nassert false", []int64{1, 1, 1}, 2, Error, 3},
		// a symbolic range: x + 1 instances
		{"x = x;\nassert forall k in 0..x: k >= 0", []int64{1}, 2, Normal, 0},
		{"x = x;\nassert forall k in 0..x: k >= 0", []int64{2}, 2, Incomplete, 2},
		// an empty range is within any bound
		{"x = x;\nassert forall k in 1..x: k < 0", []int64{-4}, 0, Normal, 0},
	}
	// the loop limit still cuts loops, and such a cut is not a quantifier cut
	p, err := parser.Parse("loop.imp", []byte("x = 0;\nwhile x < 5 do x = x + 1 od"))
	if err != nil {
		t.Fatal(err)
	}
	if r := ExecBoundedCut(p, make(Store, p.Slots()), 2, nil, rangeCut(2)); r.Behaviour != Incomplete || r.Quant || r.At.Pos().Line != 2 {
		t.Errorf("loop: %s at line %d (quantifier cut %v), want a loop cut at line 2", r.Behaviour, r.At.Pos().Line, r.Quant)
	}
	for _, c := range cases {
		p, err := parser.Parse("t.imp", []byte(c.src))
		if err != nil {
			t.Fatalf("%q: %v", c.src, err)
		}
		s := make(Store, p.Slots())
		for i, v := range c.input {
			s[i] = integer.Of(v)
		}
		r := ExecBoundedCut(p, s, c.n, nil, rangeCut(c.n))
		if r.Behaviour != c.want {
			t.Errorf("%q input %v bound %d: %s, want %s", c.src, c.input, c.n, r.Behaviour, c.want)
			continue
		}
		switch {
		case c.want == Incomplete && !r.Quant:
			t.Errorf("%q input %v: cut, but not marked as a quantifier cut", c.src, c.input)
		case c.want == Incomplete && r.At.Pos().Line != c.line:
			t.Errorf("%q input %v: cut at line %d, want %d", c.src, c.input, r.At.Pos().Line, c.line)
		case c.want == Error && r.Fail.Line() != c.line:
			t.Errorf("%q input %v: fails at line %d, want %d", c.src, c.input, r.Fail.Line(), c.line)
		}
		// without the quantifier bound the run is ExecBounded's, which never cuts at a quantifier
		if r0 := ExecBounded(p, s, c.n); c.want != Incomplete && r0.Behaviour != r.Behaviour {
			t.Errorf("%q input %v: ExecBounded %s, ExecBoundedCut %s", c.src, c.input, r0.Behaviour, r.Behaviour)
		}
	}
}

// TestConstInRange: a constant index inside the bounds, and nothing else, is trivially in range.
func TestConstInRange(t *testing.T) {
	p, err := parser.Parse("c.imp", []byte("array a[1..5];\nx = a[1] + a[2 * 2 + 1] + a[0] + a[6] + a[x] + a[1 / 0]"))
	if err != nil {
		t.Fatal(err)
	}
	want := []bool{true, true, false, false, false, false}
	var got []bool
	syntax.Inspect(p.Body, func(n syntax.Node) bool {
		if e, ok := n.(*syntax.Elem); ok {
			got = append(got, ConstInRange(e.Arr, e.I))
		}
		return true
	})
	if len(got) != len(want) {
		t.Fatalf("%d element reads, want %d", len(got), len(want))
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("read %d: ConstInRange %v, want %v", i, got[i], want[i])
		}
	}
}
