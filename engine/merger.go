package engine

import (
	"certsym/engine/search"
	"certsym/spec"
)

// A Merger is the frontier of a run that merges states (Options.Merge; package
// engine/mergesearch): it expands breadth-first and merges the pending states of a depth that
// have the same remaining program before it hands out the first of them. A bug found in a merged
// state (or below one) is confirmed on the path its input follows: confirm asks Unmerge for that
// path's error state, then replays the input on the concrete semantics.
type Merger interface {
	search.Searcher[*State]
	// Unmerge returns the error state of the path that input follows to st, with no merged state
	// on it (its path condition holds under input, its store is that path's); st is the state
	// taken last and input satisfies st's path condition. An error means the merge and the
	// input disagree: an internal error.
	Unmerge(st *State, input spec.Store) (*State, error)
}
