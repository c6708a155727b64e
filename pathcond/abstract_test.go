package pathcond

import (
	"testing"

	"certsym/spec/integer"
)

// TestSignRange: the interval the sign axioms give a product, for operands of each sign.
func TestSignRange(t *testing.T) {
	iv := func(lo, hi int64, hasLo, hasHi bool) bound {
		return bound{lo: integer.Of(lo), hi: integer.Of(hi), hasLo: hasLo, hasHi: hasHi}
	}
	all := bound{}
	pos, nonneg := iv(1, 0, true, false), iv(0, 0, true, false)
	negv, nonpos := iv(0, -1, false, true), iv(0, 0, false, true)
	zero := iv(0, 0, true, true)
	for _, c := range []struct {
		l, r bound
		want string
	}{
		{pos, pos, "x >= 1"},
		{negv, negv, "x >= 1"},
		{pos, negv, "x <= -1"},
		{nonneg, nonneg, "x >= 0"},
		{nonneg, nonpos, "x <= 0"},
		{zero, all, "x == 0"},
		{pos, all, "true"},
		{iv(2, 5, true, true), iv(3, 3, true, true), "x >= 1"},
	} {
		if got := signRange(c.l, c.r).String("x"); got != c.want {
			t.Errorf("signRange(%s, %s) = %s, want %s", c.l.String("l"), c.r.String("r"), got, c.want)
		}
	}
}
