package pathcond

import (
	"math/rand"
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

// TestBoundsPersistent checks the shared representation of bounds (a base and a chain of
// refinements, folded every maxEdits) against a map: versions refined from random earlier
// versions, so that chains share their tails and folds happen at every length, each read back
// by of and by each (every bounded symbol once, in symbol order).
func TestBoundsPersistent(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	type version struct {
		bs    bounds
		model map[int]bound
	}
	versions := []version{{bounds{}, map[int]bound{}}}
	for i := 0; i < 5000; i++ {
		from := versions[rng.Intn(len(versions))]
		x := rng.Intn(24)
		b := bound{lo: integer.Of(int64(rng.Intn(100))), hasLo: rng.Intn(2) == 0, hi: integer.Of(int64(100 + rng.Intn(100))), hasHi: rng.Intn(2) == 0}
		next := version{from.bs.with(x, b), map[int]bound{}}
		for k, v := range from.model {
			next.model[k] = v
		}
		next.model[x] = b
		versions = append(versions, next)
		for y := 0; y < 24; y++ {
			want, ok := next.model[y]
			if got := next.bs.of(y); ok && got != want || !ok && got != (bound{}) {
				t.Fatalf("version %d: of(%d) = %v, want %v", len(versions)-1, y, got, want)
			}
		}
		last, n := -1, 0
		next.bs.each(func(e symBound) {
			if e.sym <= last {
				t.Fatalf("version %d: each gives symbol %d after %d", len(versions)-1, e.sym, last)
			}
			last = e.sym
			if want := next.model[e.sym]; e.b != want {
				t.Fatalf("version %d: each gives %v for %d, want %v", len(versions)-1, e.b, e.sym, want)
			}
			n++
		})
		if n != len(next.model) {
			t.Fatalf("version %d: each gives %d symbols, want %d", len(versions)-1, n, len(next.model))
		}
		// the originals are unchanged (persistence): checked on the version refined
		for y, want := range from.model {
			if got := from.bs.of(y); got != want {
				t.Fatalf("refining changed an older version: of(%d) = %v, want %v", y, got, want)
			}
		}
	}
}
