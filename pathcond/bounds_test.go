package pathcond

import (
	"testing"

	"certsym/spec/integer"
	"certsym/sym"
)

// TestAtomRangeRules: each interval rule of atomRange on a case worked by hand.
func TestAtomRangeRules(t *testing.T) {
	names := []string{"x", "y"}
	ts := sym.NewTerms(names)
	x, y := ts.Syms()[0], ts.Syms()[1]
	k := func(v int64) *sym.Term { return sym.Const(integer.Of(v)) }
	iv := func(lo, hi int64, hasLo, hasHi bool) bound {
		return bound{lo: integer.Of(lo), hi: integer.Of(hi), hasLo: hasLo, hasHi: hasHi}
	}
	fin := func(lo, hi int64) bound { return iv(lo, hi, true, true) }
	for _, c := range []struct {
		name   string
		bx, by bound
		t      *sym.Term
		want   string
	}{
		{"product by a fixed symbol", fin(2, 5), fin(-3, -3), ts.Mul(x, y), "x >= -15 and x <= -6"},
		{"fixed symbol times a product", fin(-3, -3), fin(2, 5), ts.Mul(x, y), "x >= -15 and x <= -6"},
		{"product of finite intervals", fin(-2, 3), fin(-5, 4), ts.Mul(x, y), "x >= -15 and x <= 12"},
		{"product of nonnegatives", iv(1, 0, true, false), iv(2, 0, true, false), ts.Mul(x, y), "x >= 2"},
		{"product, no rule", iv(-1, 0, true, false), iv(2, 0, true, false), ts.Mul(x, y), "true"},
		{"division by a negative point", fin(2, 5), fin(-3, -3), ts.Div(x, y), "x >= -1 and x <= 0"},
		{"division by a positive constant, half-open", iv(-7, 0, true, false), bound{}, ts.Div(x, k(2)), "x >= -3"},
		{"division by a negative constant, half-open", iv(0, 7, false, true), bound{}, ts.Div(x, k(-2)), "x >= -3"},
		{"division, divisor of one sign", fin(-4, 9), fin(2, 3), ts.Div(x, y), "x >= -2 and x <= 4"},
		{"division, divisor may be 0", fin(-4, 9), fin(-1, 2), ts.Div(x, y), "x >= -9 and x <= 9"},
		{"division by 0", fin(-4, 9), fin(0, 0), ts.Div(x, y), "x == 0"},
		{"remainder, divisor of one sign", fin(-4, 9), fin(2, 3), ts.Mod(x, y), "x >= -2 and x <= 2"},
		{"remainder of a nonnegative", iv(3, 0, true, false), bound{}, ts.Mod(x, y), "x >= 0"},
		{"remainder by 0", fin(-4, 9), fin(0, 0), ts.Mod(x, y), "x >= -4 and x <= 9"},
		{"remainder, points", fin(-7, -7), fin(3, 3), ts.Mod(x, y), "x == -1"},
	} {
		bs := bounds{}.with(0, c.bx).with(1, c.by)
		if got := bs.rng(c.t).String("x"); got != c.want {
			t.Errorf("%s: %s with x in %s, y in %s: %s, want %s", c.name, c.t.String(names), c.bx.String("x"), c.by.String("y"), got, c.want)
		}
	}
}
