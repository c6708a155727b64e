package engine

import (
	"fmt"

	"certsym/internal/budget"
	"certsym/internal/fault"
	"certsym/spec"
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
)

func (s Strategy) String() string { return [...]string{"bfs", "dfs"}[s] }

// ParseStrategy reads a strategy name.
func ParseStrategy(name string) (Strategy, error) {
	switch name {
	case "bfs":
		return BFS, nil
	case "dfs":
		return DFS, nil
	}
	return 0, fmt.Errorf("unknown strategy %q (expected bfs or dfs)", name)
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
	// NoCache turns the solver's caching layers off (sym.Solver.NoCache), for comparison.
	NoCache bool
}

// frontier holds the pending states.
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

// Stats count what a run did.
type Stats struct {
	Expanded int // states taken from the frontier and expanded
	Produced int // successors produced by Expand
	Pruned   int // successors dropped as unsatisfiable
	MaxDepth int
	Solver   sym.SolverStats
}

// Engine is one symbolic execution of one program: its frontier, its solver and its counters.
// An Engine belongs to one goroutine.
type Engine struct {
	Prog   *spec.Program
	opts   Options
	terms  *sym.Terms
	solver *sym.Solver
	queue  frontier
	buf    []*State
	meter  *budget.Meter
	// Stats is updated as the run goes.
	Stats Stats
	// stopped is the reason the run was stopped by a bound, or "".
	stopped   string
	mon       *budget.Monitor
	bugsSoFar int
	// unknownErrors are the error states whose path condition the solver could not decide.
	unknownErrors []*State
	reported      map[*spec.Fail]bool
}

// New creates an engine for prog, its frontier holding the initial state ⟨true, id, p⟩.
func New(prog *spec.Program, opts Options) *Engine {
	e := &Engine{Prog: prog, opts: opts, terms: sym.NewTerms(prog.Vars), solver: sym.NewSolver(prog.Vars),
		reported: map[*spec.Fail]bool{}}
	e.queue.lifo = opts.Strategy == DFS
	e.solver.NoCache = opts.NoCache
	e.meter = budget.NewMeter(opts.Limits)
	e.solver.SetLimits(opts.Limits, e.meter.Deadline())
	e.mon = opts.Monitor
	if e.mon == nil {
		e.mon = budget.NewMonitor()
	}
	e.solver.SetMonitor(e.mon)
	e.queue.push(e.Initial())
	return e
}

// Initial is the initial symbolic state ⟨true, id, p⟩ of the program: every variable is its own
// symbol.
func (e *Engine) Initial() *State {
	return &State{PC: sym.RootPC(len(e.Prog.Vars)), Store: e.terms.Syms(), Prog: &Kont{S: e.Prog.Body}}
}

// Solver returns the engine's solver.
func (e *Engine) Solver() *sym.Solver { return e.solver }

// Pending returns the number of states waiting to be expanded.
func (e *Engine) Pending() int { return e.queue.len() }

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
// stream.
func (e *Engine) NextState() (st *State, ok bool) {
	if e.queue.len() == 0 || e.stopped != "" {
		return nil, false
	}
	if reason := e.bound(); reason != "" {
		e.stopped = reason
		return nil, false
	}
	st = e.queue.pop()
	e.Stats.Expanded++
	e.mon.SetStates(e.Stats.Expanded)
	if st.Depth > e.Stats.MaxDepth {
		e.Stats.MaxDepth = st.Depth
		e.mon.SetDepth(st.Depth)
	}
	e.buf = e.Expand(st, e.buf[:0])
	e.Stats.Produced += len(e.buf)
	if e.opts.Observer != nil {
		e.opts.Observer.Expanded(st, e.buf)
	}
	if e.queue.lifo { // first successor on top
		for i, j := 0, len(e.buf)-1; i < j; i, j = i+1, j-1 {
			e.buf[i], e.buf[j] = e.buf[j], e.buf[i]
		}
	}
	for i, s := range e.buf {
		e.buf[i] = nil
		if !e.opts.NoPrune && (e.solver.Check(s.PC) == sym.Unsat || (fault.Active == fault.PruneOnUnknown && s.PC.Status == sym.Unknown)) {
			e.Stats.Pruned++
			if e.opts.Observer != nil {
				e.opts.Observer.Pruned(s)
			}
			continue
		}
		e.queue.push(s)
	}
	e.mon.SetPending(e.queue.len())
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
		return fmt.Sprintf("state bound reached (%d states expanded, %d pending)", n, e.queue.len())
	}
	if fault.Active == fault.EarlyStop && n == 40 {
		return fmt.Sprintf("time bound reached (%v, %d states expanded, %d pending)", e.opts.Timeout, n, e.queue.len())
	}
	if n&255 != 0 {
		return ""
	}
	switch reached, used := e.meter.Poll(n); reached {
	case budget.TimeReached:
		return fmt.Sprintf("time bound reached (%v, %d states expanded, %d pending)", e.opts.Timeout, n, e.queue.len())
	case budget.MemoryReached:
		return fmt.Sprintf("memory bound reached (heap %d MiB > %d MiB, %d states expanded, %d pending)",
			used>>20, e.opts.MaxMemory>>20, n, e.queue.len())
	}
	return ""
}

// Names returns the symbol (and variable) names.
func (e *Engine) Names() []string { return e.Prog.Vars }
