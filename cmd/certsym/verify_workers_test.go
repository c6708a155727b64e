package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"testing"
)

// TestVerifyWorkersCorpus runs certsym verify (text; JSON with --html and --sarif) and certsym
// run --loop-bound (text and JSON) on every program of testdata/, testdata/verify/ and
// engine/testdata/, with the program's own verify options (testdata/verify/) or loop bound, and
// gcd at loop bound 10 (2,047 paths, every one listed, past MaxPathTests; and cut by --max-states
// and --depth-bound), with --workers 1, 2 and 4, and compares
// the outputs byte for byte, the exit codes and the standard error (elapsed times masked; in the
// SARIF log, the command line it records, which names the --workers given). Each run is a process
// of its own: two verifications in one process may get other Z3 models for the same query.
func TestVerifyWorkersCorpus(t *testing.T) {
	if testing.Short() {
		t.Skip("short mode: certsym verify and run on the corpus with 1, 2 and 4 workers, compared byte for byte; make check runs it")
	}
	bin := certsymBinary(t)
	durations := regexp.MustCompile(`[0-9.]+(µs|ms|s)\b`)
	workersArg := regexp.MustCompile(`--workers [0-9]+`)
	var files []string
	for _, g := range []string{"../../testdata/*.imp", "../../testdata/verify/*.imp", "../../engine/testdata/*.imp"} {
		fs, _ := filepath.Glob(g)
		files = append(files, fs...)
	}
	if len(files) < 150 {
		t.Fatalf("found %d programs, want at least 150", len(files))
	}
	type job struct {
		args  []string
		files bool // --html and --sarif files too
	}
	var jobs []job
	for _, file := range files {
		vopts := []string{}
		if exp, err := readVerifyExpectation(file); err == nil {
			vopts = exp.Options
		}
		ropts := []string{"--loop-bound", "3"}
		if exp, err := readRunExpectation(file); err == nil && slices.Contains(exp.Options, "--loop-bound") {
			ropts = exp.Options
		}
		jobs = append(jobs,
			job{args: append([]string{"verify", file, "--quiet"}, vopts...)},
			job{args: append([]string{"verify", file, "--quiet", "--json"}, vopts...), files: true},
			job{args: append([]string{"run", file, "--quiet"}, ropts...)},
			job{args: append([]string{"run", file, "--quiet", "--json"}, ropts...)})
	}
	gcd := "../../engine/testdata/gcd.imp"
	jobs = append(jobs, job{args: []string{"verify", gcd, "--quiet", "--loop-bound", "10", "--all-paths"}},
		job{args: []string{"verify", gcd, "--quiet", "--json", "--loop-bound", "10", "--all-paths"}, files: true},
		job{args: []string{"run", gcd, "--quiet", "--loop-bound", "10"}},
		job{args: []string{"verify", gcd, "--quiet", "--json", "--loop-bound", "10", "--max-states", "300"}},
		job{args: []string{"verify", gcd, "--quiet", "--loop-bound", "10", "--depth-bound", "12"}},
		job{args: []string{"run", gcd, "--quiet", "--json", "--loop-bound", "10", "--max-states", "300"}})
	dir := t.TempDir()
	for _, j := range jobs {
		var first string
		for _, w := range []string{"1", "2", "4"} {
			args := append(slices.Clone(j.args), "--workers", w)
			html, sarif := filepath.Join(dir, "r.html"), filepath.Join(dir, "r.sarif")
			if j.files {
				args = append(args, "--html", html, "--sarif", sarif)
			}
			cmd := exec.Command(bin, args...)
			var stdout, stderr []byte
			stdout, err := cmd.Output()
			if ee, ok := err.(*exec.ExitError); ok {
				stderr = ee.Stderr
			} else if err != nil {
				t.Fatalf("%v: %v", args, err)
			}
			out := fmt.Sprintf("exit %d\n%s\n--- stderr\n%s", cmd.ProcessState.ExitCode(), durations.ReplaceAllString(string(stdout), "T"), stderr)
			if j.files {
				h, err1 := os.ReadFile(html)
				s, err2 := os.ReadFile(sarif)
				if err1 != nil || err2 != nil {
					t.Fatalf("%v: %v, %v", args, err1, err2)
				}
				out += "\n--- html\n" + durations.ReplaceAllString(string(h), "T") + "\n--- sarif\n" + workersArg.ReplaceAllString(string(s), "W")
			}
			if w == "1" {
				first = out
			} else if out != first {
				t.Errorf("%v: --workers %s differs from --workers 1:\n%s\n---\n%s", j.args, w, out, first)
			}
		}
	}
}
