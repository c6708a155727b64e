package sym

import (
	"testing"

	"certsym/spec/integer"
)

// TestIte: the conditional term folds a constant condition and equal branches, evaluates to the
// branch its condition selects (nested too), prints as ite(c, t, e), and the walks over atoms see
// the atoms of its condition and branches.
func TestIte(t *testing.T) {
	names := []string{"x", "y"}
	ts := NewTerms(names)
	x, y := ts.Syms()[0], ts.Syms()[1]
	c := Pred(FGe, x) // x >= 0
	if got := ts.Ite(True, x, y); got != x {
		t.Errorf("ite(true, x, y) = %s, want x", got.String(names))
	}
	if got := ts.Ite(False, x, y); got != y {
		t.Errorf("ite(false, x, y) = %s, want y", got.String(names))
	}
	if got := ts.Ite(c, Add(x, y), Add(y, x)); got.String(names) != "x + y" {
		t.Errorf("ite with equal branches = %s, want x + y", got.String(names))
	}
	prod := ts.Mul(x, y)
	it := ts.Ite(c, prod, Sub(y, Const(integer.Of(1))))
	inner := ts.Ite(Pred(FEq, y), Const(integer.Of(7)), it)
	sum := Add(inner, x)
	for _, tc := range []struct{ x, y, want int64 }{
		{3, 4, 15},   // y != 0, x >= 0: x*y + x
		{-2, 4, 1},   // y != 0, x < 0: y - 1 + x
		{-2, 0, 5},   // y == 0: 7 + x
		{5, 0, 12},   // y == 0: 7 + x
		{0, -3, 0},   // x >= 0: 0 + 0
		{-1, -3, -5}, // y - 1 + x
	} {
		v := []integer.Int{integer.Of(tc.x), integer.Of(tc.y)}
		if got := sum.Eval(v); !got.Equal(integer.Of(tc.want)) {
			t.Errorf("x = %d, y = %d: %s = %s, want %d", tc.x, tc.y, sum.String(names), got, tc.want)
		}
	}
	if got, want := sum.String(names), "x + ite(y == 0, 7, ite(x >= 0, (x * y), y - 1))"; got != want {
		t.Errorf("String = %q, want %q", got, want)
	}
	var kinds []AtomKind
	Pred(FGe, sum).EachAtom(func(a *Atom) { kinds = append(kinds, a.Kind) })
	if want := []AtomKind{AtomMul, AtomIte, AtomIte}; len(kinds) != len(want) || kinds[0] != want[0] || kinds[1] != want[1] || kinds[2] != want[2] {
		t.Errorf("EachAtom saw kinds %v, want %v (inner ones first)", kinds, want)
	}
	if !Pred(FGe, sum).Extended() {
		t.Error("a formula with an ite is not extended: the caching layers would slice it")
	}
	// a condition with a product in it: EachAtom walks the condition's atoms
	n := 0
	Pred(FGe, ts.Ite(Pred(FGe, ts.Mul(x, x)), x, y)).EachAtom(func(a *Atom) {
		if a.Kind == AtomMul {
			n++
		}
	})
	if n != 1 {
		t.Errorf("EachAtom saw %d products in an ite's condition, want 1", n)
	}
}

// TestIteRefusesArraysAndQuantifiers: an ite of array values, or with a quantified condition,
// panics (the solver could not encode it).
func TestIteRefusesArraysAndQuantifiers(t *testing.T) {
	ts := NewTerms([]string{"x"})
	x := ts.Syms()[0]
	bind, k := ts.boundAtom()
	q := Quant(false, bind, Const(integer.Of(0)), x, Pred(FGe, k))
	for name, f := range map[string]func(){
		"quantified": func() { ts.Ite(q, x, Const(integer.Of(1))) },
		"array":      func() { ts.Ite(Pred(FGe, x), ArrayTerm(&ArrTerm{}), x) },
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: no panic", name)
				}
			}()
			f()
		}()
	}
}
