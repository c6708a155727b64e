// Package engine is certsym's symbolic bug finder, the WiSE bug finder of the README: symbolic
// states ⟨φ, S, p⟩, their successors (Expand), the run stream (NextState) and the bug finder's
// status stream and verdict (Next, FindBugs), each bug confirmed by replaying its model on the
// concrete semantics.
//
// The order of the run stream is the Strategy: BFS (the proofs' run) and DFS (incomplete, to show
// it) over the engine's own queue, and two heuristics under the K-interleaved fair scheduler of
// package search (search.Fair), Coverage and RandomPath: every FairnessPeriod-th pick takes the
// oldest pending state, so each pending state is expanded after finitely many picks and the
// search stays complete. The run stream drives each order through one interface,
// search.Searcher. Generational is the concolic search of package concolic; this engine does not run it.
// Options.Workers expands the states of the breadth-first queue ahead on several goroutines
// without changing the run, its output or its counters (parallel.go).
package engine
