package engine

import (
	"fmt"

	"certsym/engine/burst"
	"certsym/pathcond"
	"certsym/spec/syntax"
)

// The concrete fast path (Options.Burst): a state whose next statement reads no symbol
// has exactly one successor that pruning keeps (its branch condition folds to a constant, so
// the path condition does not change), and that successor's store differs from its own by
// constants only. Such a step is taken on the concrete machine of package engine/burst (the
// values of the variables as integer.Int, the remaining program as a stack of statements), without
// building a State, a term or a formula per step; a burst goes on while the next statement is concrete,
// for at most Options.Burst steps, then the state reached is built once and queued again.
//
// Every step of a burst is one pick of the frontier and one state expanded: the counters
// (Stats.Expanded, Produced, Pruned, MaxDepth), the state bound, the progress monitor and the
// depth of every later state are those of the same path taken one state at a time. A burst
// never expands an error state (a fail at the head is no concrete step): the error successor
// of a concrete step (a division by zero, an assert that fails) ends the burst and is queued
// like any other state, then classified by the bug finder when it is picked, with its path
// condition (the burst's, unchanged) and its depth, so the same bug, input and steps.
//
// The schedule. Picks are numbered from 0 (Stats.Expanded before the pick). A pick whose number
// n has n % (B+1) == B, B = Options.Burst, takes the strategy's own choice (the oldest pending
// state under bfs); any other pick takes the state the previous pick produced when that pick
// was a concrete step and its successor is concrete too (the newest pending state), the
// strategy's choice otherwise. Under bfs this is the bounded-burst schedule burst_pick B cont of
// proofs/coq/Sched.v, kpick (B+1) with the heuristic "the newest while the burst goes on, else
// the oldest": it is fair, a pending state with j older pending states is expanded within
// (B+1)(j+1) picks (burst_fair_within, Schedproof.v), and Lemma 3.1 and Theorems 3.2-3.8 hold
// for it (burst_sprun_complete, burst_sgfind_relative_completeness,
// burst_sgverdict_T_sound_complete, and the theorems of Schedproof.v stated for every fair
// scheduler). With bursts on, the bfs stream is this schedule's, not the breadth-first queue's:
// Theorems 3.2-3.8 still describe it, the breadth-first order of reports does not. Under dfs
// the newest pending state is the successor anyway: bursts leave the dfs stream unchanged.
//
// NextState returns the first state of a burst; the states inside it are counted but not
// returned (they are concrete steps, none of them an error state, so the bug finder would
// classify each as Pending). With an Observer (Options.Observer), a burst takes its steps
// through Expand, one State per step, so that the observer sees every expansion and every
// pruned successor of the same schedule (burster.materialize); the engine's tests compare the
// two ways step for step.

// burstPoll is how often (in steps) a burst polls the interrupt and the time and memory bounds
// (a multiple of 256, the period of Engine.bound's polls).
const burstPoll = 4096

// burster is the engine's side of the fast path: the concrete machine (package engine/burst) and
// the buffer that hands it a state's program.
type burster struct {
	e    *Engine
	m    *burst.Machine
	kont []syntax.Stmt // load's buffer: the program of the state loaded, head first
	// materialize takes the steps through Expand (an observer is set, or a test compares).
	materialize bool
}

func newBurster(e *Engine) *burster {
	return &burster{e: e, m: burst.New(e.Prog), materialize: e.opts.Observer != nil}
}

// burstRun is the fast path of NextState for the state st it just took from the frontier: when
// st's next step is concrete, it takes the burst from st (st's own pick included), queues the
// state reached and returns true; otherwise it does nothing and returns false.
func (e *Engine) burstRun(st *State) bool {
	if e.burst == nil {
		e.burst = newBurster(e)
	}
	b := e.burst
	if b.materialize {
		return b.runMaterialized(st)
	}
	b.load(st)
	n := e.Stats.Expanded // the number of st's pick
	period := e.opts.Burst + 1
	steps, produced := 0, 0
	for {
		if steps > 0 {
			p := n + steps // the number of the next pick
			if p%period == period-1 || (e.opts.MaxStates > 0 && p >= e.opts.MaxStates) {
				break
			}
			if p%burstPoll == 0 {
				e.Stats.Expanded = p
				e.mon.SetStates(p)
				if e.mon.Interrupted() || e.bound() != "" {
					break
				}
			}
		}
		k := b.step()
		if k == 0 {
			break
		}
		produced += k
		steps++
	}
	if steps == 0 {
		return false
	}
	e.Stats.Expanded = n + steps
	e.Stats.Produced += produced
	e.Stats.Pruned += produced - steps // each step keeps one successor
	e.mon.SetStates(e.Stats.Expanded)
	if d := st.Depth + steps - 1; d > e.Stats.MaxDepth {
		e.Stats.MaxDepth = d
		e.mon.SetDepth(d)
	}
	e.queue.push(b.state(st, steps))
	e.mon.SetPending(e.pending())
	return true
}

