package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"sync"
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
// make check takes, of each program, verify in one format and run in the other, alternating
// from program to program (every format is compared, on half the programs each), two processes at
// a time; CERTSYM_WORKERS_ALL=1 (make check-workers) takes all four of every program.
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
	all := os.Getenv("CERTSYM_WORKERS_ALL") != ""
	var jobs []job
	for i, file := range files {
		vopts := []string{}
		if exp, err := readVerifyExpectation(file); err == nil {
			vopts = exp.Options
		}
		ropts := []string{"--loop-bound", "3"}
		if exp, err := readRunExpectation(file); err == nil && slices.Contains(exp.Options, "--loop-bound") {
			ropts = exp.Options
		}
		four := []job{
			{args: append([]string{"verify", file, "--quiet"}, vopts...)},
			{args: append([]string{"run", file, "--quiet", "--json"}, ropts...)},
			{args: append([]string{"verify", file, "--quiet", "--json"}, vopts...), files: true},
			{args: append([]string{"run", file, "--quiet"}, ropts...)},
		}
		switch {
		case all:
			jobs = append(jobs, four...)
		case i%2 == 0:
			jobs = append(jobs, four[:2]...)
		default:
			jobs = append(jobs, four[2:]...)
		}
	}
	gcd := "../../engine/testdata/gcd.imp"
	jobs = append(jobs, job{args: []string{"verify", gcd, "--quiet", "--loop-bound", "10", "--all-paths"}},
		job{args: []string{"verify", gcd, "--quiet", "--json", "--loop-bound", "10", "--all-paths"}, files: true},
		job{args: []string{"run", gcd, "--quiet", "--loop-bound", "10"}},
		job{args: []string{"verify", gcd, "--quiet", "--json", "--loop-bound", "10", "--max-states", "300"}},
		job{args: []string{"verify", gcd, "--quiet", "--loop-bound", "10", "--depth-bound", "12"}},
		job{args: []string{"run", gcd, "--quiet", "--json", "--loop-bound", "10", "--max-states", "300"}})
	sem := make(chan struct{}, 2)
	var wg sync.WaitGroup
	for k, j := range jobs {
		dir := filepath.Join(t.TempDir(), strconv.Itoa(k))
		if err := os.Mkdir(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			compareWorkers(t, bin, j.args, j.files, dir, durations, workersArg)
		}()
	}
	wg.Wait()
}

// compareWorkers runs certsym with args and --workers 1, 2 and 4 (with --html and --sarif files
// in dir when files is set) and reports any difference from --workers 1.
func compareWorkers(t *testing.T, bin string, jargs []string, files bool, dir string, durations, workersArg *regexp.Regexp) {
	var first string
	for _, w := range []string{"1", "2", "4"} {
		args := append(slices.Clone(jargs), "--workers", w)
		html, sarif := filepath.Join(dir, "r.html"), filepath.Join(dir, "r.sarif")
		if files {
			args = append(args, "--html", html, "--sarif", sarif)
		}
		cmd := exec.Command(bin, args...)
		var stdout, stderr []byte
		stdout, err := cmd.Output()
		if ee, ok := err.(*exec.ExitError); ok {
			stderr = ee.Stderr
		} else if err != nil {
			t.Errorf("%v: %v", args, err)
			return
		}
		out := fmt.Sprintf("exit %d\n%s\n--- stderr\n%s", cmd.ProcessState.ExitCode(), durations.ReplaceAllString(string(stdout), "T"), stderr)
		if files {
			h, err1 := os.ReadFile(html)
			s, err2 := os.ReadFile(sarif)
			if err1 != nil || err2 != nil {
				t.Errorf("%v: %v, %v", args, err1, err2)
				return
			}
			out += "\n--- html\n" + durations.ReplaceAllString(string(h), "T") + "\n--- sarif\n" + workersArg.ReplaceAllString(string(s), "W")
		}
		if w == "1" {
			first = out
		} else if out != first {
			t.Errorf("%v: --workers %s differs from --workers 1:\n%s\n---\n%s", jargs, w, out, first)
		}
	}
}
