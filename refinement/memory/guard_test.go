package memory

import (
	"strings"
	"testing"
	"time"

	"sync/atomic"
)

// guardOf is a guard of n idle workers whose resident memory is *rss, logging into *logs and
// recording its exit reason in *exited.
func guardOf(n int, rss *int, logs *[]string, exited *string) *Guard {
	var ws []*Slot
	for i := 0; i < n; i++ {
		ws = append(ws, &Slot{Cut: &atomic.Bool{}})
	}
	return &Guard{ceilingKB: 1000, hardKB: 2000, workers: ws, sample: func() int { return *rss },
		log:      func(f string, a ...any) { *logs = append(*logs, f) },
		exit:     func(r string) { *exited = r },
		cutProgs: map[string]bool{}, overrun: map[string]bool{}}
}

func TestGuardCutsProgramsOverTheCeiling(t *testing.T) {
	rss, logs, exited := 900, []string{}, ""
	g := guardOf(2, &rss, &logs, &exited)
	now := time.Unix(1000, 0)
	g.workers[0].Flight.Store(&Flight{Prog: "a.imp", Check: "steal", Start: now})
	g.tick(now)
	if g.workers[0].Cut.Load() || len(logs) != 0 {
		t.Fatalf("under the ceiling: cut %v, logs %q", g.workers[0].Cut.Load(), logs)
	}
	rss = 1500
	g.tick(now.Add(time.Second))
	if !g.workers[0].Cut.Load() {
		t.Fatal("a program in flight over the ceiling was not cut")
	}
	if g.workers[1].Cut.Load() {
		t.Fatal("an idle worker was cut")
	}
	if len(logs) != 1 || !strings.Contains(logs[0], "memory ceiling") {
		t.Fatalf("logs %q: want one line about the ceiling", logs)
	}
	// over the ceiling but under the hard limit (the C allocator keeps what Z3 freed): cuts only
	g.tick(now.Add(time.Hour))
	if exited != "" {
		t.Fatalf("ended under the hard limit: %s", exited)
	}
	// over the hard limit: the process ends after hardAfter, not before
	rss = 2500
	g.tick(now.Add(time.Hour + time.Second))
	g.tick(now.Add(time.Hour + hardAfter))
	if exited != "" {
		t.Fatalf("ended after %v over the hard limit: %s", hardAfter-time.Second, exited)
	}
	g.tick(now.Add(time.Hour + 2*time.Second + hardAfter))
	if !strings.Contains(exited, "over the hard limit") || !strings.Contains(exited, "worker 0: a.imp, check steal") {
		t.Fatalf("exit reason %q: want the hard limit and what the workers were doing", exited)
	}
}

func TestGuardForgetsMemoryGivenBack(t *testing.T) {
	rss, logs, exited := 2500, []string{}, ""
	g := guardOf(1, &rss, &logs, &exited)
	now := time.Unix(1000, 0)
	g.workers[0].Flight.Store(&Flight{Prog: "a.imp", Check: "dist", Start: now})
	g.tick(now)
	g.tick(now.Add(time.Second))
	rss = 500 // the cut program ended and its memory was collected
	g.tick(now.Add(hardAfter / 2))
	rss = 2500
	g.workers[0].Flight.Store(&Flight{Prog: "b.imp", Check: "engine run", Start: now})
	g.workers[0].Cut.Store(false) // checker.Start of the next program
	g.tick(now.Add(hardAfter/2 + time.Second))
	g.tick(now.Add(hardAfter + 2*time.Second))
	if exited != "" {
		t.Fatalf("ended though the memory went back under the ceiling in between: %s", exited)
	}
	if !g.workers[0].Cut.Load() || len(logs) != 2 {
		t.Fatalf("the next program over the ceiling: cut %v, %d log lines (want true, 2)", g.workers[0].Cut.Load(), len(logs))
	}
}

func TestGuardLogsOverrunningChecks(t *testing.T) {
	rss, logs, exited := 10, []string{}, ""
	g := guardOf(1, &rss, &logs, &exited)
	now := time.Unix(1000, 0)
	g.workers[0].Flight.Store(&Flight{Prog: "a.imp", Check: "steal", Start: now, Deadline: now.Add(8 * time.Second)})
	g.tick(now.Add(8*time.Second + overrunAfter))
	if len(logs) != 0 {
		t.Fatalf("logged a check %v past its deadline: %q", overrunAfter, logs)
	}
	for i := 1; i <= 3; i++ {
		g.tick(now.Add(8*time.Second + overrunAfter + time.Duration(i)*time.Second))
	}
	if len(logs) != 1 || !strings.Contains(logs[0], "past the program's budget") {
		t.Fatalf("logs %q: want one line about the overrun", logs)
	}
	if g.workers[0].Cut.Load() || exited != "" {
		t.Fatal("an overrun under the ceiling cut the program or ended the process")
	}
}

func TestLimits(t *testing.T) {
	t.Setenv("REFINEMENT_MAX_RSS_MB", "100")
	if c, h := defaultLimitsKB(); c != 100<<10 || h != 200<<10 {
		t.Fatalf("REFINEMENT_MAX_RSS_MB=100: ceiling %d kB, hard limit %d kB, want 102400 and 204800", c, h)
	}
	t.Setenv("REFINEMENT_MAX_RSS_MB", "")
	c, h := defaultLimitsKB()
	total := memTotalKB()
	if c > 8<<20 || total > 0 && (c > total/2 || h > total/4*3 && h > c) || h < c {
		t.Fatalf("ceiling %d kB, hard limit %d kB on a machine of %d kB: want at most half the memory and 8 GiB, the hard limit between the ceiling and three quarters", c, h, total)
	}
}
