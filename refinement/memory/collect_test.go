package memory

import (
	"runtime"
	"sync/atomic"
	"testing"
	"time"
)

// finalized is a heap object with a finalizer that may keep another one alive, as go-z3's terms
// keep their solver and context alive until their own finalizers have run.
type finalized struct{ next *finalized }

// TestCollectZ3: after CollectZ3, every finalizer of a chain like go-z3's has run (terms whose
// finalizers hold their solver, a solver whose finalizer holds its context, the context), though
// the solver's finalizer can only be queued once the terms' have run and the context's once the
// solver's has; one garbage collection, without waiting for the finalizers, leaves them pending.
func TestCollectZ3(t *testing.T) {
	chain := func(ran *atomic.Int32) {
		ctx := &finalized{}
		runtime.SetFinalizer(ctx, func(*finalized) { ran.Add(1) })
		solver := &finalized{next: ctx}
		runtime.SetFinalizer(solver, func(f *finalized) { _ = f.next; ran.Add(1) })
		for i := 0; i < 1000; i++ {
			term := &finalized{next: solver}
			runtime.SetFinalizer(term, func(f *finalized) { _ = f.next; ran.Add(1) })
		}
	}
	var once, collected atomic.Int32
	chain(&once)
	runtime.GC()
	time.Sleep(10 * time.Millisecond)
	if n := once.Load(); n >= 1001 {
		t.Errorf("one collection ran %d of the chain's 1002 finalizers: the solver's could not have been queued", n)
	}
	chain(&collected)
	if !CollectZ3(20 * time.Second) {
		t.Fatal("CollectZ3 timed out")
	}
	if n := collected.Load(); n != 1002 {
		t.Fatalf("after CollectZ3, %d of the chain's 1002 finalizers have run", n)
	}
}
