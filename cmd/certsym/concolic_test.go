package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"certsym/cmd/certsym/internal/pathout"
	"certsym/spec/syntax/parser"
)

// concolicJSON runs certsym concolic ARGS --json and decodes its one JSON object.
func concolicJSON(t *testing.T, args ...string) (pathout.JSON, int, string) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	code := run(append([]string{"concolic"}, append(args, "--json")...), &stdout, &stderr)
	var out pathout.JSON
	dec := json.NewDecoder(&stdout)
	dec.UseNumber()
	if err := dec.Decode(&out); err != nil {
		t.Fatalf("certsym concolic %v: output is not one JSON object (%v): %s %s", args, err, stdout.String(), stderr.String())
	}
	if dec.More() {
		t.Fatalf("certsym concolic %v: more than one JSON value on stdout", args)
	}
	return out, code, stderr.String()
}

const concolicProg = "if x > 3 then\n  y = 10 / (x - 5)\nelse\n  assume y >= 0;\n  while y > 0 do y = y - 1 od\nfi;\nassert x + y != 7\n"

func TestConcolicText(t *testing.T) {
	f := writeProg(t, concolicProg)
	code, stdout, stderr := runText("concolic", f, "--input", "x=1,y=2")
	if code != exitSafe || stderr != "" {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	for _, want := range []string{
		"path of the input x=1, y=2\n",
		"1. " + f + ":1:1 if x > 3: else (after 0 steps)\n   path condition: x <= 3\n   flip to then: x=",
		"2. " + f + ":4:3 assume y >= 0: passes (after 1 step)\n",
		"no other side to flip to (its blocked side ends the run without error)",
		f + ":5:3 while y > 0: enter (after 4 steps)\n",
		"   flip to exit: x=0, y=0 (confirmed: its concrete run takes it)\n",
		f + ":7:1 assert x + y != 7: holds",
		"flip to violated: none (unsat: no input follows this path and takes it)",
		"outcome: finished after 15 steps\nstore: x=1, y=0\npath condition: x <= 3 and y == 2\nsymbolic store: x = x, y = y - 2\n",
		"6 branch points; flips: 4 found and confirmed, 1 unsat, 0 unknown",
	} {
		if !strings.Contains(stdout, want) {
			t.Errorf("output lacks %q:\n%s", want, stdout)
		}
	}
	// The error outcome, a division by zero as a branch point, exit 1.
	code, stdout, _ = runText("concolic", f, "--input", "x=5,y=0")
	if code != exitBug || !strings.Contains(stdout, "assign y = 10 / (x - 5): division-by-zero") ||
		!strings.Contains(stdout, "outcome: error: division by zero at "+f+":2:3 after 2 steps") {
		t.Errorf("exit %d:\n%s", code, stdout)
	}
	// Blocked: exit 0; step bound: exit 3.
	if code, stdout, _ = runText("concolic", f, "--input", "x=0,y=-1"); code != exitSafe || !strings.Contains(stdout, "outcome: blocked at the assume at "+f+":4:3") {
		t.Errorf("blocked: exit %d:\n%s", code, stdout)
	}
	if code, stdout, _ = runText("concolic", f, "--input", "x=0,y=100", "--max-steps", "20"); code != exitUnknown || !strings.Contains(stdout, "outcome: step bound reached (20 steps) at "+f+":") {
		t.Errorf("step bound: exit %d:\n%s", code, stdout)
	}
}

func TestConcolicJSON(t *testing.T) {
	f := writeProg(t, concolicProg)
	out, code, stderr := concolicJSON(t, f, "--input", "x=7")
	if code != exitSafe || stderr != "certsym concolic: no input given for y: using 0\n" {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	if out.Outcome != "finished" || out.Steps != 4 || string(out.Store["y"]) != "5" || len(out.Branches) != 3 {
		t.Fatalf("%+v", out)
	}
	b := out.Branches[1]
	if b.Kind != "assign" || b.Line != 2 || b.Column != 3 || b.Taken != "defined" || b.Constraint != "x != 5" || b.PathCondition != "x >= 4 and x != 5" {
		t.Errorf("branch 2: %+v", b)
	}
	if len(b.Flips) != 1 || b.Flips[0].Side != "division-by-zero" || b.Flips[0].Status != "sat" || !b.Flips[0].Confirmed ||
		string(b.Flips[0].Input["x"]) != "5" {
		t.Errorf("branch 2 flips: %+v", b.Flips)
	}
	// Each flip input, traced in turn, takes the side it was found for.
	prog, err := parser.ParseFile(f)
	if err != nil {
		t.Fatal(err)
	}
	for i, b := range out.Branches {
		for _, fl := range b.Flips {
			if fl.Status != "sat" {
				continue
			}
			var kv []string
			for _, v := range prog.Vars {
				kv = append(kv, v+"="+string(fl.Input[v]))
			}
			again, _, _ := concolicJSON(t, f, "--input", strings.Join(kv, ","))
			if len(again.Branches) <= i || again.Branches[i].Taken != fl.Side {
				t.Errorf("the flip input %v of branch %d does not take %s: %+v", kv, i+1, fl.Side, again.Branches)
			}
		}
	}
	out, code, _ = concolicJSON(t, f, "--input", "x=5,y=0")
	if code != exitBug || out.Outcome != "error" || out.Kind != "division-by-zero" || out.Line != 2 || out.Column != 3 || out.Steps != 2 {
		t.Errorf("error: exit %d, %+v", code, out)
	}
	out, code, _ = concolicJSON(t, f, "--input", "x=2,y=500", "--max-steps", "30")
	if code != exitUnknown || out.Outcome != "step-bound" || out.Steps != 30 || out.Reason == "" {
		t.Errorf("step bound: exit %d, %+v", code, out)
	}
}

func TestConcolicErrors(t *testing.T) {
	f := writeProg(t, concolicProg)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{f}, "--input is required"},
		{[]string{f, "--input", "x"}, "expected NAME=INTEGER"},
		{[]string{f, "--input", "q=1"}, `the program has no variable "q"`},
		{[]string{f, "--input", "x=1,x=2"}, "x is given twice"},
		{[]string{f, "--input", "x=one"}, "expected an integer"},
		{[]string{f, "--input", "x=1", "--max-steps", "-1"}, "must not be negative"},
		{[]string{f, "--input", "x=1", "--max-steps", "0"}, "at least 1"},
		{[]string{"--input", "x=1"}, "expected one FILE"},
		{[]string{filepath.Join(t.TempDir(), "missing.imp"), "--input", "x=1"}, "no such file"},
	} {
		code, stdout, stderr := runText(append([]string{"concolic"}, c.args...)...)
		if code != exitUsage || !strings.Contains(stderr, c.want) || stdout != "" {
			t.Errorf("concolic %v: exit %d, stdout %q, stderr %q; want exit 2 and %q", c.args, code, stdout, stderr, c.want)
		}
	}
	// A syntax error: positioned, and with --json the error object on stdout.
	bad := writeProg(t, "x = 1;\nif x > 0 then y = 2 od")
	var stdout, stderr bytes.Buffer
	if code := run([]string{"concolic", bad, "--input", "x=1", "--json"}, &stdout, &stderr); code != exitUsage ||
		!strings.Contains(stderr.String(), bad+":2:21:") || !strings.Contains(stdout.String(), `"error": "syntax"`) {
		t.Errorf("syntax error: exit %d, stdout %q, stderr %q", code, stdout.String(), stderr.String())
	}
}

