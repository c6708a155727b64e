package spec

import (
	"testing"

	"certsym/spec/integer"
	"certsym/spec/syntax"
	"certsym/spec/syntax/parser"
)

// mustParse parses src or fails the test.
func mustParse(t *testing.T, src string) *syntax.Program {
	t.Helper()
	p, err := parser.Parse("test.imp", []byte(src))
	if err != nil {
		t.Fatalf("parse %q: %v", src, err)
	}
	return p
}

func store(p *syntax.Program, kv map[string]int64) Store {
	s := make(Store, len(p.Vars))
	for k, v := range kv {
		if i := p.VarIndex(k); i >= 0 {
			s[i] = integer.Of(v)
		}
	}
	return s
}

func TestEval(t *testing.T) {
	cases := []struct {
		expr string
		want string // "undef" when undefined
	}{
		{"-7 / 2", "-3"}, {"-7 % 2", "-1"}, {"7 / -2", "-3"}, {"7 % -2", "1"}, {"-7 / -2", "3"},
		{"x / 0", "undef"}, {"x % (y - y)", "undef"}, {"0 * (1 / 0)", "undef"},
		{"9223372036854775807 + 1", "9223372036854775808"},
		{"-9223372036854775807 - 2", "-9223372036854775809"},
		{"4294967296 * 4294967296", "18446744073709551616"},
		{"x * y - -x", "15"},
		{"-(x - y * 3)", "1"},
	}
	for _, c := range cases {
		p := mustParse(t, "r = "+c.expr)
		v, ok := Eval(p.Body.(*syntax.Assign).A, store(p, map[string]int64{"x": 5, "y": 2}))
		got := v.String()
		if !ok {
			got = "undef"
		}
		if got != c.want {
			t.Errorf("%s = %s, want %s", c.expr, got, c.want)
		}
	}
	bcases := []struct {
		cond string
		want string
	}{
		{"x > 1 and y <= 2", "true"}, {"not x == 5 or false", "false"},
		{"false and 1 / 0 == 0", "undef"}, // strict: no short-circuit
		{"true or x % 0 == 1", "undef"},
		{"x != y and not (x < y)", "true"},
	}
	for _, c := range bcases {
		p := mustParse(t, "assert "+c.cond)
		v, ok := EvalB(p.Body.(*syntax.Assert).Cond, store(p, map[string]int64{"x": 5, "y": 2}))
		got := map[bool]string{true: "true", false: "false"}[v]
		if !ok {
			got = "undef"
		}
		if got != c.want {
			t.Errorf("%s = %s, want %s", c.cond, got, c.want)
		}
	}
}

// stepOnce parses src, steps it once from the store, and returns the printed successor.
func stepOnce(t *testing.T, src string, kv map[string]int64) (string, Outcome, Store, *syntax.Program) {
	t.Helper()
	p := mustParse(t, src)
	next, out := Step(State{store(p, kv), p.Body})
	if out != Stepped {
		return "", out, nil, p
	}
	return syntax.Print(next.Prog), out, next.Store, p
}

// TestStepRules exercises each rule of the concrete semantics (SEMANTICS.md) once.
func TestStepRules(t *testing.T) {
	cases := []struct {
		rule, src string
		in        map[string]int64
		want      string // printed successor program, or the outcome name
		x         *int64 // expected value of x after the step, if checked
	}{
		{"S-Assign", "x = y * 3", map[string]int64{"y": 4}, "skip\n", ptr(12)},
		{"S-AssignErr", "x = y / z", map[string]int64{"y": 4}, "fail\n", nil},
		{"S-IfTrue", "if y > 0 then x = 1 else x = 2 fi", map[string]int64{"y": 1}, "x = 1\n", nil},
		{"S-IfFalse", "if y > 0 then x = 1 else x = 2 fi", map[string]int64{"y": 0}, "x = 2\n", nil},
		{"S-IfErr", "if 1 / y > 0 then x = 1 fi", nil, "fail\n", nil},
		{"S-While", "while y > 0 do y = y - 1 od", nil, "if y > 0 then\n  y = y - 1;\n  while y > 0 do\n    y = y - 1\n  od\nelse\n  skip\nfi\n", nil},
		{"S-While-Inv", "while y > 0 invariant y >= 0 invariant x == 0 do y = y - 1 od", nil,
			"assert y >= 0;\nassert x == 0;\nwhile y > 0 do\n  y = y - 1;\n  assert y >= 0;\n  assert x == 0\nod\n", nil},
		{"S-Assume", "assume y == 0", nil, "skip\n", nil},
		{"S-AssumeErr", "assume y % 0 == 0", nil, "fail\n", nil},
		{"assume false blocks", "assume y == 1", nil, "blocked", nil},
		{"S-SeqSkip", "skip; x = 1", nil, "x = 1\n", nil},
		{"S-Seq", "x = 7; y = 1", nil, "skip;\ny = 1\n", ptr(7)},
		{"assert true", "assert y == 0", nil, "skip\n", nil},
		{"assert false", "assert y == 1", nil, "fail\n", nil},
		{"fail is an error", "fail; x = 1", nil, "failed", nil},
		{"skip is final", "skip", nil, "final", nil},
	}
	for _, c := range cases {
		got, out, s, p := stepOnce(t, c.src, c.in)
		if out != Stepped {
			got = out.String()
		}
		if got != c.want {
			t.Errorf("[%s] %q steps to\n%s\nwant\n%s", c.rule, c.src, got, c.want)
			continue
		}
		if c.x != nil {
			if v := s[p.VarIndex("x")]; !v.Equal(integer.Of(*c.x)) {
				t.Errorf("[%s] x = %s, want %d", c.rule, v, *c.x)
			}
		}
	}
}

