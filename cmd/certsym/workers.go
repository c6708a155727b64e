package main

import (
	"flag"
	"runtime"
)

// addWorkersFlag declares run --workers on fs (engine.Options.Workers, engine/parallel.go); the
// returned function reads it after parsing, 0 (the default) as the number of cores.
func addWorkersFlag(fs *flag.FlagSet) func() int {
	n := newCount(fs, "workers", 0, "expand states ahead on `N` parallel workers (0: the number of cores); the output is the same for every N. "+
		"Breadth-first runs with pruning use them, of programs without products of two variables, divisions, arrays and quantifiers")
	return func() int {
		if *n == 0 {
			return runtime.NumCPU()
		}
		return *n
	}
}
