package solver

import (
	"strings"
	"testing"
	"time"

	"certsym/internal/budget"
	"certsym/pathcond"
	"certsym/spec/integer"
	"certsym/sym"
)

// The bounds of Z3's time: the degree limit, the abandoned queries, the solver time bound.

// checkWithin checks phi on sv and fails the test when the query has not returned after limit
// (a generous bound: the tests assert that a query ends, not how fast).
func checkWithin(t *testing.T, sv *Chain, phi *pathcond.PC, limit time.Duration) pathcond.SatStatus {
	t.Helper()
	out := make(chan pathcond.SatStatus, 1)
	go func() { out <- sv.Check(phi) }()
	select {
	case st := <-out:
		return st
	case <-time.After(limit):
		t.Fatalf("the query did not return within %v", limit)
	}
	return pathcond.Unchecked
}

// squares is (x + 1) squared n times: 2^n is its degree, n its number of atoms.
func squares(ts *sym.Terms, n int) *sym.Term {
	y := sym.Add(ts.Syms()[0], sym.Const(integer.Of(1)))
	for i := 0; i < n; i++ {
		y = ts.Mul(y, y)
	}
	return y
}

func eq(t *sym.Term, v int64) *sym.Formula {
	return sym.Pred(sym.FEq, sym.Sub(t, sym.Const(integer.Of(v))))
}
func ge(t *sym.Term, v int64) *sym.Formula {
	return sym.Pred(sym.FGe, sym.Sub(t, sym.Const(integer.Of(v))))
}

// TestDegreeLimit: (x + 1)^512 == 7, which Z3 4.8.12 preprocesses for minutes without polling
// for interrupts, answers unknown at once with its degree, without reaching Z3, and so does a
// path condition below it; (x + 1)^64 == 7, within the limit, is decided.
func TestDegreeLimit(t *testing.T) {
	ts := sym.NewTerms([]string{"x"})
	sv := NewForSymbols([]string{"x"}, Options{})
	defer sv.Close()
	sv.SetLimits(budget.Limits{QueryTimeout: 2 * time.Second, RLimit: 50_000_000}, time.Time{})
	phi := pcOf(eq(squares(ts, 9), 7))
	if st := checkWithin(t, sv, phi, time.Minute); st != pathcond.Unknown || !strings.Contains(phi.Reason, "degree 512") {
		t.Fatalf("(x + 1)^512 == 7: %v (%s)", st, phi.Reason)
	}
	below := pathcond.Append(phi, ge(ts.Syms()[0], 0))
	if st := checkWithin(t, sv, below, time.Minute); st != pathcond.Unknown || !strings.Contains(below.Reason, "degree 512") {
		t.Fatalf("below it: %v (%s)", st, below.Reason)
	}
	if sv.Stats.Z3Queries != 0 {
		t.Errorf("%d queries reached Z3", sv.Stats.Z3Queries)
	}
	sv.SetLimits(budget.Limits{QueryTimeout: 30 * time.Second, RLimit: 50_000_000}, time.Time{})
	if st := checkWithin(t, sv, pcOf(eq(squares(ts, 6), 7)), 2*time.Minute); st == pathcond.Unknown && sv.Stats.Z3Queries == 0 {
		t.Errorf("(x + 1)^64 == 7 did not reach Z3")
	}
}

// TestAbandonedQuery: x^32 >= 7 (squared five times from x) is within the degree limit, but Z3
// does not stop at its time bound on it: the query is abandoned after the bound and its grace and
// answers unknown, saying so; a path condition below it answers unknown at once without reaching
// Z3; the chain goes on with a new worker and decides the next query.
func TestAbandonedQuery(t *testing.T) {
	if testing.Short() {
		t.Skip("leaves a thread running Z3 for the rest of the test binary")
	}
	ts := sym.NewTerms([]string{"x"})
	sv := NewForSymbols([]string{"x"}, Options{NoCache: true})
	defer sv.Close()
	sv.SetLimits(budget.Limits{QueryTimeout: 300 * time.Millisecond, RLimit: 50_000_000}, time.Time{})
	x := ts.Syms()[0]
	y := x
	for i := 0; i < 5; i++ {
		y = ts.Mul(y, y)
	}
	phi := pcOf(ge(y, 7))
	st := checkWithin(t, sv, phi, time.Minute)
	if st == pathcond.Sat {
		t.Skip("this Z3 decides x^32 >= 7: nothing to abandon")
	}
	if st != pathcond.Unknown || !strings.Contains(phi.Reason, "abandoned") {
		t.Fatalf("x^32 >= 7: %v (%s)", st, phi.Reason)
	}
	n := sv.Stats.Z3Queries
	below := pathcond.Append(phi, ge(x, 2))
	if st := checkWithin(t, sv, below, time.Minute); st != pathcond.Unknown || !strings.Contains(below.Reason, "abandoned before") || sv.Stats.Z3Queries != n {
		t.Fatalf("below it: %v (%s), %d queries reached Z3 (%d before)", st, below.Reason, sv.Stats.Z3Queries, n)
	}
	other := pcOf(ge(x, 3), ge(sym.Neg(x), -3))
	if st := checkWithin(t, sv, other, time.Minute); st != pathcond.Sat || !other.Witness[0].Equal(integer.Of(3)) {
		t.Fatalf("x == 3 after the abandoned query: %v (%s) %v", st, other.Reason, other.Witness)
	}
}

// TestSolverTimeBound: once the solver time bound is spent, the queries that need Z3 answer
// unknown with that reason, without reaching it.
func TestSolverTimeBound(t *testing.T) {
	ts := sym.NewTerms([]string{"x", "y", "z"})
	sv := NewForSymbols([]string{"x", "y", "z"}, Options{NoCache: true})
	defer sv.Close()
	sv.SetLimits(budget.Limits{QueryTimeout: 20 * time.Second, SolverTime: 300 * time.Millisecond}, time.Time{})
	x, y, z := ts.Syms()[0], ts.Syms()[1], ts.Syms()[2]
	cube := func(v *sym.Term) *sym.Term { return ts.Mul(ts.Mul(v, v), v) }
	// x^3 + y^3 + z^3 == 33: Z3 searches far longer than the bound, polling for interrupts.
	phi := pcOf(eq(sym.Add(sym.Add(cube(x), cube(y)), cube(z)), 33))
	st := checkWithin(t, sv, phi, time.Minute)
	if st != pathcond.Unknown || !strings.Contains(phi.Reason, "solver time bound 300ms spent") {
		t.Fatalf("first query: %v (%s)", st, phi.Reason)
	}
	n := sv.Stats.Z3Queries
	next := pcOf(ge(x, 3))
	if st := checkWithin(t, sv, next, time.Minute); st != pathcond.Unknown || next.Reason != phi.Reason || sv.Stats.Z3Queries != n {
		t.Fatalf("after the bound: %v (%s), %d queries reached Z3 (%d before)", st, next.Reason, sv.Stats.Z3Queries, n)
	}
}
