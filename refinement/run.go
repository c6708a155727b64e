package refinement

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"certsym/internal/z3worker"
	"certsym/refinement/checker"
	"certsym/refinement/crosscheck"
	"certsym/refinement/gen"
	"certsym/refinement/prover"
	"certsym/spec/syntax"
	"certsym/spec/syntax/parser"
)

// LoadFiles parses the IMP files matching the patterns (sorted, each once) into units; the
// reference runs the parsed tree (there is no other).
func LoadFiles(patterns ...string) ([]*Unit, error) {
	seen := map[string]bool{}
	var files []string
	for _, p := range patterns {
		m, err := filepath.Glob(p)
		if err != nil {
			return nil, fmt.Errorf("pattern %s: %w", p, err)
		}
		for _, f := range m {
			if !seen[f] {
				seen[f] = true
				files = append(files, f)
			}
		}
	}
	sort.Strings(files)
	var out []*Unit
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		p, err := parser.Parse(f, src)
		if err != nil {
			return nil, fmt.Errorf("parsing %s: %w", f, err)
		}
		out = append(out, &Unit{Name: f, Seed: -1, Prog: p, RefBody: p.Body, Text: string(src)})
	}
	return out, nil
}

// GeneratedUnit generates the program of seed, prints it, and parses the text for the engine;
// the reference gets the generated tree. A text that does not parse is an error (of the printer
// or the parser) that names the seed.
func GeneratedUnit(seed int64, cfg gen.Config) (*Unit, error) {
	g, err := gen.Generate(seed, cfg)
	if err != nil {
		return nil, err
	}
	name := fmt.Sprintf("gen-%d", seed)
	p, err := parser.Parse(name, []byte(g.Text))
	if err != nil {
		return nil, fmt.Errorf("generated program of seed %d does not parse: %w\n%s", seed, err, g.Text)
	}
	g.FixArrays(p)
	u := &Unit{Name: name, Seed: seed, Prog: p, RefBody: g.AST, Text: g.Text, Long: g.Long}
	// The reference's variables are the parsed program's (the same names); a parser that reads
	// other variables than the generated tree has is a mismatch of the unit.
	if a, b := strings.Join(syntax.VarsOf(g.AST), ","), strings.Join(p.Vars, ","); a != b {
		u.ParseMismatch = fmt.Sprintf("the generated program's variables are %s, the parsed program's %s", a, b)
	}
	return u, nil
}

// GeneratedUnits returns the n programs of seeds seed, seed+1, ..., seed+n-1 (so SEED=s N=1
// reproduces the program of seed s alone).
func GeneratedUnits(seed int64, n int, cfg gen.Config) ([]*Unit, error) {
	var out []*Unit
	for i := 0; i < n; i++ {
		u, err := GeneratedUnit(seed+int64(i), cfg)
		if err != nil {
			return nil, err
		}
		out = append(out, u)
	}
	return out, nil
}

// Run checks the units with cfg.Workers workers (each with its own certsym-ref process and Z3
// context) and returns the summary. The checks of each unit depend only on the unit (their
// random choices are seeded by it), not on the scheduling.
func Run(cfg Config, units []*Unit) (*Summary, error) {
	workers := cfg.Workers
	if workers < 1 {
		workers = 1
	}
	if workers > len(units) {
		workers = len(units)
	}
	total := &Summary{ByCheck: map[string]int{}}
	jobs := make(chan *Unit)
	var mu sync.Mutex
	var wg sync.WaitGroup
	var startErr error
	done := 0
	var stop atomic.Bool
	// gate: a worker checks a program under the read lock; a worker that could not collect its
	// Z3 objects in time, or that sees Z3 hold more than z3Ceiling, takes the write lock (the
	// others finish their program and wait) and collects with no query running (quietCollect).
	var gate sync.RWMutex
	for w := 0; w < workers; w++ {
		ch, err := checker.New(cfg, int64(w))
		if err != nil {
			startErr = err
			break
		}
		if cfg.StopAtMismatch {
			ch.Stop = &stop
		}
		c := &unitChecker{Checker: ch}
		if cfg.CrossCheck {
			c.xc = crosscheck.New(ch)
			ch.XC = c.xc.Hook
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer c.Ref.Close()
			for u := range jobs {
				t0 := time.Now()
				gate.RLock()
				c.CheckUnit(u)
				c.Flush()
				gate.RUnlock()
				c.Sum.Z3Bytes = prover.Z3Allocated()
				t1 := time.Now()
				drained := collectZ3(collectTimeout)
				if !drained || prover.Z3Allocated() > z3Ceiling {
					gate.Lock()
					drained = quietCollect()
					gate.Unlock()
				}
				c.Sum.Z3BytesCollected = prover.Z3Allocated()
				if d := time.Since(t1); cfg.Log != nil && (!drained || d > 2*time.Second) {
					cfg.Log("program %s: its Z3 objects took %v to collect (all collected: %v; %s)", u.Name, d.Round(time.Millisecond), drained, memoryNote())
				}
				if d := time.Since(t0); cfg.Log != nil && d > 3*time.Second {
					cfg.Log("slow program %s: %v", u.Name, d.Round(time.Millisecond))
				}
				mu.Lock()
				total.Add(c.Sum)
				done++
				if cfg.Log != nil && (c.Sum.Mismatches > 0 || done%25 == 0) {
					cfg.Log("%d/%d programs, %d mismatches so far (last: %s; %s)", done, len(units), total.Mismatches, u.Name, memoryNote())
				}
				mu.Unlock()
			}
		}()
	}
	if startErr == nil {
		for _, u := range units {
			mu.Lock()
			stop := cfg.StopAtMismatch && total.Mismatches > 0
			mu.Unlock()
			if stop {
				break
			}
			jobs <- u
		}
	}
	close(jobs)
	wg.Wait()
	if startErr != nil {
		return nil, startErr
	}
	return total, nil
}

