package z3worker

import (
	"runtime"
	"sync/atomic"
)

// Releasing the memory of go-z3 contexts. go-z3 has no way to delete a context: it frees each Z3
// object (the context, its solvers, every term) in a finalizer, which runs after a collection has
// found the Go object unreachable, and the terms before the context they reference. The C memory
// behind them is invisible to the Go heap's pacer: a process that makes many short-lived contexts
// (the command run in-process by its tests, the refinement layer's thousands of engines) makes too
// little Go garbage to start the collections that would free them. So whoever drops its last
// reference to a context calls Release with the context's weight (one, plus the queries it sent
// to Z3, whose terms and learned clauses make up most of a context's memory), added to a
// process-wide sum; when the sum reaches releaseWeight, Release runs a collection (runtime.GC),
// starts the sum again, and the next Release runs one more. A context is freed only by the second
// of them: the first finds its terms unreachable and queues their finalizers, which release them;
// the second finds the context itself unreachable (the terms held it) and its finalizer deletes
// it. So eight idle contexts, or one that answered a few queries, make two collections. This is
// the one place where the collection policy lives; a Worker's own context, which holds no go-z3
// object, is freed by its Close.

// releaseWeight is the sum of released contexts' weights that makes one forced collection.
const releaseWeight = 8

var (
	released atomic.Int64
	followUp atomic.Bool // the last Release collected: the next one collects again
)

// Release counts a go-z3 context of the given weight as dropped and collects when the policy
// above says so.
func Release(weight int64) {
	if released.Add(weight) >= releaseWeight {
		released.Store(0)
		followUp.Store(true)
		runtime.GC()
	} else if followUp.Swap(false) {
		runtime.GC()
	}
}
