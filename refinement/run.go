package refinement

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime/debug"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"certsym/refinement/checker"
	"certsym/refinement/crosscheck"
	"certsym/refinement/gen"
	"certsym/refinement/memory"
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
// random choices are seeded by it), not on the scheduling. A guard bounds the process's memory
// (refinement/memory: programs in flight over the ceiling are cut and counted, and the log says what
// held the memory).
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
	// Z3 objects in time, or that sees Z3 hold more than memory.Z3Ceiling, takes the write lock
	// (the others finish their program and wait) and collects with no query running
	// (memory.QuietCollect).
	var gate sync.RWMutex
	var slots []*memory.Slot
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
		c.slot = &memory.Slot{Cut: &ch.Cut}
		if cfg.CrossCheck {
			c.xc = crosscheck.New(ch)
			ch.XC = c.xc.Hook
		}
		slots = append(slots, c.slot)
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
				drained := memory.CollectZ3(memory.CollectTimeout)
				if !drained || prover.Z3Allocated() > memory.Z3Ceiling {
					gate.Lock()
					drained = memory.QuietCollect()
					gate.Unlock()
				}
				if c.Cut.Load() { // the memory guard cut the program: give the system back what is free
					debug.FreeOSMemory()
				}
				c.Sum.Z3BytesCollected = prover.Z3Allocated()
				if d := time.Since(t1); cfg.Log != nil && (!drained || d > 2*time.Second) {
					cfg.Log("program %s: its Z3 objects took %v to collect (all collected: %v; %s)", u.Name, d.Round(time.Millisecond), drained, memory.Note())
				}
				if d := time.Since(t0); cfg.Log != nil && d > 3*time.Second {
					cfg.Log("slow program %s: %v", u.Name, d.Round(time.Millisecond))
				}
				mu.Lock()
				total.Add(c.Sum)
				done++
				if cfg.Log != nil && (c.Sum.Mismatches > 0 || done%25 == 0) {
					cfg.Log("%d/%d programs, %d mismatches so far (last: %s; %s)", done, len(units), total.Mismatches, u.Name, memory.Note())
				}
				mu.Unlock()
			}
		}()
	}
	watching, watched := make(chan struct{}), make(chan struct{})
	go func() { defer close(watched); memory.NewGuard(slots, cfg.Log).Watch(watching) }()
	defer func() { close(watching); <-watched }()
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
