package conv

import (
	"errors"
	"math/rand"
	"testing"

	"certsym/internal/testprog"
	"certsym/refinement/refclient"
	"certsym/spec/integer"
	"certsym/sym"
)

// TestFormulaWithIte checks that a formula over conditional terms is written as IMP syntax with
// its truth: random comparisons of random terms with nested ites (in sums, products, quotients,
// and in the conditions of other ites), evaluated by sym and, converted, by the layer's own
// evaluator of IMP syntax, on random valuations; with and without arrays in the program (the two
// ways of Formula). The terms with an ite are refused by Term, and an ite too many cases deep is
// refused by Formula (ErrTooLarge), never a panic.
func TestFormulaWithIte(t *testing.T) {
	for _, src := range []string{"x = y + z", "array a[0..2];\nx = y + z + a[0]"} {
		p := testprog.Parse(t, src)
		ts := sym.NewTermsFor(p)
		s := ts.Syms()
		rng := rand.New(rand.NewSource(1))
		var term func(d int) *sym.Term
		var cond func(d int) *sym.Formula
		leaf := func() *sym.Term {
			if rng.Intn(3) == 0 {
				return sym.Const(integer.Of(int64(rng.Intn(7) - 3)))
			}
			return s[rng.Intn(3)]
		}
		term = func(d int) *sym.Term {
			if d == 0 {
				return leaf()
			}
			switch rng.Intn(5) {
			case 0:
				return ts.Ite(cond(d-1), term(d-1), term(d-1))
			case 1:
				return sym.Add(term(d-1), ts.Ite(cond(d-1), term(d-1), leaf()))
			case 2:
				return ts.Mul(term(d-1), term(d-1))
			case 3:
				return ts.Div(term(d-1), leaf())
			}
			return sym.Sub(term(d-1), leaf())
		}
		cond = func(d int) *sym.Formula {
			ops := []sym.FormulaOp{sym.FGe, sym.FEq, sym.FNe}
			f := sym.Pred(ops[rng.Intn(len(ops))], term(d))
			if d > 0 && rng.Intn(3) == 0 {
				return sym.Or(f, sym.Not(cond(d-1)))
			}
			return f
		}
		converted, refused := 0, 0
		for i := 0; i < 300; i++ {
			f := cond(3)
			b, err := Formula(p, f)
			if err != nil {
				if !errors.Is(err, ErrTooLarge) {
					t.Fatalf("%s: %v", f.String(ts.Names()), err)
				}
				refused++
				continue
			}
			converted++
			for j := 0; j < 20; j++ {
				v := make([]integer.Int, p.Slots())
				for k := range v {
					v[k] = integer.Of(int64(rng.Intn(11) - 5))
				}
				got, err := refclient.EvalBE(b, v)
				if err != nil {
					t.Fatalf("evaluating the conversion of %s: %v", f.String(ts.Names()), err)
				}
				if want := f.Eval(v); got != want {
					t.Fatalf("%s under %v: %v, its conversion %v", f.String(ts.Names()), v, want, got)
				}
			}
		}
		if converted < 200 {
			t.Errorf("only %d of 300 formulas converted (%d refused as too large)", converted, refused)
		}
		ite := ts.Ite(sym.Pred(sym.FGe, s[0]), s[1], s[2])
		if _, err := Term(p, sym.Add(ite, s[0])); !errors.Is(err, ErrIte) {
			t.Errorf("Term of a conditional term: error %v, want ErrIte", err)
		}
	}
}

// TestFormulaTooManyCases checks the bound on the cases: a sum of 7 ites of two cases each has
// 128 cases, more than MaxCases.
func TestFormulaTooManyCases(t *testing.T) {
	p := testprog.Parse(t, "x = y + z")
	ts := sym.NewTermsFor(p)
	s := ts.Syms()
	sum := sym.Const(integer.Of(0))
	for k := 0; k < 7; k++ {
		sum = sym.Add(sum, ts.Ite(sym.Pred(sym.FGe, sym.Sub(s[0], sym.Const(integer.Of(int64(k))))), s[1], s[2]))
	}
	if _, err := Formula(p, sym.Pred(sym.FGe, sum)); !errors.Is(err, ErrTooLarge) {
		t.Errorf("7 ites of two cases: error %v, want ErrTooLarge", err)
	}
	sum = sym.Const(integer.Of(0))
	for k := 0; k < 6; k++ {
		sum = sym.Add(sum, ts.Ite(sym.Pred(sym.FGe, sym.Sub(s[0], sym.Const(integer.Of(int64(k))))), s[1], s[2]))
	}
	if _, err := Formula(p, sym.Pred(sym.FGe, sum)); err != nil {
		t.Errorf("6 ites of two cases (64 cases): %v", err)
	}
}

// TestFormulaIteOfStoredArrayRead: a comparison over a conditional term whose branch reads a
// stored array term (the merge of a path that assigned z = a[x] after a store into a with one
// that did not) is written with its truth; counting its nodes walks the layer's own read node
// (refclient.Select), which syntax.Inspect does not know.
func TestFormulaIteOfStoredArrayRead(t *testing.T) {
	p := testprog.Parse(t, "array a[-1..1];\nx = y + z + a[0]")
	ts := sym.NewTermsFor(p)
	s := ts.Syms()
	x, y, z := s[0], s[1], s[2]
	stored := ts.Store(s[len(p.Vars)].ArrayValue(), sym.Const(integer.Of(1)), sym.Add(z, sym.Const(integer.Of(1))))
	read := ts.Select(stored, x)
	ite := ts.Ite(sym.And(sym.Pred(sym.FGe, sym.Add(x, sym.Const(integer.Of(1)))), sym.Pred(sym.FGe, sym.Sub(sym.Const(integer.Of(1)), x))), read, z)
	f := sym.Pred(sym.FNe, sym.Sub(sym.Sub(ite, y), sym.Const(integer.Of(2))))
	b, err := Formula(p, f)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewSource(1))
	for j := 0; j < 200; j++ {
		v := make([]integer.Int, p.Slots())
		for k := range v {
			v[k] = integer.Of(int64(rng.Intn(7) - 3))
		}
		got, err := refclient.EvalBE(b, v)
		if err != nil {
			t.Fatalf("evaluating the conversion of %s: %v", f.String(ts.Names()), err)
		}
		if want := f.Eval(v); got != want {
			t.Fatalf("%s under %v: %v, its conversion %v", f.String(ts.Names()), v, want, got)
		}
	}
}
