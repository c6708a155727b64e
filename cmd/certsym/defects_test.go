package main

// Tests of the command-line defects: each fails on the command line before the fix
// (checked by running this file against the previous revision) and passes after.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// runMap runs certsym in-process with --json and decodes the object printed.
func runMap(t *testing.T, args ...string) (map[string]any, int) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	code := run(append(args, "--json", "--quiet"), &stdout, &stderr)
	var out map[string]any
	dec := json.NewDecoder(&stdout)
	dec.UseNumber()
	if err := dec.Decode(&out); err != nil {
		t.Fatalf("certsym %v: exit %d, output is not one JSON object (%v): %s %s", args, code, err, stdout.String(), stderr.String())
	}
	return out, code
}

// TestBadFlags: negative bounds and durations, durations without a unit, a loop bound below zero,
// flags that do not apply with --loop-bound, and a repeated --input key are usage errors (exit 2)
// with a message that names the problem.
func TestBadFlags(t *testing.T) {
	f := writeProg(t, "x = 1")
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"run", f, "--timeout", "-1s"}, "must not be negative"},
		{[]string{"run", f, "--query-timeout", "-5ms"}, "must not be negative"},
		{[]string{"verify", f, "--timeout", "-1s"}, "must not be negative"},
		{[]string{"exec", f, "--max-steps", "-1"}, "must not be negative"},
		{[]string{"run", f, "--max-states", "-1"}, "must not be negative"},
		{[]string{"run", f, "--timeout", "5"}, "needs a unit"},
		{[]string{"verify", f, "--query-timeout", "5"}, "needs a unit"},
		{[]string{"run", f, "--loop-bound", "-3"}, "must not be negative"},
		{[]string{"verify", f, "--loop-bound", "-3"}, "must not be negative"},
		{[]string{"run", f, "--loop-bound", "2", "--strategy", "dfs"}, "--strategy does not apply with --loop-bound"},
		{[]string{"run", f, "--loop-bound", "2", "--all-bugs"}, "--all-bugs does not apply with --loop-bound"},
		{[]string{"exec", f, "--input", "x=1,x=2"}, "x is given twice"},
	}
	for _, c := range cases {
		code, stdout, stderr := runText(c.args...)
		if code != exitUsage || !strings.Contains(stderr, c.want) {
			t.Errorf("certsym %v: exit %d, stderr %q, stdout %q; want exit %d and %q", c.args, code, stderr, stdout, exitUsage, c.want)
		}
	}
	// Zero stays allowed where it means "no bound", and --loop-bound 0 is a bound.
	for _, args := range [][]string{{"run", f, "--timeout", "0s"}, {"run", f, "--timeout", "0"}, {"run", f, "--loop-bound", "0"}} {
		if code, _, stderr := runText(append(args, "--quiet")...); code != exitSafe {
			t.Errorf("certsym %v: exit %d, %s", args, code, stderr)
		}
	}
}

