package corpus

import (
	"path/filepath"
	"testing"
)

// TestDir checks that the corpus is looked for beside the repository's root, whatever the
// package directory the test runs in.
func TestDir(t *testing.T) {
	d := Dir()
	if filepath.Base(d) != "pywise" || filepath.Base(filepath.Dir(d)) != "corpus" || filepath.Base(filepath.Dir(filepath.Dir(d))) != "shared" {
		t.Fatalf("Dir() = %s, want <root>/../shared/corpus/pywise", d)
	}
}

// TestPyWiSE checks the corpus where it is required or present: eight programs, the ones the
// tests name.
func TestPyWiSE(t *testing.T) {
	files := PyWiSE(t)
	names := map[string]bool{}
	for _, f := range files {
		names[filepath.Base(f)] = true
	}
	for _, want := range []string{"factorial_buggy.imp", "factorial_correct.imp", "gcd_buggy.imp", "gcd_correct.imp",
		"integer_sqrt_buggy.imp", "integer_sqrt_correct.imp", "is_prime.imp", "nested_loop.imp"} {
		if !names[want] {
			t.Errorf("%s missing from %s", want, Dir())
		}
	}
}
