package spec

import (
	"fmt"
	"strings"
	"testing"
)

// TestArraySyntaxErrors: every misuse of arrays and quantifiers is a positioned error.
func TestArraySyntaxErrors(t *testing.T) {
	cases := []struct{ src, want string }{
		{"array a[x..2]; skip", "1:9: the bounds of array a must be integer literals, found identifier 'x'"},
		{"array a[0..n]; skip", "1:12: the bounds of array a must be integer literals"},
		{"array a[0..2+1]; skip", "1:13: expected ']' after the bounds of array a"},
		{"array a[3..2]; skip", "1:7: array a: lower bound 3 is greater than upper bound 2"},
		{"array a[0..65536]; skip", "1:7: array a has more than 65536 elements"},
		{"array a[-9223372036854775808..9223372036854775807]; skip", "1:7: array a has more than 65536 elements"},
		{"array a[0..9223372036854775808]; skip", "1:12: bound 9223372036854775808 of array a is out of range"},
		{"array a[0..1]; array a[0..1]; skip", "1:22: array a already declared at line 1"},
		{"array a[0..1] skip", "1:15: expected ';' after the declaration of array a"},
		{"array [0..1]; skip", "1:7: expected array name after 'array'"},
		{"array a[0..1];", "1:15: expected a statement"},
		{"skip;\narray a[0..1]; skip", "2:1: array declarations come first"},
		{"array a[0..1];\nx = a + 1", "2:5: a is an array (declared at line 1): use one of its elements"},
		{"array a[0..1];\na = 1", "2:1: a is an array (declared at line 1)"},
		{"array a[0..1];\nassert a < 1", "2:8: a is an array"},
		{"x = 1;\ny = x[0]", "2:5: x is a variable (line 1), not an array"},
		{"x = 1;\nx[0] = 1", "2:1: x is a variable (line 1), not an array"},
		{"y = q[0]", "1:5: unknown array q"},
		{"a[0]", "1:5: expected '=' after a[...]"},
		{"array a[0..1];\na[0 = 1", "2:5: expected ']' to close '[' at 2:2"},
		{"array a[0..1];\nassert forall a in 0..1: true", "2:15: bound variable a has the name of an array of the program"},
		{"array a[0..1];\nmacro m begin assert forall a in 0..1: true end\nm", "2:29: bound variable a has the name of an array"},
		{"assert forall x in 0..1: x > y;\ny = x", "1:8: bound variable x has the name of a variable of the program (line 2)"},
		{"assert forall x in 0..1: x > 0;\nassert x > 0", "1:8: bound variable x has the name of a variable of the program (line 2)"},
		{"assert forall k in 0..1: true;\nk = 2", "2:1: cannot assign k: it is the bound variable of the quantifier at 1:8"},
		{"assert forall k in 0..1: forall k in 0..1: true", "1:33: bound variable k is already bound by an enclosing quantifier"},
		{"assert forall k in 0..1: exists j in 0..1: exists k in 0..1: true", "1:51: bound variable k is already bound"},
		{"assert forall k in 0..1: k[0] > 0", "1:26: bound variable k is an integer, not an array"},
		{"macro m(v) begin v[0] = 1 end\nm(1 + 2)", "2:1: macro m uses its parameter v with an index, so its argument must be an array name, found 1 + 2"},
		{"macro m(v) begin x = v[0] end\nm(b[1])", "2:1: macro m uses its parameter v with an index, so its argument must be an array name, found b[1]"},
		{"macro m(v) begin v[0] = 1 end\narray a[0..1];\nm(x)", "3:3: unknown array x"},
		{"macro m(v) begin x = v end\narray a[0..1];\nm(a)", "3:3: a is an array"},
		{"macro m(k) begin assert forall k in 0..1: true end\nm(1)", "1:32: bound variable k has the name of a parameter of macro m"},
		{"assert forall k in 0..1 k > 0", "1:25: expected ':' after the range of the quantifier"},
		{"assert forall 3 in 0..1: true", "1:15: expected the name of the bound variable after 'forall'"},
		{"assert exists k 0..1: true", "1:17: expected 'in' after the bound variable k"},
		{"assert forall k in 0..1: 3", "1:26: expected a condition (comparison, true, false, not, and, or) as the body of the quantifier"},
		{"assert forall k in (k < 1)..1: true", "1:20: expected an arithmetic expression as the lower bound"},
		{"assert forall k in 0 1: true", "1:22: expected '..' between the bounds of the range of k"},
		{"x = 1 . 2", "1:7: unexpected '.': expected '..'"},
		{"x = forall k in 0..1: true", "1:5: expected an arithmetic expression after '='"},
	}
	for _, c := range cases {
		_, err := Parse("bad.imp", []byte(c.src))
		if err == nil {
			t.Errorf("%q: parsed, want error %q", c.src, c.want)
			continue
		}
		if _, ok := err.(*SyntaxError); !ok {
			t.Errorf("%q: error %T, want *SyntaxError", c.src, err)
		}
		if got := err.Error(); !strings.HasPrefix(got, "bad.imp:"+c.want) {
			t.Errorf("%q:\n got %s\nwant bad.imp:%s...", c.src, got, c.want)
		}
	}
}

