package engine

import (
	"sync"
	"sync/atomic"

	"certsym/solver"
	"certsym/spec/syntax"
)

// Parallel expansion (Options.Workers). The run stream stays the sequential one, state
// for state: the workers only compute, ahead of time and on other cores, the successors that
// Expand would return for states already in the breadth-first queue, and the history-free part of
// their pruning queries; NextState then takes each state's successors from that batch instead of
// calling Expand, and does everything else (counters, the shard's split, the observer, the rest
// of the pruning queries, the queue) itself, in queue order, with the engine's one solver. So the
// output is byte-identical to one worker's whatever the number of workers: the same states,
// successors, solver queries in the same order (hence the same witnesses, cache hits and bug
// inputs), counters and verdict. The batches are pipelined: while this goroutine decides and
// queues the successors of the current batch's states, the workers expand the next batch, the
// states queued after it (in BFS, the successors of the batch before); a batch is cut into chunks
// of consecutive states that the workers claim, and this goroutine claims the chunks left when it
// needs the batch, then waits for the workers' last ones.
//
// The queries. Of Solver.Check with the caching on, the slice of the path condition and model
// repair near the base witness are functions of the path condition and of its ancestors' status,
// witness, bounds and captured flags (solver/prepare.go); the query cache, the counterexample cache
// and Z3 depend on the solver's history. Each successor's query is prepared (solver.Preparer) when
// the successor is made, by the worker that expands it, or by this goroutine with one worker or
// outside batches (expandPrepared): the same computation at the same point of the stream, so its
// answer does not depend on who computed it. Check then interns the query's formulas, tries the
// prepared repair first and the history-dependent layers after, counts and remembers, in order.
//
// Why the successors can be computed ahead, and concurrently with the queries. With pruning on,
// every queued state's path condition was decided (Solver.Check) before it was queued, and Check
// writes only the status, witness and reason of the path condition it is asked about (a new one,
// that no worker reads), the solver's own memos (a conjunct's Z3 term and interned id) and the
// prepared query it takes, fields that Expand and Prepare never read. What they read of a queued
// state, its ancestors' bounds, linear facts, status and witness included, is final once the
// state is queued. The memo they share, each path condition node's symbols and skip pointer
// (PC.cx), is a function of the node and its ancestors: the first goroutine to compute it
// publishes it by compare-and-swap and nobody writes it again. Expand is then a function of the
// state alone, except for three things, each handled: the term factory's atom keys (sym.Terms
// numbers each new product, quotient, remainder, array term, select and bound variable in creation
// order, and that order decides the order of monomials, hence the formulas and the queries:
// ParallelOK keeps the workers off the programs that can create one); the stop of a huge
// assignment (Expand sets Engine.stopped: each worker expands on its own copy of the engine and
// the reason is applied when the state is taken, as Expand would have set it); and the refinement
// layer's crosscheck hook (engine.Options.CrossCheck), with which the engine expands on one goroutine.
// Without pruning (Options.NoPrune) a queued state's path condition may be decided later (an error
// state sharing it is classified), so Expand would read it too early: such runs expand
// sequentially, and so do the other strategies (a batch is a run of consecutive queue entries,
// which only BFS takes in order). A run that stops leaves the batch in flight to finish on its own.
//
// What it gains, and its limits (figures: docs/performance.md, "Workers"). On W cores the speedup is at most
// 1/(s + (1-s)/W) for the share s of the work left on this goroutine, and at most W/c1 when the
// one-worker run already keeps c1 cores busy: the garbage collector marks on the second core
// (the open gcd's one-worker run uses about 1.22 cores, so 2 cores give at most about 1.64);
// each batch also costs its hand-over (allocating it, waking the workers, moving the states it
// made between the cores' caches). On the open gcd this goroutine's share (the history part of
// Check, the queue) is now about 30 % of the one-worker time, so the collector is the bound: 2
// workers run about 1.4 times as fast as one (1.31 to 1.48), and 1.8 times with GOGC=off. The
// open factorial's frontier holds 18 to 75 states, under the 2*minPerWorker a batch needs, and
// runs sequentially: batches from 64, 32 or 16 states on made it 1.25 to 1.7 times slower, and
// helpers that spin instead of parking (tried) did no better: a batch of a few dozen states
// costs more to hand over than it saves.
//
// Coq: the stream is grun's (Engine.v), unchanged: the batch only anticipates expand (Expand.v)
// on states already in the queue (Theorem 3.1, expand_correct: expand is a function of the
// state), and the prepared part of a query is a function of its path condition, so Lemma 3.1 and
// Theorems 3.2-3.7 describe the parallel run as they describe the sequential one.

// MaxBatch bounds the states of one batch: the successors of at most two batches (the current
// one and the one computed ahead) are held at once, beside the queue.
const MaxBatch = 4096

// minPerWorker is the least number of states each worker gets in a batch; a narrower queue is
// expanded sequentially (handing a few states to goroutines costs more than expanding them: with
// 8, 16 or 32, the open factorial, whose frontier holds 18 to 75 states, took 1.25 to 1.7 times as
// long).
// A variable so that the tests can lower it, to expand the corpus's small programs in batches.
var minPerWorker = 64

// chunk is the number of consecutive states of a batch a goroutine claims at a time.
const chunk = 16

// batch is the successors computed ahead for consecutive states of the queue.
type batch struct {
	states []*State   // in queue order; states[next] is the next state NextState will take
	succ   [][]*State // the successors Expand returns for each state
	huge   []string   // the stop reason Expand would set for each state (step.HugeReason), or ""
	next   int
	claim  atomic.Int32   // the chunks claimed so far
	wg     sync.WaitGroup // the workers computing it
}

