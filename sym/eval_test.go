package sym

import (
	"testing"

	"certsym/spec/integer"
)

// TestEvalSharedTerm: evaluation visits each shared atom once. The term below is the store of
// Newton's step r = (r + x / r) / 2 taken 200 times: every level reads the one below it twice, so
// a walk of its tree without sharing would take about 2^200 steps and never end, while the DAG
// has 400 atoms. The value is checked against the same iteration on integers.
func TestEvalSharedTerm(t *testing.T) {
	ts := NewTerms([]string{"x", "r"})
	x, r := ts.Syms()[0], ts.Syms()[1]
	two := Const(integer.Of(2))
	for i := 0; i < 200; i++ {
		r = ts.Div(Add(r, ts.Div(x, r)), two)
	}
	v := []integer.Int{integer.Of(1000000), integer.Of(7)}
	want := integer.Of(7)
	for i := 0; i < 200; i++ {
		q := integer.Of(1000000)
		if !want.IsZero() {
			q = q.Quo(want)
		} else {
			q = integer.Of(0) // the total division of the formal development: x / 0 = 0
		}
		want = want.Add(q).Quo(integer.Of(2))
	}
	if got := r.Eval(v); !got.Equal(want) {
		t.Fatalf("Eval = %s, want %s", got, want)
	}
	if f := Pred(FEq, Sub(r, Const(want))); !f.Eval(v) {
		t.Fatalf("the formula r == %s is false under the valuation", want)
	}
}
