//go:build refinementonly

package pathcond_test

// With the build tag refinementonly, this package's test binary runs only TestRefinementLayer,
// the refinement layer's reduced run (refinement.ReducedRun), and none of the package's own
// tests: make mutation runs gremlins with this tag, so that the refinement layer alone decides
// whether a mutant of the package is killed (go test fails when the layer finds a mismatch).

import (
	"os"
	"testing"

	"certsym/internal/layertest"
)

func TestMain(m *testing.M) { os.Exit(layertest.Main(m)) }

// TestRefinementLayer fails when the reduced run of the refinement layer finds a mismatch.
func TestRefinementLayer(t *testing.T) { layertest.Run(t) }