func ptr(v int64) *int64 { return &v }

// TestRunInvariants: a loop's clauses are checked at every arrival at its head, before the
// condition, in order: the run reaches the violated clause's own Fail (kind invariant) at the
// arrival where it is false, the last one included, an undefined clause the Fail of its first
// error; ExecBounded ends the same way.
func TestRunInvariants(t *testing.T) {
	src := "i = 0;\nwhile i < n\ninvariant i <= m\ninvariant 10 / d > 0\ndo i = i + 1 od"
	p := mustParse(t, src)
	w := p.Body.(*syntax.Seq).Second.(*syntax.While)
	for _, c := range []struct {
		in   map[string]int64
		want *syntax.Fail
	}{
		{map[string]int64{"n": 3, "m": 3, "d": 1}, nil},
		{map[string]int64{"n": 3, "m": 2, "d": 1}, w.Invariants[0].Violation},  // i == 3, the last arrival
		{map[string]int64{"n": 0, "m": -1, "d": 1}, w.Invariants[0].Violation}, // on entry, the body never runs
		{map[string]int64{"n": 3, "m": 3, "d": 20}, w.Invariants[1].Violation},
		{map[string]int64{"n": 3, "m": -1, "d": 0}, w.Invariants[0].Violation}, // the first clause first
		{map[string]int64{"n": 3, "m": 3, "d": 0}, w.Invariants[1].Err},
	} {
		r := Run(p, store(p, c.in), 1000)
		b := ExecBounded(p, store(p, c.in), 10)
		switch {
		case c.want == nil && (r.Outcome != Final || b.Behaviour != Normal):
			t.Errorf("%v: %v, bounded %v, want final", c.in, r.Outcome, b.Behaviour)
		case c.want != nil && (r.Outcome != Failed || r.Fail != c.want || b.Behaviour != Error || b.Fail != c.want):
			t.Errorf("%v: %v at %+v, bounded %v at %+v; want the fail %+v", c.in, r.Outcome, r.Fail, b.Behaviour, b.Fail, c.want)
		}
	}
	if w.Invariants[0].Violation.Kind != syntax.FailInvariant || w.Invariants[1].Err.Kind != syntax.FailDivZero {
		t.Errorf("kinds %v, %v", w.Invariants[0].Violation.Kind, w.Invariants[1].Err.Kind)
	}
}

func TestRunErrors(t *testing.T) {
	p := mustParse(t, "x = 1;\nwhile x < 5 do x = x + 1 od;\ny = 10 / (x - 5)")
	r := Run(p, store(p, nil), -1)
	if r.Outcome != Failed || r.Fail.Kind != syntax.FailDivZero || r.Fail.Line() != 3 {
		t.Fatalf("run: %v %+v", r.Outcome, r.Fail)
	}
	// The error is reached at the statement that divides, and it is that statement's own Fail.
	if r.Fail != Head(p.Body.(*syntax.Seq).Second.(*syntax.Seq).Second).(*syntax.Assign).Err {
		t.Error("the error reached is not the dividing statement's Fail")
	}
	r = Run(p, store(p, nil), 5)
	if r.Outcome != Stepped || r.Steps != 5 {
		t.Errorf("bounded run: %v after %d steps", r.Outcome, r.Steps)
	}
}

// TestConstNonZero: constant divisors, after folding, that are not zero make no division claim;
// variables, element reads, bound variables, zero and undefined constants do.
func TestConstNonZero(t *testing.T) {
	cases := []struct {
		src  string // the divisor d of "x = y % (d)"
		want bool
	}{
		{"2", true}, {"-4", true}, {"-(4)", true}, {"2 * 3 - 5", true}, {"7 / 2", true}, {"(10 % 4)", true},
		{"0", false}, {"2 - 2", false}, {"1 / 2", false}, {"1 / 0 + 1", false}, {"4 % 0", false},
		{"x", false}, {"x - x + 1", false}, {"a[1]", false}, {"1 + a[0]", false},
	}
	for _, c := range cases {
		p, err := parser.Parse("c.imp", []byte("array a[0..1];\nx = y % ("+c.src+")"))
		if err != nil {
			t.Fatal(err)
		}
		d := p.Body.(*syntax.Assign).A.(*syntax.BinA).R
		if got := ConstNonZero(d); got != c.want {
			t.Errorf("ConstNonZero(%s) = %v, want %v", c.src, got, c.want)
		}
	}
	// A bound variable is not a constant.
	p, err := parser.Parse("q.imp", []byte("assert forall k in 1..3: 6 % k == 0"))
	if err != nil {
		t.Fatal(err)
	}
	d := p.Body.(*syntax.Assert).Cond.(*syntax.Quant).Body.(*syntax.Cmp).L.(*syntax.BinA).R
	if ConstNonZero(d) {
		t.Error("ConstNonZero(k) for a bound variable k")
	}
}
