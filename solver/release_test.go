package solver

import (
	"runtime"
	"sync/atomic"
	"testing"
	"time"

	"certsym/pathcond"
	"certsym/sym"
)

// TestCloseReleasesContexts: the Z3 contexts of closed chains become garbage and are collected
// without the caller asking for a collection: Close drops the chain's references to them, and
// a Close collects when the closed chains' weights add up to eight, and the next Close collects
// again (z3worker.Release). The test counts the contexts whose Go object the collector has freed
// (runtime.AddCleanup) among chains that each asked Z3 a query.
func TestCloseReleasesContexts(t *testing.T) {
	names := []string{"x", "y"}
	ts := sym.NewTerms(names)
	x, y := ts.Syms()[0], ts.Syms()[1]
	var freed atomic.Int64
	const releaseWeight = 8 // z3worker's
	const chains = 4 * releaseWeight
	for i := 0; i < chains; i++ {
		sv := NewForSymbols(names, Options{NoCache: true})
		runtime.AddCleanup(sv.enc.ctx, func(n *atomic.Int64) { n.Add(1) }, &freed)
		if sv.Check(pcOf(sym.Pred(sym.FEq, sym.Sub(ts.Mul(x, y), k(int64(12+i)))))) != pathcond.Sat {
			t.Fatalf("chain %d: x * y == %d not sat", i, 12+i)
		}
		sv.Close()
	}
	// the collections of the last closes run the finalizers of the earlier chains' terms, then
	// free their contexts; the cleanups run on a goroutine of their own
	for wait := 0; wait < 50 && freed.Load() < releaseWeight; wait++ {
		time.Sleep(20 * time.Millisecond)
	}
	if got := freed.Load(); got < releaseWeight {
		t.Errorf("%d of %d closed chains' contexts collected, want at least %d", got, chains, releaseWeight)
	}
	t.Logf("%d of %d contexts collected", freed.Load(), chains)
}
