package solver

import (
	"math/rand"
	"testing"

	"certsym/pathcond"
	"certsym/spec"
	"certsym/spec/integer"
	"certsym/sym"
)

// TestAtomRangesSound checks interval arithmetic through nonlinear atoms against Z3: on random
// bounds for three symbols and random conditions over products, truncating divisions and
// remainders (by symbols, constants, zero, and nested), whenever the bounds decide a condition,
// the solver must agree. It also requires that the rules decide a good share of them.
func TestAtomRangesSound(t *testing.T) {
	names := []string{"x", "y", "z"}
	ts := sym.NewTerms(names)
	sv := NewForSymbols(names, Options{})
	rng := rand.New(rand.NewSource(11))
	num := func(n int) *sym.Term { return sym.Const(integer.Of(int64(rng.Intn(2*n+1) - n))) }
	var term func(depth int) *sym.Term
	term = func(depth int) *sym.Term {
		if depth == 0 || rng.Intn(3) == 0 {
			if rng.Intn(3) == 0 {
				return num(4)
			}
			return ts.Syms()[rng.Intn(3)]
		}
		l, r := term(depth-1), term(depth-1)
		switch rng.Intn(4) {
		case 0:
			return ts.Mul(l, r)
		case 1:
			return ts.Div(l, r)
		case 2:
			return ts.Mod(l, r)
		}
		return sym.Add(l, r)
	}
	decided, asked := 0, 0
	for run := 0; run < 4000; run++ {
		phi := pathcond.RootPC(3)
		for _, s := range ts.Syms() { // each symbol in a random interval: finite, half-open or ℤ
			lo, shape := num(5), rng.Intn(7)
			if shape < 5 {
				phi = pathcond.Extend(phi, sym.Pred(sym.FGe, sym.Sub(s, lo)), 3)
			}
			if shape < 2 || shape == 5 {
				phi = pathcond.Extend(phi, sym.Pred(sym.FGe, sym.Sub(sym.Add(lo, sym.Const(integer.Of(int64(rng.Intn(4))))), s)), 3)
			}
		}
		if phi.Status == pathcond.Unsat {
			continue
		}
		f := sym.Pred([]sym.FormulaOp{sym.FGe, sym.FEq, sym.FNe}[rng.Intn(3)], sym.Sub(term(2), num(6)))
		if f == sym.True || f == sym.False {
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

// TestLinearFactsSound checks the deductions against Z3 on random conjunctions of linear
// conditions over three symbols with small coefficients (many share a form up to scaling): when
// the facts of φ decide f true, φ ∧ ¬f must be unsatisfiable; when false, φ ∧ f.
func TestLinearFactsSound(t *testing.T) {
	names := []string{"a", "b", "c"}
	ts := sym.NewTerms(names)
	sv := NewForSymbols(names, Options{})
	rng := rand.New(rand.NewSource(7))
	small := func(n int) integer.Int { return integer.Of(int64(rng.Intn(2*n+1) - n)) }
	atom := func() *sym.Formula {
		tm := sym.Const(small(2))
		syms := ts.Syms()[:2]
		if rng.Intn(4) == 0 {
			syms = ts.Syms()
		}
		for _, s := range syms {
			tm = sym.Add(tm, sym.Scale(s, small(2)))
		}
		return sym.Pred([]sym.FormulaOp{sym.FGe, sym.FGe, sym.FEq, sym.FNe, sym.FNe}[rng.Intn(5)], tm)
	}
	decided := 0
	for run := 0; run < 1500; run++ {
		phi := pathcond.RootPC(3)
		for i := 0; i < 10; i++ {
			f := atom()
			if f == sym.True || f == sym.False {
				continue
			}
			if confirmDecision(t, sv, phi, f, names) {
				decided++
			}
			phi = pathcond.Extend(phi, f, 3)
			if phi.Status == pathcond.Unsat {
				break
			}
		}
	}
	if decided < 1000 {
		t.Errorf("only %d conjuncts decided by facts: the test does not exercise them", decided)
	}
	t.Logf("%d decisions checked", decided)
}

// confirmDecision decides f by the cheap facts of phi (bounds and linear facts: Extend without a
// solver) and, when they decide it, asks Z3 to confirm: φ ∧ ¬f unsatisfiable for true, φ ∧ f for false. It reports
// whether f was decided.
func confirmDecision(t *testing.T, sv *Chain, phi *pathcond.PC, f *sym.Formula, names []string) bool {
	t.Helper()
	var check *sym.Formula
	d := "true"
	switch n := pathcond.Extend(phi, f, len(names)); {
	case n == phi: // implied
		check = sym.Not(f)
	case n.Status == pathcond.Unsat && phi.Status != pathcond.Unsat: // contradicted
		check, d = f, "false"
	default:
		return false
	}
	q := pcOf(sym.And(phi.Formula(), check))
	if got := sv.Check(q); got != pathcond.Unsat {
		t.Fatalf("%s: the facts decide %s %v, but the solver says %v for the opposite (model %s)",
			phi.String(names), f.String(names), d, got, spec.InputString(q.Witness, names))
	}
	return true
}