// ParallelOK reports whether the workers may expand prog's states (in a breadth-first run with
// pruning; Options.Workers): Expand never creates an atom
// (no product of two non-constant operands, no division or remainder, no array, no quantifier),
// so it does not write the term factory.
func ParallelOK(prog *syntax.Program) bool {
	if len(prog.Arrays) > 0 {
		return false
	}
	ok := true
	syntax.Inspect(prog.Body, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.BinA:
			switch n.Op {
			case syntax.Div, syntax.Mod:
				ok = false
			case syntax.Mul:
				_, l := n.L.(*syntax.Num)
				_, r := n.R.(*syntax.Num)
				ok = ok && (l || r)
			}
		case *syntax.Elem, *syntax.Quant, *syntax.ArrAssign, *syntax.BoundRef:
			ok = false
		}
		return ok
	})
	return ok
}

// expandPicked returns the successors of st, the state NextState just took from the queue,
// appended to out: from the current batch when it holds st; else from the batch computed ahead,
// once its workers are done, when it starts with st; else from a new batch (st and half of the
// states queued after it), when the queue is wide enough; else by Expand. Each time a batch
// becomes current, the states queued after it (the successors of the batch before, in BFS) start
// being expanded ahead, so the workers expand the next batch while this goroutine decides and
// queues the successors of the current one.
func (e *Engine) expandPicked(st *State, out []*State) []*State {
	if e.workers <= 1 {
		return e.expandPrepared(st, out, nil)
	}
	b := e.cur
	if b == nil || b.next >= len(b.states) || b.states[b.next] != st {
		b = nil
		if a := e.ahead; a != nil {
			e.ahead = nil
			e.complete(a)
			if a.states[0] == st {
				b = a
			}
		}
		if b == nil {
			n := min(e.queue.len()+1, 2*MaxBatch)
			if n < 2*minPerWorker {
				e.cur = nil
				return e.expandPrepared(st, out, nil)
			}
			b = e.launch(st, e.queue.items[e.queue.head:e.queue.head+n/2-1])
			e.complete(b)
		}
		e.cur = b
		// The states queued after the current batch's: the queue holds b.states[1:] first (a
		// batch that turns out not to start where the run is is dropped, see above).
		rest := e.queue.items[min(e.queue.head+len(b.states)-1, len(e.queue.items)):]
		if len(rest) >= 2*minPerWorker {
			e.ahead = e.launch(rest[0], rest[1:min(len(rest), MaxBatch)])
		}
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

// expandPrepared is Expand, then the preparation of the successors' pruning queries (with pruning
// on): with p, a worker's Preparer, else with the solver's own (solver.Preparer.Prepare). Each run
// prepares each successor when it is made, with one worker as with N, so that the queries' answers
// do not depend on when their history-free part was computed.
func (e *Engine) expandPrepared(st *State, out []*State, p *solver.Preparer) []*State {
	n := len(out)
	out = e.Expand(st, out)
	if e.opts.NoPrune {
		return out
	}
	for _, s := range out[n:] {
		if p != nil {
			p.Prepare(s.PC)
		} else {
			e.solver.Prepare(s.PC)
		}
	}
	return out
}

// launch starts computing the successors of first and then of rest (states of the queue, in
// order) on e.workers-1 goroutines, each expanding chunks of consecutive states it claims, on its
// own copy of the engine (Expand reads the terms and the slot count, and may set stopped), copied
// here, with its own Preparer: this goroutine goes on with the run meanwhile, and joins them when
// it needs the batch (finish).
func (e *Engine) launch(first *State, rest []*State) *batch {
	n := 1 + len(rest)
	b := &batch{states: make([]*State, n), succ: make([][]*State, n), huge: make([]string, n)}
	b.states[0] = first
	copy(b.states[1:], rest)
	e.batches++
	for k := 1; k < e.workers; k++ {
		c := *e
		c.cur, c.ahead = nil, nil
		p := e.solver.NewPreparer()
		b.wg.Add(1)
		go func() {
			defer b.wg.Done()
			b.work(&c, p)
		}()
	}
	return b
}

// complete completes b: this goroutine expands the chunks nobody has claimed yet (with the solver's
// own Preparer), then waits for the workers' last ones.
func (e *Engine) complete(b *batch) {
	c := *e
	c.cur, c.ahead = nil, nil
	b.work(&c, nil)
	b.wg.Wait()
}

// work expands the chunks of b it claims, on c, preparing the successors' queries with p (nil:
// the solver's own Preparer, on the run's goroutine).
func (b *batch) work(c *Engine, p *solver.Preparer) {
	var flat []*State
	var ends [chunk]int
	for {
		lo := int(b.claim.Add(1)-1) * chunk
		if lo >= len(b.states) {
			return
		}
		hi := min(lo+chunk, len(b.states))
		// One slice for the successors of the chunk (about two per state), cut into each
		// state's once it is complete (appending may move it).
		flat = make([]*State, 0, 2*chunk+8)
		for i := lo; i < hi; i++ {
			c.stopped = ""
			flat = c.expandPrepared(b.states[i], flat, p)
			ends[i-lo] = len(flat)
			b.huge[i] = c.stopped
		}
		start := 0
		for i := lo; i < hi; i++ {
			end := ends[i-lo]
			b.succ[i] = flat[start:end:end]
			start = end
		}
	}
}
