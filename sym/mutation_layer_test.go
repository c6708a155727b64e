//go:build refinementonly

package sym_test

// With the build tag refinementonly, the sym package's test binary runs only TestRefinementLayer, the
// refinement layer's reduced run (refinement.ReducedRun), and none of the package's own tests:
// make mutation runs gremlins with this tag, so that the refinement layer alone decides whether
// a mutant of package sym is killed (go test fails when the layer finds a mismatch).

import (
	"flag"
	"os"
	"path/filepath"
	"testing"

	"certsym/refinement"
)

func TestMain(m *testing.M) {
	flag.Parse()
	flag.Set("test.run", "^TestRefinementLayer$") // the package's own tests do not run
	os.Exit(m.Run())
}

// TestRefinementLayer fails when the reduced run of the refinement layer finds a mismatch.
func TestRefinementLayer(t *testing.T) {
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
