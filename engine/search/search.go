// Package search holds the engine's search heuristics apart from the engine, as KLEE keeps its
// searchers apart from its executor. The engine's search loop drives a Searcher: it Adds the
// initial state, then repeatedly Selects a pending state, expands it and Adds the successors it
// keeps. The heuristics here are the fair strategies of the engine: the K-interleaved scheduler
// (Fair, fair.go) over the coverage heuristic (coverage.go, on the statement graph of package
// cfg) or KLEE's random path selection (randompath.go). The engine's breadth-first and
// depth-first frontier is a Searcher of the engine's own (engine/search.go): its workers and its
// bursts read and fill that queue directly.
//
// The package sees the engine's states only through State, so that the engine, which makes the
// searchers, imports this package and not the other way round.
package search

import (
	"certsym/spec/syntax"
)

// State is what the searchers read of a pending state.
type State interface {
	// NextStmt is the statement the state executes next, the skips at the head of its program
	// passed over; nil when the program is finished.
	NextStmt() syntax.Stmt
}

// Searcher is an order in which the pending states are expanded.
type Searcher[S any] interface {
	// Add queues kids, the successors kept of the state Selected last, in the order they are to
	// be queued (their order of production, but under DFS, which the engine hands over last
	// first); before the first Select, the initial state alone. The engine calls Add after each
	// expansion, with no kids too (the searcher may have to forget the state).
	Add(kids []S)
	// Select takes the next state to expand out of the pending ones; Len must be positive.
	Select() S
	// Len is the number of pending states.
	Len() int
	// Each calls f on every pending state.
	Each(f func(S))
}

// Unmerger is what a Searcher that merges states offers besides (package engine/mergesearch):
// for the state it handed out last and an input of that state's path condition, Unmerge returns
// the state of the path the input follows, with no merged state on it (the state whose replay
// confirms a bug); an error is an internal one.
type Unmerger[S, In any] interface {
	Unmerge(st S, input In) (S, error)
}
