package main

import (
	"flag"
	"runtime"
)

// addWorkersFlag declares --workers on fs with the given usage text: run --workers
// (engine.Options.Workers, engine/parallel.go; with --loop-bound, bounded.Interp.RunWorkers and
// the rendering of the result states) and verify --workers (verify.Options.Workers). The returned
// function reads it after parsing, 0 (the default) as the number of cores.
func addWorkersFlag(fs *flag.FlagSet, usage string) func() int {
	n := newCount(fs, "workers", 0, usage)
	return func() int {
		if *n == 0 {
			return runtime.NumCPU()
		}
		return *n
	}
}

// runWorkersUsage and verifyWorkersUsage are the usage texts of run --workers and verify --workers.
const (
	runWorkersUsage = "expand states ahead on `N` parallel workers (0: the number of cores); the output is the same for every N. " +
		"Breadth-first runs with pruning use them, of programs without products of two variables, divisions, arrays and quantifiers; " +
		"with --loop-bound they replay the errors' inputs and render the result states"
	verifyWorkersUsage = "render the paths' conditions and replay their tests on `N` parallel workers (0: the number of cores); " +
		"the output is the same for every N (the exploration and the claims' solver queries stay sequential)"
)
