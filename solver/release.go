package solver

import (
	"runtime"
	"sync/atomic"
)

// Releasing the Z3 memory. go-z3 has no way to delete a context: it frees each Z3 object (the
// context, its solvers, every term) in a finalizer, which runs after a collection has found the
// Go object unreachable, and the terms before the context they reference. The C memory behind
// them is invisible to the Go heap's pacer: a process that makes many short-lived chains (the
// command run in-process by its tests, the refinement layer's thousands of engines) makes too
// little Go garbage to start the collections that would free them. So Close drops every
// reference the chain holds to Z3 objects, and every releasesPerGC-th Close in the process runs a
// collection (runtime.GC): the objects of the chains closed before it are freed over the next
// collections (the terms first, then their contexts). This is the one place where the collection
// policy lives. The worker's context (backend.go), which holds no go-z3 object, is freed by
// Close itself.

// releasesPerGC is how many Closes, process-wide, make one forced collection.
const releasesPerGC = 8

var released atomic.Int64

// Close frees the chain's worker and releases its Z3 context, its side tables and caches, so that
// the collector can free them; Stats stay readable. A query after Close panics. Close may be called
// more than once.
func (c *Chain) Close() {
	if c.closed {
		return
	}
	c.closed = true
	c.env.z3.close() // a monitor that outlives the chain does not keep the worker
	c.top, c.layers, c.enc, c.cache = nil, nil, nil, nil
	if released.Add(1)%releasesPerGC == 0 {
		runtime.GC()
	}
}