// load sets the machine to st: the constants of its store, its program.
func (b *burster) load(st *State) {
	b.kont = b.kont[:0]
	for k := st.Prog; k != nil; k = k.Next {
		b.kont = append(b.kont, k.S)
	}
	b.m.Load(st.Store, b.kont)
}

// step is the machine's concrete step (burst.Machine.Step): the successors Expand produces, or 0.
func (b *burster) step() int { return b.m.Step() }

// state builds the state the machine reached after steps steps from st: st's path condition,
// its store with the assigned variables set to their constants, the remaining program.
func (b *burster) state(st *State, steps int) *State {
	var k *Kont
	for _, s := range b.m.Stack() {
		k = &Kont{s, k}
	}
	return &State{PC: st.PC, Store: b.m.Store(st.Store), Prog: k, Depth: st.Depth + steps}
}

// runMaterialized is burstRun taking each step through Expand and the solver's pruning, one
// State per step, the observer told of each (the same schedule: the machine decides whether a
// state is concrete, Expand makes its successors). Should Expand keep other than one successor
// of a state the machine calls concrete, the burst ends there and queues what Expand kept (the
// engine's tests check that it never happens).
func (b *burster) runMaterialized(st *State) bool {
	e := b.e
	n := e.Stats.Expanded
	period := e.opts.Burst + 1
	cur, steps := st, 0
	for {
		if steps > 0 {
			p := n + steps
			if p%period == period-1 || (e.opts.MaxStates > 0 && p >= e.opts.MaxStates) {
				break
			}
			if p%burstPoll == 0 && (e.mon.Interrupted() || e.bound() != "") {
				break
			}
		}
		b.load(cur)
		if b.step() == 0 {
			break
		}
		steps++
		e.Stats.Expanded = n + steps
		e.mon.SetStates(e.Stats.Expanded)
		if cur.Depth > e.Stats.MaxDepth {
			e.Stats.MaxDepth = cur.Depth
			e.mon.SetDepth(cur.Depth)
		}
		e.buf = e.Expand(cur, e.buf[:0])
		e.Stats.Produced += len(e.buf)
		if e.opts.Observer != nil {
			e.opts.Observer.Expanded(cur, e.buf)
		}
		var kept []*State
		for i, s := range e.buf {
			e.buf[i] = nil
			if e.solver.Check(s.PC) == pathcond.Unsat {
				e.Stats.Pruned++
				if e.opts.Observer != nil {
					e.opts.Observer.Pruned(s)
				}
				continue
			}
			kept = append(kept, s)
		}
		if len(kept) != 1 {
			for _, s := range kept {
				e.queue.push(s)
			}
			e.mon.SetPending(e.pending())
			return true
		}
		cur = kept[0]
	}
	if steps == 0 {
		return false
	}
	e.queue.push(cur)
	e.mon.SetPending(e.pending())
	return true
}

// ConcreteAhead returns the number of pending states and, over them, the fewest steps that read
// no symbol ahead of one, counted up to limit: the steps a burst (Options.Burst) would take from
// each, whatever the options. It is (0, 0) when no state is pending. It changes nothing of the
// run (the burst machine is reloaded at each use); it takes up to limit concrete steps per pending
// state, so callers ask it of small frontiers. cmd/certsym's partial report reads it to suggest
// --burst after a bound stopped a run on a long concrete stretch.
func (e *Engine) ConcreteAhead(limit int) (pending, fewest int) {
	if e.burst == nil {
		e.burst = newBurster(e)
	}
	b := e.burst
	fewest = limit
	e.searcher.Each(func(st *State) {
		pending++
		b.load(st)
		n := 0
		for n < fewest && b.step() > 0 {
			n++
		}
		fewest = n
	})
	if pending == 0 {
		return 0, 0
	}
	return pending, fewest
}

// validateBurst reports the options Burst cannot be combined with: a negative bound, the fair
// strategies (their schedule is kpick 4 of their heuristic; a burst would take its picks),
// NoPrune (a concrete branch then keeps its unsatisfiable successors: no step has one
// successor) and Shard (the shards' reports are merged in breadth-first order).
func (o Options) validateBurst() error {
	switch {
	case o.Burst < 0:
		return fmt.Errorf("the burst bound must be 0 (off) or positive, not %d", o.Burst)
	case o.Burst == 0:
		return nil
	case o.Strategy != BFS && o.Strategy != DFS:
		return fmt.Errorf("bursts (the concrete fast path) are for the bfs and dfs strategies only, not %v", o.Strategy)
	case o.NoPrune:
		return fmt.Errorf("bursts (the concrete fast path) need pruning: a concrete branch keeps its unsatisfiable successors without it")
	case o.Shard.Enabled():
		return fmt.Errorf("bursts (the concrete fast path) are not combined with sharding: shards merge their reports in breadth-first order")
	}
	return nil
}

// DefaultBurst is the burst bound of run --burst when it is given without another value
// (cmd/certsym) and of the benchmarks: long enough that the per-pick cost of the frontier
// vanishes, short enough that a concrete loop cannot hold the frontier's other states back by
// more than that many picks each.
const DefaultBurst = 100_000
