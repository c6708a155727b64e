package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const sortProg = `# one pass of bubble sort over a[1..5], then check the maximum is last
macro swap(v, i, j) begin t = v[i]; v[i] = v[j]; v[j] = t end
array a[1..5];
i = 1;
while i < n do
  if a[i] > a[i + 1] then swap(a, i, i + 1) fi;
  i = i + 1
od;
assert forall k in 1..4: a[k] <= a[5]
`

// TestExecArrays: exec reads arrays from --input, prints them in its final store (text and
// JSON), and reports an index out of range at its statement.
func TestExecArrays(t *testing.T) {
	f := writeProg(t, sortProg)
	code, stdout, stderr := runText("exec", f, "--input", "n=5,a=[5,0,7,1,2]")
	if code != exitSafe || !strings.Contains(stdout, "store: i=5, n=5, t=7, a=[0, 5, 1, 2, 7]") || stderr != "" {
		t.Errorf("exec: exit %d\n%s%s", code, stdout, stderr)
	}
	// n = 6 reads a[6]: index-out-of-range at line 6 (the if's condition).
	code, stdout, _ = runText("exec", f, "--input", "a=[5, 0, 7, 1, 2], n=6")
	if code != exitBug || !strings.Contains(stdout, "error: index out of range at "+f+":6:3 after 44 steps") {
		t.Errorf("exec out of range: exit %d\n%s", code, stdout)
	}
	// JSON: arrays as lists, in the input and the final store.
	var stdoutB strings.Builder
	code = run([]string{"exec", f, "--json", "--input", "n=5,a=[5,0,7,1,2]"}, &stdoutB, &strings.Builder{})
	var out struct {
		Outcome string                     `json:"outcome"`
		Input   map[string]json.RawMessage `json:"input"`
		Store   map[string]json.RawMessage `json:"store"`
	}
	if err := json.Unmarshal([]byte(stdoutB.String()), &out); err != nil || code != exitSafe {
		t.Fatalf("exec --json: exit %d, %v\n%s", code, err, stdoutB.String())
	}
	compact := func(m json.RawMessage) string { return strings.Join(strings.Fields(string(m)), "") }
	if out.Outcome != "normal" || compact(out.Input["a"]) != "[5,0,7,1,2]" || compact(out.Store["a"]) != "[0,5,1,2,7]" || compact(out.Store["n"]) != "5" {
		t.Errorf("exec --json: %s", stdoutB.String())
	}
	// A missing array is 0 and said so.
	if code, _, stderr := runText("exec", f, "--input", "n=1"); code != exitSafe || !strings.Contains(stderr, "no input given for a: using 0") {
		t.Errorf("missing array: exit %d, %s", code, stderr)
	}
	// parse prints the declarations.
	if code, stdout, _ := runText("parse", f); code != 0 || !strings.HasPrefix(stdout, "array a[1..5];\ni = 1;\n") {
		t.Errorf("parse: exit %d\n%s", code, stdout)
	}
}

// TestInputArrayErrors: a wrong --input for an array is a usage error that says what is wrong.
func TestInputArrayErrors(t *testing.T) {
	f := writeProg(t, sortProg)
	for _, c := range []struct{ input, want string }{
		{"a=[1,2,3]", "array a has 5 elements (1..5), found a list of 3"},
		{"a=1", "a is an array of 5 elements (1..5): expected a list"},
		{"n=[1]", "n is a variable: expected an integer, found a list"},
		{"b=[1]", `the program has no variable "b" (variables: i, n, t; arrays: a)`},
		{"a=[1,2,x,4,5]", "a: expected an integer, found \"x\""},
		{"a=[1,2", "missing ']'"},
		{"a=[1,2,3,4,5],a=[1,2,3,4,5]", "a is given twice"},
		{"n=1,", "expected NAME=INTEGER after the last ','"},
	} {
		code, _, stderr := runText("exec", f, "--input", c.input)
		if code != exitUsage || !strings.Contains(stderr, "certsym exec: --input: "+c.want) {
			t.Errorf("--input %s: exit %d, stderr %q, want %q", c.input, code, stderr, c.want)
		}
	}
}

