package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"certsym/cmd/certsym/internal/jsonout"
	"certsym/internal/expect"
	"certsym/spec/syntax/parser"
)

// readRunExpectation reads what a testdata program expects of certsym run (internal/expect: the
// verdict and options in the header, each bug annotated at its line) and checks that it is a run
// expectation: a verdict, and no verify claims, which this test would not check.
func readRunExpectation(file string) (*expect.File, error) {
	exp, err := expect.Read(file)
	if err != nil {
		return nil, err
	}
	switch {
	case exp.Verdict == "":
		return nil, fmt.Errorf("%s:1: no '# expect: safe', '# expect: unknown' or '# expect: bug' in the header", file)
	case len(exp.Claims) > 0:
		return nil, fmt.Errorf("%s:%d: CLAIM annotation in a program of certsym run (claims belong to testdata/verify/)", file, exp.Claims[0].Line)
	case exp.Overall != "":
		return nil, fmt.Errorf("%s: '# expect: overall' in a program of certsym run (it belongs to testdata/verify/)", file)
	}
	return exp, nil
}

// bugMismatch compares the bugs certsym reported, in report order, with the annotated ones; it
// returns "" when they are the same, otherwise what differs, by file:line.
func bugMismatch(file string, want, got []expect.Bug) string {
	if slices.Equal(want, got) {
		return ""
	}
	var b strings.Builder
	b.WriteString("the bugs reported differ from the BUG annotations:")
	count := map[expect.Bug]int{}
	for _, w := range want {
		count[w]++
	}
	for _, g := range got {
		count[g]--
	}
	for _, w := range want {
		if count[w] > 0 {
			fmt.Fprintf(&b, "\n%s:%d: annotated BUG %s, not reported at this line", file, w.Line, w.Kind)
			count[w]--
		}
	}
	for _, g := range got {
		if count[g] < 0 {
			fmt.Fprintf(&b, "\n%s:%d: reported %s, not annotated at this line", file, g.Line, g.Kind)
			count[g]++
		}
	}
	list := func(bs []expect.Bug) string {
		var s []string
		for _, x := range bs {
			s = append(s, fmt.Sprintf("%d:%s", x.Line, x.Kind))
		}
		return "[" + strings.Join(s, " ") + "]"
	}
	fmt.Fprintf(&b, "\nreported in order %s, annotated in order %s", list(got), list(want))
	return b.String()
}

// runJSON runs certsym with args and --json and decodes its single JSON object.
func runJSON(t *testing.T, args ...string) (jsonout.Run, int, string) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	code := run(append(args, "--json", "--quiet"), &stdout, &stderr)
	var out jsonout.Run
	dec := json.NewDecoder(&stdout)
	dec.UseNumber()
	if err := dec.Decode(&out); err != nil {
		t.Fatalf("certsym %v: output is not one JSON object (%v): %s %s", args, err, stdout.String(), stderr.String())
	}
	if dec.More() {
		t.Fatalf("certsym %v: more than one JSON value on stdout", args)
	}
	return out, code, stderr.String()
}

// TestTestdata runs every program in testdata/ and checks the answer written in it: the verdict
// in its header, each bug at the line reported.
func TestTestdata(t *testing.T) {
	files, _ := filepath.Glob("../../testdata/*.imp")
	if len(files) < 40 {
		t.Fatalf("found %d programs in testdata/, want at least 40", len(files))
	}
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			if msg := testdataProblem(t, file); msg != "" {
				t.Fatal(msg)
			}
		})
	}
}

