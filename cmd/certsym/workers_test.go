package main

import (
	"fmt"
	"path/filepath"
	"regexp"
	"slices"
	"testing"

	"certsym/engine"
	"certsym/spec/syntax/parser"
)

// TestWorkersCorpus runs certsym run on every program of testdata/ and on the case studies of
// engine/testdata whose states the workers may expand (engine.ParallelOK), with the program's own
// options (at most 20,000 states), first bug and --all-bugs, text and JSON, with --workers 1, 2
// and 4, and compares the outputs byte for byte (elapsed times masked) and the exit codes.
func TestWorkersCorpus(t *testing.T) {
	durations := regexp.MustCompile(`[0-9.]+(µs|ms|s)\b`)
	files, _ := filepath.Glob("../../testdata/*.imp")
	cases, _ := filepath.Glob("../../engine/testdata/*.imp")
	files = append(files, cases...)
	if len(files) < 40 {
		t.Fatalf("found %d programs, want at least 40", len(files))
	}
	compared := 0
	for _, file := range files {
		prog, err := parser.ParseFile(file)
		if err != nil || !engine.ParallelOK(prog) {
			continue
		}
		var opts []string
		if exp, err := readRunExpectation(file); err == nil {
			opts = exp.Options
		}
		if slices.Contains(opts, "--loop-bound") || slices.Contains(opts, "--strategy") {
			continue // not the breadth-first engine
		}
		compared++
		for _, extra := range [][]string{{}, {"--all-bugs"}, {"--json"}, {"--json", "--all-bugs"}} {
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
	}
	if compared < 30 {
		t.Errorf("compared %d programs, want at least 30", compared)
	}
}