// TestArraySyntaxErrorExit: a misuse of arrays is FILE:LINE:COL: message and exit 2 from every
// command.
func TestArraySyntaxErrorExit(t *testing.T) {
	f := writeProg(t, "array a[0..1];\nx = a + 1")
	for _, cmd := range []string{"run", "exec", "parse", "verify", "concolic"} {
		args := []string{cmd, f}
		if cmd == "concolic" {
			args = append(args, "--input", "x=1")
		}
		code, _, stderr := runText(args...)
		if code != exitUsage || !strings.HasPrefix(stderr, f+":2:5: a is an array") {
			t.Errorf("%s: exit %d, stderr %q", cmd, code, stderr)
		}
	}
}

// TestReplayArrays: replay reads an array's input as a JSON list; its count of one test is in the
// singular ("1 behaves", not "1 behave").
func TestReplayArrays(t *testing.T) {
	f := writeProg(t, sortProg)
	dir := t.TempDir()
	tc := `{"certsym_test": 1, "program": "` + f + `", "program_sha256": "", "input": {"n": 6, "a": [5, 0, 7, 1, 2]},
"expected": {"outcome": "bug", "kind": "index-out-of-range", "line": 6, "col": 3, "steps": 44}, "path_condition": ""}`
	if err := os.WriteFile(filepath.Join(dir, "t.json"), []byte(tc), 0o644); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := runText("replay", dir)
	if code != exitSafe || !strings.Contains(stdout, "1 test replayed, 1 behaves as recorded, 0 differ\n") {
		t.Errorf("replay: exit %d\n%s%s", code, stdout, stderr)
	}
	bad := strings.Replace(tc, "[5, 0, 7, 1, 2]", "[5, 0]", 1)
	if err := os.WriteFile(filepath.Join(dir, "t.json"), []byte(bad), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, stderr := runText("replay", dir); code != exitUsage || !strings.Contains(stderr, "array a has 5 elements (1..5), found a list of 2") {
		t.Errorf("replay with a short list: exit %d, %s", code, stderr)
	}
}

// TestExecQuantifierBound: a quantifier over a huge range stops exec at the step bound instead of
// hanging it.
func TestExecQuantifierBound(t *testing.T) {
	f := writeProg(t, "x = 1;\nassert forall k in 0..1000000000000000000: k + x > 0")
	code, stdout, _ := runText("exec", f, "--max-steps", "1000")
	if code != exitUnknown || !strings.Contains(stdout, "step bound reached (more than 1000 quantifier instances evaluated) after 2 steps at "+f+":2:1") {
		t.Errorf("exit %d\n%s", code, stdout)
	}
}

// TestExecJSONStepBoundAtElement: when the step bound stops exec at an element assignment, the
// JSON places it at that statement, as the text output does (it used to give no position).
func TestExecJSONStepBoundAtElement(t *testing.T) {
	f := writeProg(t, "array a[0..1];\nx = 1;\n  a[0] = x")
	code, stdout, _ := runText("exec", f, "--max-steps", "2")
	if code != exitUnknown || !strings.Contains(stdout, "step bound reached (2 steps) at "+f+":3:3") {
		t.Errorf("exec: exit %d\n%s", code, stdout)
	}
	var out strings.Builder
	code = run([]string{"exec", f, "--json", "--max-steps", "2"}, &out, &strings.Builder{})
	if compact := strings.Join(strings.Fields(out.String()), ""); code != exitUnknown || !strings.Contains(compact, `"outcome":"step-bound","line":3,"col":3,"steps":2`) {
		t.Errorf("exec --json: exit %d\n%s", code, out.String())
	}
}
