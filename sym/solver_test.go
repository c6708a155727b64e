package sym

import (
	"testing"
	"time"

	"certsym/spec"
	"certsym/spec/integer"
)

func pcOf(fs ...*Formula) *PC {
	phi := &PC{Status: Unchecked}
	for _, f := range fs {
		phi = &PC{Parent: phi, Conj: f, Depth: phi.Depth + 1}
	}
	return phi
}

// TestSolverTruncatingDivision checks the encoding of IMP's / and % (truncating, total with
// x / 0 = 0 and x % 0 = x) into Z3's Euclidean div: for each pair, the solver must find the
// quotient and remainder of integer.Int's Quo and Rem, and nothing else.
func TestSolverTruncatingDivision(t *testing.T) {
	ts := NewTerms([]string{"x", "y"})
	sv := NewSolver([]string{"x", "y"})
	x, y := ts.syms[0], ts.syms[1]
	vals := []int64{-7, 7, -2, 2, -1, 1, 0, 3, -3, 9, -9}
	for _, a := range vals {
		for _, b := range vals {
			in := And(Pred(FEq, sub(x, Const(integer.Of(a)))), Pred(FEq, sub(y, Const(integer.Of(b)))))
			q, r := integer.Of(a).Quo(integer.Of(b)), integer.Of(a).Rem(integer.Of(b))
			for _, c := range []struct {
				op   string
				term *Term
				want integer.Int
			}{{"/", ts.div(x, y), q}, {"%", ts.mod(x, y), r}} {
				if got := sv.Check(pcOf(in, Pred(FEq, sub(c.term, Const(c.want))))); got != Sat {
					t.Errorf("%d %s %d == %s: %v, want sat", a, c.op, b, c.want, got)
				}
				if got := sv.Check(pcOf(in, Pred(FNe, sub(c.term, Const(c.want))))); got != Unsat {
					t.Errorf("%d %s %d != %s: %v, want unsat", a, c.op, b, c.want, got)
				}
			}
		}
	}
}

// TestSolverModelsSatisfy checks that every model the solver returns satisfies the path
// condition under the engine's own evaluation, including nonlinear and huge-constant conditions.
func TestSolverModelsSatisfy(t *testing.T) {
	ts := NewTerms([]string{"x", "y"})
	sv := NewSolver([]string{"x", "y"})
	sv.RLimit, sv.QueryTimeout = 50_000_000, 20*time.Second
	x, y := ts.syms[0], ts.syms[1]
	big, _ := integer.Parse("100000000000000000000000000000")
	conds := [][]*Formula{
		{Pred(FEq, sub(ts.mul(x, y), Const(integer.Of(15)))), Pred(FGe, sub(x, Const(integer.Of(2))))},
		{Pred(FGe, sub(x, Const(big))), Pred(FEq, ts.mod(x, Const(integer.Of(7))))},
		{Pred(FEq, sub(ts.div(x, y), Const(integer.Of(-3)))), Pred(FGe, sub(x, Const(integer.Of(5))))},
	}
	for i, fs := range conds {
		phi := pcOf(fs...)
		if sv.Check(phi) != Sat {
			t.Fatalf("case %d: %v", i, phi.Status)
		}
		if !phi.Formula().Eval(phi.Witness) {
			t.Errorf("case %d: model %s does not satisfy %s", i, spec.InputString(phi.Witness, ts.names), phi.String(ts.names))
		}
	}
	// x*x == 2 has no integer solution: unsat, or unknown, never sat.
	if st := sv.Check(pcOf(Pred(FEq, sub(ts.mul(x, x), Const(integer.Of(2)))))); st == Sat {
		t.Error("x*x == 2 reported satisfiable")
	}
}

