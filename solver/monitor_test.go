package solver

import (
	"testing"
	"time"

	"certsym/pathcond"
	"certsym/spec/integer"
	"certsym/sym"
)

// TestQueryCountersAddUp: a query the time bound cuts short before it reaches Z3 is counted as a
// query and as unknown, so Sat + Unsat + Unknown = Queries. (The conditions x * x == 10 + i are
// nonlinear and no earlier model satisfies them, so no caching layer answers them: they reach
// the deadline test.)
func TestQueryCountersAddUp(t *testing.T) {
	ts := sym.NewTerms([]string{"x"})
	sv := NewForSymbols([]string{"x"}, Options{})
	x := ts.Syms()[0]
	sv.Check(pcOf(sym.Pred(sym.FEq, sym.Sub(x, sym.Const(integer.Of(3))))))
	sv.SetDeadline(time.Now().Add(-time.Second))
	for i := int64(0); i < 3; i++ {
		if got := sv.Check(pcOf(sym.Pred(sym.FEq, sym.Sub(ts.Mul(x, x), sym.Const(integer.Of(10+i)))))); got != pathcond.Unknown {
			t.Fatalf("past the deadline: %v", got)
		}
	}
	s := sv.Stats
	if s.Queries != 4 || s.Sat+s.Unsat+s.Unknown != s.Queries || s.Unknown != 3 {
		t.Errorf("stats %+v: want 4 queries, 3 unknown, adding up", s)
	}
}
