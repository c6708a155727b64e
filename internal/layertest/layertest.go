// Package layertest runs the refinement layer's reduced run as the whole test of a package of the
// symbolic core (sym, pathcond, engine, bounded), so that when gremlins mutates one of the package's files
// the refinement layer alone decides whether the mutant is killed (make mutation).
//
// No file of those packages imports it: refinement/mutation.sh has the command
// refinement/mutation write a test file for each package (refinement/mutation/layer_test.go.tmpl,
// its package clause set to the package's, calling Main and Run) into a temporary folder, and
// hands them to go with -overlay (in GOFLAGS) while gremlins runs, so the package's test binary,
// built with the tag refinementonly, gets the file as if it were in the package's folder. The
// packages' own trees import nothing above them; their test binaries are the layer's only while
// the mutation run lasts.
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
