package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"certsym/internal/expect"
	"certsym/spec"
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
func runJSON(t *testing.T, args ...string) (jsonRun, int, string) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	code := run(append(args, "--json", "--quiet"), &stdout, &stderr)
	var out jsonRun
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
	codes := map[string]int{"bug": exitBug, "safe": exitSafe, "unknown": exitUnknown}
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			exp, err := readRunExpectation(file)
			if err != nil {
				t.Fatal(err)
			}
			prog, err := spec.ParseFile(file)
			if err != nil {
				t.Fatal(err)
			}
			out, code, stderr := runJSON(t, append([]string{"run", file}, exp.Options...)...)
			if out.Verdict != exp.Verdict || code != codes[exp.Verdict] {
				t.Fatalf("verdict %s (exit %d), want %s; reason %q; bugs %+v; stderr %s", out.Verdict, code, exp.Verdict, out.Reason, out.Bugs, stderr)
			}
			var got []expect.Bug
			for _, b := range out.Bugs {
				got = append(got, expect.Bug{Line: b.Line, Kind: b.Kind})
				if len(b.Input) != len(prog.Vars) {
					t.Errorf("bug at line %d: input %v does not give a value for each of %v", b.Line, b.Input, prog.Vars)
				}
			}
			if msg := bugMismatch(file, exp.Bugs, got); msg != "" {
				t.Fatal(msg)
			}
			if out.Verdict == "unknown" && out.Reason == "" {
				t.Errorf("unknown verdict without a reason")
			}
		})
	}
}
