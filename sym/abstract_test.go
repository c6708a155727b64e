package sym

import (
	"testing"

	"certsym/spec/integer"
)

// Tests of the abstraction mode (Solver.AbstractMul, certsym verify --abstract-nonlinear) on the
// path of a query before Z3: the decisions Extend takes from intervals (bounds.go) must not know
// more of a product than its sign axioms, as the paper's solver (xSymExe, Sections II-A and
// IV-B: products as uninterpreted functions with the non-negative axiom).

// extendFrom is Extend of each formula in turn from root.
func extendFrom(root *PC, n int, fs ...*Formula) *PC {
	phi := root
	for _, f := range fs {
		phi = Extend(phi, f, n)
	}
	return phi
}

// TestAbstractIntervalsOpaque: Figure 1(c). Under -10 <= i <= -1 and 1 <= j <= 10, the
// interval of i * j + 1 is [-99, -9], so the exact mode decides q >= -99 without the solver; in
// the abstraction mode the product is only negative: q <= 0 is decided by its sign, q >= -99 is
// not, and the solver, which sees mul(i, j) with the sign axioms, finds a (spurious) model of
// q < -99.
func TestAbstractIntervalsOpaque(t *testing.T) {
	names := []string{"i", "j"}
	ts := NewTerms(names)
	i, j := ts.Syms()[0], ts.Syms()[1]
	k := func(v int64) *Term { return Const(integer.Of(v)) }
	q := add(ts.mul(i, j), k(1))
	pre := []*Formula{Pred(FGe, add(i, k(10))), Pred(FGe, sub(k(-1), i)), Pred(FGe, sub(j, k(1))), Pred(FGe, sub(k(10), j))}
	low := Pred(FGe, add(q, k(99))) // q >= -99
	notLow := Not(low)              // q < -99
	high := Pred(FGe, neg(q))       // q <= 0

	exact := NewSolver(names)
	abs := NewSolver(names)
	abs.AbstractMul = true

	phiE := extendFrom(exact.Root(2), 2, pre...)
	if got := Extend(phiE, low, 2); got != phiE {
		t.Errorf("exact mode: q >= -99 not decided by intervals (%v)", got.Status)
	}
	if got := Extend(phiE, notLow, 2); got.Status != Unsat {
		t.Errorf("exact mode: q < -99 is %v, want unsat by intervals", got.Status)
	}

	phiA := extendFrom(abs.Root(2), 2, pre...)
	if got := Extend(phiA, low, 2); got == phiA {
		t.Error("abstraction mode: q >= -99 decided by the interval of the real product")
	}
	neg := Extend(phiA, notLow, 2)
	if neg.Status == Unsat {
		t.Fatal("abstraction mode: q < -99 decided unsat by the interval of the real product")
	}
	if got := abs.Check(neg); got != Sat {
		t.Errorf("abstraction mode: q < -99 is %v, want sat (mul(i, j) has no magnitude)", got)
	}
	if neg.Witness != nil && neg.Formula().Eval(neg.Witness) {
		t.Errorf("abstraction mode: the model %v of q < -99 satisfies the real formula", neg.Witness)
	}
	// the sign still decides q <= 0: i < 0 < j makes mul(i, j) <= -1
	if got := Extend(phiA, high, 2); got != phiA {
		t.Error("abstraction mode: q <= 0 not decided by the product's sign")
	}
	// two single values: the exact mode computes the product, the abstraction knows its sign only
	two := []*Formula{Pred(FEq, sub(i, k(2))), Pred(FEq, sub(j, k(3)))}
	six := Pred(FEq, sub(ts.mul(i, j), k(7)))
	if got := Extend(extendFrom(RootPC(2), 2, two...), six, 2); got.Status != Unsat {
		t.Errorf("exact mode: 2 * 3 == 7 is %v by intervals, want unsat", got.Status)
	}
	if got := Extend(extendFrom(abs.Root(2), 2, two...), six, 2); got.Status == Unsat {
		t.Error("abstraction mode: mul(2, 3) == 7 decided unsat by intervals")
	}
}

// TestAbstractSignAxiomDecides: Figure 1(e). Under j >= 0 and k >= 0, the product j * k < 0 is
// impossible by the sign axiom alone: the abstraction mode decides it (intervals and solver),
// so the branch and the claim under it are dead.
func TestAbstractSignAxiomDecides(t *testing.T) {
	names := []string{"j", "k"}
	ts := NewTerms(names)
	j, k := ts.Syms()[0], ts.Syms()[1]
	m := ts.mul(j, k)
	nat := []*Formula{Pred(FGe, j), Pred(FGe, k)}
	negative := Not(Pred(FGe, m)) // j * k < 0
	abs := NewSolver(names)
	abs.AbstractMul = true
	if got := Extend(extendFrom(abs.Root(2), 2, nat...), negative, 2); got.Status != Unsat {
		t.Errorf("intervals, abstraction mode: j * k < 0 under j, k >= 0 is %v, want unsat", got.Status)
	}
	// the solver alone (no interval decision: a path condition built by hand) decides it by the
	// sign axioms
	if got := abs.Check(pcOf(append(nat, negative)...)); got != Unsat {
		t.Errorf("solver, abstraction mode: j * k < 0 under j, k >= 0 is %v, want unsat", got)
	}
}

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