// TestArrayLayout: arrays come after the variables in the store, in declaration order; levels
// and links are filled; the Fail nodes exist exactly where a kind of error can occur.
func TestArrayLayout(t *testing.T) {
	p := mustParse(t, "array a[1..5];\narray b[-3..-2];\nx = a[y] + 1;\nb[-3] = x / z;\nassert forall k in 1..5: exists j in k..5: a[j] >= a[k] + x")
	if got, want := strings.Join(p.Vars, " "), "x y z"; got != want {
		t.Fatalf("vars %q, want %q", got, want)
	}
	a, b := p.Arrays[0], p.Arrays[1]
	if a.Index != 0 || a.Offset != 3 || a.Size() != 5 || b.Index != 1 || b.Offset != 8 || b.Size() != 2 || p.Slots() != 10 {
		t.Fatalf("layout: a %+v, b %+v, slots %d", *a, *b, p.Slots())
	}
	s1 := p.Body.(*Seq).First.(*Assign)
	if s1.A.(*BinA).L.(*Elem).Arr != a || s1.Err != nil || s1.IdxErr == nil || s1.IdxErr.Kind != FailIndex {
		t.Errorf("x = a[y] + 1: Elem not linked or wrong Fail nodes: %+v", s1)
	}
	s2 := p.Body.(*Seq).Second.(*Seq).First.(*ArrAssign)
	if s2.Arr != b || s2.Err == nil || s2.Err.Kind != FailDivZero || s2.IdxErr == nil || s2.IdxErr.Kind != FailIndex {
		t.Errorf("b[-3] = x / z: %+v", s2)
	}
	as := p.Body.(*Seq).Second.(*Seq).Second.(*Assert)
	q := as.Cond.(*Quant)
	inner := q.Body.(*Quant)
	if q.Level != 0 || inner.Level != 1 || inner.Lo.(*BoundRef).Level != 0 || as.Err != nil || as.IdxErr == nil {
		t.Errorf("quantifier levels or Fail nodes wrong: %+v %+v", q, inner)
	}
	if slot, ok := a.Slot(IntOf(5)); !ok || slot != 7 {
		t.Errorf("a.Slot(5) = %d, %v", slot, ok)
	}
	for _, j := range []int64{0, 6, -1} {
		if _, ok := a.Slot(IntOf(j)); ok {
			t.Errorf("a.Slot(%d) in range", j)
		}
	}
	if big, _ := ParseInt("100000000000000000000000"); true {
		if _, ok := a.Slot(big); ok {
			t.Error("a.Slot(10^23) in range")
		}
	}
	// A while's unfolding shares the loop's Fail nodes.
	w := mustParse(t, "array a[0..1];\nwhile a[i] > 0 do i = i + 1 od").Body.(*While)
	if w.Unfold.IdxErr == nil || w.Unfold.Err != nil {
		t.Errorf("while unfolding: %+v", w.Unfold)
	}
	if !HasIndex(w.Cond) || HasIndex(w.Body.(*Assign).A) || !CanFail(w.Cond, FailIndex) || CanFail(w.Cond, FailDivZero) {
		t.Error("HasIndex / CanFail wrong")
	}
}

