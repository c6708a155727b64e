package sym

import (
	"testing"
	"time"

	"certsym/spec/integer"
)

// TestQueryCountersAddUp: a query the time bound cuts short before it reaches Z3 is counted as a
// query and as unknown, so Sat + Unsat + Unknown = Queries. (The conditions x * x == 10 + i are
// nonlinear and no earlier model satisfies them, so no caching layer answers them: they reach
// the deadline test.)
func TestQueryCountersAddUp(t *testing.T) {
	ts := NewTerms([]string{"x"})
	sv := NewSolver([]string{"x"})
	x := ts.Syms()[0]
	sv.Check(pcOf(Pred(FEq, sub(x, Const(integer.Of(3))))))
	sv.Deadline = time.Now().Add(-time.Second)
	for i := int64(0); i < 3; i++ {
		if got := sv.Check(pcOf(Pred(FEq, sub(ts.mul(x, x), Const(integer.Of(10+i)))))); got != Unknown {
			t.Fatalf("past the deadline: %v", got)
		}
	}
	s := sv.Stats
	if s.Queries != 4 || s.Sat+s.Unsat+s.Unknown != s.Queries || s.Unknown != 3 {
		t.Errorf("stats %+v: want 4 queries, 3 unknown, adding up", s)
	}
}
