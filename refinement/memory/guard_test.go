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
	return &Guard{ceilingKB: 1000, workers: ws, sample: func() int { return *rss },
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
	// the memory stays over the ceiling: the process ends after hardAfter, not before
	g.tick(now.Add(2 * time.Second))
	g.tick(now.Add(hardAfter))
	if exited != "" {
		t.Fatalf("ended after %v over the ceiling: %s", hardAfter-time.Second, exited)
	}
	g.tick(now.Add(2*time.Second + hardAfter))
	if !strings.Contains(exited, "over the ceiling") || !strings.Contains(exited, "worker 0: a.imp, check steal") {
		t.Fatalf("exit reason %q: want the ceiling and what the workers were doing", exited)
	}
}

func TestGuardForgetsMemoryGivenBack(t *testing.T) {
	rss, logs, exited := 1500, []string{}, ""
	g := guardOf(1, &rss, &logs, &exited)
	now := time.Unix(1000, 0)
	g.workers[0].Flight.Store(&Flight{Prog: "a.imp", Check: "dist", Start: now})
	g.tick(now)
	g.tick(now.Add(time.Second))
	rss = 500 // the cut program ended and its memory was collected
	g.tick(now.Add(hardAfter / 2))
	rss = 1500
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