// run runs src from the input given by set (name -> values) and returns the result.
func runWith(t *testing.T, src string, set map[string][]int64) (*Program, Result) {
	t.Helper()
	p := mustParse(t, src)
	in := make(Store, p.Slots())
	for name, vs := range set {
		vals := make([]Int, len(vs))
		for i, v := range vs {
			vals[i] = IntOf(v)
		}
		if err := p.SetInput(in, name, vals, p.ArrayIndex(name) != nil); err != nil {
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
		if br.Behaviour != Normal || p.InputString(br.Store) != p.InputString(r.Final.Store) {
			t.Errorf("%q: ExecBounded ends %v with %s, Run with %s", src, br.Behaviour, p.InputString(br.Store), p.InputString(r.Final.Store))
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
			got = "ok: " + p.InputString(r.Final.Store)
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
	if got := PrintProgram(p); got != want {
		t.Fatalf("inlined:\n%s\nwant:\n%s", got, want)
	}
	r := Run(p, make(Store, p.Slots()), 100)
	if r.Outcome != Final || p.InputString(r.Final.Store) != "x=0, a=[1, 0], b=[1, 0, 1]" {
		t.Fatalf("run: %v %s", r.Outcome, p.InputString(r.Final.Store))
	}
	roundTrip(t, "macros", []byte(src))
}

// TestArrayInputs: Program.SetInput and Program.InputString.
func TestArrayInputs(t *testing.T) {
	p := mustParse(t, "array a[1..3];\nx = a[1] + n")
	s := make(Store, p.Slots())
	if err := p.SetInput(s, "a", []Int{IntOf(5), IntOf(0), IntOf(-7)}, true); err != nil {
		t.Fatal(err)
	}
	if err := p.SetInput(s, "n", []Int{IntOf(3)}, false); err != nil {
		t.Fatal(err)
	}
	if got := p.InputString(s); got != "x=0, n=3, a=[5, 0, -7]" {
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
		vals := make([]Int, len(c.vals))
		for i, v := range c.vals {
			vals[i] = IntOf(v)
		}
		err := p.SetInput(s, c.name, vals, c.list)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("SetInput(%s, %v, %v) = %v, want %q", c.name, c.vals, c.list, err, c.want)
		}
	}
	q := mustParse(t, "array a[0..0];\na[0] = 1")
	if got := q.InputString(make(Store, q.Slots())); got != "a=[0]" {
		t.Errorf("InputString without variables = %q", got)
	}
}

// TestInspectArrays: Inspect visits the new nodes in source order; VarsOf lists scalars only.
func TestInspectArrays(t *testing.T) {
	p := mustParse(t, "array a[0..1];\na[i] = a[j] + x;\nassert forall k in lo..hi: a[k] > y")
	var kinds []string
	Inspect(p.Body, func(n Node) bool {
		switch n := n.(type) {
		case *ArrAssign:
			kinds = append(kinds, "[]=")
		case *Elem:
			kinds = append(kinds, "elem")
		case *Quant:
			kinds = append(kinds, "forall")
		case *BoundRef:
			kinds = append(kinds, "k")
		case *Var:
			kinds = append(kinds, n.Name)
		}
		return true
	})
	if got, want := strings.Join(kinds, " "), "[]= i elem j x forall lo hi elem k y"; got != want {
		t.Errorf("Inspect order %q, want %q", got, want)
	}
	if got := strings.Join(VarsOf(p.Body), " "); got != strings.Join(p.Vars, " ") || got != "i j x lo hi y" {
		t.Errorf("VarsOf = %q, Vars = %v", got, p.Vars)
	}
}

// TestQuantifierWorkBound: RunFastLimited bounds the quantifier instances a run evaluates, so a
// quantifier over a huge range ends the run at the bound instead of hanging it; Run is exact.
func TestQuantifierWorkBound(t *testing.T) {
	p := mustParse(t, "x = 1;\nassert forall k in 0..1000000000000000: k >= 0;\nx = 2")
	r := RunFastLimited(p, make(Store, p.Slots()), Limits{Steps: 1000, Instances: 1000})
	if r.Outcome != Stepped || !r.QuantBound || r.Steps != 2 || LineOf(Head(r.Final.Prog)) != 2 {
		t.Fatalf("huge range: outcome %v after %d steps at line %d, want the step bound at line 2", r.Outcome, r.Steps, LineOf(Head(r.Final.Prog)))
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
	if r := Run(p, make(Store, p.Slots()), 1); r.Outcome != Stepped || r.QuantBound || r.Steps != 1 || r.Final.Prog.(*Skip) == nil {
		t.Fatalf("Run with 1 step: %+v", r)
	}
}

// TestWalkChecks: the checks of a statement in evaluation order, with their quantifiers; without
// quantifiers the first failing check gives the kind EvalKind reports.
func TestWalkChecks(t *testing.T) {
	p := mustParse(t, "array a[0..3];\na[x / y] = a[a[1] % z] + 1;\nassert forall k in 0..n / m: exists j in k..3: a[j] / k > a[k]")
	describe := func(s Stmt) string {
		var out []string
		WalkStmtChecks(s, func(c Check) {
			d := c.Kind.String()
			switch {
			case c.Div != nil:
				d += " " + PrintA(c.Div)
			case c.Elem != nil:
				d += " " + PrintA(c.Elem)
			case c.Write != nil:
				d += " write"
			}
			for _, q := range c.Quants {
				d += " in " + q.Name
			}
			out = append(out, d)
		})
		return strings.Join(out, "; ")
	}
	s1 := p.Body.(*Seq).First
	if got, want := describe(s1), "division-by-zero x / y; index-out-of-range a[1]; division-by-zero a[1] % z; index-out-of-range a[a[1] % z]; index-out-of-range write"; got != want {
		t.Errorf("element assignment:\n got %s\nwant %s", got, want)
	}
	s2 := p.Body.(*Seq).Second
	if got, want := describe(s2), "division-by-zero n / m; index-out-of-range a[j] in k in j; division-by-zero a[j] / k in k in j; index-out-of-range a[k] in k in j"; got != want {
		t.Errorf("assert:\n got %s\nwant %s", got, want)
	}
	// Divisions agrees with the division checks.
	var divs []*BinA
	WalkChecks(s2.(*Assert).Cond, func(c Check) {
		if c.Div != nil {
			divs = append(divs, c.Div)
		}
	})
	if got := Divisions(s2.(*Assert).Cond, nil); len(got) != len(divs) || got[0] != divs[0] || got[1] != divs[1] {
		t.Errorf("Divisions %v, checks %v", got, divs)
	}
}

// TestArrayLimits: element reads and quantifiers count against the nesting and depth limits.
func TestArrayLimits(t *testing.T) {
	deepElem := "array a[0..1];\nx = " + strings.Repeat("a[", 1500) + "0" + strings.Repeat("]", 1500)
	if _, err := Parse("deep.imp", []byte(deepElem)); err == nil || !strings.Contains(err.Error(), "nesting deeper than 1000 levels") {
		t.Errorf("1500 nested element reads: %v", err)
	}
	var b strings.Builder
	b.WriteString("assert ")
	for i := 0; i < 1500; i++ {
		fmt.Fprintf(&b, "forall k%d in 0..0: ", i)
	}
	b.WriteString("true")
	if _, err := Parse("deep.imp", []byte(b.String())); err == nil || !strings.Contains(err.Error(), "nesting deeper than 1000 levels") {
		t.Errorf("1500 nested quantifiers: %v", err)
	}
	// A macro that doubles an element read at each level is caught by the size limits.
	src := "array a[0..1];\nmacro m0(v) begin x = v end\n"
	for i := 1; i <= 25; i++ {
		src += fmt.Sprintf("macro m%d(v) begin m%d(a[v] + a[v]) end\n", i, i-1)
	}
	src += "m25(0)"
	if _, err := Parse("big.imp", []byte(src)); err == nil || !strings.Contains(err.Error(), "certsym's limit") {
		t.Errorf("doubling macros: %v", err)
	}
}
