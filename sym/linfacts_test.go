package sym

import (
	"math/rand"
	"testing"

	"certsym/spec/integer"
)

// TestLinearFacts: conjuncts on a linear form of several symbols are decided by what the path
// condition already states about that form (scaled, negated or shifted), without the solver.
func TestLinearFacts(t *testing.T) {
	ts := NewTerms([]string{"a", "b"})
	a, b := ts.syms[0], ts.syms[1]
	k := func(v int64) *Term { return Const(integer.Of(v)) }
	lin := func(ka, kb, c int64) *Term { return add(add(scale(a, integer.Of(ka)), scale(b, integer.Of(kb))), k(c)) }
	ge := func(t *Term) *Formula { return Pred(FGe, t) }
	eq := func(t *Term) *Formula { return Pred(FEq, t) }
	ne := func(t *Term) *Formula { return Pred(FNe, t) }
	for _, c := range []struct {
		name  string
		facts []*Formula
		f     *Formula
		want  truth
	}{
		{"same form, weaker", []*Formula{ge(lin(-2, 1, -1))}, ge(lin(-2, 1, 0)), trueT},                         // b-2a >= 1 ⊢ b-2a >= 0
		{"scaled", []*Formula{ge(lin(-2, 1, -1))}, ge(lin(-4, 2, -1)), trueT},                                   // 2(b-2a) >= 1
		{"negated, contradicted", []*Formula{ge(lin(-2, 1, -1))}, ge(lin(4, -2, 0)), falseT},                    // 4a-2b >= 0
		{"equality contradicted", []*Formula{ge(lin(-2, 1, -1))}, eq(lin(2, -1, 0)), falseT},                    // 2a == b
		{"disequality implied", []*Formula{ge(lin(-2, 1, -1))}, ne(lin(2, -1, 0)), trueT},                       // 2a != b
		{"unknown", []*Formula{ge(lin(-2, 1, -1))}, ge(lin(-2, 1, -5)), unknownT},                               // b-2a >= 5
		{"other form", []*Formula{ge(lin(-2, 1, -1))}, ge(lin(-3, 1, 0)), unknownT},                             // b-3a >= 0
		{"disequality then bound", []*Formula{ne(lin(1, -1, 0)), ge(lin(1, -1, 0))}, ge(lin(-1, 1, 0)), falseT}, // a != b, a >= b ⊢ ¬(b >= a)
		{"bound then disequality", []*Formula{ge(lin(1, -1, 0)), ne(lin(1, -1, 0))}, eq(lin(1, -1, -1)), unknownT},
		{"bound then disequality, shaved", []*Formula{ge(lin(1, -1, 0)), ne(lin(1, -1, 0))}, ge(lin(1, -1, -1)), trueT}, // a-b >= 1
		{"equality", []*Formula{eq(lin(1, -1, -3))}, eq(lin(-1, 1, 3)), trueT},                                          // a-b == 3 ⊢ b-a == -3
		{"equality, bound", []*Formula{eq(lin(1, -1, -3))}, ge(lin(1, -1, -4)), falseT},                                 // a-b >= 4
		{"no integer solution", nil, eq(lin(2, 4, -1)), falseT},                                                         // 2a + 4b == 1
		{"interval from both ends", []*Formula{ge(lin(1, 1, 0)), ge(lin(-1, -1, 2))}, ne(lin(1, 1, -5)), trueT},         // 0 <= a+b <= 2
	} {
		phi := RootPC(2)
		for _, f := range c.facts {
			phi = Extend(phi, f, 2)
		}
		if got := phi.bnd.decide(c.f, phi.lin, false); got != c.want {
			t.Errorf("%s: after %v, deciding %s gives %v, want %v", c.name, phi.String(ts.names), c.f.String(ts.names), got, c.want)
		}
	}
}

// TestLinearFactsSound checks the deductions against Z3 on random conjunctions of linear
// conditions over three symbols with small coefficients (many share a form up to scaling): when
// the facts of φ decide f true, φ ∧ ¬f must be unsatisfiable; when false, φ ∧ f.
func TestLinearFactsSound(t *testing.T) {
	names := []string{"a", "b", "c"}
	ts := NewTerms(names)
	sv := NewSolver(names)
	rng := rand.New(rand.NewSource(7))
	small := func(n int) integer.Int { return integer.Of(int64(rng.Intn(2*n+1) - n)) }
	atom := func() *Formula {
		tm := Const(small(2))
		syms := ts.syms[:2]
		if rng.Intn(4) == 0 {
			syms = ts.syms
		}
		for _, s := range syms {
			tm = add(tm, scale(s, small(2)))
		}
		return Pred([]FormulaOp{FGe, FGe, FEq, FNe, FNe}[rng.Intn(5)], tm)
	}
	decided := 0
	for run := 0; run < 1500; run++ {
		phi := RootPC(3)
		for i := 0; i < 10; i++ {
			f := atom()
			if f == True || f == False {
				continue
			}
			if confirmDecision(t, sv, phi, f, names) {
				decided++
			}
			phi = Extend(phi, f, 3)
			if phi.Status == Unsat {
				break
			}
		}
	}
	if decided < 1000 {
		t.Errorf("only %d conjuncts decided by facts: the test does not exercise them", decided)
	}
	t.Logf("%d decisions checked", decided)
}
