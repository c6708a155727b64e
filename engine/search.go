package engine

import (
	"fmt"
	"math"

	"certsym/engine/search"
	"certsym/internal/budget"
	"certsym/internal/fault"
	"certsym/pathcond"
	"certsym/solver"
	"certsym/spec/syntax"
	"certsym/sym"
)

// Strategy is the order in which pending states are expanded.
type Strategy uint8

// The search strategies.
const (
	// BFS expands states in the order they were produced (a FIFO queue, WiSE's run, Fig. 6).
	// Every pending state is expanded after finitely many others, because each state has finitely
	// many successors and the queue is first in, first out: BFS is complete, it eventually reaches
	// every reachable state.
	BFS Strategy = iota
	// DFS expands the most recently produced state first (a LIFO stack, then branch first). It
	// gives no such guarantee: an infinite path starves every state pending beside it, which is
	// the incompleteness the WiSE paper shows on the nested-loop example. It is here to show it.
	DFS
	// Coverage prefers the pending state nearest to a statement or branch outcome that no
	// expanded state has covered yet (distance on the steps of the program's statement graph,
	// package cfg; ties broken by age, oldest first), under the fairness discipline of
	// FairnessPeriod (package search: fair.go, coverage.go).
	//
	// It is fair: the pending states are kept in age order, and every FairnessPeriod-th pick
	// (pick n with n % K == K-1) takes the oldest one. A state with j older pending states is
	// therefore expanded within K*(j+1) picks: states produced later are younger, so none of
	// them ever gets ahead of it in age order, and each K-th pick removes the oldest, whatever
	// the heuristic chose in between. Coverage is complete like BFS.
	//
	// Coq: kpick 4 h (Sched.v), fair for every heuristic h with the bound 4*(j+1)
	// (kpick4_fair_within, Schedproof.v); Theorems 3.4, 3.6 and 3.8 hold for it (sprun_complete,
	// sgfind_relative_completeness, kpick_sgverdict_T_sound_complete).
	Coverage
	// RandomPath is KLEE's random path selection: the execution tree (a node per expanded state
	// that branched, its children the successors pruning kept) is walked from the root, choosing
	// uniformly among the children that still have pending leaves, down to a pending leaf.
	// The choices come from a PRNG seeded with Options.Seed: a run is deterministic for a seed.
	// Same fairness discipline as Coverage (package search: fair.go, randompath.go).
	//
	// It is fair: the pending states are kept in age order, and every FairnessPeriod-th pick
	// takes the oldest one; a state with j older pending states is expanded within K*(j+1) picks
	// (younger states never get ahead of it; each K-th pick removes the oldest), whatever the
	// random walk chose in between.
	//
	// Coq: kpick 4 h (Sched.v), fair for every heuristic h with the bound 4*(j+1)
	// (kpick4_fair_within, Schedproof.v); Theorems 3.4, 3.6 and 3.8 hold for it (sprun_complete,
	// sgfind_relative_completeness, kpick_sgverdict_T_sound_complete).
	RandomPath
	// Generational is the concolic generational search of package concolic
	// (concolic.Generational). This engine does not run it: ParseStrategy accepts the name so
	// that one parser serves the command line, and Options.Validate (hence New) rejects it.
	Generational
)

// FairnessPeriod is K of the fair strategies (Coverage, RandomPath): every K-th pick (pick n,
// counted from 0, with n % K == K-1) expands the oldest pending state (search.Fair).
const FairnessPeriod = search.FairnessPeriod

var strategyNames = [...]string{BFS: "bfs", DFS: "dfs", Coverage: "coverage", RandomPath: "random-path", Generational: "generational"}

func (s Strategy) String() string {
	if int(s) < len(strategyNames) {
		return strategyNames[s]
	}
	return fmt.Sprintf("strategy(%d)", uint8(s))
}

// Fair reports whether the strategy is one of the K-interleaved fair heuristics.
func (s Strategy) Fair() bool { return s == Coverage || s == RandomPath }

// ParseStrategy reads a strategy name: bfs, dfs, coverage, random-path or generational.
func ParseStrategy(name string) (Strategy, error) {
	for i, n := range strategyNames {
		if n == name {
			return Strategy(i), nil
		}
	}
	return 0, fmt.Errorf("unknown strategy %q (expected bfs, dfs, coverage, random-path or generational)", name)
}

// DefaultSeed is the seed of RandomPath when Options.Seed is 0.
const DefaultSeed = 1

