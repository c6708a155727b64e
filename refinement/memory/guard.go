package memory

import (
	"fmt"
	"os"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// Flight is what a worker is doing, as the guard sees it: the program, its check, when the check
// started and the program's deadline (zero: no budget).
type Flight struct {
	Prog, Check     string
	Start, Deadline time.Time
}

// A Slot is one worker as the guard sees it: what it is doing (nil: between programs), and the
// flag that cuts its program (the worker's checker.Checker.Cut).
type Slot struct {
	Flight atomic.Pointer[Flight]
	Cut    *atomic.Bool
}

// Guard bounds the memory of a run of the layer and says what held it. Every tick it reads the
// process's resident memory; over the ceiling, it cuts the programs in flight (their checks end
// as if their budgets were spent: checker.Checker.Cut) and logs, once per program, which check
// was running, what the process held (Note) and, the first time, every goroutine's stack.
// Memory that stays over the hard limit (twice the ceiling, at most three quarters of the
// machine's memory) for hardAfter after a cut is memory no check gives back when it ends (a
// computation that does not poll its budget): the guard then ends the process with a stated
// reason and the stacks, rather than leave it to the kernel's out-of-memory killer, which ends
// it without a word. Between the ceiling and the hard limit it only cuts: the C allocator need
// not give back to the system what Z3 frees. It also logs, once per program, a check still
// running overrunAfter past its program's deadline, with the stacks.
type Guard struct {
	ceilingKB, hardKB int
	workers           []*Slot
	sample            func() int // resident memory, kB
	log               func(format string, args ...any)
	exit              func(reason string) // ends the process (os.Exit in a run)

	mu         sync.Mutex
	cutProgs   map[string]bool // the programs cut so far (logged once each)
	overrun    map[string]bool // the programs logged as overrunning
	stacksDone bool
	overSince  time.Time // since when the memory has been over the hard limit with a program cut (zero: not)
}

// The guard's tick, the grace of memory over the hard limit after a cut, and how far past its
// deadline a check runs before the guard logs it.
const (
	guardTick    = 250 * time.Millisecond
	hardAfter    = 30 * time.Second
	overrunAfter = 60 * time.Second
)

// defaultLimitsKB are the run's memory ceiling, REFINEMENT_MAX_RSS_MB when set, else half the
// machine's memory and at most 8 GiB (a normal run peaks between 1.4 and 2.7 GB), and its hard
// limit, twice the ceiling and at most three quarters of the machine's memory.
func defaultLimitsKB() (ceiling, hard int) {
	total := memTotalKB()
	ceiling = 8 << 20
	if total > 0 && total/2 < ceiling {
		ceiling = total / 2
	}
	if v := os.Getenv("REFINEMENT_MAX_RSS_MB"); v != "" {
		if n, err := strconv.Atoi(v); err == nil && n > 0 {
			ceiling = n << 10
		}
	}
	hard = 2 * ceiling
	if total > 0 && total/4*3 < hard {
		hard = max(ceiling, total/4*3)
	}
	return ceiling, hard
}

// memTotalKB is the machine's memory (kB) from /proc/meminfo, or -1.
func memTotalKB() int { return procValue("/proc/meminfo", "MemTotal:") }

// NewGuard is the guard of a run's workers, reading the process's resident memory and ending
// the process with exit status 3.
func NewGuard(workers []*Slot, log func(string, ...any)) *Guard {
	if log == nil {
		log = func(string, ...any) {}
	}
	ceiling, hard := defaultLimitsKB()
	return &Guard{ceilingKB: ceiling, hardKB: hard, workers: workers, log: log,
		sample: func() int { return procValue("/proc/self/status", "VmRSS:") },
		exit: func(reason string) {
			fmt.Fprintf(os.Stderr, "refinement: %s\n", reason)
			os.Exit(3)
		},
		cutProgs: map[string]bool{}, overrun: map[string]bool{}}
}

// Watch ticks until done is closed.
func (g *Guard) Watch(done <-chan struct{}) {
	t := time.NewTicker(guardTick)
	defer t.Stop()
	for {
		select {
		case <-done:
			return
		case now := <-t.C:
			g.tick(now)
		}
	}
}

// tick is one look at the memory and the workers.
func (g *Guard) tick(now time.Time) {
	g.mu.Lock()
	defer g.mu.Unlock()
	rss := g.sample()
	for _, w := range g.workers {
		f := w.Flight.Load()
		if f == nil {
			continue
		}
		if !f.Deadline.IsZero() && now.Sub(f.Deadline) > overrunAfter && !g.overrun[f.Prog] {
			g.overrun[f.Prog] = true
			g.log("program %s: check %s still running %v past the program's budget (in it for %v; %s)\n%s",
				f.Prog, f.Check, now.Sub(f.Deadline).Round(time.Second), now.Sub(f.Start).Round(time.Second), Note(), stacks())
		}
		if rss > g.ceilingKB && !w.Cut.Load() {
			w.Cut.Store(true)
			if !g.cutProgs[f.Prog] {
				g.cutProgs[f.Prog] = true
				st := ""
				if !g.stacksDone {
					g.stacksDone, st = true, "\n"+stacks()
				}
				g.log("memory ceiling: resident %d MB over %d MB; program %s cut in check %s (in it for %v; %s)%s",
					rss>>10, g.ceilingKB>>10, f.Prog, f.Check, now.Sub(f.Start).Round(time.Millisecond), Note(), st)
			}
		}
	}
	switch {
	case rss <= g.hardKB || len(g.cutProgs) == 0:
		g.overSince = time.Time{}
	case g.overSince.IsZero():
		g.overSince = now
	case now.Sub(g.overSince) >= hardAfter:
		g.exit(fmt.Sprintf("memory ceiling: resident %d MB, over the hard limit of %d MB (the ceiling %d MB) for %v after programs were cut; %s; what the workers were doing: %s\n%s",
			rss>>10, g.hardKB>>10, g.ceilingKB>>10, hardAfter, Note(), g.doing(), stacks()))
	}
}

// doing names each worker's program and check.
func (g *Guard) doing() string {
	var parts []string
	for i, w := range g.workers {
		if f := w.Flight.Load(); f != nil {
			parts = append(parts, fmt.Sprintf("worker %d: %s, check %s", i, f.Prog, f.Check))
		} else {
			parts = append(parts, fmt.Sprintf("worker %d: between programs", i))
		}
	}
	return strings.Join(parts, "; ")
}

// stacks is every goroutine's stack, at most 256 KiB of it.
func stacks() string {
	buf := make([]byte, 256<<10)
	return string(buf[:runtime.Stack(buf, true)])
}
