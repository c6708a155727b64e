package engine

import (
	"sync"

	"certsym/spec"
)

// Parallel expansion (Options.Workers, issue 17). The run stream stays the sequential one, state
// for state: the workers only compute, ahead of time and on several cores, the successors that
// Expand would return for the states at the head of the breadth-first queue; NextState then takes
// each state's successors from that batch instead of calling Expand, and does everything else
// (counters, the shard's split, the observer, the pruning queries, the queue) itself, in queue
// order, with the engine's one solver. So the output is byte-identical to one worker's whatever
// the number of workers: the same states, successors, solver queries in the same order (hence the
// same witnesses, cache hits and bug inputs), counters and verdict.
//
// Why the successors can be computed ahead. With pruning on, every queued state's path condition
// was decided (Solver.Check) before it was queued, and Check writes only the status, witness and
// solver memos of the path condition it is asked about, never the bounds, linear facts, status or
// witness of another one: what Expand (sym.Extend) reads of a queued state, its ancestors
// included, is final once the state is queued. Expand is then a function of the state alone,
// except for three things, each handled: the term factory's atom keys (sym.Terms numbers each new
// product, quotient, remainder, array term, select and bound variable in creation order, and that
// order decides the order of monomials, hence the formulas and the queries: ParallelOK keeps the
// workers off the programs that can create one); the stop of a huge assignment (Expand sets
// Engine.stopped: each worker expands on its own copy of the engine and the reason is applied
// when the state is taken, as Expand would have set it); and the refinement layer's crosscheck
// hook (sym.SetCrossCheck), which the layer's tests install around sequential runs only. Without
// pruning (Options.NoPrune) a queued state's path condition may be decided later (an error state
// sharing it is classified), so Expand would read it too early: such runs expand sequentially, and
// so do the other strategies (the batch is the queue's head, which only BFS takes in order).
//
// What it gains, and its limit. Only Expand is parallel; the pruning queries and the queue stay
// on one goroutine, because the solver's answers depend on its history (Z3's incremental stack,
// the caches of sym/cache.go, the witnesses they hand down), and the output must not. With
// caching on, the open gcd spends about 40 % of its time in Expand and 55 % in Check, the open
// factorial about 60 % in Expand: by Amdahl's law two workers gain at most 1.25 to 1.4 times, less
// the cost of handing each batch to the workers (a batch is the queue at the time, which is
// narrow on these programs: the factorial's frontier holds under 100 states). The design that
// would parallelize the queries as well is described in the README (Performance, workers).
//
// Coq: the stream is grun's (Engine.v), unchanged: the batch only anticipates expand (Expand.v)
// on states already in the queue (Theorem 3.1, expand_correct, says expand is a function of the
// state), so Lemma 3.1 and Theorems 3.2-3.7 describe the parallel run as they describe the
// sequential one.

// MaxBatch bounds the states expanded ahead in one batch: the successors of at most this many
// states are held at once, beside the queue.
const MaxBatch = 4096

// minPerWorker is the least number of states each worker gets in a batch; a narrower queue is
// expanded sequentially (handing a few states to goroutines costs more than expanding them).
const minPerWorker = 16

// batch is the successors computed ahead for the states at the head of the queue.
type batch struct {
	states []*State   // in queue order; states[next] is the next state NextState will take
	succ   [][]*State // the successors Expand returns for each state
	huge   []string   // the stop reason Expand would set for each state (step.HugeReason), or ""
	next   int
	count  int // batches computed in the run (for tests and benchmarks)
}

// ParallelOK reports whether the workers may expand prog's states (in a breadth-first run with
// pruning; Options.Workers): Expand never creates an atom
// (no product of two non-constant operands, no division or remainder, no array, no quantifier),
// so it does not write the term factory.
func ParallelOK(prog *spec.Program) bool {
	if len(prog.Arrays) > 0 {
		return false
	}
	ok := true
	spec.Inspect(prog.Body, func(n spec.Node) bool {
		switch n := n.(type) {
		case *spec.BinA:
			switch n.Op {
			case spec.Div, spec.Mod:
				ok = false
			case spec.Mul:
				_, l := n.L.(*spec.Num)
				_, r := n.R.(*spec.Num)
				ok = ok && (l || r)
			}
		case *spec.Elem, *spec.Quant, *spec.ArrAssign, *spec.BoundRef:
			ok = false
		}
		return ok
	})
	return ok
}

// expandPicked returns the successors of st, the state NextState just took from the queue,
// appended to out: from the batch when it holds st, else by computing a new batch (st and the
// states queued after it) on the workers, else by Expand.
func (e *Engine) expandPicked(st *State, out []*State) []*State {
	if e.workers <= 1 {
		return e.Expand(st, out)
	}
	b := &e.batch
	if b.next >= len(b.states) || b.states[b.next] != st {
		n := min(e.queue.len()+1, MaxBatch)
		if n < 2*minPerWorker {
			return e.Expand(st, out)
		}
		b.states = append(b.states[:0], st)
		b.states = append(b.states, e.queue.items[e.queue.head:e.queue.head+n-1]...)
		e.expandBatch()
	}
	i := b.next
	out = append(out, b.succ[i]...)
	if b.huge[i] != "" && e.stopped == "" {
		e.stopped = b.huge[i]
	}
	b.states[i], b.succ[i] = nil, nil
	b.next++
	return out
}

// expandBatch computes the successors of b.states on e.workers goroutines, each expanding a
// contiguous part on its own copy of the engine (Expand writes Engine.stopped).
func (e *Engine) expandBatch() {
	b := &e.batch
	n := len(b.states)
	b.next = 0
	b.count++
	b.succ = append(b.succ[:0], make([][]*State, n)...)
	b.huge = append(b.huge[:0], make([]string, n)...)
	w := min(e.workers, n/minPerWorker)
	var wg sync.WaitGroup
	for k := 0; k < w; k++ {
		lo, hi := k*n/w, (k+1)*n/w
		wg.Add(1)
		go func() {
			defer wg.Done()
			c := *e // Expand reads the terms and the slot count, and may set stopped
			for i := lo; i < hi; i++ {
				c.stopped = ""
				b.succ[i] = c.Expand(b.states[i], nil)
				b.huge[i] = c.stopped
			}
		}()
	}
	wg.Wait()
}
