package pathcond

import (
	"testing"

	"certsym/spec/integer"
	"certsym/sym"
)

// TestLinearFacts: conjuncts on a linear form of several symbols are decided by what the path
// condition already states about that form (scaled, negated or shifted), without the solver.
func TestLinearFacts(t *testing.T) {
	ts := sym.NewTerms([]string{"a", "b"})
	a, b := ts.Syms()[0], ts.Syms()[1]
	k := func(v int64) *sym.Term { return sym.Const(integer.Of(v)) }
	lin := func(ka, kb, c int64) *sym.Term {
		return sym.Add(sym.Add(sym.Scale(a, integer.Of(ka)), sym.Scale(b, integer.Of(kb))), k(c))
	}
	ge := func(t *sym.Term) *sym.Formula { return sym.Pred(sym.FGe, t) }
	eq := func(t *sym.Term) *sym.Formula { return sym.Pred(sym.FEq, t) }
	ne := func(t *sym.Term) *sym.Formula { return sym.Pred(sym.FNe, t) }
	for _, c := range []struct {
		name  string
		facts []*sym.Formula
		f     *sym.Formula
		want  truth
	}{
		{"same form, weaker", []*sym.Formula{ge(lin(-2, 1, -1))}, ge(lin(-2, 1, 0)), trueT},                         // b-2a >= 1 ⊢ b-2a >= 0
		{"scaled", []*sym.Formula{ge(lin(-2, 1, -1))}, ge(lin(-4, 2, -1)), trueT},                                   // 2(b-2a) >= 1
		{"negated, contradicted", []*sym.Formula{ge(lin(-2, 1, -1))}, ge(lin(4, -2, 0)), falseT},                    // 4a-2b >= 0
		{"equality contradicted", []*sym.Formula{ge(lin(-2, 1, -1))}, eq(lin(2, -1, 0)), falseT},                    // 2a == b
		{"disequality implied", []*sym.Formula{ge(lin(-2, 1, -1))}, ne(lin(2, -1, 0)), trueT},                       // 2a != b
		{"unknown", []*sym.Formula{ge(lin(-2, 1, -1))}, ge(lin(-2, 1, -5)), unknownT},                               // b-2a >= 5
		{"other form", []*sym.Formula{ge(lin(-2, 1, -1))}, ge(lin(-3, 1, 0)), unknownT},                             // b-3a >= 0
		{"disequality then bound", []*sym.Formula{ne(lin(1, -1, 0)), ge(lin(1, -1, 0))}, ge(lin(-1, 1, 0)), falseT}, // a != b, a >= b ⊢ ¬(b >= a)
		{"bound then disequality", []*sym.Formula{ge(lin(1, -1, 0)), ne(lin(1, -1, 0))}, eq(lin(1, -1, -1)), unknownT},
		{"bound then disequality, shaved", []*sym.Formula{ge(lin(1, -1, 0)), ne(lin(1, -1, 0))}, ge(lin(1, -1, -1)), trueT}, // a-b >= 1
		{"equality", []*sym.Formula{eq(lin(1, -1, -3))}, eq(lin(-1, 1, 3)), trueT},                                          // a-b == 3 ⊢ b-a == -3
		{"equality, bound", []*sym.Formula{eq(lin(1, -1, -3))}, ge(lin(1, -1, -4)), falseT},                                 // a-b >= 4
		{"no integer solution", nil, eq(lin(2, 4, -1)), falseT},                                                             // 2a + 4b == 1
		{"interval from both ends", []*sym.Formula{ge(lin(1, 1, 0)), ge(lin(-1, -1, 2))}, ne(lin(1, 1, -5)), trueT},         // 0 <= a+b <= 2
	} {
		phi := RootPC(2)
		for _, f := range c.facts {
			phi = Extend(phi, f, 2)
		}
		if got := phi.bnd.decide(c.f, phi.lin, false); got != c.want {
			t.Errorf("%s: after %v, deciding %s gives %v, want %v", c.name, phi.String(ts.Names()), c.f.String(ts.Names()), got, c.want)
		}
	}
}