// TestDeepNesting: a million nested parentheses (or nots, minuses), 300,000 nested ifs (statements
// nest up to 200,000 levels) and a chain of a million additions give a positioned syntax error and
// exit 2, not a stack overflow.
func TestDeepNesting(t *testing.T) {
	const n = 1_000_000
	cases := []struct{ name, src, want string }{
		{"parentheses", "x = " + strings.Repeat("(", n) + "1" + strings.Repeat(")", n), ":1:1004: nesting deeper than 1000 levels"},
		{"not", "assert " + strings.Repeat("not ", n) + "x > 0", ":1:4004: nesting deeper than 1000 levels"},
		{"minus", "x = " + strings.Repeat("- ", n) + "y", ":1:2003: nesting deeper than 1000 levels"},
		{"if", strings.Repeat("if x > 0 then ", 300_000) + "fail" + strings.Repeat(" fi", 300_000), ":1:2800001: statements nested deeper than 200000 levels"},
		{"sum", "x = y" + strings.Repeat(" + y", n), ":1:4003: expression deeper than 1000 levels"},
		{"sequence", strings.Repeat("x = x + 1;\n", 200_000) + "assert x != 3", ":200001:1: program larger than 200000 statements"},
	}
	for _, c := range cases {
		f := writeProg(t, c.src)
		cmds := []string{"parse"}
		if c.name == "parentheses" { // every command reads programs through the same parser
			cmds = []string{"parse", "run", "verify", "exec"}
		}
		for _, cmd := range cmds {
			args := []string{cmd, f}
			if cmd == "run" || cmd == "verify" {
				args = append(args, "--quiet")
			}
			code, stdout, stderr := runText(args...)
			if code != exitUsage || stdout != "" || !strings.HasPrefix(stderr, f+c.want) || strings.Count(stderr, "\n") != 1 {
				t.Errorf("%s: certsym %s: exit %d, stderr %.300q; want exit 2 and %q", c.name, cmd, code, stderr, f+c.want)
			}
		}
	}
	// Macros that double their argument at each of 40 levels would build a tree of 2^40 nodes.
	src := "macro m0(a) begin x = a + a end\n"
	for i := 1; i < 40; i++ {
		src += fmt.Sprintf("macro m%d(a) begin m%d(a + a) end\n", i, i-1)
	}
	f := writeProg(t, src+"m39(y)")
	if code, _, stderr := runText("run", f, "--quiet"); code != exitUsage || !strings.Contains(stderr, "after macro inlining: certsym's limit") {
		t.Errorf("macro blow-up: exit %d, %q", code, stderr)
	}
}

// panicWriter panics, with a message of several lines, on the first write.
type panicWriter struct{}

func (panicWriter) Write([]byte) (int, error) {
	panic("first line\nsecond line\n\tgoroutine 1 [running]")
}

// TestPanicIsOneLine: an unexpected panic is reported as one line on stderr with exit 4.
func TestPanicIsOneLine(t *testing.T) {
	f := writeProg(t, "x = 1")
	var stderr bytes.Buffer
	code := run([]string{"parse", f}, panicWriter{}, &stderr)
	if code != exitInternal || strings.Count(stderr.String(), "\n") != 1 || !strings.HasPrefix(stderr.String(), "certsym: internal error: first line") {
		t.Errorf("exit %d, stderr %q; want exit 4 and one line", code, stderr.String())
	}
}

// TestQueryCounters: every solver query is counted once and with one answer, also those the
// time bound cut short: sat + unsat + unknown = queries, in the text and in the JSON count.
func TestQueryCounters(t *testing.T) {
	f := writeProg(t, "assume x > 0;\nassume y > 0;\nassume z > 0;\nif x*x*x + y*y*y == z*z*z then\n  fail\nfi;\n"+
		"if x * y == 7 * z then fail fi;\nif x * z == 11 * y then fail fi;\nif y * z == 13 * x then fail fi")
	code, stdout, _ := runText("run", f, "--all-bugs", "--timeout", "300ms", "--quiet")
	var q, sat, unsat, unknown int
	i := strings.Index(stdout, "solver quer")
	if i < 0 {
		t.Fatalf("exit %d, no query count in %q", code, stdout)
	}
	line := stdout[strings.LastIndex(stdout[:i], ", ")+2:]
	if _, err := fmt.Sscanf(line[:strings.Index(line, "(")], "%d solver ", &q); err != nil {
		t.Fatalf("%q: %v", line, err)
	}
	if _, err := fmt.Sscanf(line[strings.Index(line, "(")+1:], "%d sat, %d unsat, %d unknown", &sat, &unsat, &unknown); err != nil {
		t.Fatalf("%q: %v", line, err)
	}
	if q == 0 || sat+unsat+unknown != q {
		t.Errorf("%d queries but %d sat + %d unsat + %d unknown:\n%s", q, sat, unsat, unknown, stdout)
	}
}