// Validate reports options this engine cannot run: the generational strategy (package
// concolic runs it) and unknown strategies.
func (o Options) Validate() error {
	switch {
	case o.Strategy == Generational:
		return fmt.Errorf("the generational strategy is run by package concolic (concolic.Generational), not by the symbolic engine")
	case int(o.Strategy) >= len(strategyNames):
		return fmt.Errorf("unknown strategy %v", o.Strategy)
	case o.Merge != nil && (o.Strategy != BFS || o.Burst != 0 || o.Shard.Enabled()):
		return fmt.Errorf("merging states is for the bfs strategy only, without bursts or shards (it merges the states of one depth)")
	}
	if err := o.validateBurst(); err != nil {
		return err
	}
	return o.Shard.validate(o)
}

// Options configure a run of the engine. The zero value is a breadth-first run with pruning, no
// bounds.
type Options struct {
	Strategy Strategy
	// Limits bound the run: MaxStates counts states expanded.
	budget.Limits
	// NoPrune keeps states whose path condition is unsatisfiable (WiSE without pruning).
	NoPrune bool
	// AllBugs goes on after the first confirmed bug, reporting each error once: each Fail, that is
	// each statement and kind (an assert can be violated and divide by zero: two errors).
	AllBugs bool
	// Monitor, when set, receives the run's live counters (for a progress ticker) and can
	// interrupt it; New makes one otherwise (Engine.Monitor).
	Monitor *budget.Monitor
	// Observer, when set, is told of each expansion and each pruned successor (observe.go).
	Observer Observer
	// Seed seeds the PRNG of RandomPath (0 means DefaultSeed, 1): the same program, options
	// and seed give the same run.
	Seed int64
	// NoCache turns the solver's caching layer off (solver.Options.NoCache), for comparison.
	NoCache bool
	// CrossCheck, when not nil, is the refinement layer's crosscheck of the solver-free
	// decisions and of the solver's caching layer (solver.Options.CrossCheck); the engine then
	// expands on one goroutine (the hook expects the decisions of one run in order).
	CrossCheck func(pathcond.Decision)
	// Shard, when enabled, explores only one part of a partition of the tree (shard.go).
	Shard Shard
	// Workers is the number of goroutines that expand states ahead of the breadth-first run
	// (parallel.go); 0 and 1 mean none. The run, its output and its counters are the same for
	// every value. Only breadth-first runs with pruning on and no bursts (Burst 0), of programs
	// whose expansion creates no atom (ParallelOK), use them; the others expand on one goroutine.
	Workers int
	// Burst, when positive, is the concrete fast path's bound B (burst.go): a state whose next
	// steps read no symbol is advanced by up to B steps in one pick, each step still counted as
	// one state; under bfs the stream is then the bounded-burst schedule's (fair, Theorems
	// 3.2-3.8 hold for it; see burst.go). 0: off. bfs and dfs only, not with NoPrune or Shard.
	Burst int
	// Merge makes a frontier that merges states (engine/mergesearch.New, a search.Unmerger); bfs.
	Merge func(*Engine) search.Searcher[*State]
}

// frontier holds the pending states of BFS (a FIFO queue) and DFS (a LIFO stack): the engine's
// own search.Searcher, which the workers (parallel.go) read ahead of the run and the bursts
// (burst.go) push to directly.
type frontier struct {
	items []*State
	head  int
	lifo  bool
}

func (f *frontier) len() int { return len(f.items) - f.head }

func (f *frontier) push(s *State) { f.items = append(f.items, s) }

func (f *frontier) pop() *State {
	if f.lifo {
		s := f.items[len(f.items)-1]
		f.items[len(f.items)-1] = nil
		f.items = f.items[:len(f.items)-1]
		return s
	}
	s := f.items[f.head]
	f.items[f.head] = nil
	f.head++
	// Reclaim the consumed prefix once it is half the buffer: amortized O(1) per state.
	if f.head > 1024 && f.head*2 > len(f.items) {
		n := copy(f.items, f.items[f.head:])
		if fault.Active == fault.FrontierReclaimLoss && n > 1 {
			n--
		}
		for i := n; i < len(f.items); i++ {
			f.items[i] = nil
		}
		f.items = f.items[:n]
		f.head = 0
	}
	return s
}

// Add pushes the successors in the order given (under DFS the engine hands them over last first,
// so that the first is on top).
func (f *frontier) Add(kids []*State) {
	for _, s := range kids {
		f.push(s)
	}
}

// Select pops the next state.
func (f *frontier) Select() *State { return f.pop() }

// Len is the number of pending states.
func (f *frontier) Len() int { return f.len() }

// Each calls f on every pending state.
func (f *frontier) Each(visit func(*State)) {
	for _, s := range f.items[f.head:] {
		visit(s)
	}
}

// Stats count what a run did.
type Stats struct {
	Expanded int // states taken from the frontier and expanded
	Produced int // successors produced by Expand
	Pruned   int // successors dropped as unsatisfiable
	MaxDepth int
	Solver   solver.Stats
}

