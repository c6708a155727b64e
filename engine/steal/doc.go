// Package steal is the partitioned run of certsym run --workers N: the execution tree of the
// breadth-first bug finder shared among N workers by work stealing, after Cloud9's dynamic
// partitioning, merged into the single run's report (docs/parallelism.md).
//
// A job is a subtree named by its root's path of branch choices from the initial state (Job);
// it holds no solver object and is replayed on the engine of the worker that takes it
// (worker.replay). Each worker has its own engine (term factory, solver chain with its Z3
// context, caches and side tables, monitor), keeps its pending states by depth and expands the
// oldest first; a worker that runs dry steals the oldest pending states of another (worker.steal).
// For each state it expands a worker hands over a record; the merger takes the records of a depth
// once every worker has passed it and does with them, in breadth-first order, what the single run
// does: the state bound, the counters, each error's classification, the first bug (merge.go). So
// the output is the same for every number of workers and every interleaving.
//
// Coq: the run is the stream grun (Engine.v) restricted to the states the single run takes: each
// worker's expansions are expand (Expand.v) on states of the tree, a function of the state
// (Theorem 3.1, expand_correct), and the merger takes them in the order of the breadth-first
// queue (Lemma 3.1, bfs_fair), so Theorems 3.2-3.8 describe the partitioned run as they describe
// the single one. The merging itself is not modelled.
package steal
