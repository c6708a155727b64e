package main

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"testing"

	"certsym/spec/syntax/parser"
)

// TestWorkersCorpus runs certsym run on every program of testdata/ and on the case studies of
// engine/testdata, with the program's own options (at most 20,000 states), first bug and
// --all-bugs, text and JSON, with --workers 1, 2 and 4 (the partitioned run of package
// engine/steal for the breadth-first ones), and compares the outputs byte for byte (elapsed times
// masked) and the exit codes. A program whose run with one worker meets an unknown answer of the
// solver is left out (which queries a bound cuts short depends on each worker's solver). make
// check takes one of the four formats of each program, in turn; CERTSYM_WORKERS_ALL=1 (make check-workers) takes all four.
func TestWorkersCorpus(t *testing.T) {
	if testing.Short() {
		t.Skip("short mode: certsym run on the corpus with 1, 2 and 4 workers, compared byte for byte; make check runs it")
	}
	durations := regexp.MustCompile(`[0-9.]+(µs|ms|s)\b`)
	unknownAnswers := regexp.MustCompile(`[1-9][0-9]* unknown\)`)
	files, _ := filepath.Glob("../../testdata/*.imp")
	cases, _ := filepath.Glob("../../engine/testdata/*.imp")
	files = append(files, cases...)
	if len(files) < 40 {
		t.Fatalf("found %d programs, want at least 40", len(files))
	}
	all := os.Getenv("CERTSYM_WORKERS_ALL") != ""
	formats := [][]string{{}, {"--all-bugs"}, {"--json"}, {"--json", "--all-bugs"}}
	compared := 0
	for i, file := range files {
		if _, err := parser.ParseFile(file); err != nil {
			continue
		}
		var opts []string
		if exp, err := readRunExpectation(file); err == nil {
			opts = exp.Options
		}
		if slices.Contains(opts, "--loop-bound") || slices.Contains(opts, "--strategy") {
			continue // not the breadth-first engine
		}
		extras := formats
		if !all {
			extras = formats[i%len(formats) : i%len(formats)+1]
		}
		if compareRunWorkers(t, file, opts, extras, durations, unknownAnswers) {
			compared++
		}
	}
	if compared < 100 {
		t.Errorf("compared %d programs, want at least 100", compared)
	}
}

// compareRunWorkers runs file with each of extras and 1, 2 and 4 workers and reports the outputs
// that differ from the one worker's; it reports false, comparing nothing, for a program whose
// probe meets an unknown answer.
func compareRunWorkers(t *testing.T, file string, opts []string, extras [][]string, durations, unknownAnswers *regexp.Regexp) bool {
	probe := append([]string{"run", file, "--quiet", "--max-states", "20000", "--workers", "1"}, opts...)
	if _, stdout, _ := runText(probe...); unknownAnswers.MatchString(stdout) {
		return false
	}
	for _, extra := range extras {
		args := append(append([]string{"run", file, "--quiet", "--max-states", "20000"}, opts...), extra...)
		var first string
		for _, w := range []string{"1", "2", "4"} {
			code, stdout, stderr := runText(append(args, "--workers", w)...)
			out := fmt.Sprintf("exit %d\n%s\n%s", code, durations.ReplaceAllString(stdout, "T"), stderr)
			if w == "1" {
				first = out
			} else if out != first {
				t.Errorf("%v: --workers %s differs from --workers 1:\n%s\n---\n%s", args, w, out, first)
			}
		}
	}
	return true
}
