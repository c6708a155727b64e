package parser

import (
	"fmt"
	"strings"
	"testing"

	"certsym/spec/integer"
	"certsym/spec/syntax"
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
	s1 := p.Body.(*syntax.Seq).First.(*syntax.Assign)
	if s1.A.(*syntax.BinA).L.(*syntax.Elem).Arr != a || s1.Err != nil || s1.IdxErr == nil || s1.IdxErr.Kind != syntax.FailIndex {
		t.Errorf("x = a[y] + 1: Elem not linked or wrong Fail nodes: %+v", s1)
	}
	s2 := p.Body.(*syntax.Seq).Second.(*syntax.Seq).First.(*syntax.ArrAssign)
	if s2.Arr != b || s2.Err == nil || s2.Err.Kind != syntax.FailDivZero || s2.IdxErr == nil || s2.IdxErr.Kind != syntax.FailIndex {
		t.Errorf("b[-3] = x / z: %+v", s2)
	}
	as := p.Body.(*syntax.Seq).Second.(*syntax.Seq).Second.(*syntax.Assert)
	q := as.Cond.(*syntax.Quant)
	inner := q.Body.(*syntax.Quant)
	if q.Level != 0 || inner.Level != 1 || inner.Lo.(*syntax.BoundRef).Level != 0 || as.Err != nil || as.IdxErr == nil {
		t.Errorf("quantifier levels or Fail nodes wrong: %+v %+v", q, inner)
	}
	if slot, ok := a.Slot(integer.Of(5)); !ok || slot != 7 {
		t.Errorf("a.Slot(5) = %d, %v", slot, ok)
	}
	for _, j := range []int64{0, 6, -1} {
		if _, ok := a.Slot(integer.Of(j)); ok {
			t.Errorf("a.Slot(%d) in range", j)
		}
	}
	if big, _ := integer.Parse("100000000000000000000000"); true {
		if _, ok := a.Slot(big); ok {
			t.Error("a.Slot(10^23) in range")
		}
	}
	// A while's unfolding shares the loop's Fail nodes.
	w := mustParse(t, "array a[0..1];\nwhile a[i] > 0 do i = i + 1 od").Body.(*syntax.While)
	if w.Unfold.IdxErr == nil || w.Unfold.Err != nil {
		t.Errorf("while unfolding: %+v", w.Unfold)
	}
	if !syntax.HasIndex(w.Cond) || syntax.HasIndex(w.Body.(*syntax.Assign).A) || !syntax.CanFail(w.Cond, syntax.FailIndex) || syntax.CanFail(w.Cond, syntax.FailDivZero) {
		t.Error("HasIndex / CanFail wrong")
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
