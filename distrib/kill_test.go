package distrib_test

import (
	"certsym/internal/corpus"
	"fmt"
	"math/rand"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// killRuns is the number of runs of the kill test in make check (CERTSYM_DIST_LONG=1: 300).
func killRuns() int {
	if long() {
		return 300
	}
	return 50
}

// killCase is a program of the kill test and its undisturbed distributed run.
type killCase struct {
	p        program
	out      string // normalized
	code     int
	jobs     string
	took     time.Duration
	distArgs []string
}

// killCases picks small programs that split into several jobs, and runs each once undisturbed.
func killCases(t *testing.T, bin, url string, w *pool) []killCase {
	var cases []killCase
	progs := append(randomPrograms(t, 9100, 40), program{filepath.Join(corpus.Root(), "testdata", "all_bugs_three_kinds_in_order.imp"), []string{"--all-bugs"}})
	for _, p := range progs {
		single, _, _ := runCertsym(t, bin, append([]string{"run", p.file, "--quiet"}, p.opts...)...)
		if strings.Contains(single, "bound reached") {
			continue
		}
		args := append([]string{"run", p.file, "--distributed", url, "--split", "3", "--lease", "300ms", "--timeout", "20s"}, p.opts...)
		start := time.Now()
		out, stderr, code := runCertsym(t, bin, args...)
		took := time.Since(start)
		jobs := jobsOf(stderr)
		c := killCase{p: p, out: normalize(out), code: code, jobs: jobs, took: took, distArgs: args}
		n := 0
		fmt.Sscan(jobs, &n)
		if n >= 4 {
			cases = append(cases, c)
		}
		if len(cases) == 8 {
			break
		}
	}
	if len(cases) < 4 {
		t.Fatalf("only %d programs split into 4 jobs or more", len(cases))
	}
	return cases
}

// killLoop runs the cases' distributed runs again and again on 2 workers, and in each kills a
// worker with SIGKILL at a random moment of the run (another takes its place); it returns the
// first run whose output, exit status or number of jobs differs from the undisturbed run's, or
// "" after runs runs.
func killLoop(t *testing.T, bin, url string, w *pool, cases []killCase, runs int, seed int64) (string, int) {
	r := rand.New(rand.NewSource(seed))
	for i := 0; i < runs; i++ {
		c := cases[i%len(cases)]
		args := c.distArgs // without --quiet: the coordinator prints the number of jobs on stderr
		delay := time.Duration(r.Int63n(int64(c.took) + int64(50*time.Millisecond)))
		done := make(chan struct{})
		go func() {
			select {
			case <-time.After(delay):
				w.kill(r)
			case <-done:
			}
		}()
		out, stderr, code := runCertsym(t, bin, args...)
		close(done)
		jobs := jobsOf(stderr)
		switch {
		case code != c.code || normalize(out) != c.out:
			return fmt.Sprintf("run %d (%s, worker killed after %v): exit %d, want %d; %s\n%s%s", i, filepath.Base(c.p.file), delay, code, c.code,
				firstDiff(c.out, normalize(out)), out, stderr), i + 1
		case jobs != c.jobs:
			return fmt.Sprintf("run %d (%s, worker killed after %v): %s jobs accounted for, the undisturbed run %s", i, filepath.Base(c.p.file), delay, jobs, c.jobs), i + 1
		}
	}
	return "", runs
}

// TestDistributedKill kills a worker with SIGKILL at a random moment of each of 50 distributed
// runs (300 with CERTSYM_DIST_LONG=1) of small programs split into jobs of 3 states, with a
// lease of 300 ms, and requires every run to print what the undisturbed run prints, byte for byte,
// from the same number of jobs: the jobs the killed worker held come back when their lease
// expires, and the jobs it had stored are not counted twice.
func TestDistributedKill(t *testing.T) {
	url := startNATS(t)
	bin := certsym(t, "")
	w := newPool(t, bin, url)
	w.start(2)
	cases := killCases(t, bin, url, w)
	if msg, n := killLoop(t, bin, url, w, cases, killRuns(), 1); msg != "" {
		t.Fatal(msg)
	} else {
		t.Logf("%d runs of %d programs, each with a worker killed, all identical to the undisturbed runs", n, len(cases))
	}
}
