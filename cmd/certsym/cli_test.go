package main

import (
	"bytes"
	"certsym/cmd/certsym/internal/jsonout"
	"certsym/internal/corpus"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

func writeProg(t *testing.T, src string) string {
	t.Helper()
	f := filepath.Join(t.TempDir(), "p.imp")
	if err := os.WriteFile(f, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	return f
}

func runText(args ...string) (int, string, string) {
	var stdout, stderr bytes.Buffer
	code := run(args, &stdout, &stderr)
	return code, stdout.String(), stderr.String()
}

func TestSyntaxErrorExit(t *testing.T) {
	f := writeProg(t, "x = 1;\nif x > 0 then\n  y = 2\nod")
	for _, cmd := range []string{"run", "exec", "parse"} {
		code, stdout, stderr := runText(cmd, f)
		if code != exitUsage {
			t.Errorf("%s: exit %d, want %d", cmd, code, exitUsage)
		}
		want := f + ":4:1: expected 'fi' to close 'if' (or 'else'), found 'od'"
		if strings.TrimSpace(stderr) != want || stdout != "" {
			t.Errorf("%s: stderr %q, stdout %q; want stderr %q", cmd, stderr, stdout, want)
		}
	}
}

func TestUsageErrors(t *testing.T) {
	f := writeProg(t, "skip")
	cases := [][]string{
		{}, {"frobnicate"}, {"run"}, {"run", f, f}, {"run", f, "--strategy", "random"},
		{"run", f, "--max-states", "x"}, {"exec", f, "--input", "q=1"}, {"exec", f, "--input", "x"},
		{"run", filepath.Join(t.TempDir(), "missing.imp")},
	}
	for _, c := range cases {
		code, _, stderr := runText(c...)
		if code != exitUsage || stderr == "" {
			t.Errorf("certsym %v: exit %d, stderr %q; want exit %d with a message", c, code, stderr, exitUsage)
		}
		if strings.Contains(stderr, "goroutine") || strings.Contains(stderr, "panic") {
			t.Errorf("certsym %v: stack trace in %q", c, stderr)
		}
	}
}

func TestRunExitCodesAndJSON(t *testing.T) {
	bug := writeProg(t, "# a bug needing a 20-digit input\nif x > 98765432109876543210 then\n  fail\nfi")
	out, code, _ := runJSON(t, "run", bug)
	if code != exitBug || out.Verdict != "bug" || len(out.Bugs) != 1 {
		t.Fatalf("bug: exit %d, %+v", code, out)
	}
	b := out.Bugs[0]
	if b.Line != 3 || b.Kind != "fail" || b.PathCondition != "x >= 98765432109876543211" {
		t.Errorf("bug %+v", b)
	}
	if x := string(b.Input["x"]); x != "98765432109876543211" {
		t.Errorf("input x = %s, want 98765432109876543211 (digits must not go through float64)", x)
	}
	// The raw JSON has the integer as a number token with all its digits.
	var stdout bytes.Buffer
	run([]string{"run", bug, "--json", "--quiet"}, &stdout, &bytes.Buffer{})
	if !strings.Contains(stdout.String(), `"x": 98765432109876543211`) {
		t.Errorf("raw JSON does not carry the exact integer: %s", stdout.String())
	}

	safe := writeProg(t, "assume x > 0;\nif x < 0 then fail fi")
	out, code, _ = runJSON(t, "run", safe)
	if code != exitSafe || out.Verdict != "safe" || len(out.Bugs) != 0 || out.States == 0 {
		t.Errorf("safe: exit %d, %+v", code, out)
	}

	loop := writeProg(t, "while x > 0 do x = x + 1 od")
	out, code, _ = runJSON(t, "run", loop, "--max-states", "500")
	if code != exitUnknown || out.Verdict != "unknown" || !strings.Contains(out.Reason, "state bound") || out.States != 500 {
		t.Errorf("unknown: exit %d, %+v", code, out)
	}
}

func TestRunHumanOutput(t *testing.T) {
	f := writeProg(t, "y = 10 / x;\nassert y < 3")
	code, stdout, _ := runText("run", f, "--all-bugs")
	if code != exitBug {
		t.Fatalf("exit %d", code)
	}
	for _, want := range []string{"BUG: division by zero at " + f + ":1:1", "BUG: assertion violated at " + f + ":2:1",
		"path condition: x == 0", "input:", "confirmed:", "verdict: bug"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("output lacks %q:\n%s", want, stdout)
		}
	}
}

func TestExec(t *testing.T) {
	f := writeProg(t, "q = a / b;\nr = a % b;\nassert q * b + r == a")
	cases := []struct {
		input string
		code  int
		want  string
	}{
		{"a=-7,b=2", 0, "store: q=-3, a=-7, b=2, r=-1"},
		{"a=7, b=-2", 0, "q=-3, a=7, b=-2, r=1"},
		{"a=5,b=0", exitBug, "error: division by zero at " + f + ":1:1 after 1 step\n"},
		{"a=9223372036854775807,b=-1", 0, "q=-9223372036854775807"},
	}
	for _, c := range cases {
		code, stdout, stderr := runText("exec", f, "--input", c.input)
		if code != c.code || !strings.Contains(stdout, c.want) {
			t.Errorf("exec --input %s: exit %d, stdout %q, stderr %q; want exit %d and %q", c.input, code, stdout, stderr, c.code, c.want)
		}
	}
	loop := writeProg(t, "while true do skip od")
	if code, stdout, _ := runText("exec", loop, "--max-steps", "100"); code != exitUnknown || !strings.Contains(stdout, "step bound reached (100 steps)") {
		t.Errorf("step bound: exit %d, %q", code, stdout)
	}
	blocked := writeProg(t, "assume x > 0;\nfail")
	if code, stdout, stderr := runText("exec", blocked); code != 0 || !strings.Contains(stdout, "assume at "+blocked+":1:1") || !strings.Contains(stderr, "no input given for x") {
		t.Errorf("assume: exit %d, %q %q", code, stdout, stderr)
	}
}

func TestParseCommandRoundTrip(t *testing.T) {
	f := writeProg(t, "macro sq(r, v) begin r = v * v end\nsq(y, x + 1); assert y >= 0;")
	code, stdout, _ := runText("parse", f)
	if code != 0 || stdout != "y = (x + 1) * (x + 1);\nassert y >= 0\n" {
		t.Fatalf("parse: exit %d:\n%s", code, stdout)
	}
	g := writeProg(t, stdout)
	if _, again, _ := runText("parse", g); again != stdout {
		t.Errorf("printing is not stable:\n%s", again)
	}
}

// TestPyWiSECorpus runs the eight PyWiSE programs unchanged from ../shared/corpus/pywise. They
// state preconditions with assert, so each has the precondition's bug at once; with --all-bugs
// the search goes on and finds the real bug of each mutant (the lines are the macro calls').
func TestPyWiSECorpus(t *testing.T) {
	corpus.PyWiSE(t)
	dir := corpus.Dir()
	cases := []struct {
		file      string
		maxStates int
		verdict   string
		bugLines  []int
	}{
		{"factorial_buggy.imp", 100000, "bug", []int{31, 41}},
		{"factorial_correct.imp", 100000, "bug", []int{31}},
		{"gcd_buggy.imp", 3000, "bug", []int{1, 2, 13}},
		{"gcd_correct.imp", 3000, "bug", []int{1, 2}},
		{"integer_sqrt_buggy.imp", 100000, "bug", []int{11, 32}},
		{"integer_sqrt_correct.imp", 100000, "bug", []int{11}},
		{"is_prime.imp", 100000, "bug", []int{43}},
		{"nested_loop.imp", 100000, "bug", []int{6}},
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*.imp"))
	if len(files) != len(cases) {
		t.Fatalf("found %d programs in %s, want %d", len(files), dir, len(cases))
	}
	for _, c := range cases {
		out, _, _ := runJSON(t, "run", filepath.Join(dir, c.file), "--all-bugs", "--max-states", fmt.Sprint(c.maxStates))
		var lines []int
		for _, b := range out.Bugs {
			lines = append(lines, b.Line)
		}
		if out.Verdict != c.verdict || fmt.Sprint(lines) != fmt.Sprint(c.bugLines) {
			t.Errorf("%s: verdict %s, bug lines %v; want %s, %v", c.file, out.Verdict, lines, c.verdict, c.bugLines)
		}
	}
	// is_prime is correct for its precondition: without the precondition's bug the exploration
	// finishes. Reading the program with assume instead of assert shows it.
	src, err := os.ReadFile(filepath.Join(dir, "is_prime.imp"))
	if err != nil {
		t.Fatal(err)
	}
	f := writeProg(t, strings.Replace(string(src), "assert n >= 2 and n <= 5", "assume n >= 2 and n <= 5", 1))
	if out, code, _ := runJSON(t, "run", f); out.Verdict != "safe" || code != exitSafe {
		t.Errorf("is_prime with its precondition assumed: %s (exit %d), want safe", out.Verdict, code)
	}
}

// TestDFSIncomplete is the paper's nested-loop example: BFS finds the fail, DFS descends the
// inner loop forever.
func TestDFSIncomplete(t *testing.T) {
	corpus.PyWiSE(t)
	f := filepath.Join(corpus.Dir(), "nested_loop.imp")
	if out, _, _ := runJSON(t, "run", f, "--strategy", "bfs"); out.Verdict != "bug" {
		t.Errorf("bfs: %s, want bug", out.Verdict)
	}
	out, _, _ := runJSON(t, "run", f, "--strategy", "dfs", "--max-states", "20000")
	if out.Verdict != "unknown" {
		t.Errorf("dfs: %s, want unknown (no bug found within the bound)", out.Verdict)
	}
}

var _ = json.Number("")

// TestSolverUnknownGivesNoVerdict: when Z3 cannot decide an error state's path condition, the
// bug finder neither reports a bug nor calls the program safe, and says why.
func TestSolverUnknownGivesNoVerdict(t *testing.T) {
	f := writeProg(t, "if x > 1 and y > 1 and z > 1 and x*x*x + y*y*y == z*z*z then fail fi")
	out, code, _ := runJSON(t, "run", f, "--rlimit", "1000")
	if code != exitUnknown || out.Verdict != "unknown" || len(out.Bugs) != 0 ||
		!strings.Contains(out.Reason, "rlimit 1000") || !strings.Contains(out.Reason, "line 1") {
		t.Errorf("exit %d, %+v", code, out)
	}
}

// TestRunLoopBoundStopped: a budget that stops run --loop-bound gives the verdict unknown with
// the stop as the reason; the paths it stopped are listed as "stopped" states, not counted as
// loop-bound cutoffs.
func TestRunLoopBoundStopped(t *testing.T) {
	f := writeProg(t, "i = 0;\nwhile i < n do\n  if i % 2 == 0 then x = x + 1 else x = x - 1 fi;\n  i = i + 1\nod;\nassert x <= x + 1")
	var stdout bytes.Buffer
	code := run([]string{"run", "--loop-bound", "20", "--max-states", "15", f, "--json"}, &stdout, &bytes.Buffer{})
	var out jsonout.Bounded
	if err := json.Unmarshal(stdout.Bytes(), &out); err != nil {
		t.Fatalf("%v: %s", err, stdout.String())
	}
	if code != exitUnknown || out.Verdict != "unknown" || !strings.Contains(out.Reason, "state bound") || strings.Contains(out.Reason, "loop bound") {
		t.Fatalf("exit %d, %+v", code, out)
	}
	stopped := 0
	for _, s := range out.States {
		switch s.Behaviour {
		case "stopped":
			stopped++
			if s.Line == 0 {
				t.Errorf("stopped state without a line: %+v", s)
			}
		case "incomplete":
			t.Errorf("a budget cut reported as a loop-bound cutoff: %+v", s)
		}
	}
	if stopped == 0 {
		t.Fatalf("no stopped state: %+v", out.States)
	}
	stdout.Reset()
	code = run([]string{"run", "--loop-bound", "20", "--max-states", "15", f}, &stdout, &bytes.Buffer{})
	if code != exitUnknown || !strings.Contains(stdout.String(), "\nstopped (") || !strings.Contains(stdout.String(), "verdict: unknown (state bound") {
		t.Fatalf("exit %d:\n%s", code, stdout.String())
	}
}

func TestRunLoopBound(t *testing.T) {
	f := writeProg(t, "assume x >= 0;\ni = 0;\nwhile i < x do i = i + 1 od;\nif i == 3 then fail fi")
	var stdout bytes.Buffer
	code := run([]string{"run", "--loop-bound", "5", f, "--json"}, &stdout, &bytes.Buffer{})
	var out jsonout.Bounded
	if err := json.Unmarshal(stdout.Bytes(), &out); err != nil {
		t.Fatalf("%v: %s", err, stdout.String())
	}
	if code != exitBug || out.Verdict != "bug" || len(out.Bugs) != 1 || out.Bugs[0].Line != 4 || string(out.Bugs[0].Input["x"]) != "3" {
		t.Fatalf("exit %d, %+v", code, out)
	}
	count := map[string]int{}
	for _, s := range out.States {
		count[s.Behaviour]++
	}
	// x in 0..5 exits the loop (x = 3 fails), x >= 6 is cut off, x < 0 is infeasible.
	if count["normal"] != 5 || count["error"] != 1 || count["incomplete"] != 1 || count["infeasible"] != 1 {
		t.Errorf("behaviours %v", count)
	}
	// Below the bug's iteration count the loop bound hides it: no verdict, the cutoff named.
	stdout.Reset()
	code = run([]string{"run", "--loop-bound", "2", f, "--json"}, &stdout, &bytes.Buffer{})
	json.Unmarshal(stdout.Bytes(), &out)
	if code != exitUnknown || out.Verdict != "unknown" || !strings.Contains(out.Reason, "loop bound 2 cut off loops at line 3") {
		t.Errorf("loop bound 2: exit %d, %+v", code, out)
	}
	code, text, _ := runText("run", f, "--loop-bound", "5")
	for _, want := range []string{"normal (5):", "error (1):", "[fail reached at 4:16]", "incomplete (1):", "verdict: bug"} {
		if !strings.Contains(text, want) {
			t.Errorf("text output lacks %q:\n%s", want, text)
		}
	}
	// The memory bound holds for the bounded interpreter too, with its reason.
	code, text, stderr := runText("run", "../../engine/testdata/gcd.imp", "--loop-bound", "60", "--max-memory", "1")
	if code != exitUnknown || !strings.Contains(text, "verdict: unknown (memory bound reached (heap") {
		t.Errorf("--max-memory 1: exit %d:\n%s\n%s", code, text, stderr)
	}
}

// TestDeterministicOutput: the same program and options give the same output, byte for byte,
// for every command and format (in the text reports, once elapsed times are masked).
func TestDeterministicOutput(t *testing.T) {
	durations := regexp.MustCompile(`[0-9.]+(µs|ms|s)\b`)
	gcd := "../../engine/testdata/gcd.imp"
	bugs := "../../testdata/all_bugs_three_kinds_in_order.imp"
	nonlinear := "../../testdata/verify/fig1c_fait.imp"
	for _, args := range [][]string{
		{"run", gcd, "--max-states", "3000", "--quiet"},
		{"run", gcd, "--max-states", "3000", "--quiet", "--json"},
		{"run", bugs, "--all-bugs", "--quiet", "--json"},
		{"run", gcd, "--loop-bound", "5", "--quiet", "--json"},
		{"run", bugs, "--loop-bound", "3", "--quiet"},
		{"verify", gcd, "--loop-bound", "6", "--quiet", "--json"},
		{"verify", gcd, "--loop-bound", "6", "--quiet"},
		{"verify", nonlinear, "--abstract-nonlinear", "--quiet", "--json"},
		{"verify", bugs, "--quiet"},
		{"run", gcd, "--strategy", "generational", "--max-states", "3000", "--quiet", "--json"},
		{"run", bugs, "--strategy", "generational", "--all-bugs", "--quiet"},
		{"concolic", gcd, "--input", "a=12,b=18", "--json"},
	} {
		var first string
		for i := 0; i < 3; i++ {
			code, stdout, stderr := runText(args...)
			out := fmt.Sprintf("exit %d\n%s\n%s", code, durations.ReplaceAllString(stdout, "T"), stderr)
			if i == 0 {
				first = out
			} else if out != first {
				t.Errorf("%v: run %d differs from run 1:\n%s\n---\n%s", args, i+1, out, first)
				break
			}
		}
	}
}