// Engine is one symbolic execution of one program: its frontier, its solver and its counters.
// An Engine belongs to one goroutine.
type Engine struct {
	Prog   *syntax.Program
	opts   Options
	terms  *sym.Terms
	solver *solver.Chain
	queue  frontier // the pending states under BFS and DFS
	// searcher is the order of expansion: &queue under BFS and DFS, a fair scheduler of package
	// search under Coverage and RandomPath (queue is then unused).
	searcher search.Searcher[*State]
	buf      []*State
	meter    *budget.Meter
	// Stats is updated as the run goes.
	Stats Stats
	// stopped is the reason the run was stopped by a bound, or "".
	stopped   string
	mon       *budget.Monitor
	bugsSoFar int
	// unknownErrors are the error states whose path condition the solver could not decide.
	unknownErrors []*State
	reported      map[*syntax.Fail]bool
	shard         *sharder // Options.Shard, or nil (shard.go)
	workers       int      // the goroutines that expand ahead (parallel.go), 1 when none
	cur, ahead    *batch   // the successors they computed for the states being taken, and next
	batches       int      // the batches launched (for tests and benchmarks)
	burst         *burster // Options.Burst's concrete machine, made at its first use (burst.go)
	closed        bool     // Close was called: the stream has ended
}

// New creates an engine for prog, its frontier holding the initial state ⟨true, id, p⟩. It panics
// on options that Validate rejects (the generational strategy: see package concolic).
func New(prog *syntax.Program, opts Options) *Engine {
	if err := opts.Validate(); err != nil {
		panic("engine.New: " + err.Error())
	}
	e := &Engine{Prog: prog, opts: opts, terms: sym.NewTermsFor(prog),
		solver:   solver.New(prog, solver.Options{NoCache: opts.NoCache, CrossCheck: opts.CrossCheck}),
		reported: map[*syntax.Fail]bool{}}
	switch opts.Strategy {
	case Coverage:
		e.searcher = search.NewCoverage[*State](prog)
	case RandomPath:
		seed := opts.Seed
		if seed == 0 {
			seed = DefaultSeed
		}
		e.searcher = search.NewRandomPath[*State](seed)
	default:
		e.queue.lifo = opts.Strategy == DFS
		e.searcher = &e.queue
	}
	if opts.Merge != nil {
		e.searcher = opts.Merge(e)
	}
	e.workers = 1
	if opts.Workers > 1 && opts.Strategy == BFS && opts.Burst == 0 && !opts.NoPrune && ParallelOK(prog) && opts.CrossCheck == nil && opts.Merge == nil {
		e.workers = opts.Workers
	}
	e.meter = budget.NewMeter(opts.Limits)
	e.solver.SetLimits(opts.Limits, e.meter.Deadline())
	e.mon = opts.Monitor
	if opts.Shard.Enabled() {
		e.shard = newSharder(opts.Shard, opts)
	}
	if e.mon == nil {
		e.mon = budget.NewMonitor()
	}
	e.solver.SetMonitor(e.mon)
	e.searcher.Add([]*State{e.Initial()})
	return e
}

// Initial is the initial symbolic state ⟨true, id, p⟩ of the program: every variable is its own
// symbol.
func (e *Engine) Initial() *State {
	return &State{PC: e.solver.Root(e.Prog.Slots()), Store: e.terms.Syms(), Prog: &Kont{S: e.Prog.Body}}
}

// Solver returns the engine's solver.
func (e *Engine) Solver() *solver.Chain { return e.solver }

// Close releases the engine's solver (solver.Chain.Close); the states already taken and the
// counters stay readable, no state may be taken after it. The engine closes itself when the run
// stream ends (NextState returns no state); an owner that leaves the stream before its end (a
// FindBugs that returns at the first bug, an engine used for its Expand and Check) closes it.
func (e *Engine) Close() {
	if !e.closed {
		e.closed = true
		e.solver.Close()
	}
}

// Pending returns the number of states waiting to be expanded.
func (e *Engine) Pending() int { return e.pending() }

func (e *Engine) pending() int { return e.searcher.Len() }

// ExploredDepth returns the depth up to which the run is exhaustive: every state of that depth
// or less that pruning kept has been expanded, whatever the strategy (each was produced by an
// expanded state of the depth above, and none is pending). It is the least depth of the pending
// states minus one, or math.MaxInt when none is pending. It visits every pending state.
func (e *Engine) ExploredDepth() int {
	min := math.MaxInt
	visit := func(s *State) {
		if s.Depth-1 < min {
			min = s.Depth - 1
		}
	}
	e.searcher.Each(visit)
	return min
}

// Monitor returns the monitor of the run: its live counters, and Interrupt.
func (e *Engine) Monitor() *budget.Monitor { return e.mon }

