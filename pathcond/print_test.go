package pathcond

import (
	"testing"

	"certsym/spec/integer"
	"certsym/sym"
)

// TestPCStringUndup: an operand of an or (an and) that reads as an earlier one is printed once, at
// every depth, inside a quantifier too (a condition that reads a[k] twice has the index check of
// a[k] twice in its error formula), and the path condition itself is not changed.
func TestPCStringUndup(t *testing.T) {
	names := []string{"x", "y", "n"}
	ts := sym.NewTerms(names)
	x, y, n := ts.Syms()[0], ts.Syms()[1], ts.Syms()[2]
	lt := sym.Pred(sym.FGe, sym.Sub(y, sym.Add(x, sym.Const(one)))) // y - x - 1 >= 0: x <= y - 1
	ge := sym.Pred(sym.FGe, sym.Sub(x, sym.Add(y, sym.Const(one)))) // x >= y + 1
	eq := sym.Pred(sym.FEq, sym.Sub(x, n))
	or := &sym.Formula{Op: sym.FOr, Args: []*sym.Formula{lt, ge, lt, ge}}
	inner := &sym.Formula{Op: sym.FAnd, Args: []*sym.Formula{eq, or, eq}}
	quant := &sym.Formula{Op: sym.FExists, Bind: 1, Lo: sym.Const(integer.Of(0)), Hi: n, Args: []*sym.Formula{or}}
	cases := []struct {
		f    *sym.Formula
		want string
	}{
		{or, "(y >= x + 1 or x >= y + 1)"},
		{&sym.Formula{Op: sym.FOr, Args: []*sym.Formula{inner, ge, inner}}, "((x == n and (y >= x + 1 or x >= y + 1)) or x >= y + 1)"},
		{quant, "(exists k1 in 0..n: (y >= x + 1 or x >= y + 1))"},
		{&sym.Formula{Op: sym.FOr, Args: []*sym.Formula{lt, lt}}, "y >= x + 1"},
	}
	for _, c := range cases {
		before := c.f.String(names)
		phi := extendAll(3, c.f)
		if got := phi.String(names); got != c.want {
			t.Errorf("%s printed %q, want %q", before, got, c.want)
		}
		if after := phi.Conjuncts()[0].String(names); after != before {
			t.Errorf("printing changed the conjunct %s to %s", before, after)
		}
	}
}
