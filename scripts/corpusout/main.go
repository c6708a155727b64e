// Command corpusout prints, for every program of the corpus, what certsym answers about it: the
// verdict, bug lines and kinds of `certsym run`, and every claim's status of `certsym verify`. Its
// output is meant to be diffed: a refactoring that changes no behaviour leaves it byte for byte
// the same (scripts/corpus-outputs.sh; the reference output is scripts/corpus-outputs.txt).
//
// Usage: corpusout CERTSYM_BINARY REPO_ROOT
//
// Options come from each file's `# options:` header lines (internal/expect reads them). Programs of testdata/verify are run
// with `verify` only, with their options; every other program with `run` and its
// options, and with `verify` and default options. The run of a program without a state bound of
// its own is cut at 20,000 states, verify's at 5,000 branch states, so that the whole corpus takes
// seconds (the bounds are state counts, never times, so the output is deterministic).
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"

	"certsym/internal/expect"
)

func main() {
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: corpusout CERTSYM_BINARY REPO_ROOT")
		os.Exit(2)
	}
	bin, root := os.Args[1], os.Args[2]
	var files []string
	for _, pat := range []string{"testdata/*.imp", "engine/testdata/*.imp", "testdata/verify/*.imp"} {
		m, err := filepath.Glob(filepath.Join(root, pat))
		if err != nil {
			fail(err)
		}
		sort.Strings(m)
		files = append(files, m...)
	}
	out := bufio.NewWriter(os.Stdout)
	defer out.Flush()
	for _, f := range files {
		rel, _ := filepath.Rel(root, f)
		opts := options(f)
		if !strings.HasPrefix(rel, "testdata/verify/") {
			args := append([]string{"run", f, "--json", "--quiet"}, withDefault(opts, "--max-states", "20000")...)
			fmt.Fprintf(out, "%s run %s\n", rel, runSummary(bin, args))
			opts = nil
		}
		args := append([]string{"verify", f, "--json", "--quiet"}, withDefault(opts, "--max-states", "5000")...)
		fmt.Fprintf(out, "%s verify %s\n", rel, verifySummary(bin, args))
	}
}

// options returns the flags of a file's `# options:` header lines, read by internal/expect, as
// the tests read them; a malformed expectation in the file is an error.
func options(file string) []string {
	exp, err := expect.Read(file)
	if err != nil {
		fail(err)
	}
	return exp.Options
}

// withDefault appends flag with value unless opts already sets it.
func withDefault(opts []string, flag, value string) []string {
	for _, o := range opts {
		if o == flag || strings.HasPrefix(o, flag+"=") {
			return opts
		}
	}
	return append(append([]string(nil), opts...), flag, value)
}

// invoke runs certsym and decodes its JSON object; the exit status is part of the answer.
func invoke(bin string, args []string, v any) int {
	cmd := exec.Command(bin, args...)
	var stdout bytes.Buffer
	cmd.Stdout = &stdout
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		fail(err)
	}
	dec := json.NewDecoder(&stdout)
	dec.UseNumber()
	if err := dec.Decode(v); err != nil {
		return -code - 100 // no JSON object: shown as a distinct answer
	}
	return code
}

// line reads a location that is a line number or a "line:col" string, keeping only the line.
func line(raw json.RawMessage) string {
	s := strings.Trim(string(raw), `"`)
	if i := strings.IndexByte(s, ':'); i >= 0 {
		s = s[:i]
	}
	return s
}

func runSummary(bin string, args []string) string {
	var r struct {
		Verdict string `json:"verdict"`
		Bugs    []struct {
			Line json.RawMessage `json:"line"`
			Kind string          `json:"kind"`
		} `json:"bugs"`
	}
	code := invoke(bin, args, &r)
	parts := []string{fmt.Sprintf("exit=%d verdict=%s", code, r.Verdict)}
	for _, b := range r.Bugs {
		parts = append(parts, fmt.Sprintf("bug@%s:%s", line(b.Line), b.Kind))
	}
	return strings.Join(parts, " ")
}

func verifySummary(bin string, args []string) string {
	var r struct {
		Claims []struct {
			Line   json.RawMessage `json:"line"`
			Kind   string          `json:"kind"`
			Claim  string          `json:"claim"`
			Status string          `json:"status"`
		} `json:"claims"`
		Overall string `json:"overall"`
	}
	code := invoke(bin, args, &r)
	parts := []string{fmt.Sprintf("exit=%d overall=%s", code, r.Overall)}
	for _, c := range r.Claims {
		parts = append(parts, fmt.Sprintf("[%s %s %q %s]", line(c.Line), c.Kind, c.Claim, c.Status))
	}
	return strings.Join(parts, " ")
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "corpusout:", err)
	os.Exit(2)
}
