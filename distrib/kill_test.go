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

// killSeeds are random programs of the refinement layer's generator that split into 4 to 24 jobs
// of 3 states, and finish within a fraction of a second (killCases fails when a change of the
// generator makes one of them larger: choose others then).
var killSeeds = []int64{9102, 9113, 9114, 9128, 9134, 9139, 9140}

// killCases are the kill test's programs, each run once undisturbed.
func killCases(t *testing.T, bin, url string, w *pool) []killCase {
	var cases []killCase
	var progs []program
	for _, s := range killSeeds {
		progs = append(progs, randomPrograms(t, s, 1)...)
	}
	progs = append(progs, program{filepath.Join(corpus.Root(), "testdata", "all_bugs_three_kinds_in_order.imp"), []string{"--all-bugs"}})
	for _, p := range progs {
		args := append([]string{"run", p.file, "--distributed", url, "--split", "3", "--lease", "200ms", "--timeout", "10s"}, p.opts...)
		start := time.Now()
		out, stderr, code := runCertsym(t, bin, args...)
		took := time.Since(start)
		c := killCase{p: p, out: normalize(out), code: code, jobs: jobsOf(stderr), took: took, distArgs: args}
		n := 0
		fmt.Sscan(c.jobs, &n)
		if n < 4 || n > 24 || strings.Contains(out, "bound reached") {
			t.Fatalf("%s: %d jobs (want 4 to 24: has the generator changed?), %s", filepath.Base(p.file), n, out)
		}
		cases = append(cases, c)
	}
	return cases
}

// killLoop runs the cases' distributed runs again and again on 2 workers, and in each kills a
// worker with SIGKILL at up to two random moments of the run (another takes its place each
// time); it returns the
// first run whose output, exit status or number of jobs differs from the undisturbed run's, or
// "" after runs runs.
func killLoop(t *testing.T, bin, url string, w *pool, cases []killCase, runs int, seed int64) (string, int) {
	r := rand.New(rand.NewSource(seed))
	for i := 0; i < runs; i++ {
		c := cases[i%len(cases)]
		args := c.distArgs // without --quiet: the coordinator prints the number of jobs on stderr
		// Up to two kills, each after a random delay of up to the undisturbed run's time.
		var delays []time.Duration
		done := make(chan struct{})
		rk := rand.New(rand.NewSource(r.Int63()))
		killed := make(chan []time.Duration, 1)
		go func() {
			defer func() { killed <- delays }()
			for k := 0; k < 2; k++ {
				d := time.Duration(rk.Int63n(int64(c.took) + int64(50*time.Millisecond)))
				select {
				case <-time.After(d):
					w.kill(rk)
					delays = append(delays, d)
				case <-done:
					return
				}
			}
		}()
		out, stderr, code := runCertsym(t, bin, args...)
		close(done)
		delay := <-killed
		jobs := jobsOf(stderr)
		switch {
		case code != c.code || normalize(out) != c.out:
			return fmt.Sprintf("run %d (%s, workers killed after %v): exit %d, want %d; %s\n%s%s", i, filepath.Base(c.p.file), delay, code, c.code,
				firstDiff(c.out, normalize(out)), out, stderr), i + 1
		case jobs != c.jobs:
			return fmt.Sprintf("run %d (%s, workers killed after %v): %s jobs accounted for, the undisturbed run %s", i, filepath.Base(c.p.file), delay, jobs, c.jobs), i + 1
		}
	}
	return "", runs
}

// TestDistributedKill kills a worker with SIGKILL at a random moment of each of 50 distributed
// runs (300 with CERTSYM_DIST_LONG=1) of small programs split into jobs of 3 states, with a
// lease of 200 ms, and requires every run to print what the undisturbed run prints, byte for byte,
// from the same number of jobs: the jobs the killed worker held come back when their lease
// expires, and the jobs it had stored are not counted twice.
func TestDistributedKill(t *testing.T) {
	if testing.Short() {
		t.Skip("short mode: make check runs it")
	}
	t.Parallel() // its runs mostly wait for leases
	url := startNATS(t)
	bin := certsym(t, "")
	w := newPool(t, bin, url)
	w.start(2)
	start := time.Now()
	cases := killCases(t, bin, url, w)
	var names []string
	for _, c := range cases {
		names = append(names, filepath.Base(c.p.file)+" ("+c.jobs+" jobs)")
	}
	t.Logf("%d programs chosen in %v: %s", len(cases), time.Since(start).Round(time.Millisecond), strings.Join(names, ", "))
	if msg, n := killLoop(t, bin, url, w, cases, killRuns(), 1); msg != "" {
		t.Fatal(msg)
	} else {
		t.Logf("%d runs of %d programs, each with a worker killed, all identical to the undisturbed runs", n, len(cases))
	}
}
