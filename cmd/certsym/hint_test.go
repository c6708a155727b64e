package main

import (
	"strings"
	"testing"
)

// TestRunBurstHint: run's text report ends with the hint once when the state bound stops a run on
// a loop over constants, and the hint's options find the bug; the JSON object has no hint.
func TestRunBurstHint(t *testing.T) {
	const f = "internal/hint/testdata/phases_short.imp"
	code, out, _ := runText("run", f, "--quiet", "--max-states", "20000")
	if code != exitUnknown || strings.Count(out, "hint: ") != 1 || !strings.HasSuffix(out, "--timeout bounds the time)\n") {
		t.Fatalf("run: exit %d\n%s", code, out)
	}
	i := strings.Index(out, "rerun with ") + len("rerun with ")
	flags := strings.Fields(out[i : i+strings.Index(out[i:], ":")])
	if code, out, _ := runText(append([]string{"run", f, "--quiet"}, flags...)...); code != exitBug || strings.Contains(out, "hint: ") {
		t.Errorf("run with %v: exit %d\n%s", flags, code, out)
	}
	if _, out, _ := runText("run", f, "--quiet", "--max-states", "20000", "--json"); strings.Contains(out, "hint") {
		t.Errorf("run --json has the hint:\n%s", out)
	}
}
