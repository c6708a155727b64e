package main

import (
	"strings"
	"testing"
)

// TestProveCommand: certsym prove is wired: its answers and exit statuses through the command
// line, and its help page.
func TestProveCommand(t *testing.T) {
	proved := writeProg(t, "assume n >= 0;\ni = 0;\nwhile i < n\n  invariant i <= n\ndo\n  i = i + 1\nod;\nassert i == n\n")
	if code, out, _ := runText("prove", "--quiet", proved); code != exitSafe || !strings.HasPrefix(out, "answer: proved") {
		t.Errorf("proved: exit %d\n%s", code, out)
	}
	refuted := writeProg(t, "i = 1;\nwhile i < n\n  invariant i <= n\ndo\n  i = i + 1\nod\n")
	if code, out, _ := runText("prove", "--quiet", refuted); code != exitBug || !strings.HasPrefix(out, "BUG: loop invariant violated at ") {
		t.Errorf("refuted: exit %d\n%s", code, out)
	}
	plain := writeProg(t, "i = 0;\nwhile i < n do i = i + 1 od\n")
	if code, out, _ := runText("prove", "--quiet", "--no-infer", plain); code != exitUnknown || !strings.Contains(out, "has no invariant") {
		t.Errorf("a loop without clauses, --no-infer: exit %d\n%s", code, out)
	}
	if code, out, _ := runText("prove", "--quiet", plain); code != exitSafe || !strings.HasPrefix(out, "answer: proved") {
		t.Errorf("a loop without clauses, inferred by default: exit %d\n%s", code, out)
	}
	if code, out, _ := runText("help", "prove"); code != 0 || !strings.Contains(out, "--reach-states") {
		t.Errorf("help prove: exit %d\n%s", code, out)
	}
}
