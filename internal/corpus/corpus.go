// Package corpus locates the PyWiSE example programs for tests. They are read, unchanged, from
// ../shared/corpus/pywise beside the repository: that folder's README asks that they not be
// copied into the project, so the tests do not carry a copy. A test that needs them skips, with
// the reason, when the folder is absent; with CERTSYM_REQUIRE_CORPUS=1 in the environment (make
// check-go sets it, and CI has the folder beside its checkout) an absent corpus fails the test
// instead, so that CI cannot pass by skipping.
package corpus

import (
	"os"
	"path/filepath"
	"testing"
)

// PyWiSECount is the number of programs the PyWiSE corpus holds.
const PyWiSECount = 8

// Root is the repository's root: the nearest directory above the working directory (a test's
// package directory) that holds go.mod, or ".." when there is none.
func Root() string {
	dir, err := os.Getwd()
	if err != nil {
		return ".."
	}
	for d := dir; ; d = filepath.Dir(d) {
		if _, err := os.Stat(filepath.Join(d, "go.mod")); err == nil {
			return d
		}
		if filepath.Dir(d) == d {
			return ".."
		}
	}
}

// Dir is the PyWiSE corpus directory: ../shared/corpus/pywise relative to Root.
func Dir() string { return filepath.Join(Root(), "..", "shared", "corpus", "pywise") }

// Required reports whether the environment asks for the corpus to be present
// (CERTSYM_REQUIRE_CORPUS=1).
func Required() bool { return os.Getenv("CERTSYM_REQUIRE_CORPUS") == "1" }

// PyWiSE returns the paths of the PyWiSE programs. When the corpus is not there (or does not hold
// its PyWiSECount programs) it fails the test if Required, and skips it otherwise; both say where
// the corpus was looked for. In short mode (make test) it skips the test unless Required.
func PyWiSE(t testing.TB) []string {
	t.Helper()
	if testing.Short() && !Required() {
		t.Skip("short mode: the tests on the PyWiSE corpus run in make check")
	}
	files, ok := find()
	if !ok {
		msg := "the PyWiSE corpus is not beside the repository: want %d programs in %s, found %d"
		if Required() {
			t.Fatalf(msg+" (CERTSYM_REQUIRE_CORPUS=1)", PyWiSECount, Dir(), len(files))
		}
		t.Skipf(msg+" (set CERTSYM_REQUIRE_CORPUS=1 to make this a failure)", PyWiSECount, Dir(), len(files))
	}
	return files
}

// find returns the paths of the PyWiSE programs and whether all PyWiSECount of them are there.
func find() ([]string, bool) {
	files, _ := filepath.Glob(filepath.Join(Dir(), "*.imp"))
	return files, len(files) == PyWiSECount
}

// Optional returns the paths of the PyWiSE programs for a test that also has other programs to
// check: when the corpus is not there it fails the test if Required, and otherwise logs that the
// corpus is left out and returns nil, so the rest of the test still runs. In short mode it leaves
// the corpus out unless Required.
func Optional(t testing.TB) []string {
	t.Helper()
	if testing.Short() && !Required() {
		t.Logf("short mode: the PyWiSE corpus's %d programs are left out (make check has them)", PyWiSECount)
		return nil
	}
	if files, ok := find(); ok {
		return files
	}
	if Required() {
		PyWiSE(t) // fails, saying where the corpus was looked for
	}
	t.Logf("the PyWiSE corpus is not in %s: its %d programs are left out", Dir(), PyWiSECount)
	return nil
}
