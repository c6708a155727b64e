package solver

import (
	"testing"
	"time"

	"certsym/internal/budget"
	"certsym/pathcond"
	"certsym/spec"
	"certsym/spec/integer"
	"certsym/sym"
)

// pcOf is the path condition of fs without the deciders (pathcond.Append): the solver decides it
// alone.
func pcOf(fs ...*sym.Formula) *pathcond.PC {
	phi := pathcond.RootPC(0)
	for _, f := range fs {
		phi = pathcond.Append(phi, f)
	}
	return phi
}

// TestSolverTruncatingDivision checks the encoding of IMP's / and % (truncating, total with
// x / 0 = 0 and x % 0 = x) into Z3's Euclidean div: for each pair, the solver must find the
// quotient and remainder of integer.Int's Quo and Rem, and nothing else.
func TestSolverTruncatingDivision(t *testing.T) {
	ts := sym.NewTerms([]string{"x", "y"})
	sv := NewForSymbols([]string{"x", "y"}, Options{})
	x, y := ts.Syms()[0], ts.Syms()[1]
	vals := []int64{-7, 7, -2, 2, -1, 1, 0, 3, -3, 9, -9}
	for _, a := range vals {
		for _, b := range vals {
			in := sym.And(sym.Pred(sym.FEq, sym.Sub(x, sym.Const(integer.Of(a)))), sym.Pred(sym.FEq, sym.Sub(y, sym.Const(integer.Of(b)))))
			q, r := integer.Of(a).Quo(integer.Of(b)), integer.Of(a).Rem(integer.Of(b))
			for _, c := range []struct {
				op   string
				term *sym.Term
				want integer.Int
			}{{"/", ts.Div(x, y), q}, {"%", ts.Mod(x, y), r}} {
				if got := sv.Check(pcOf(in, sym.Pred(sym.FEq, sym.Sub(c.term, sym.Const(c.want))))); got != pathcond.Sat {
					t.Errorf("%d %s %d == %s: %v, want sat", a, c.op, b, c.want, got)
				}
				if got := sv.Check(pcOf(in, sym.Pred(sym.FNe, sym.Sub(c.term, sym.Const(c.want))))); got != pathcond.Unsat {
					t.Errorf("%d %s %d != %s: %v, want unsat", a, c.op, b, c.want, got)
				}
			}
		}
	}
}

// TestSolverModelsSatisfy checks that every model the solver returns satisfies the path
// condition under the engine's own evaluation, including nonlinear and huge-constant conditions.
func TestSolverModelsSatisfy(t *testing.T) {
	ts := sym.NewTerms([]string{"x", "y"})
	sv := NewForSymbols([]string{"x", "y"}, Options{})
	sv.SetLimits(budget.Limits{RLimit: 50_000_000, QueryTimeout: 20 * time.Second}, time.Time{})
	x, y := ts.Syms()[0], ts.Syms()[1]
	big, _ := integer.Parse("100000000000000000000000000000")
	conds := [][]*sym.Formula{
		{sym.Pred(sym.FEq, sym.Sub(ts.Mul(x, y), sym.Const(integer.Of(15)))), sym.Pred(sym.FGe, sym.Sub(x, sym.Const(integer.Of(2))))},
		{sym.Pred(sym.FGe, sym.Sub(x, sym.Const(big))), sym.Pred(sym.FEq, ts.Mod(x, sym.Const(integer.Of(7))))},
		{sym.Pred(sym.FEq, sym.Sub(ts.Div(x, y), sym.Const(integer.Of(-3)))), sym.Pred(sym.FGe, sym.Sub(x, sym.Const(integer.Of(5))))},
	}
	for i, fs := range conds {
		phi := pcOf(fs...)
		if sv.Check(phi) != pathcond.Sat {
			t.Fatalf("case %d: %v", i, phi.Status)
		}
		if !phi.Formula().Eval(phi.Witness) {
			t.Errorf("case %d: model %s does not satisfy %s", i, spec.InputString(phi.Witness, ts.Names()), phi.String(ts.Names()))
		}
	}
	// x*x == 2 has no integer solution: unsat, or unknown, never sat.
	if st := sv.Check(pcOf(sym.Pred(sym.FEq, sym.Sub(ts.Mul(x, x), sym.Const(integer.Of(2)))))); st == pathcond.Sat {
		t.Error("x*x == 2 reported satisfiable")
	}
}

