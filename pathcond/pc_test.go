package pathcond

import (
	"strings"
	"testing"

	"certsym/internal/testprog"
	"certsym/spec/integer"
	"certsym/spec/syntax"
	"certsym/sym"
)

// TestPCString: single-symbol bounds merge into intervals and a conjunct that reads as an earlier
// one is shown once (the bounded interpreter adds b >= a + 1 again when an assert re-proves it).
func TestPCString(t *testing.T) {
	names := []string{"a", "b"}
	ts := sym.NewTerms(names)
	a, b := ts.Syms()[0], ts.Syms()[1]
	gt := sym.Pred(sym.FGe, sym.Sub(sym.Sub(b, a), sym.Const(one))) // b - a - 1 >= 0
	phi := RootPC(2)
	for _, f := range []*sym.Formula{sym.Pred(sym.FGe, sym.Sub(a, sym.Const(one))), gt, sym.Pred(sym.FGe, sym.Sub(sym.Const(one), a)), sym.Pred(sym.FGe, sym.Sub(sym.Sub(b, a), sym.Const(one)))} {
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
	n := sym.NewTerms(names).Syms()[0]
	phi := Extend(RootPC(1), sym.Pred(sym.FGe, n), 1)
	for _, v := range []int64{0, 1} {
		phi = Extend(phi, sym.Pred(sym.FNe, sym.Sub(n, sym.Const(integer.Of(v)))), 1)
	}
	if got := phi.String(names); got != "n >= 2" || !phi.pure || phi.Status != Sat || !phi.Witness[0].Equal(integer.Of(2)) {
		t.Errorf("n >= 0, n != 0, n != 1: %q, pure %v, %v %v", got, phi.pure, phi.Status, phi.Witness)
	}
	phi = Extend(phi, sym.Pred(sym.FNe, sym.Sub(n, sym.Const(integer.Of(5)))), 1)
	if got := phi.String(names); got != "n >= 2 and n != 5" || phi.pure {
		t.Errorf("then n != 5: %q, pure %v", got, phi.pure)
	}
}

// arrayProg parses src and returns it with its term factory.
func arrayProg(t *testing.T, src string) (*syntax.Program, *sym.Terms) {
	t.Helper()
	p := testprog.Parse(t, src)
	return p, sym.NewTermsFor(p)
}

// extendAll is the path condition of fs built by Extend from the root.
func extendAll(n int, fs ...*sym.Formula) *PC {
	phi := RootPC(n)
	for _, f := range fs {
		phi = Extend(phi, f, n)
	}
	return phi
}

// condOf is S(b) ∧ S(D(b)) for a condition of the program p at the identity store.
func condOf(t *testing.T, p *syntax.Program, ts *sym.Terms, cond string) *sym.Formula {
	t.Helper()
	q := testprog.Parse(t, progDecls(p)+"assume "+cond)
	v, d, _, _ := ts.CondKinds(lastAssume(q.Body).Cond, ts.Syms())
	return sym.And(d, v)
}

// progDecls are p's array declarations and a use of each variable (same numbering).
func progDecls(p *syntax.Program) string {
	var b strings.Builder
	for _, a := range p.Arrays {
		b.WriteString("array " + a.Name + "[" + integer.Of(a.Lo).String() + ".." + integer.Of(a.Hi).String() + "];\n")
	}
	for _, x := range p.Vars {
		b.WriteString(x + " = " + x + ";\n")
	}
	return b.String()
}

// TestDecidersOpaqueSelect checks that the bounds and linear facts treat select atoms as unknown
// symbols: a bound on a[i] is no bound on a symbol, and a[i] >= 0 does not decide a[j] >= 0
// (the solver's part of it is TestSolverOpaqueSelect).
func TestDecidersOpaqueSelect(t *testing.T) {
	p, ts := arrayProg(t, "array a[0..4]; i = i; j = j")
	n := p.Slots()
	c := func(s string) *sym.Formula { return condOf(t, p, ts, s) }
	phi := extendAll(n, c("a[i] >= 5"))
	if phi.pure {
		t.Error("a bound on a[i] kept the path condition pure")
	}
	if next := Extend(phi, c("a[j] >= 5"), n); next == phi || next.Status == Unsat {
		t.Error("a[i] >= 5 decided a[j] >= 5")
	}
	if next := Extend(phi, c("a[i] < 5"), n); next == phi {
		t.Error("a[i] < 5 taken as implied")
	}
}

// lastAssume is the last statement of a sequence, an assume.
func lastAssume(s syntax.Stmt) *syntax.Assume {
	for {
		seq, ok := s.(*syntax.Seq)
		if !ok {
			return s.(*syntax.Assume)
		}
		s = seq.Second
	}
}
