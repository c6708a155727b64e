package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestMaxTests: run --max-tests N writes the first N test cases and says how many it left out;
// a negative N, or N without --tests, is a usage error.
func TestMaxTests(t *testing.T) {
	f := writeProg(t, "i = 0;\nwhile i < n do\n  i = i + 1\nod\n")
	dir := filepath.Join(t.TempDir(), "tests")
	// 500 states: the loop's exit after 0, 1, ..., 98 iterations (5 states each, and the first).
	code, _, stderr := runText("run", f, "--quiet", "--max-states", "500", "--tests", dir, "--max-tests", "10")
	files, _ := filepath.Glob(filepath.Join(dir, "*.json"))
	if code != exitUnknown || len(files) != 10 || !strings.Contains(stderr, "wrote 10 test cases") ||
		!strings.Contains(stderr, "; 89 test cases over --max-tests 10 left out") {
		t.Errorf("exit %d, %d files, stderr %q", code, len(files), stderr)
	}
	for _, c := range []struct {
		args []string
		msg  string
	}{
		{[]string{"--tests", dir, "--max-tests", "-1"}, "--max-tests must not be negative"},
		{[]string{"--max-tests", "3"}, "--max-tests applies with --tests DIR only"},
	} {
		if code, _, stderr := runText(append([]string{"run", f, "--quiet"}, c.args...)...); code != exitUsage || !strings.Contains(stderr, c.msg) {
			t.Errorf("run %v: exit %d, stderr %q; want a usage error saying %q", c.args, code, stderr, c.msg)
		}
	}
}

// TestReplayElsewhere: a test case names its program relative to its own directory, so that the
// test cases replay from any working directory, and from a copy of the tree that holds them and
// the program; a test case of the format before (the program relative to the working directory
// of the run) still replays from there.
func TestReplayElsewhere(t *testing.T) {
	root := t.TempDir()
	t.Chdir(root)
	if err := os.WriteFile("p.imp", []byte("if x == 1 then\n  fail\nfi\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, out, errs := runText("run", "p.imp", "--all-bugs", "--quiet", "--tests", "out/tests"); code != exitBug {
		t.Fatalf("run: exit %d\n%s%s", code, out, errs)
	}
	b, err := os.ReadFile("out/tests/test000001.json")
	if err != nil || !strings.Contains(string(b), `"program": "../../p.imp"`) || !strings.Contains(string(b), `"certsym_test": 2`) {
		t.Fatalf("test case (%v):\n%s", err, b)
	}
	for _, c := range []struct{ cwd, target string }{{"out", "tests"}, {"out/tests", "."}, {"/", filepath.Join(root, "out/tests")}} {
		t.Chdir(filepath.Join(root, c.cwd))
		if code, out, errs := runText("replay", c.target); code != exitSafe || !strings.Contains(out, "2 tests replayed, 2 behave as recorded") {
			t.Errorf("replay %s from %s: exit %d\n%s%s", c.target, c.cwd, code, out, errs)
		}
	}
	// The format before: the program relative to the working directory of the run.
	t.Chdir(root)
	old := strings.Replace(strings.Replace(string(b), `"certsym_test": 2`, `"certsym_test": 1`, 1), "../../p.imp", "p.imp", 1)
	if err := os.WriteFile("old.json", []byte(old), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, out, errs := runText("replay", "old.json"); code != exitSafe || !strings.Contains(out, "1 test replayed, 1 behaves as recorded") {
		t.Errorf("replay of a test case of format 1: exit %d\n%s%s", code, out, errs)
	}
}

// TestReplayOutcomeOnly: replay --outcome-only compares the outcome and the place of the error,
// not the number of steps: a program changed to take one more step before its error replays
// as recorded with it, and differs without it; a test case whose error moved differs with it.
func TestReplayOutcomeOnly(t *testing.T) {
	f := writeProg(t, "y = 0;\nif x == 1 then\n  fail\nfi\n")
	dir := filepath.Join(t.TempDir(), "tests")
	if code, out, errs := runText("run", f, "--all-bugs", "--quiet", "--tests", dir); code != exitBug {
		t.Fatalf("run: exit %d\n%s%s", code, out, errs)
	}
	if err := os.WriteFile(f, []byte("y = 0; y = 1;\nif x == 1 then\n  fail\nfi\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, out, _ := runText("replay", dir); code != exitBug || !strings.Contains(out, "2 tests replayed, 0 behave as recorded, 2 differ") {
		t.Errorf("replay of the changed program: exit %d\n%s", code, out)
	}
	if code, out, _ := runText("replay", "--outcome-only", dir); code != exitSafe || !strings.Contains(out, "2 tests replayed, 2 behave as recorded, 0 differ") ||
		!strings.Contains(out, "ok       "+filepath.Join(dir, "test000001.json")+": bug (fail at 3:3) after 5 steps (recorded after 3 steps) (the program has changed") {
		t.Errorf("replay --outcome-only of the changed program: exit %d\n%s", code, out)
	}
	if err := os.WriteFile(f, []byte("y = 0; y = 1;\nif x == 1 then\n  skip; fail\nfi\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, out, _ := runText("replay", "--outcome-only", dir); code != exitBug || !strings.Contains(out, "recorded bug (fail at 3:3) after 3 steps, now bug (fail at 3:9)") {
		t.Errorf("replay --outcome-only of a program whose error moved: exit %d\n%s", code, out)
	}
}