// testdataProblem runs certsym run on a testdata program and returns how its answer differs from
// what the program expects ("" when it does not).
func testdataProblem(t *testing.T, file string) string {
	t.Helper()
	codes := map[string]int{"bug": exitBug, "safe": exitSafe, "unknown": exitUnknown}
	exp, err := readRunExpectation(file)
	if err != nil {
		return err.Error()
	}
	prog, err := parser.ParseFile(file)
	if err != nil {
		return err.Error()
	}
	out, code, stderr := runJSON(t, append([]string{"run", file}, exp.Options...)...)
	if out.Verdict != exp.Verdict || code != codes[exp.Verdict] {
		return fmt.Sprintf("verdict %s (exit %d), want %s; reason %q; bugs %+v; stderr %s", out.Verdict, code, exp.Verdict, out.Reason, out.Bugs, stderr)
	}
	var problems []string
	var got []expect.Bug
	for _, b := range out.Bugs {
		got = append(got, expect.Bug{Line: b.Line, Kind: b.Kind})
		if len(b.Input) != len(prog.Vars)+len(prog.Arrays) {
			problems = append(problems, fmt.Sprintf("bug at line %d: input %v does not give a value for each of %v and the arrays", b.Line, b.Input, prog.Vars))
		}
	}
	if msg := bugMismatch(file, exp.Bugs, got); msg != "" {
		problems = append(problems, msg)
	}
	if out.Verdict == "unknown" && out.Reason == "" {
		problems = append(problems, "unknown verdict without a reason")
	}
	return strings.Join(problems, "\n")
}

// TestTestdataHarness checks the check of TestTestdata: an annotation on the wrong line, in the
// wrong order or of the wrong kind makes it fail, naming the lines; a line added above a bug
// moves the bug and its annotation together, and the check still passes.
func TestTestdataHarness(t *testing.T) {
	const good = "# expect: bug\n# options: --all-bugs\nassume x >= 0 and x <= 2;\nassert x != 1;  # BUG assert\nassert x != 2  # BUG assert\n"
	if msg := testdataProblem(t, writeProg(t, good)); msg != "" {
		t.Fatalf("a correctly annotated program fails the check: %s", msg)
	}
	for _, c := range []struct{ name, src, want string }{
		// The bug of line 4 annotated on line 5 (where an assert could fail too).
		{"moved", "# expect: bug\nassume x == 1;\nx = x + 0;\nassert x != 1;\nassert x != 2  # BUG assert\n",
			":5: annotated BUG assert, not reported at this line|:4: reported assert, not annotated at this line"},
		{"order", "# expect: bug\n# options: --all-bugs\nassume x >= 0 and x <= 2;\nassert x != 1;  # BUG#2 assert\nassert x != 2  # BUG#1 assert\n",
			"reported in order [4:assert 5:assert], annotated in order [5:assert 4:assert]"},
		{"kind", "# expect: bug\nassume x == 0;\nassert 10 / x > 1  # BUG assert\n",
			":3: annotated BUG assert, not reported|:3: reported division-by-zero, not annotated"},
		{"missing", "# expect: bug\n# options: --all-bugs\nassume x >= 0 and x <= 2;\nassert x != 1;  # BUG assert\nassert x != 2\n",
			":5: reported assert, not annotated at this line"},
		{"verdict", "# expect: safe\nassume x == 1;\nassert x != 1\n", "verdict bug (exit 1), want safe"},
		{"old header", "# expect: bug line 3 kind assert\nassume x == 1;\nassert x != 1\n",
			":1: the header gives a line number: write '# expect: bug' here and '# BUG assert' at the end of line 3"},
	} {
		f := writeProg(t, c.src)
		msg := testdataProblem(t, f)
		for _, w := range strings.Split(c.want, "|") {
			if !strings.Contains(msg, w) {
				t.Errorf("%s: the check says %q, want it to contain %q", c.name, msg, w)
			}
		}
		if strings.HasPrefix(c.want, ":") && !strings.Contains(msg, f+c.want[:2]) {
			t.Errorf("%s: %q does not name the file %s", c.name, msg, f)
		}
	}
	// A real program edited above its bugs: the annotations move with the statements.
	src, err := os.ReadFile("../../testdata/all_bugs_bfs_depth_not_text_order.imp")
	if err != nil {
		t.Fatal(err)
	}
	edited := strings.Replace(string(src), "\nassume n >= 0", "\nskip;\n\nassume n >= 0", 1)
	if edited == string(src) {
		t.Fatal("the program to edit has changed; update this test")
	}
	if msg := testdataProblem(t, writeProg(t, edited)); msg != "" {
		t.Errorf("two lines added above the bugs: %s", msg)
	}
}