// TestAllBugsCutShort: an --all-bugs run stopped by a bound after finding bugs says so: the JSON
// has a reason, the text names the bound.
func TestAllBugsCutShort(t *testing.T) {
	f := writeProg(t, "if x == 1 then fail fi;\ni = 0;\nwhile i < y do i = i + 1 od;\nassert i != 5")
	out, code := runMap(t, "run", f, "--all-bugs", "--max-states", "12")
	if code != exitBug || len(out["bugs"].([]any)) == 0 || !strings.HasPrefix(fmt.Sprint(out["reason"]), "state bound reached") {
		t.Errorf("exit %d, %v; want bugs and the reason \"state bound reached ...\"", code, out)
	}
	code, stdout, _ := runText("run", f, "--all-bugs", "--max-states", "12", "--quiet")
	if code != exitBug || !strings.Contains(stdout, "verdict: bug (1 bug; the list of bugs may be incomplete: state bound reached") {
		t.Errorf("exit %d:\n%s", code, stdout)
	}
	// Without the bound the run finishes (the loop is bounded by the bug at i == 5? no: it is
	// unbounded), so only the bound's absence from a finished run is checked on a finite program.
	g := writeProg(t, "if x == 1 then fail fi;\nif x == 2 then fail fi")
	if out, _ := runMap(t, "run", g, "--all-bugs"); out["reason"] != nil {
		t.Errorf("finished run with a reason: %v", out)
	}
}

// TestByteOrderMark: a UTF-8 byte-order mark before the program is accepted; positions count
// from after it.
func TestByteOrderMark(t *testing.T) {
	f := writeProg(t, "\xEF\xBB\xBFx = 1;\nassert x == 2")
	code, stdout, stderr := runText("run", f, "--quiet")
	if code != exitBug || !strings.Contains(stdout, f+":2:1") {
		t.Errorf("exit %d, %q %q", code, stdout, stderr)
	}
}

// TestLineAndColumn: two asserts on one line are told apart, in the text (file:line:col) and in
// the JSON (line and column) of run, run --loop-bound and verify.
func TestLineAndColumn(t *testing.T) {
	f := writeProg(t, "y = 0;\nassert x != 1; assert x != 2")
	code, stdout, _ := runText("run", f, "--all-bugs", "--quiet")
	if code != exitBug || !strings.Contains(stdout, "assertion violated at "+f+":2:1\n") || !strings.Contains(stdout, "assertion violated at "+f+":2:16\n") {
		t.Errorf("run: exit %d:\n%s", code, stdout)
	}
	cols := func(out map[string]any, key string) []string {
		var cs []string
		for _, b := range out[key].([]any) {
			m := b.(map[string]any)
			cs = append(cs, fmt.Sprintf("%v:%v", m["line"], m["column"]))
		}
		return cs
	}
	out, _ := runMap(t, "run", f, "--all-bugs")
	if got := strings.Join(cols(out, "bugs"), " "); got != "2:1 2:16" {
		t.Errorf("run --json bugs at %s, want 2:1 2:16", got)
	}
	out, _ = runMap(t, "run", f, "--loop-bound", "1")
	if got := cols(out, "bugs"); len(got) != 2 || got[0] == got[1] || (got[0] != "2:1" && got[0] != "2:16") || (got[1] != "2:1" && got[1] != "2:16") {
		t.Errorf("run --loop-bound --json bugs at %s, want 2:1 2:16", got)
	}
	out, _ = runMap(t, "verify", f)
	if got := strings.Join(cols(out, "claims"), " "); got != "2:1 2:16" {
		t.Errorf("verify --json claims at %s, want 2:1 2:16", got)
	}
	code, stdout, _ = runText("verify", f, "--quiet")
	if !strings.Contains(stdout, f+":2:16, assert claim x != 2: REFUTED") {
		t.Errorf("verify: exit %d:\n%s", code, stdout)
	}
}

// TestLongOutputAbbreviated: a path condition of hundreds of conjuncts is abbreviated in the text
// output with the count left out; --full and JSON print it whole.
func TestLongOutputAbbreviated(t *testing.T) {
	var src strings.Builder
	for i := 0; i < 300; i++ {
		fmt.Fprintf(&src, "assume x%d == %d;\n", i, i)
	}
	src.WriteString("assert x0 != 0")
	f := writeProg(t, src.String())
	code, stdout, _ := runText("run", f, "--quiet")
	pc := ""
	for _, l := range strings.Split(stdout, "\n") {
		if strings.HasPrefix(l, "  path condition: ") {
			pc = l
		}
	}
	if code != exitBug || len(pc) > 600 || !strings.Contains(pc, "... (270 more conjuncts; --full prints them all)") {
		t.Errorf("exit %d, path condition line of %d bytes: %.700s", code, len(pc), pc)
	}
	_, full, _ := runText("run", f, "--quiet", "--full")
	if !strings.Contains(full, "x299 == 299") || strings.Contains(full, "--full prints") {
		t.Errorf("--full does not print the whole path condition")
	}
	out, _ := runMap(t, "run", f)
	if whole := out["bugs"].([]any)[0].(map[string]any)["path_condition"].(string); strings.Count(whole, " and ") != 299 {
		t.Errorf("JSON path condition has %d conjuncts, want 300", strings.Count(whole, " and ")+1)
	}
}

