package parser

import (
	"reflect"
	"strings"
	"testing"

	"certsym/spec/syntax"
)

// TestInvariantClauses: the clauses of a loop are Asserts at their 'invariant' keywords, in
// source order, whose violations have kind invariant; the loop's Entry checks them in that order
// before its unfolding ([S-While-Inv]); a loop without clauses enters its unfolding directly.
func TestInvariantClauses(t *testing.T) {
	src := "array a[0..3];\ni = 0;\nwhile i < 4\n  invariant 0 <= i and i <= 4\n  invariant forall k in 0..i - 1: a[k] == 0 / n\ndo a[i] = 0; i = i + 1 od;\nwhile false do skip od"
	p := mustParse(t, src)
	w := p.Body.(*syntax.Seq).Second.(*syntax.Seq).First.(*syntax.While)
	if len(w.Invariants) != 2 {
		t.Fatalf("%d clauses, want 2", len(w.Invariants))
	}
	wantPos := []syntax.Pos{{Line: 4, Col: 3}, {Line: 5, Col: 3}}
	for k, inv := range w.Invariants {
		if inv.Pos() != wantPos[k] {
			t.Errorf("clause %d at %v, want %v", k+1, inv.Pos(), wantPos[k])
		}
		if inv.Violation == nil || inv.Violation.Kind != syntax.FailInvariant || inv.Violation.Pos() != wantPos[k] {
			t.Errorf("clause %d: violation %+v, want kind invariant at %v", k+1, inv.Violation, wantPos[k])
		}
	}
	if w.Invariants[0].Err != nil || w.Invariants[0].IdxErr != nil {
		t.Errorf("clause 1 neither divides nor reads an element, yet has error nodes")
	}
	if w.Invariants[1].Err == nil || w.Invariants[1].IdxErr == nil {
		t.Errorf("clause 2 divides and reads elements, yet lacks an error node: %+v", w.Invariants[1])
	}
	if got := w.Invariants[1].Violation.Kind.String(); got != "invariant" {
		t.Errorf("kind text %q, want invariant", got)
	}
	// Entry = assert I1 ; (assert I2 ; Loop), Loop = while b do (p ; (assert I1 ; assert I2)) od.
	e1, ok := w.Entry.(*syntax.Seq)
	if !ok || e1.First != w.Invariants[0] {
		t.Fatalf("Entry does not start with clause 1: %T", w.Entry)
	}
	e2, ok := e1.Second.(*syntax.Seq)
	if !ok || e2.First != w.Invariants[1] || e2.Second != w.Loop || w.Loop == nil {
		t.Fatalf("Entry is not clause 1 ; clause 2 ; Loop")
	}
	l := w.Loop
	if l.Cond != w.Cond || len(l.Invariants) != 0 || l.Loop != nil || l.Pos() != w.Pos() || l.Entry != l.Unfold || w.Unfold != l.Unfold {
		t.Errorf("Loop is not the plain loop at the same place whose unfolding is the loop's: %+v", l)
	}
	b, ok := l.Body.(*syntax.Seq)
	if !ok || b.First != w.Body {
		t.Fatalf("Loop's body does not start with the loop's body")
	}
	if c, ok := b.Second.(*syntax.Seq); !ok || c.First != w.Invariants[0] || c.Second != w.Invariants[1] {
		t.Errorf("Loop's body does not end with the clauses, in order")
	}
	if th := l.Unfold.Then.(*syntax.Seq); th.First != l.Body || th.Second != l {
		t.Errorf("Loop's unfolding does not come back to Loop")
	}
	plain := p.Body.(*syntax.Seq).Second.(*syntax.Seq).Second.(*syntax.While)
	if plain.Entry != plain.Unfold || len(plain.Invariants) != 0 || plain.Loop != nil {
		t.Errorf("a loop without clauses: Entry %p, Unfold %p, %d clauses", plain.Entry, plain.Unfold, len(plain.Invariants))
	}
	// An assert keeps its kind; the variables are numbered in Inspect's order (condition,
	// clauses, body).
	if !reflect.DeepEqual(p.Vars, []string{"i", "n"}) {
		t.Errorf("vars %v, want [i n]", p.Vars)
	}
}

