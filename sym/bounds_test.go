package sym

import (
	"math/rand"
	"testing"

	"certsym/spec"
	"certsym/spec/integer"
)

// TestAtomRangesSound checks interval arithmetic through nonlinear atoms against Z3: on random
// bounds for three symbols and random conditions over products, truncating divisions and
// remainders (by symbols, constants, zero, and nested), whenever the bounds decide a condition,
// the solver must agree. It also requires that the rules decide a good share of them.
func TestAtomRangesSound(t *testing.T) {
	names := []string{"x", "y", "z"}
	ts := NewTerms(names)
	sv := NewSolver(names)
	rng := rand.New(rand.NewSource(11))
	num := func(n int) *Term { return Const(integer.Of(int64(rng.Intn(2*n+1) - n))) }
	var term func(depth int) *Term
	term = func(depth int) *Term {
		if depth == 0 || rng.Intn(3) == 0 {
			if rng.Intn(3) == 0 {
				return num(4)
			}
			return ts.syms[rng.Intn(3)]
		}
		l, r := term(depth-1), term(depth-1)
		switch rng.Intn(4) {
		case 0:
			return ts.mul(l, r)
		case 1:
			return ts.div(l, r)
		case 2:
			return ts.mod(l, r)
		}
		return add(l, r)
	}
	decided, asked := 0, 0
	for run := 0; run < 4000; run++ {
		phi := RootPC(3)
		for _, s := range ts.syms { // each symbol in a random interval: finite, half-open or ℤ
			lo, shape := num(5), rng.Intn(7)
			if shape < 5 {
				phi = Extend(phi, Pred(FGe, sub(s, lo)), 3)
			}
			if shape < 2 || shape == 5 {
				phi = Extend(phi, Pred(FGe, sub(add(lo, Const(integer.Of(int64(rng.Intn(4))))), s)), 3)
			}
		}
		if phi.Status == Unsat {
			continue
		}
		f := Pred([]FormulaOp{FGe, FEq, FNe}[rng.Intn(3)], sub(term(2), num(6)))
		if f == True || f == False {
			continue
		}
		asked++
		if confirmDecision(t, sv, phi, f, names) {
			decided++
		}
	}
	if decided < asked/4 {
		t.Errorf("only %d of %d conditions decided by the bounds: the test does not exercise the rules", decided, asked)
	}
	t.Logf("%d of %d conditions decided by bounds, each confirmed by Z3", decided, asked)
}

// TestAtomRangeRules: each interval rule of atomRange on a case worked by hand.
func TestAtomRangeRules(t *testing.T) {
	names := []string{"x", "y"}
	ts := NewTerms(names)
	x, y := ts.syms[0], ts.syms[1]
	k := func(v int64) *Term { return Const(integer.Of(v)) }
	iv := func(lo, hi int64, hasLo, hasHi bool) bound {
		return bound{lo: integer.Of(lo), hi: integer.Of(hi), hasLo: hasLo, hasHi: hasHi}
	}
	fin := func(lo, hi int64) bound { return iv(lo, hi, true, true) }
	for _, c := range []struct {
		name   string
		bx, by bound
		t      *Term
		want   string
	}{
		{"product by a fixed symbol", fin(2, 5), fin(-3, -3), ts.mul(x, y), "x >= -15 and x <= -6"},
		{"fixed symbol times a product", fin(-3, -3), fin(2, 5), ts.mul(x, y), "x >= -15 and x <= -6"},
		{"product of finite intervals", fin(-2, 3), fin(-5, 4), ts.mul(x, y), "x >= -15 and x <= 12"},
		{"product of nonnegatives", iv(1, 0, true, false), iv(2, 0, true, false), ts.mul(x, y), "x >= 2"},
		{"product, no rule", iv(-1, 0, true, false), iv(2, 0, true, false), ts.mul(x, y), "true"},
		{"division by a negative point", fin(2, 5), fin(-3, -3), ts.div(x, y), "x >= -1 and x <= 0"},
		{"division by a positive constant, half-open", iv(-7, 0, true, false), bound{}, ts.div(x, k(2)), "x >= -3"},
		{"division by a negative constant, half-open", iv(0, 7, false, true), bound{}, ts.div(x, k(-2)), "x >= -3"},
		{"division, divisor of one sign", fin(-4, 9), fin(2, 3), ts.div(x, y), "x >= -2 and x <= 4"},
		{"division, divisor may be 0", fin(-4, 9), fin(-1, 2), ts.div(x, y), "x >= -9 and x <= 9"},
		{"division by 0", fin(-4, 9), fin(0, 0), ts.div(x, y), "x == 0"},
		{"remainder, divisor of one sign", fin(-4, 9), fin(2, 3), ts.mod(x, y), "x >= -2 and x <= 2"},
		{"remainder of a nonnegative", iv(3, 0, true, false), bound{}, ts.mod(x, y), "x >= 0"},
		{"remainder by 0", fin(-4, 9), fin(0, 0), ts.mod(x, y), "x >= -4 and x <= 9"},
		{"remainder, points", fin(-7, -7), fin(3, 3), ts.mod(x, y), "x == -1"},
	} {
		bs := bounds{}.with(0, c.bx).with(1, c.by)
		if got := bs.rng(c.t).String("x"); got != c.want {
			t.Errorf("%s: %s with x in %s, y in %s: %s, want %s", c.name, c.t.String(names), c.bx.String("x"), c.by.String("y"), got, c.want)
		}
	}
}

// confirmDecision decides f by the cheap facts of phi (bounds and linear facts) and, when they
// decide it, asks Z3 to confirm: φ ∧ ¬f unsatisfiable for true, φ ∧ f for false. It reports
// whether f was decided.
func confirmDecision(t *testing.T, sv *Solver, phi *PC, f *Formula, names []string) bool {
	t.Helper()
	d := phi.bnd.decide(f, phi.lin, false)
	var check *Formula
	switch d {
	case trueT:
		check = Not(f)
	case falseT:
		check = f
	default:
		return false
	}
	q := &PC{Parent: &PC{}, Conj: And(phi.Formula(), check), Depth: 1}
	if got := sv.Check(q); got != Unsat {
		t.Fatalf("%s: the facts decide %s %v, but the solver says %v for the opposite (model %s)",
			phi.String(names), f.String(names), d, got, spec.InputString(q.Witness, names))
	}
	return true
}
