package main

import (
	"strings"
	"testing"
)

// This test goes with unsupported.go: remove both when the symbolic engine supports arrays and
// quantifiers.

// TestSymbolicRejectsArrays: until the symbolic engine supports them, run, verify and concolic
// reject arrays and quantifiers with a positioned message and exit 2 (text and JSON), never a
// panic.
func TestSymbolicRejectsArrays(t *testing.T) {
	arr := writeProg(t, "# arrays\narray a[0..1];\na[0] = 1")
	quant := writeProg(t, "x = 1;\nassert forall k in 0..x: k >= 0")
	for _, c := range []struct{ file, want string }{
		{arr, arr + ":2:1: arrays are not supported by the symbolic engine yet"},
		{quant, quant + ":2:8: quantifiers are not supported by the symbolic engine yet"},
	} {
		for _, args := range [][]string{{"run"}, {"run", "--loop-bound", "2"}, {"run", "--strategy", "generational"}, {"verify"}, {"concolic", "--input", "x=1"}} {
			code, _, stderr := runText(append(args, c.file)...)
			if code != exitUsage || !strings.HasPrefix(stderr, c.want) {
				t.Errorf("%v %s: exit %d, stderr %q", args, c.file, code, stderr)
			}
		}
		var stdout strings.Builder
		code := run([]string{"run", c.file, "--json"}, &stdout, &strings.Builder{})
		if code != exitUsage || !strings.Contains(stdout.String(), `"error": "syntax"`) || !strings.Contains(stdout.String(), "not supported by the symbolic engine") {
			t.Errorf("run --json: exit %d\n%s", code, stdout.String())
		}
		// exec runs them.
		if code, _, _ := runText("exec", c.file); code != exitSafe {
			t.Errorf("exec %s: exit %d", c.file, code)
		}
	}
}
