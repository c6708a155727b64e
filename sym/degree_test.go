package sym

import (
	"testing"

	"certsym/spec/integer"
)

// TestDegree: the degree of a product is the sum of its factors'; quotients, remainders and
// selects count 1 as factors and keep the degrees of the polynomials inside them; degrees
// saturate at DegreeCap.
func TestDegree(t *testing.T) {
	p, ts := arrayProg(t, "array a[0..3]; x = x; y = y")
	x, y := ts.Syms()[0], ts.Syms()[1]
	a := ts.Syms()[len(p.Vars)].ArrayValue()
	c := func(v int64) *Term { return Const(integer.Of(v)) }
	x2 := ts.Mul(x, x)
	for _, k := range []struct {
		name string
		t    *Term
		want int
	}{
		{"3", c(3), 0},
		{"x + 1", add(x, c(1)), 1},
		{"x * y", ts.Mul(x, y), 2},
		{"(x + 1)^512", squares(ts, 9), 512},
		{"x * x * y + x", add(ts.Mul(x2, y), x), 3},
		{"(x * x) / y * y", ts.Mul(ts.Div(x2, y), y), 2},
		{"(x * x * x) / y", ts.Div(ts.Mul(x2, x), y), 3},
		{"x % (y * y * y)", ts.Mod(x, ts.Mul(ts.Mul(y, y), y)), 4}, // x - y^3 * (x / y^3)
		{"a[x * x * x] * y", ts.Mul(ts.Select(a, ts.Mul(x2, x)), y), 3},
		{"store(a, 0, x^4)[y]", ts.Select(ts.Store(a, c(0), ts.Mul(x2, x2)), y), 4},
		{"(x + 1)^(2^60)", squares(ts, 60), DegreeCap},
	} {
		if got := k.t.Degree(); got != k.want {
			t.Errorf("%s: degree %d, want %d", k.name, got, k.want)
		}
	}
	f := And(Pred(FGe, x), Or(Pred(FEq, ts.Mul(x2, x2)), Pred(FNe, y)))
	if got := f.Degree(); got != 4 {
		t.Errorf("formula: degree %d, want 4", got)
	}
}

// BenchmarkMul measures the making of product atoms (each computes its degrees and flags in one
// pass over its operands' monomials): products of two sums of eight monomials.
func BenchmarkMul(b *testing.B) {
	names := []string{"a", "b", "c", "d", "e", "f", "g", "h"}
	ts := NewTerms(names)
	s := ts.Syms()
	sum := s[0]
	for _, x := range s[1:] {
		sum = add(sum, x)
	}
	other := add(sum, ts.Mul(s[0], s[1]))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		ts.Mul(sum, other)
	}
}
