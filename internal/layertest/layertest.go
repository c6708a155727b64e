// Package layertest runs the refinement layer's reduced run as the whole test of a package of the
// symbolic core: with the build tag refinementonly, the test binaries of sym, pathcond, engine and bounded
// run only it (their mutation_layer_test.go files), so that when gremlins mutates one of their
// files the refinement layer alone decides whether the mutant is killed (make mutation). Only
// those test files import it; it sits on top of the import graph, beside refinement.
package layertest

import (
	"flag"
	"os"
	"path/filepath"
	"testing"

	"certsym/refinement"
)

// Main runs only the test TestRefinementLayer of the package's test binary (m), none of the
// package's own tests, and returns the exit code for os.Exit.
func Main(m *testing.M) int {
	flag.Parse()
	flag.Set("test.run", "^TestRefinementLayer$")
	return m.Run()
}

// Run fails t when the reduced run of the refinement layer (refinement.ReducedRun, over the
// repository whose root is the parent of the test's package directory) finds a mismatch.
func Run(t *testing.T) {
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	sum, err := refinement.ReducedRun(root, os.Stdout)
	if err != nil {
		t.Fatal("refinement layer: ", err)
	}
	if sum.Mismatches > 0 {
		t.Fatalf("the refinement layer found %d mismatches", sum.Mismatches)
	}
}
