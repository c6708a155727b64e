// Package integer is IMP's one kind of value: the mathematical integers, arbitrary-precision, with a fast
// path for the values that fit in an int64.
package integer

import (
	"math"
	"math/big"
	"math/rand"
	"testing"
)

// TestIntAgainstBig compares every operation with math/big on values around the int64 edges,
// where the fast path must hand over to big integers instead of wrapping.
func TestIntAgainstBig(t *testing.T) {
	edge := []int64{0, 1, -1, 2, -2, 3, -7, 7, math.MaxInt64, math.MinInt64, math.MaxInt64 - 1,
		math.MinInt64 + 1, 1 << 32, -(1 << 32), 3037000499, 3037000500, -3037000500}
	r := rand.New(rand.NewSource(1))
	vals := []Int{}
	for _, v := range edge {
		vals = append(vals, Of(v))
	}
	for i := 0; i < 40; i++ {
		vals = append(vals, Of(r.Int63()-r.Int63()))
	}
	huge, _ := Parse("-123456789012345678901234567890")
	vals = append(vals, huge, huge.Neg(), Of(math.MaxInt64).Add(Of(1)))
	check := func(op string, got Int, want *big.Int) {
		t.Helper()
		if got.Big().Cmp(want) != 0 {
			t.Fatalf("%s = %s, want %s", op, got, want)
		}
		if want.IsInt64() != got.IsSmall() {
			t.Fatalf("%s: not normalized (small=%v for %s)", op, got.IsSmall(), want)
		}
	}
	for _, x := range vals {
		check("neg "+x.String(), x.Neg(), new(big.Int).Neg(x.Big()))
		for _, y := range vals {
			xb, yb := x.Big(), y.Big()
			check(x.String()+"+"+y.String(), x.Add(y), new(big.Int).Add(xb, yb))
			check(x.String()+"-"+y.String(), x.Sub(y), new(big.Int).Sub(xb, yb))
			check(x.String()+"*"+y.String(), x.Mul(y), new(big.Int).Mul(xb, yb))
			if c := x.Cmp(y); c != xb.Cmp(yb) {
				t.Fatalf("cmp %s %s = %d", x, y, c)
			}
			if y.IsZero() {
				check(x.String()+"/0", x.Quo(y), big.NewInt(0))
				check(x.String()+"%0", x.Rem(y), xb)
				continue
			}
			check(x.String()+"/"+y.String(), x.Quo(y), new(big.Int).Quo(xb, yb))
			check(x.String()+"%"+y.String(), x.Rem(y), new(big.Int).Rem(xb, yb))
		}
	}
}

func TestIntTruncation(t *testing.T) {
	cases := []struct{ a, b, q, r int64 }{
		{-7, 2, -3, -1}, {7, -2, -3, 1}, {-7, -2, 3, -1}, {7, 2, 3, 1}, {0, 5, 0, 0}, {-1, 5, 0, -1},
	}
	for _, c := range cases {
		if q := Of(c.a).Quo(Of(c.b)); !q.Equal(Of(c.q)) {
			t.Errorf("%d / %d = %s, want %d", c.a, c.b, q, c.q)
		}
		if r := Of(c.a).Rem(Of(c.b)); !r.Equal(Of(c.r)) {
			t.Errorf("%d %% %d = %s, want %d", c.a, c.b, r, c.r)
		}
	}
	if s := Of(math.MaxInt64).Add(Of(1)).String(); s != "9223372036854775808" {
		t.Errorf("MaxInt64 + 1 = %s", s)
	}
	if s := Of(math.MinInt64).Quo(Of(-1)).String(); s != "9223372036854775808" {
		t.Errorf("MinInt64 / -1 = %s", s)
	}
}