// Stopped returns why the run was stopped by a bound or an interrupt, or "".
func (e *Engine) Stopped() string { return e.stopped }

// NextState is one element of the run stream (Fig. 6): it takes the next pending state, expands
// it, queues the successors that pruning keeps, and returns it. ok is false when no state is
// pending (the exploration is finished) or a bound stopped the run (Stopped says which).
//
// Coq: grun (Engine.v), the pruned BFS stream prun over tqueue (Prune.v), where a successor is
// dropped only when the oracle answers "unsatisfiable" (prune_oracle; --no-prune is the oracle
// never). Covered by Lemma 3.1 (bfs_fair, tqueue_fair, prun_fair) and Theorems 3.2 prun_sound,
// 3.3 prun_sound_termination and 3.4 prun_complete (Runproof.v, Pruneproof.v), restated for grun
// by grun_sound and grun_complete (Engineproof.v). A bound that stops the run is a prefix of the
// stream. Under a fair strategy (Coverage, RandomPath) the state taken is the K-interleaved
// scheduler's choice (search.Fair) instead of the queue's head; Coq: the scheduled streams sprun and
// sgfind (Sched.v) with the scheduler kpick 4 h, fair by kpick4_fair_within, in place of bfs_fair:
// Lemma 3.1 sprun_successors, Theorems 3.2 sprun_sound, 3.3 sprun_sound_termination and 3.4
// sprun_complete (Schedproof.v); with the scheduler bfs_pick they are prun and gfind (sprun_bfs,
// sgfind_bfs).
func (e *Engine) NextState() (st *State, ok bool) {
	if e.pending() == 0 || e.stopped != "" {
		e.Close()
		return nil, false
	}
	if reason := e.bound(); reason != "" {
		e.stopped = reason
		e.Close()
		return nil, false
	}
	st = e.searcher.Select()
	if e.opts.Burst > 0 && e.burstRun(st) { // the concrete fast path (burst.go)
		return st, true
	}
	e.Stats.Expanded++
	e.mon.SetStates(e.Stats.Expanded)
	if st.Depth > e.Stats.MaxDepth {
		e.Stats.MaxDepth = st.Depth
		e.mon.SetDepth(st.Depth)
	}
	e.buf = e.expandPicked(st, e.buf[:0]) // Expand, or its successors computed ahead (parallel.go)
	e.Stats.Produced += len(e.buf)
	if e.shard != nil { // the successors of the other shards are dropped before any query
		e.buf = e.shard.split(st, e.buf)
	}
	if e.opts.Observer != nil {
		e.opts.Observer.Expanded(st, e.buf)
	}
	if e.queue.lifo { // first successor on top
		for i, j := 0, len(e.buf)-1; i < j; i, j = i+1, j-1 {
			e.buf[i], e.buf[j] = e.buf[j], e.buf[i]
		}
	}
	kept := 0
	for _, s := range e.buf {
		if !e.opts.NoPrune && (e.solver.Check(s.PC) == pathcond.Unsat || (fault.Active == fault.PruneOnUnknown && s.PC.Status == pathcond.Unknown)) {
			e.Stats.Pruned++
			if e.opts.Observer != nil {
				e.opts.Observer.Pruned(s)
			}
			continue
		}
		e.buf[kept] = s
		kept++
	}
	e.searcher.Add(e.buf[:kept])
	clear(e.buf)
	e.mon.SetPending(e.pending())
	return st, true
}

// bound returns the reason to stop now, or "": an interrupt, the state bound, and once in 256
// states the time and memory bounds (budget.Meter).
func (e *Engine) bound() string {
	n := e.Stats.Expanded
	if e.mon.Interrupted() {
		return "interrupted"
	}
	if e.opts.MaxStates > 0 && n >= e.opts.MaxStates {
		return fmt.Sprintf("state bound reached (%d states expanded, %d pending)", n, e.pending())
	}
	if fault.Active == fault.EarlyStop && n == 40 {
		return fmt.Sprintf("time bound reached (%v, %d states expanded, %d pending)", e.opts.Timeout, n, e.pending())
	}
	if n&255 != 0 {
		return ""
	}
	switch reached, used := e.meter.Poll(n); reached {
	case budget.TimeReached:
		return fmt.Sprintf("time bound reached (%v, %d states expanded, %d pending)", e.opts.Timeout, n, e.pending())
	case budget.MemoryReached:
		return fmt.Sprintf("memory bound reached (heap %d MiB > %d MiB, %d states expanded, %d pending)",
			used>>20, e.opts.MaxMemory>>20, n, e.pending())
	}
	return ""
}

// Names returns the symbol (and variable) names.
func (e *Engine) Names() []string { return e.terms.Names() }
