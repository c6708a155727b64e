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
// reference the chain holds to Z3 objects and adds the chain's weight (one, plus the queries it
// sent to Z3, whose terms and learned clauses make up most of a context's memory) to a
// process-wide sum; when the sum reaches releaseWeight, Close runs a collection (runtime.GC),
// starts the sum again, and the next Close runs one more. A context is freed only by the second
// of them: the first finds its terms unreachable and queues their finalizers, which release
// them; the second finds the context itself unreachable (the terms held it) and its finalizer
// deletes it. So eight idle chains, or one chain that sent a few queries, make two collections.
// This is the one place where the collection policy lives. The worker's context (backend.go), which holds
// no go-z3 object, is freed by Close itself.

// releaseWeight is the sum of closed chains' weights that makes one forced collection.
const releaseWeight = 8

var (
	released atomic.Int64
	followUp atomic.Bool // the last Close collected: the next one collects again
)

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
	if released.Add(1+int64(c.Stats.Z3Queries)) >= releaseWeight {
		released.Store(0)
		followUp.Store(true)
		runtime.GC()
	} else if followUp.Swap(false) {
		runtime.GC()
	}
}
