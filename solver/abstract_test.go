package solver

import (
	"testing"

	"certsym/pathcond"
	"certsym/spec/integer"
	"certsym/sym"
)

// Tests of the abstraction mode (Solver.AbstractMul, certsym verify --abstract-nonlinear) on the
// path of a query before Z3: the decisions Extend takes from intervals (bounds.go) must not know
// more of a product than its sign axioms, as the paper's solver (xSymExe, Sections II-A and
// IV-B: products as uninterpreted functions with the non-negative axiom).

// extendFrom is Extend of each formula in turn from root.
func extendFrom(root *pathcond.PC, n int, fs ...*sym.Formula) *pathcond.PC {
	phi := root
	for _, f := range fs {
		phi = pathcond.Extend(phi, f, n)
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
	ts := sym.NewTerms(names)
	i, j := ts.Syms()[0], ts.Syms()[1]
	k := func(v int64) *sym.Term { return sym.Const(integer.Of(v)) }
	q := sym.Add(ts.Mul(i, j), k(1))
	pre := []*sym.Formula{sym.Pred(sym.FGe, sym.Add(i, k(10))), sym.Pred(sym.FGe, sym.Sub(k(-1), i)), sym.Pred(sym.FGe, sym.Sub(j, k(1))), sym.Pred(sym.FGe, sym.Sub(k(10), j))}
	low := sym.Pred(sym.FGe, sym.Add(q, k(99))) // q >= -99
	notLow := sym.Not(low)                      // q < -99
	high := sym.Pred(sym.FGe, sym.Neg(q))       // q <= 0

	exact := NewForSymbols(names, Options{})
	abs := NewForSymbols(names, Options{AbstractMul: true})

	phiE := extendFrom(exact.Root(2), 2, pre...)
	if got := pathcond.Extend(phiE, low, 2); got != phiE {
		t.Errorf("exact mode: q >= -99 not decided by intervals (%v)", got.Status)
	}
	if got := pathcond.Extend(phiE, notLow, 2); got.Status != pathcond.Unsat {
		t.Errorf("exact mode: q < -99 is %v, want unsat by intervals", got.Status)
	}

	phiA := extendFrom(abs.Root(2), 2, pre...)
	if got := pathcond.Extend(phiA, low, 2); got == phiA {
		t.Error("abstraction mode: q >= -99 decided by the interval of the real product")
	}
	neg := pathcond.Extend(phiA, notLow, 2)
	if neg.Status == pathcond.Unsat {
		t.Fatal("abstraction mode: q < -99 decided unsat by the interval of the real product")
	}
	if got := abs.Check(neg); got != pathcond.Sat {
		t.Errorf("abstraction mode: q < -99 is %v, want sat (mul(i, j) has no magnitude)", got)
	}
	if neg.Witness != nil && neg.Formula().Eval(neg.Witness) {
		t.Errorf("abstraction mode: the model %v of q < -99 satisfies the real formula", neg.Witness)
	}
	// the sign still decides q <= 0: i < 0 < j makes mul(i, j) <= -1
	if got := pathcond.Extend(phiA, high, 2); got != phiA {
		t.Error("abstraction mode: q <= 0 not decided by the product's sign")
	}
	// two single values: the exact mode computes the product, the abstraction knows its sign only
	two := []*sym.Formula{sym.Pred(sym.FEq, sym.Sub(i, k(2))), sym.Pred(sym.FEq, sym.Sub(j, k(3)))}
	six := sym.Pred(sym.FEq, sym.Sub(ts.Mul(i, j), k(7)))
	if got := pathcond.Extend(extendFrom(pathcond.RootPC(2), 2, two...), six, 2); got.Status != pathcond.Unsat {
		t.Errorf("exact mode: 2 * 3 == 7 is %v by intervals, want unsat", got.Status)
	}
	if got := pathcond.Extend(extendFrom(abs.Root(2), 2, two...), six, 2); got.Status == pathcond.Unsat {
		t.Error("abstraction mode: mul(2, 3) == 7 decided unsat by intervals")
	}
}

// TestAbstractSignAxiomDecides: Figure 1(e). Under j >= 0 and k >= 0, the product j * k < 0 is
// impossible by the sign axiom alone: the abstraction mode decides it (intervals and solver),
// so the branch and the claim under it are dead.
func TestAbstractSignAxiomDecides(t *testing.T) {
	names := []string{"j", "k"}
	ts := sym.NewTerms(names)
	j, k := ts.Syms()[0], ts.Syms()[1]
	m := ts.Mul(j, k)
	nat := []*sym.Formula{sym.Pred(sym.FGe, j), sym.Pred(sym.FGe, k)}
	negative := sym.Not(sym.Pred(sym.FGe, m)) // j * k < 0
	abs := NewForSymbols(names, Options{AbstractMul: true})
	if got := pathcond.Extend(extendFrom(abs.Root(2), 2, nat...), negative, 2); got.Status != pathcond.Unsat {
		t.Errorf("intervals, abstraction mode: j * k < 0 under j, k >= 0 is %v, want unsat", got.Status)
	}
	// the solver alone (no interval decision: a path condition built by hand) decides it by the
	// sign axioms
	if got := abs.Check(pcOf(append(nat, negative)...)); got != pathcond.Unsat {
		t.Errorf("solver, abstraction mode: j * k < 0 under j, k >= 0 is %v, want unsat", got)
	}
}