// collectTimeout bounds the wait of collectZ3 after a program while the other workers go on.
const collectTimeout = 30 * time.Second

// z3Ceiling is the Z3 memory (its own estimate) above which a worker collects with the other
// workers paused.
const z3Ceiling = 512 << 20

// quietCollect collects as collectZ3 while no worker checks a program (the caller holds the
// gate), so no query holds a context's lock and the finalizers cannot wait on one: the
// collection then ends unless a finalizer itself is stuck, which quietTimeout bounds.
func quietCollect() bool { return collectZ3(quietTimeout) }

// memoryNote says what the process holds: its resident memory, the Go heap and what the Go
// runtime keeps from the system, its threads (each cgo call Z3 is answering holds one, and the C
// allocator keeps memory per thread), Z3's estimate of its own allocations, and the abandoned Z3
// queries still running (internal/z3worker).
func memoryNote() string {
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	rss, threads := procStatus()
	return fmt.Sprintf("resident %d MB, Go heap %d MB (%d MB kept from the system, %d threads), Z3 %d MB, %d abandoned Z3 queries running",
		rss>>10, ms.HeapAlloc>>20, (ms.HeapSys-ms.HeapReleased)>>20, threads, prover.Z3Allocated()>>20, z3worker.Abandoned())
}

// procStatus reads the process's resident memory (kB) and thread count from /proc/self/status
// (-1 for what it cannot read).
func procStatus() (rssKB, threads int) {
	rssKB, threads = -1, -1
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			if n, err := strconv.Atoi(strings.TrimSuffix(strings.TrimSpace(v), " kB")); err == nil {
				rssKB = n
			}
		} else if v, ok := strings.CutPrefix(line, "Threads:"); ok {
			if n, err := strconv.Atoi(strings.TrimSpace(v)); err == nil {
				threads = n
			}
		}
	}
	return
}

// quietTimeout bounds quietCollect.
const quietTimeout = 5 * time.Minute

// collectZ3 waits until the Z3 objects the program just checked left behind are freed, at most
// timeout (false when the time ran out). Every engine, bounded interpreter and verify run of
// the layer makes a Z3 context of its own, which go-z3 frees only by finalizers, in chains: the
// finalizers of a context's terms, models and solvers must run before the context becomes
// unreachable and its own finalizer deletes it, one garbage collection later. All of them run
// on the runtime's single finalizer goroutine, which waits on a context's lock while a solver
// of that context is answering (a query of the other worker's, up to its time bound): a
// backlog of finalizers keeps every context it holds alive, with all its memory, while the
// workers go on making new ones. So each worker, before its next program, collects three times
// (terms, then solvers, then contexts) and waits each time for the finalizers queued so far to
// have run. When that wait runs out (on a loaded machine the backlog can outgrow it, and the
// memory with it), or Z3 holds more than z3Ceiling, the worker pauses the others and collects
// alone (quietCollect): the Z3 memory the run holds is then bounded by what the programs in
// flight use.
func collectZ3(timeout time.Duration) bool {
	deadline := time.Now().Add(timeout)
	for round := 0; round < 3; round++ {
		if !finalizerBarrier(deadline) {
			return false
		}
	}
	return true
}

// sentinel is an object whose finalizer says that the finalizers queued before it have run (it
// holds a pointer, so the runtime's tiny allocator, which would batch it with other objects,
// never places it).
type sentinel struct{ _ *int }

// finalizerBarrier collects garbage and waits, until deadline, for the finalizers that
// collection queued to have run. runtime.GC returns once the collection has swept, so the
// finalizers it queues are all queued by then. The finalizer goroutine takes the finalizers
// queued so far as one batch and runs it in no fixed order: a sentinel queued by the next
// collection may share a batch with some of them and run first; a second sentinel, made once
// the first has run, is queued in a later batch, which the goroutine takes only when the
// first sentinel's batch, and so every finalizer queued before it, is done.
func finalizerBarrier(deadline time.Time) bool {
	runtime.GC()
	for i := 0; i < 2; i++ {
		done := make(chan struct{})
		runtime.SetFinalizer(&sentinel{}, func(*sentinel) { close(done) })
		runtime.GC()
		select {
		case <-done:
		case <-time.After(time.Until(deadline)):
			return false
		}
	}
	return true
}
