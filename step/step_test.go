package step

import (
	"math/big"
	"testing"

	"certsym/internal/testprog"
	"certsym/spec"
	"certsym/spec/integer"
	"certsym/spec/syntax"
	"certsym/sym"
)

// valuations are the inputs the tests evaluate the constraints under: every triple of values in
// -3..3 (zero divisors included) for a program of three variables.
func valuations(n int) [][]integer.Int {
	var out [][]integer.Int
	for a := int64(-3); a <= 3; a++ {
		for b := int64(-3); b <= 3; b++ {
			for c := int64(-3); c <= 3; c++ {
				out = append(out, []integer.Int{integer.Of(a), integer.Of(b), integer.Of(c)}[:n])
			}
		}
	}
	return out
}

// TestSplitCond: the then, else and error constraints of a dividing condition partition the
// inputs, and each is the one the concrete semantics takes ([E-If]: then when b is defined and
// true, else when defined and false, error when undefined); without a division there is no error
// successor and the then constraint is the condition itself.
func TestSplitCond(t *testing.T) {
	p := testprog.Parse(t, "if x / y > 0 then skip else skip fi;\nif x > y then skip fi")
	seq := p.Body.(*syntax.Seq)
	div, plain := seq.First.(*syntax.If), seq.Second.(*syntax.If)
	ts := sym.NewTerms(p.Vars)
	sp := SplitCond(ts, div.Cond, ts.Syms(), div.Err != nil)
	if div.Err == nil || sp.Err == nil {
		t.Fatal("x / y > 0 has no division-error successor")
	}
	for _, v := range valuations(len(p.Vars)) {
		want, defined := spec.EvalB(div.Cond, spec.Store(v))
		got := [3]bool{sp.Then.Eval(v), sp.Else.Eval(v), sp.Err.Eval(v)}
		exp := [3]bool{defined && want, defined && !want, !defined}
		if got != exp {
			t.Errorf("%s: then/else/error %v, want %v", spec.InputString(v, p.Vars), got, exp)
		}
	}
	sp = SplitCond(ts, plain.Cond, ts.Syms(), plain.Err != nil)
	if sp.Err != nil {
		t.Errorf("x > y: an error successor %s", sp.Err.String(p.Vars))
	}
	if got, want := sp.Then.String(p.Vars), ts.SubstB(plain.Cond, ts.Syms()).String(p.Vars); got != want {
		t.Errorf("x > y: then constraint %s, want %s", got, want)
	}
}

// TestAssign: the assignment step updates a copy of the store, guards a dividing value with its
// definedness condition (error successor under its negation), and flags a value past MaxIntBits.
func TestAssign(t *testing.T) {
	p := testprog.Parse(t, "z = x / y;\nz = x + y")
	seq := p.Body.(*syntax.Seq)
	div, plain := seq.First.(*syntax.Assign), seq.Second.(*syntax.Assign)
	ts := sym.NewTerms(p.Vars)
	store := ts.Syms()
	as := Assign(ts, div, store)
	if as.Def == nil || as.Err == nil || as.Huge {
		t.Fatalf("z = x / y: def %v, err %v, huge %v", as.Def, as.Err, as.Huge)
	}
	if store[div.X.Index] != ts.Syms()[div.X.Index] || as.Store[div.X.Index] != as.Value {
		t.Error("the step changed the old store, or the new store does not hold the value")
	}
	for _, v := range valuations(len(p.Vars)) {
		q, defined := spec.Eval(div.A, spec.Store(v))
		if as.Def.Eval(v) != defined || as.Err.Eval(v) == defined {
			t.Errorf("%s: def %v, err %v, want defined %v", spec.InputString(v, p.Vars), as.Def.Eval(v), as.Err.Eval(v), defined)
		}
		if defined && !as.Value.Eval(v).Equal(q) {
			t.Errorf("%s: value %v, want %v", spec.InputString(v, p.Vars), as.Value.Eval(v), q)
		}
	}
	if as := Assign(ts, plain, store); as.Def != nil || as.Err != nil {
		t.Error("z = x + y: a definedness condition")
	}
	huge := make([]*sym.Term, len(store))
	copy(huge, store)
	x := plain.A.(*syntax.BinA).L.(*syntax.Var).Index
	huge[x] = sym.Const(integer.FromBig(new(big.Int).Lsh(big.NewInt(1), MaxIntBits+1)))
	if as := Assign(ts, plain, huge); !as.Huge {
		t.Errorf("z = x + y with x = 2^%d: not huge", MaxIntBits+1)
	}
}