// TestPlurals: one step, one path, one query are singular.
func TestPlurals(t *testing.T) {
	f := writeProg(t, "x = 1")
	if _, stdout, _ := runText("exec", f); !strings.Contains(stdout, "after 1 step\n") {
		t.Errorf("exec: %q", stdout)
	}
	g := writeProg(t, "while x > 0 do x = x - 1 od")
	if _, stdout, _ := runText("run", g, "--loop-bound", "0", "--quiet"); !strings.Contains(stdout, "(1 path)") || strings.Contains(stdout, "1 paths") {
		t.Errorf("run --loop-bound: %q", stdout)
	}
	h := writeProg(t, "if x * x == 4 then skip fi")
	if _, stdout, _ := runText("run", h, "--quiet"); !strings.Contains(stdout, " 1 solver query (") {
		t.Errorf("run: %q", stdout)
	}
}

// TestExecWarnsOnlyAboutInputs: exec warns about the variables read before they are written,
// not about the others.
func TestExecWarnsOnlyAboutInputs(t *testing.T) {
	cases := []struct{ src, want string }{
		{"y = 1;\nx = y + 1", ""},
		{"x = x + 1", "no input given for x: using 0"},
		{"if a > 0 then t = 1 else t = 2 fi;\nu = t", "no input given for a: using 0"},
		{"if a > 0 then t = 1 fi;\nu = t", "no input given for a, t: using 0"},
		{"i = 0;\nwhile i < n do s = s + i; i = i + 1 od", "no input given for n, s: using 0"},
	}
	for _, c := range cases {
		f := writeProg(t, c.src)
		_, _, stderr := runText("exec", f)
		if strings.TrimSpace(stderr) != strings.TrimSpace(func() string {
			if c.want == "" {
				return ""
			}
			return "certsym exec: " + c.want
		}()) {
			t.Errorf("%q: stderr %q, want %q", c.src, stderr, c.want)
		}
	}
}

var (
	binOnce sync.Once
	binPath string
	binErr  error
)

// certsymBinary builds the command once per test run, for the tests that need a real process
// (signals, standard input).
func certsymBinary(t *testing.T) string {
	t.Helper()
	binOnce.Do(func() {
		dir, err := os.MkdirTemp("", "certsym-bin")
		if err != nil {
			binErr = err
			return
		}
		binPath = filepath.Join(dir, "certsym")
		out, err := exec.Command("go", "build", "-o", binPath, ".").CombinedOutput()
		if err != nil {
			binErr = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if binErr != nil {
		t.Fatal(binErr)
	}
	return binPath
}

// TestStdin: FILE - reads the program from standard input.
func TestStdin(t *testing.T) {
	bin := certsymBinary(t)
	cmd := exec.Command(bin, "run", "-", "--quiet")
	cmd.Stdin = strings.NewReader("x = 1;\nassert x == 2")
	out, err := cmd.Output()
	if code := cmd.ProcessState.ExitCode(); code != exitBug || !strings.Contains(string(out), "assertion violated at <stdin>:2:1") {
		t.Errorf("exit %d (%v): %s", code, err, out)
	}
	cmd = exec.Command(bin, "parse", "-")
	cmd.Stdin = strings.NewReader("x = ((1")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	cmd.Run()
	if code := cmd.ProcessState.ExitCode(); code != exitUsage || !strings.HasPrefix(stderr.String(), "<stdin>:1:8: ") {
		t.Errorf("syntax error from stdin: exit %d, %q", code, stderr.String())
	}
}
