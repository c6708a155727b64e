package z3worker

import (
	"errors"
	"testing"
	"time"

	"github.com/aclements/go-z3/z3"

	"certsym/spec/integer"
)

// within runs f and fails the test when it has not returned after limit (a generous bound: the
// tests assert that a call ends, not how fast).
func within[T any](t *testing.T, limit time.Duration, f func() T) T {
	t.Helper()
	out := make(chan T, 1)
	go func() { out <- f() }()
	select {
	case r := <-out:
		return r
	case <-time.After(limit):
		t.Fatalf("the call did not return within %v", limit)
	}
	panic("unreachable")
}

func num(ctx *z3.Context, v int64) z3.Int { return ctx.FromInt(v, ctx.IntSort()).(z3.Int) }

// power is x^n as a chain of products.
func power(x z3.Int, n int) z3.Int {
	p := x
	for i := 1; i < n; i++ {
		p = p.Mul(x)
	}
	return p
}

// TestCheck: formulas built in the source context are copied into the worker's; push, pop and
// reset act on the worker's solvers in order; models give the symbols' values, big ones
// included. It also checks go-z3's layouts that the worker reads (a wrong mirror would crash or
// copy the wrong term).
func TestCheck(t *testing.T) {
	ctx := z3.NewContext(z3.NewContextConfig())
	x, y := ctx.IntConst("x"), ctx.IntConst("y")
	w := New(ctx, []z3.Int{x, y}, nil)
	defer w.Close()
	s := w.NewSolver()
	w.Push(s)
	w.Assert(s, x.GT(num(ctx, 3)).And(x.LT(num(ctx, 5))))
	big, _ := integer.Parse("123456789012345678901234567890")
	w.Assert(s, y.Eq(ctx.FromBigInt(big.Big(), ctx.IntSort()).(z3.Int)))
	r := w.Check(s, Bounds{})
	if r.Status != Sat || r.Err != nil || len(r.Model) != 2 || !r.Model[0].Equal(integer.Of(4)) || !r.Model[1].Equal(big) {
		t.Fatalf("x in (3, 5), y big: %+v", r)
	}
	w.Push(s)
	w.Assert(s, x.Eq(num(ctx, 7)))
	if r := w.Check(s, Bounds{}); r.Status != Unsat {
		t.Fatalf("x in (3, 5) and x == 7: %+v", r)
	}
	w.Pop(s, 1)
	if r := w.Check(s, Bounds{}); r.Status != Sat {
		t.Fatalf("after the pop: %+v", r)
	}
	w.Reset(s)
	w.Assert(s, x.Eq(num(ctx, -9)))
	if r := w.Check(s, Bounds{}); r.Status != Sat || !r.Model[0].Equal(integer.Of(-9)) || !r.Model[1].IsZero() {
		t.Fatalf("after the reset, x == -9: %+v", r)
	}
	// A second solver of the same worker is independent of the first.
	s2 := w.NewSolver()
	w.Assert(s2, x.Eq(num(ctx, 1)))
	if r := w.Check(s2, Bounds{}); r.Status != Sat || !r.Model[0].Equal(integer.Of(1)) {
		t.Fatalf("second solver: %+v", r)
	}
}

// TestAbandon: Z3 4.8.12 does not poll for interrupts while it preprocesses x^32 >= 7 in a scope
// (the incremental mode the solver chain uses), so the time bound's interrupt does not stop the
// check; the worker gives the query up after the grace,
// the worker is dead, and the count of abandoned queries counts it until Z3 returns.
func TestAbandon(t *testing.T) {
	if testing.Short() {
		t.Skip("leaves a thread running Z3 for the rest of the test binary")
	}
	ctx := z3.NewContext(z3.NewContextConfig())
	x := ctx.IntConst("x")
	w := New(ctx, []z3.Int{x}, nil)
	defer w.Close()
	s := w.NewSolver()
	w.Push(s)
	w.Assert(s, power(x, 32).GE(num(ctx, 7)))
	before := Abandoned()
	start := time.Now()
	r := within(t, time.Minute, func() Result {
		return w.Check(s, Bounds{Limit: 200 * time.Millisecond, Grace: 300 * time.Millisecond})
	})
	if r.Status == Sat && !r.Abandoned {
		t.Skipf("Z3 answered x^32 >= 7 after %v: this Z3 polls there, nothing to abandon", time.Since(start))
	}
	if !r.Abandoned || !r.TimedOut || !w.Dead() {
		t.Fatalf("x^32 >= 7 with a 200ms bound: %+v (dead %v)", r, w.Dead())
	}
	if n := Abandoned(); n < before+1 && n != 0 {
		t.Errorf("abandoned queries: %d before, %d after", before, n)
	}
	if r := w.Check(s, Bounds{}); r.Err == nil {
		t.Errorf("a check on the dead worker: %+v", r)
	}
}

