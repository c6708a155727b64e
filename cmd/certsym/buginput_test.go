package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// bigArray is a program whose bug reads one element of a 5,000-element array at a symbolic index:
// its input as --input is over 10,000 characters.
const bigArray = "array a[0..4999];\nassume n >= 0 and n < 5000;\nif a[n] == 7 then\n  fail\nfi\n"

// TestLongInputReproduce: the reproduce line of a bug whose input is too long for a command line
// reads it from a file: written under run --tests DIR, which exec --input-file replays to the
// error; without --tests, the line names INPUT.json and says how to get it. The elements the path
// condition leaves free are 0, and the bug still replays with them.
func TestLongInputReproduce(t *testing.T) {
	f := writeProg(t, bigArray)
	dir := filepath.Join(t.TempDir(), "tests")
	code, out, errs := runText("run", f, "--quiet", "--tests", dir)
	if code != exitBug {
		t.Fatalf("run: exit %d\n%s%s", code, out, errs)
	}
	file := filepath.Join(dir, "bug-inputs", "4-3-fail.json")
	if want := "  reproduce:      certsym exec " + f + " --input-file " + file + "\n"; !strings.Contains(out, want) {
		t.Errorf("the reproduce line is not %q:\n%.2000s", want, out)
	}
	// The model: n = 0 and a[0] = 7 (its path condition), every other element 0.
	if !strings.Contains(out, "  input:          n=0, a=[7, 0, 0, 0, ") || strings.Count(out, ", 0") < 4999 {
		t.Errorf("the input is not n=0 with a = 7 and 0s:\n%.500s", out)
	}
	if code, out, errs := runText("exec", f, "--input-file", file); code != exitBug || !strings.Contains(out, "error: fail reached at "+f+":4:3 after 3 steps") {
		t.Errorf("exec --input-file %s: exit %d\n%.300s%s", file, code, out, errs)
	}
	// Replay reads the test cases only, not the inputs beside them.
	if code, out, errs := runText("replay", dir); code != exitSafe || !strings.Contains(out, "1 test replayed, 1 behaves as recorded") {
		t.Errorf("replay %s: exit %d\n%s%s", dir, code, out, errs)
	}
	// Without --tests: the line names INPUT.json, and run --json's input is that file.
	code, out, _ = runText("run", f, "--quiet")
	if want := "  reproduce:      certsym exec " + f + " --input-file INPUT.json\n" +
		"                  (the input is too long for a command line (5001 values): save the input of run --json as INPUT.json, or give run --tests DIR to have it written to DIR/bug-inputs)\n"; code != exitBug || !strings.Contains(out, want) {
		t.Errorf("without --tests: exit %d, want %q in\n%.2000s", code, want, out)
	}
	var stdout bytes.Buffer
	run([]string{"run", f, "--quiet", "--json"}, &stdout, &bytes.Buffer{})
	var j struct {
		Bugs []struct {
			Input     json.RawMessage
			Reproduce string
		}
	}
	if err := json.Unmarshal(stdout.Bytes(), &j); err != nil || len(j.Bugs) != 1 || j.Bugs[0].Reproduce != "certsym exec "+f+" --input-file INPUT.json" {
		t.Fatalf("run --json: %v, %.300s", err, stdout.String())
	}
	input := filepath.Join(t.TempDir(), "INPUT.json")
	if err := os.WriteFile(input, j.Bugs[0].Input, 0o644); err != nil {
		t.Fatal(err)
	}
	if code, out, errs := runText("exec", f, "--input-file", input); code != exitBug || !strings.Contains(out, "error: fail reached at "+f+":4:3") {
		t.Errorf("exec --input-file with run --json's input: exit %d\n%.300s%s", code, out, errs)
	}
}

// TestInputFileErrors: --input-file that cannot be read, that is not a JSON object, or that has a
// bad value, and --input-file with --input, are usage errors that say what is wrong.
func TestInputFileErrors(t *testing.T) {
	f := writeProg(t, "assert x != 3\n")
	dir := t.TempDir()
	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	good, list, bad := write("good.json", `{"x": 3}`), write("list.json", "[3]"), write("bad.json", `{"x": "three"}`)
	for _, c := range []struct {
		args []string
		msg  string
	}{
		{[]string{"--input-file", filepath.Join(dir, "missing.json")}, "--input-file: open "},
		{[]string{"--input-file", list}, "--input-file " + list + `: expected a JSON object, as {"x": 3, "a": [5, 0, 7]}`},
		{[]string{"--input-file", bad}, "--input-file " + bad + `: input x: expected an integer or a list of integers, found "three"`},
		{[]string{"--input-file", good, "--input", "x=1"}, "--input and --input-file exclude each other"},
	} {
		for _, cmd := range []string{"exec", "concolic"} {
			if code, _, stderr := runText(append([]string{cmd, f}, c.args...)...); code != exitUsage || !strings.Contains(stderr, "certsym "+cmd+": "+c.msg) {
				t.Errorf("%s %v: exit %d, stderr %q; want a usage error saying %q", cmd, c.args, code, stderr, c.msg)
			}
		}
	}
	for _, cmd := range []string{"exec", "concolic"} {
		if code, out, errs := runText(cmd, f, "--input-file", good); code != exitBug || !regexp.MustCompile(`assert`).MatchString(out) {
			t.Errorf("%s --input-file %s: exit %d\n%s%s", cmd, good, code, out, errs)
		}
	}
}

// TestBugInputsReadOnly: a bug's input lists the variables the program may read before it assigns
// them, and names the others apart (text), which run --json lists in "assigned_before_read" while
// its "input" keeps every variable; the reproduce line gives the inputs read only. So do the bugs
// of run --loop-bound.
func TestBugInputsReadOnly(t *testing.T) {
	f := writeProg(t, "lo = 0;\nhi = n;\nwhile lo < hi do\n  mid = (lo + hi) / 2;\n  lo = mid + 1\nod;\nassert lo != 3\n")
	code, out, _ := runText("run", f, "--quiet")
	if code != exitBug || !strings.Contains(out, "  input:          n=3 (any value of lo, hi, mid: assigned before read)\n") ||
		!strings.Contains(out, "  reproduce:      certsym exec "+f+" --input n=3\n") {
		t.Errorf("exit %d\n%s", code, out)
	}
	// The bounded interpreter's bugs too.
	code, out, _ = runText("run", "--loop-bound", "4", f)
	if code != exitBug || !regexp.MustCompile(`BUG: assertion violated at .*:7:1, input n=\d+ \(any value of lo, hi, mid: assigned before read\) `).MatchString(out) ||
		!regexp.MustCompile(`  reproduce: certsym exec .* --input n=\d+\n`).MatchString(out) {
		t.Errorf("run --loop-bound: exit %d\n%s", code, out)
	}
	var stdout bytes.Buffer
	run([]string{"run", f, "--quiet", "--json"}, &stdout, &bytes.Buffer{})
	var j struct {
		Bugs []struct {
			Input              map[string]json.RawMessage
			AssignedBeforeRead []string `json:"assigned_before_read"`
		}
	}
	if err := json.Unmarshal(stdout.Bytes(), &j); err != nil || len(j.Bugs) != 1 || len(j.Bugs[0].Input) != 4 ||
		strings.Join(j.Bugs[0].AssignedBeforeRead, " ") != "lo hi mid" {
		t.Errorf("run --json: %v\n%s", err, stdout.String())
	}
}
