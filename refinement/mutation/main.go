// Command mutation runs the refinement layer's reduced run (refinement.ReducedRun) once and exits
// 1 when it finds a mismatch, 0 otherwise: the test that refinement/mutation.sh runs against each
// mutant of the engine that gremlins lists.
package main

import (
	"fmt"
	"os"

	"certsym/refinement"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: mutation MODULE_ROOT")
		os.Exit(2)
	}
	sum, err := refinement.ReducedRun(os.Args[1], os.Stdout)
	if err != nil {
		fmt.Fprintln(os.Stderr, "refinement layer:", err)
		os.Exit(2)
	}
	if sum.Mismatches > 0 {
		os.Exit(1)
	}
}