func TestRunGenerational(t *testing.T) {
	mutant := "../../testdata/factorial_mutant_swapped_update.imp"
	out, code, _ := runJSON(t, "run", mutant, "--strategy", "generational")
	if code != exitBug || out.Verdict != "bug" || len(out.Bugs) != 1 || out.States == 0 {
		t.Fatalf("mutant: exit %d, %+v", code, out)
	}
	b := out.Bugs[0]
	if b.Line != 16 || b.Kind != "assert" || b.PathCondition != "n == 2" || string(b.Input["n"]) != "2" || !strings.HasPrefix(b.Reproduce, "certsym exec ") {
		t.Errorf("mutant bug %+v", b)
	}
	// The reproduce command reaches the bug.
	code, stdout, _ := runText(strings.Fields(strings.TrimPrefix(b.Reproduce, "certsym "))...)
	if code != exitBug || !strings.Contains(stdout, "assertion violated") {
		t.Errorf("reproduce %q: exit %d %s", b.Reproduce, code, stdout)
	}
	code, stdout, _ = runText("run", mutant, "--strategy", "generational", "--quiet")
	for _, want := range []string{"BUG: assertion violated at " + mutant + ":16:3", "path condition: n == 2", "input:          n=2",
		"confirmed:      the concrete run of this input reaches the error after 22 steps", "verdict: bug\n", "concrete steps executed in all runs"} {
		if !strings.Contains(stdout, want) || code != exitBug {
			t.Errorf("text output (exit %d) lacks %q:\n%s", code, want, stdout)
		}
	}
	// From a seed input that already fails.
	out, _, _ = runJSON(t, "run", mutant, "--strategy", "generational", "--seed-input", "n=3")
	if len(out.Bugs) != 1 || string(out.Bugs[0].Input["n"]) != "3" || out.States != 28 {
		t.Errorf("seed n=3: %+v", out)
	}

	safe := writeProg(t, "if x > 0 then y = 1 else y = 2 fi;\nif z == x then y = 100 / y fi;\nassert y != 0")
	out, code, _ = runJSON(t, "run", safe, "--strategy", "generational")
	if code != exitSafe || out.Verdict != "safe" || out.Reason != "" {
		t.Errorf("finite safe tree: exit %d, %+v", code, out)
	}
	loop := writeProg(t, "while x > 0 do x = x - 1 od;\nassert x <= 0")
	out, code, _ = runJSON(t, "run", loop, "--strategy", "generational", "--max-states", "500")
	if code != exitUnknown || out.Verdict != "unknown" || !strings.Contains(out.Reason, "state bound reached") || out.States != 500 {
		t.Errorf("infinite tree: exit %d, %+v", code, out)
	}
	all := "../../testdata/all_bugs_three_kinds_in_order.imp"
	out, code, _ = runJSON(t, "run", all, "--strategy", "generational", "--all-bugs")
	if code != exitBug || len(out.Bugs) != 3 {
		t.Errorf("all bugs: exit %d, %+v", code, out)
	}
	sarif := filepath.Join(t.TempDir(), "r.sarif")
	if code, _, stderr := runText("run", mutant, "--strategy", "generational", "--quiet", "--sarif", sarif); code != exitBug {
		t.Errorf("--sarif: exit %d %s", code, stderr)
	} else if data, err := os.ReadFile(sarif); err != nil || !strings.Contains(string(data), `"ruleId"`) {
		t.Errorf("--sarif: %v %.200s", err, data)
	}
}

