package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"certsym/spec"
)

// expectation is what a testdata program's header says certsym run must answer:
//
//	# expect: safe | unknown | bug line L kind K   (first line; bug lines may repeat with --all-bugs)
//	# options: run flags
type expectation struct {
	verdict string
	bugs    []string // "line L kind K"
	options []string
}

func readExpectation(file string) (expectation, error) {
	f, err := os.Open(file)
	if err != nil {
		return expectation{}, err
	}
	defer f.Close()
	var exp expectation
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if !strings.HasPrefix(line, "#") {
			break
		}
		body := strings.TrimSpace(strings.TrimPrefix(line, "#"))
		switch {
		case strings.HasPrefix(body, "expect:"):
			v := strings.Fields(strings.TrimPrefix(body, "expect:"))
			switch {
			case len(v) == 1 && (v[0] == "safe" || v[0] == "unknown"):
				exp.verdict = v[0]
			case len(v) == 5 && v[0] == "bug" && v[1] == "line" && v[3] == "kind":
				exp.verdict = "bug"
				exp.bugs = append(exp.bugs, strings.Join(v[1:], " "))
			default:
				return exp, fmt.Errorf("%s:%d: malformed expectation %q", file, n, body)
			}
		case strings.HasPrefix(body, "options:"):
			exp.options = append(exp.options, strings.Fields(strings.TrimPrefix(body, "options:"))...)
		}
		if n == 1 && exp.verdict == "" {
			return exp, fmt.Errorf("%s:1: the first line must be '# expect: ...'", file)
		}
	}
	return exp, sc.Err()
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

// TestTestdata runs every program in testdata/ and checks the answer written in its header.
func TestTestdata(t *testing.T) {
	files, _ := filepath.Glob("../../testdata/*.imp")
	if len(files) < 40 {
		t.Fatalf("found %d programs in testdata/, want at least 40", len(files))
	}
	codes := map[string]int{"bug": exitBug, "safe": exitSafe, "unknown": exitUnknown}
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			exp, err := readExpectation(file)
			if err != nil {
				t.Fatal(err)
			}
			prog, err := spec.ParseFile(file)
			if err != nil {
				t.Fatal(err)
			}
			out, code, stderr := runJSON(t, append([]string{"run", file}, exp.options...)...)
			if out.Verdict != exp.verdict || code != codes[exp.verdict] {
				t.Fatalf("verdict %s (exit %d), want %s; reason %q; bugs %+v; stderr %s", out.Verdict, code, exp.verdict, out.Reason, out.Bugs, stderr)
			}
			var got []string
			for _, b := range out.Bugs {
				got = append(got, fmt.Sprintf("line %d kind %s", b.Line, b.Kind))
				if len(b.Input) != len(prog.Vars) {
					t.Errorf("bug at line %d: input %v does not give a value for each of %v", b.Line, b.Input, prog.Vars)
				}
			}
			if strings.Join(got, "; ") != strings.Join(exp.bugs, "; ") {
				t.Fatalf("bugs %v, want %v", got, exp.bugs)
			}
			if out.Verdict == "unknown" && out.Reason == "" {
				t.Errorf("unknown verdict without a reason")
			}
		})
	}
}