// TestInterrupt: Interrupt stops a query that polls (x^3 + y^3 + z^3 == 33 in a scope, on which
// Z3 searches for much longer), which answers unknown without being abandoned.
func TestInterrupt(t *testing.T) {
	ctx := z3.NewContext(z3.NewContextConfig())
	x, y, z := ctx.IntConst("x"), ctx.IntConst("y"), ctx.IntConst("z")
	w := New(ctx, []z3.Int{x, y, z}, nil)
	defer w.Close()
	s := w.NewSolver()
	w.Push(s)
	w.Assert(s, power(x, 3).Add(power(y, 3), power(z, 3)).Eq(num(ctx, 33)))
	time.AfterFunc(200*time.Millisecond, w.Interrupt)
	r := within(t, time.Minute, func() Result { return w.Check(s, Bounds{Grace: 10 * time.Second}) })
	if r.Status != Unknown || r.Abandoned || r.TimedOut || r.Err != nil || w.Dead() {
		t.Fatalf("interrupted after 200ms: %+v", r)
	}
}

// TestInterruptRepeated: a query Z3 does not stop at an interrupt is abandoned its grace after the
// first Interrupt, however often Interrupt is called again meanwhile (the command's signal
// handler repeats it until the run returns).
func TestInterruptRepeated(t *testing.T) {
	if testing.Short() {
		t.Skip("leaves a thread running Z3 for the rest of the test binary")
	}
	ctx := z3.NewContext(z3.NewContextConfig())
	x := ctx.IntConst("x")
	w := New(ctx, []z3.Int{x}, nil)
	defer w.Close()
	s := w.NewSolver()
	w.Push(s)
	w.Assert(s, power(x, 32).GE(num(ctx, 7)))
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	go func() {
		time.Sleep(200 * time.Millisecond)
		for range tick.C {
			w.Interrupt()
		}
	}()
	r := within(t, time.Minute, func() Result { return w.Check(s, Bounds{Grace: 300 * time.Millisecond}) })
	if r.Status == Sat && !r.Abandoned {
		t.Skip("this Z3 answers x^32 >= 7: nothing to abandon")
	}
	if !r.Abandoned || r.TimedOut {
		t.Fatalf("interrupted every 20ms: %+v", r)
	}
}

// TestClose: after Close the worker answers no query and its handle's Interrupt does nothing (the
// context is freed: an interrupt reaching it would crash).
func TestClose(t *testing.T) {
	ctx := z3.NewContext(z3.NewContextConfig())
	x := ctx.IntConst("x")
	w := New(ctx, []z3.Int{x}, nil)
	s := w.NewSolver()
	w.Assert(s, x.Eq(num(ctx, 5)))
	if r := w.Check(s, Bounds{}); r.Status != Sat || !r.Model[0].Equal(integer.Of(5)) {
		t.Fatalf("x == 5: %+v", r)
	}
	w.Close()
	w.Interrupt()
	if r := w.Check(s, Bounds{}); r.Err == nil || !w.Dead() {
		t.Errorf("a check after Close: %+v", r)
	}
	w.Close()
}

// TestBusy: with MaxAbandoned abandoned queries running, Check starts no query.
func TestBusy(t *testing.T) {
	ctx := z3.NewContext(z3.NewContextConfig())
	x := ctx.IntConst("x")
	w := New(ctx, []z3.Int{x}, nil)
	defer w.Close()
	s := w.NewSolver()
	w.Assert(s, x.GT(num(ctx, 0)))
	defer func(n int32) { abandoned.Store(n) }(abandoned.Load())
	abandoned.Store(MaxAbandoned)
	if r := w.Check(s, Bounds{}); !errors.Is(r.Err, ErrBusy) {
		t.Fatalf("with %d abandoned queries: %+v", MaxAbandoned, r)
	}
	abandoned.Store(0)
	if r := w.Check(s, Bounds{}); r.Status != Sat {
		t.Fatalf("with none: %+v", r)
	}
}

// TestInterruptBetweenQueries: an Interrupt that arrives when no query runs (a late timer of
// the last query, a signal between two) does not reach the next query's assertions: Z3 4.8.12
// can lose an assertion canceled by an interrupt without reporting an error, and the check that
// follows would answer for what is left (sat, for an unsatisfiable set).
func TestInterruptBetweenQueries(t *testing.T) {
	ctx := z3.NewContext(z3.NewContextConfig())
	x, y := ctx.IntConst("x"), ctx.IntConst("y")
	w := New(ctx, []z3.Int{x, y}, nil)
	defer w.Close()
	s := w.NewSolver()
	if r := w.Check(s, Bounds{}); r.Status != Sat {
		t.Fatalf("the empty solver: %+v", r)
	}
	w.Interrupt()
	w.Push(s)
	w.Assert(s, x.LE(num(ctx, 39)).And(y.LE(num(ctx, 39))))
	w.Assert(s, x.GE(num(ctx, 40)).Or(y.GE(num(ctx, 40))))
	if r := w.Check(s, Bounds{}); r.Status != Unsat {
		t.Fatalf("x <= 39 and y <= 39 and (x >= 40 or y >= 40) after an interrupt between queries: %+v, want unsat", r)
	}
}
