package main

import (
	"strings"
	"testing"
)

// TestSymbolicArraysNoPanic: run, verify and concolic on programs with arrays and quantifiers
// either reject them (unsupported.go, while the symbolic engine does not support them: a
// positioned message and exit 2, text and JSON) or run them with a verdict (0, 1 or 3), never
// with an internal error. exec always runs them.
func TestSymbolicArraysNoPanic(t *testing.T) {
	arr := writeProg(t, "# arrays\narray a[0..1];\na[0] = 1")
	quant := writeProg(t, "x = 1;\nassert forall k in 0..x: k >= 0")
	for _, c := range []struct{ file, input, want string }{
		{arr, "a=[1,2]", arr + ":2:1: arrays are not supported by the symbolic engine yet"},
		{quant, "x=1", quant + ":2:8: quantifiers are not supported by the symbolic engine yet"},
	} {
		for _, args := range [][]string{{"run"}, {"run", "--loop-bound", "2"}, {"run", "--strategy", "generational"}, {"verify"}, {"concolic", "--input", c.input}} {
			code, _, stderr := runText(append(args, c.file)...)
			switch code {
			case exitUsage:
				if !strings.HasPrefix(stderr, c.want) {
					t.Errorf("%v %s: exit 2, stderr %q, want %q", args, c.file, stderr, c.want)
				}
			case exitSafe, exitBug, exitUnknown: // the symbolic engine supports them
			default:
				t.Errorf("%v %s: exit %d, stderr %q", args, c.file, code, stderr)
			}
		}
		var stdout strings.Builder
		code := run([]string{"run", c.file, "--json"}, &stdout, &strings.Builder{})
		if code == exitUsage && (!strings.Contains(stdout.String(), `"error": "syntax"`) || !strings.Contains(stdout.String(), "not supported by the symbolic engine")) {
			t.Errorf("run --json: exit 2 without the JSON error\n%s", stdout.String())
		}
		if code, _, _ := runText("exec", c.file); code != exitSafe {
			t.Errorf("exec %s: exit %d", c.file, code)
		}
	}
}