func TestRunStrategyFlags(t *testing.T) {
	f := writeProg(t, "assert x != 1")
	names := strategyNames()
	if len(names) < 3 || names[0] != "bfs" || names[1] != "dfs" || names[len(names)-1] != "generational" {
		t.Errorf("strategies %v", names)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--strategy", "random"}, `unknown strategy "random" (expected one of bfs, dfs`},
		{[]string{"--seed-input", "x=1"}, "--seed-input applies to --strategy generational only"},
		{[]string{"--strategy", "dfs", "--seed-input", "x=1"}, "--seed-input applies to --strategy generational only"},
		{[]string{"--strategy", "bfs", "--seed", "3"}, "--seed applies to --strategy random-path only"},
		{[]string{"--strategy", "generational", "--no-prune"}, "--no-prune does not apply to --strategy generational"},
		{[]string{"--strategy", "generational", "--coverage", "--dot", "t.dot"}, "--coverage, --dot: not available with --strategy generational"},
		{[]string{"--strategy", "generational", "--seed-input", "q=1"}, `--seed-input: the program has no variable "q"`},
		{[]string{"--strategy", "generational", "--loop-bound", "3"}, "--strategy does not apply with --loop-bound"},
	} {
		code, _, stderr := runText(append([]string{"run", f, "--quiet"}, c.args...)...)
		if code != exitUsage || !strings.Contains(stderr, c.want) {
			t.Errorf("run %v: exit %d, stderr %q; want exit 2 and %q", c.args, code, stderr, c.want)
		}
	}
	if code, _, stderr := runText("run", f, "--quiet", "--strategy", "random-path", "--seed", "7"); code != exitBug {
		t.Errorf("random-path --seed 7: exit %d %s", code, stderr)
	}
	code, stdout, _ := runText("help", "run")
	if code != 0 || !strings.Contains(stdout, "generational") || !strings.Contains(stdout, "-seed-input") {
		t.Errorf("help run:\n%s", stdout)
	}
	if code, stdout, _ = runText("help", "concolic"); code != 0 || !strings.Contains(stdout, "certsym concolic FILE --input") || !strings.Contains(stdout, "-max-steps") {
		t.Errorf("help concolic:\n%s", stdout)
	}
}
