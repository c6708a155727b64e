package sym

import (
	"testing"

	"certsym/spec/integer"
)

// TestBoundVariablesNumberedAsMet: a quantified formula's bound variables are printed k1, k2, ...
// in the order the rendering meets their quantifiers, whatever binders the run made before (a
// run that made another quantifier first, in another branch or another process's job, printed
// the same path condition with other numbers).
func TestBoundVariablesNumberedAsMet(t *testing.T) {
	render := func(before int) string {
		ts := NewTerms([]string{"x"})
		x := ts.Syms()[0]
		for i := 0; i < before; i++ {
			ts.boundAtom() // binders made for other formulas first
		}
		b1, k1 := ts.boundAtom()
		b2, k2 := ts.boundAtom()
		inner := Quant(true, b2, k1, x, Pred(FGe, Sub(k2, k1)))
		f := Quant(false, b1, Const(integer.Of(0)), x, inner)
		return f.String([]string{"x"})
	}
	want := render(0)
	if got := render(3); got != want {
		t.Fatalf("after three other binders the formula reads %q, and first %q", got, want)
	}
	if want != "(forall k1 in 0..x: (exists k2 in k1..x: k2 >= k1))" {
		t.Fatalf("the formula reads %q", want)
	}
}