// TestSolverAbstractMul: with AbstractMul a product is an uninterpreted function constrained only
// by the sign axioms, which survive popping the conjunct that first used the product.
func TestSolverAbstractMul(t *testing.T) {
	names := []string{"x", "y"}
	ts := sym.NewTerms(names)
	x, y := ts.Syms()[0], ts.Syms()[1]
	k := func(v int64) *sym.Term { return sym.Const(integer.Of(v)) }
	m := ts.Mul(x, y)
	two := sym.And(sym.Pred(sym.FEq, sym.Sub(x, k(2))), sym.Pred(sym.FEq, sym.Sub(y, k(2))))
	six := sym.Pred(sym.FEq, sym.Sub(m, k(6)))
	exact, abs := NewForSymbols(names, Options{}), NewForSymbols(names, Options{AbstractMul: true})
	if got := exact.Check(pcOf(two, six)); got != pathcond.Unsat {
		t.Errorf("exact: 2 * 2 == 6 is %v", got)
	}
	if got := abs.Check(pcOf(two, six)); got != pathcond.Sat {
		t.Errorf("abstract: mul(2, 2) == 6 is %v, want sat (magnitude unknown)", got)
	}
	// Sign axioms, asserted with a conjunct on a fresh branch after the first one was popped.
	pos := sym.And(sym.Pred(sym.FGe, sym.Sub(x, k(1))), sym.Pred(sym.FGe, sym.Sub(y, k(1))))
	for i, c := range []struct {
		f    *sym.Formula
		want pathcond.SatStatus
	}{
		{sym.And(pos, sym.Pred(sym.FGe, sym.Neg(m))), pathcond.Unsat},                                                              // x, y > 0 and m <= 0
		{sym.And(sym.Pred(sym.FEq, x), sym.Pred(sym.FNe, m)), pathcond.Unsat},                                                      // x == 0 and m != 0
		{sym.And(sym.Pred(sym.FGe, sym.Sub(k(-1), x)), sym.Pred(sym.FGe, sym.Sub(y, k(1))), sym.Pred(sym.FGe, m)), pathcond.Unsat}, // x < 0 < y and m >= 0
		{sym.And(sym.Pred(sym.FGe, sym.Sub(k(-1), x)), sym.Pred(sym.FGe, sym.Sub(k(-1), y)), sym.Pred(sym.FGe, sym.Sub(m, k(1000)))), pathcond.Sat},
	} {
		if got := abs.Check(pcOf(c.f)); got != c.want {
			t.Errorf("case %d: %v, want %v", i, got, c.want)
		}
	}
}

// TestChainsShareNodes: two chains, each with its own Z3 context, decide path conditions that
// share their first conjuncts. Each chain translates the shared nodes into its own context (the
// translations are side tables of the chain, not of the nodes), so no answer is a solver error
// and each is the right one.
func TestChainsShareNodes(t *testing.T) {
	names := []string{"x", "y"}
	ts := sym.NewTerms(names)
	x, y := ts.Syms()[0], ts.Syms()[1]
	a, b := NewForSymbols(names, Options{NoCache: true}), NewForSymbols(names, Options{NoCache: true})
	defer a.Close()
	defer b.Close()
	// x * y >= 6 and x >= 1: shared by every query below
	shared := pcOf(sym.Pred(sym.FGe, sym.Sub(ts.Mul(x, y), k(6))), sym.Pred(sym.FGe, sym.Sub(x, k(1))))
	for i, c := range []struct {
		sv   *Chain
		f    *sym.Formula
		want pathcond.SatStatus
	}{
		{a, sym.Pred(sym.FEq, sym.Sub(y, k(2))), pathcond.Sat},
		{b, sym.Pred(sym.FEq, y), pathcond.Unsat},
		{a, sym.Pred(sym.FEq, sym.Sub(x, k(6))), pathcond.Sat},
		{b, sym.Pred(sym.FEq, sym.Sub(y, k(3))), pathcond.Sat},
	} {
		phi := pathcond.Append(shared, c.f)
		if got := c.sv.Check(phi); got != c.want {
			t.Errorf("query %d: %v (%s), want %v", i, got, phi.Reason, c.want)
		}
		if c.want == pathcond.Sat && !phi.Formula().Eval(phi.Witness) {
			t.Errorf("query %d: witness %v does not satisfy %s", i, phi.Witness, phi.String(names))
		}
	}
}

// TestClose: a closed chain keeps its counters, answers no query (a query after Close is a
// programming error: it panics), and Close twice is harmless.
func TestClose(t *testing.T) {
	names := []string{"x"}
	ts := sym.NewTerms(names)
	sv := NewForSymbols(names, Options{})
	x := ts.Syms()[0]
	if sv.Check(pcOf(sym.Pred(sym.FEq, sym.Sub(ts.Mul(x, x), k(9))))) != pathcond.Sat {
		t.Fatal("x * x == 9 not sat")
	}
	sv.Close()
	sv.Close()
	if sv.Stats.Queries != 1 || sv.Stats.Sat != 1 {
		t.Errorf("stats after Close: %+v", sv.Stats)
	}
	defer func() {
		if recover() == nil {
			t.Error("a query after Close did not panic")
		}
	}()
	sv.Check(pcOf(sym.Pred(sym.FEq, x)))
}