// TestPCString: single-symbol bounds merge into intervals and a conjunct that reads as an earlier
// one is shown once (the bounded interpreter adds b >= a + 1 again when an assert re-proves it).
func TestPCString(t *testing.T) {
	names := []string{"a", "b"}
	ts := NewTerms(names)
	a, b := ts.syms[0], ts.syms[1]
	gt := Pred(FGe, sub(sub(b, a), Const(one))) // b - a - 1 >= 0
	phi := RootPC(2)
	for _, f := range []*Formula{Pred(FGe, sub(a, Const(one))), gt, Pred(FGe, sub(Const(one), a)), Pred(FGe, sub(sub(b, a), Const(one)))} {
		phi = Extend(phi, f, 2)
	}
	if got, want := phi.String(names), "a == 1 and b >= a + 1"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

// TestShavedBounds: x != v at an end of x's interval moves that end (a countdown loop's n != 0
// after n >= 0 is n >= 1), keeps the path condition a conjunction of bounds with a witness, and
// is not printed again; x != v inside the interval stays a conjunct.
func TestShavedBounds(t *testing.T) {
	names := []string{"n"}
	n := NewTerms(names).syms[0]
	phi := Extend(RootPC(1), Pred(FGe, n), 1)
	for _, v := range []int64{0, 1} {
		phi = Extend(phi, Pred(FNe, sub(n, Const(integer.Of(v)))), 1)
	}
	if got := phi.String(names); got != "n >= 2" || !phi.pure || phi.Status != Sat || !phi.Witness[0].Equal(integer.Of(2)) {
		t.Errorf("n >= 0, n != 0, n != 1: %q, pure %v, %v %v", got, phi.pure, phi.Status, phi.Witness)
	}
	phi = Extend(phi, Pred(FNe, sub(n, Const(integer.Of(5)))), 1)
	if got := phi.String(names); got != "n >= 2 and n != 5" || phi.pure {
		t.Errorf("then n != 5: %q, pure %v", got, phi.pure)
	}
}

// TestSolverAbstractMul: with AbstractMul a product is an uninterpreted function constrained only
// by the sign axioms, which survive popping the conjunct that first used the product.
func TestSolverAbstractMul(t *testing.T) {
	names := []string{"x", "y"}
	ts := NewTerms(names)
	x, y := ts.Syms()[0], ts.Syms()[1]
	k := func(v int64) *Term { return Const(integer.Of(v)) }
	m := ts.mul(x, y)
	two := And(Pred(FEq, sub(x, k(2))), Pred(FEq, sub(y, k(2))))
	six := Pred(FEq, sub(m, k(6)))
	exact, abs := NewSolver(names), NewSolver(names)
	abs.AbstractMul = true
	if got := exact.Check(pcOf(two, six)); got != Unsat {
		t.Errorf("exact: 2 * 2 == 6 is %v", got)
	}
	if got := abs.Check(pcOf(two, six)); got != Sat {
		t.Errorf("abstract: mul(2, 2) == 6 is %v, want sat (magnitude unknown)", got)
	}
	// Sign axioms, asserted with a conjunct on a fresh branch after the first one was popped.
	pos := And(Pred(FGe, sub(x, k(1))), Pred(FGe, sub(y, k(1))))
	for i, c := range []struct {
		f    *Formula
		want SatStatus
	}{
		{And(pos, Pred(FGe, neg(m))), Unsat},                                          // x, y > 0 and m <= 0
		{And(Pred(FEq, x), Pred(FNe, m)), Unsat},                                      // x == 0 and m != 0
		{And(Pred(FGe, sub(k(-1), x)), Pred(FGe, sub(y, k(1))), Pred(FGe, m)), Unsat}, // x < 0 < y and m >= 0
		{And(Pred(FGe, sub(k(-1), x)), Pred(FGe, sub(k(-1), y)), Pred(FGe, sub(m, k(1000)))), Sat},
	} {
		if got := abs.Check(pcOf(c.f)); got != c.want {
			t.Errorf("case %d: %v, want %v", i, got, c.want)
		}
	}
}
