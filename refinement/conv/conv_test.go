package conv

import (
	"math/rand"
	"testing"

	"certsym/internal/testprog"
	"certsym/refinement/refclient"
	"certsym/spec/integer"
	"certsym/spec/syntax"
	"certsym/sym"
)

// TestFormulaQuantified checks that quantified formulas (from an assertion with nested bounded
// quantifiers, as an invariant clause makes them) keep their truth through the conversion, in a
// program with arrays and in one without: the formula sym builds from each condition, under
// random valuations, evaluated by sym and, converted, by the layer's evaluator of IMP syntax
// (the binder of each quantifier is kept, never its body alone).
func TestFormulaQuantified(t *testing.T) {
	conds := []string{
		"exists k in 0..x: k == y",
		"forall k in y..x: k * k >= z",
		"exists k in 0..x: forall j in k..y: j != z + k",
		"x > 0 and (forall k in 0..3: k != y) or exists k in z..5: k % 2 == x",
	}
	for _, prefix := range []string{"", "array a[0..2];\n"} {
		for _, c := range conds {
			p := testprog.Parse(t, prefix+"assert "+c)
			b := p.Body.(*syntax.Assert).Cond
			ts := sym.NewTermsFor(p)
			f := ts.SubstB(b, ts.Syms())
			if !f.Quantified() {
				t.Fatalf("%s: no quantifier left in %s", c, f.String(ts.Names()))
			}
			g, err := Formula(p, f)
			if err != nil {
				t.Fatalf("%s: %v", c, err)
			}
			rng := rand.New(rand.NewSource(1))
			for j := 0; j < 200; j++ {
				v := make([]integer.Int, p.Slots())
				for k := range v {
					v[k] = integer.Of(int64(rng.Intn(11) - 5))
				}
				got, err := refclient.EvalBE(g, v)
				if err != nil {
					t.Fatalf("evaluating the conversion of %s: %v", f.String(ts.Names()), err)
				}
				if want := f.Eval(v); got != want {
					t.Fatalf("%s%s under %v: %v, its conversion %s is %v", prefix, f.String(ts.Names()), v, want, syntax.PrintB(g), got)
				}
			}
		}
	}
}