// TestInvariantOrderOfVariables: a variable first met in a clause is numbered after the loop's
// condition and before its body, as VarsOf says.
func TestInvariantOrderOfVariables(t *testing.T) {
	p := mustParse(t, "while x > 0 invariant y >= z do w = x; x = x - 1 od; assert w >= 0")
	want := []string{"x", "y", "z", "w"}
	if !reflect.DeepEqual(p.Vars, want) || !reflect.DeepEqual(syntax.VarsOf(p.Body), want) {
		t.Errorf("vars %v, VarsOf %v, want %v", p.Vars, syntax.VarsOf(p.Body), want)
	}
}

// TestInvariantMacros: a macro's loop keeps its clauses, arguments substituted, each reported at
// the call; an assert in the same body stays an assert.
func TestInvariantMacros(t *testing.T) {
	src := "macro down(v) begin while v > 0 invariant v >= 0 do v = v - 1 od; assert v == 0 end\nx = 3;\ndown(x)"
	p := mustParse(t, src)
	got := syntax.Print(p.Body)
	want := "x = 3;\nwhile x > 0 invariant x >= 0 do\n  x = x - 1\nod;\nassert x == 0\n"
	if got != want {
		t.Fatalf("inlined:\n%s\nwant:\n%s", got, want)
	}
	w := p.Body.(*syntax.Seq).Second.(*syntax.Seq).First.(*syntax.While)
	inv := w.Invariants[0]
	if inv.Line() != 3 || inv.P.Line != 1 || inv.Violation.Kind != syntax.FailInvariant || inv.Violation.Line() != 3 {
		t.Errorf("clause: line %d (own %d), violation %v at line %d; want line 3 (own 1), invariant at 3", inv.Line(), inv.P.Line, inv.Violation.Kind, inv.Violation.Line())
	}
	as := p.Body.(*syntax.Seq).Second.(*syntax.Seq).Second.(*syntax.Assert)
	if as.Violation.Kind != syntax.FailAssert {
		t.Errorf("the assert after the loop has kind %v", as.Violation.Kind)
	}
}

// TestInvariantSyntaxErrors: misplaced or incomplete clauses are positioned syntax errors.
func TestInvariantSyntaxErrors(t *testing.T) {
	cases := []struct{ src, want string }{
		{"while x > 0 invariant do skip od", "1:23: expected an expression"},
		{"while x > 0 invariant x >= 0 skip od", "1:30: expected 'do' after the invariant of 'while'"},
		{"while x > 0 invariant x + 1 do skip od", "1:23: expected a condition (comparison, true, false, not, and, or) after 'invariant'"},
		{"while x > 0 do invariant x >= 0 od", "1:16: 'invariant' stands only in the head of a loop"},
		{"invariant x > 0", "1:1: 'invariant' stands only in the head of a loop"},
		{"invariant = 1", "1:1: 'invariant' stands only in the head of a loop"},
		{"x = invariant", "1:5: expected an expression"},
		{"if x > 0 invariant x > 0 then skip fi", "1:10: expected 'then'"},
		{"while x > 0 invariant forall k in 0..x: y[k] > 0 do skip od", "1:41: unknown array y"},
		{"while x > 0 invariant forall x in 0..1: true do skip od", "1:23: bound variable x has the name of a variable"},
	}
	for _, c := range cases {
		_, err := Parse("bad.imp", []byte(c.src))
		if err == nil {
			t.Errorf("%q: parsed, want error %q", c.src, c.want)
			continue
		}
		if got := err.Error(); !strings.HasPrefix(got, "bad.imp:"+c.want) {
			t.Errorf("%q:\n got %s\nwant bad.imp:%s...", c.src, got, c.want)
		}
	}
}

// TestInvariantRoundTrip: loops with clauses print and re-parse to the same tree.
func TestInvariantRoundTrip(t *testing.T) {
	for _, s := range []string{
		"while x > 0 invariant x >= 0 do x = x - 1 od",
		"array a[0..3];\nwhile i < 4 invariant i >= 0 invariant forall k in 0..i - 1: a[k] == 0 or exists j in 0..3: a[j] > k do a[i] = 0; i = i + 1 od",
		"while x > 0 invariant (forall k in 0..1: k >= 0) and x / y > 0 do while y > 0 invariant y >= 0 do y = y - 1 od; x = x - 1 od",
	} {
		roundTrip(t, s, []byte(s))
	}
}
