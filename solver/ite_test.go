package solver

import (
	"math/rand"
	"testing"
	"time"

	"certsym/internal/budget"

	"certsym/pathcond"
	"certsym/spec"
	"certsym/spec/integer"
	"certsym/sym"
)

// randomIte returns a generator of random terms over ts's three symbols with conditional terms
// (sym.Ite) at any depth, beside sums, products, divisions and remainders; conditions are random
// comparisons of such terms, conjunctions and disjunctions.
func randomIte(ts *sym.Terms, rng *rand.Rand) (term func(int) *sym.Term, cond func(int) *sym.Formula) {
	num := func(n int) *sym.Term { return sym.Const(integer.Of(int64(rng.Intn(2*n+1) - n))) }
	term = func(depth int) *sym.Term {
		if depth == 0 || rng.Intn(4) == 0 {
			if rng.Intn(3) == 0 {
				return num(4)
			}
			return ts.Syms()[rng.Intn(3)]
		}
		switch rng.Intn(10) {
		case 0, 1, 2, 3:
			return ts.Ite(cond(depth-1), term(depth-1), term(depth-1))
		case 4:
			return ts.Mul(term(depth-1), term(depth-1))
		case 5:
			return ts.Div(term(depth-1), term(depth-1))
		case 6:
			return ts.Mod(term(depth-1), term(depth-1))
		}
		return sym.Add(term(depth-1), sym.Scale(term(depth-1), integer.Of(int64(rng.Intn(5)-2))))
	}
	cond = func(depth int) *sym.Formula {
		if depth > 0 && rng.Intn(4) == 0 {
			if rng.Intn(2) == 0 {
				return sym.And(cond(depth-1), cond(depth-1))
			}
			return sym.Or(cond(depth-1), cond(depth-1))
		}
		return sym.Pred([]sym.FormulaOp{sym.FGe, sym.FEq, sym.FNe}[rng.Intn(3)], sym.Sub(term(depth), num(3)))
	}
	return term, cond
}

// TestIteDecidersSound checks the deciders' treatment of ite (the hull of its branches) against
// Z3: on random bounds for three symbols, sometimes a linear fact on two of them, and random
// conditions over terms with ite atoms, whenever
// the bounds decide a condition, Z3 must agree (the opposite is unsatisfiable). It also requires
// that a good share of them be decided, so that the hull is exercised.
func TestIteDecidersSound(t *testing.T) {
	names := []string{"x", "y", "z"}
	ts := sym.NewTerms(names)
	sv := NewForSymbols(names, Options{})
	defer sv.Close()
	rng := rand.New(rand.NewSource(5))
	num := func(n int) *sym.Term { return sym.Const(integer.Of(int64(rng.Intn(2*n+1) - n))) }
	term, cond := randomIte(ts, rng)
	decided, asked, withIte := 0, 0, 0
	for run := 0; run < 3000; run++ {
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
		if rng.Intn(2) == 0 { // a linear fact on a form of two symbols
			x, y := ts.Syms()[0], ts.Syms()[1]
			phi = pathcond.Extend(phi, sym.Pred([]sym.FormulaOp{sym.FGe, sym.FEq, sym.FNe}[rng.Intn(3)],
				sym.Add(sym.Sub(x, sym.Scale(y, integer.Of(int64(rng.Intn(3)+1)))), num(4))), 3)
		}
		if phi.Status == pathcond.Unsat {
			continue
		}
		// an ite at the root of the compared term, so that each condition exercises the hull,
		// sometimes beside a symbol (the sum is then no linear form: the facts must not apply)
		tm := ts.Ite(cond(1), term(2), term(2))
		if rng.Intn(3) == 0 {
			tm = sym.Add(tm, sym.Scale(ts.Syms()[rng.Intn(3)], integer.Of(int64(rng.Intn(5)-2))))
		}
		f := sym.Pred([]sym.FormulaOp{sym.FGe, sym.FEq, sym.FNe}[rng.Intn(3)], sym.Sub(tm, num(6)))
		if f == sym.True || f == sym.False {
			continue
		}
		asked++
		if hasIte(f) {
			withIte++
		}
		if confirmDecision(t, sv, phi, f, names) {
			decided++
		}
	}
	if decided < asked/8 || withIte < asked/2 {
		t.Errorf("%d of %d conditions decided, %d with an ite: the test does not exercise the hull", decided, asked, withIte)
	}
	t.Logf("%d of %d conditions (%d with an ite) decided by bounds, each confirmed by Z3", decided, asked, withIte)
}

// TestIteEncodingAgreesWithEval: the Z3 encoding of ite and its evaluation agree. For random
// formulas with ite atoms, a model Z3 gives for the formula satisfies it by evaluation, and so
// does a model of its negation satisfy the negation.
func TestIteEncodingAgreesWithEval(t *testing.T) {
	names := []string{"x", "y", "z"}
	ts := sym.NewTerms(names)
	sv := NewForSymbols(names, Options{})
	defer sv.Close()
	sv.SetLimits(budget.Limits{RLimit: 5_000_000, QueryTimeout: 5 * time.Second}, time.Time{})
	rng := rand.New(rand.NewSource(9))
	_, cond := randomIte(ts, rng)
	models := 0
	for run := 0; run < 1500; run++ {
		f := cond(2)
		if !hasIte(f) {
			continue
		}
		for _, g := range []*sym.Formula{f, sym.Not(f)} {
			q := pcOf(g)
			if sv.Check(q) != pathcond.Sat { // unsat, or unknown within the bounds
				continue
			}
			models++
			if !g.Eval(q.Witness) {
				t.Fatalf("Z3's model %s of %s does not satisfy it by evaluation", spec.InputString(q.Witness, names), g.String(names))
			}
		}
	}
	if models < 600 {
		t.Errorf("only %d models checked", models)
	}
	t.Logf("%d models of formulas with ite checked by evaluation", models)
}

func hasIte(f *sym.Formula) bool {
	found := false
	f.EachAtom(func(a *sym.Atom) { found = found || a.Kind == sym.AtomIte })
	return found
}
