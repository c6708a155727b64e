package steal

import (
	"fmt"
	"math"
	"sync"
	"sync/atomic"

	"certsym/engine"
	"certsym/internal/budget"
	"certsym/internal/fault"
	"certsym/pathcond"
	"certsym/solver"
)

// none is the depth a worker publishes when it holds no state (low, oldest).
const none = math.MaxInt64

// item is a pending state of a worker: the state itself, or nil for a job stolen from another
// worker and not replayed yet; its path and depth; and, for a stolen job, the answer of the
// worker that queued the state on its path condition (pathcond.Answer: the thief takes it rather
// than asking its own solver again).
type item struct {
	st    *engine.State
	nd    *node
	depth int32
	dec   *pathcond.Answer
}

// level is the pending states of one depth, a FIFO: items[head:].
type level struct {
	items []item
	head  int
}

// worker is one goroutine of a partitioned run (a step at a time in an interleaved one), with its
// own engine: its own term factory, solver chain (Z3 context, caches, side tables) and monitor.
// Its pending states are kept by depth (levels), and it expands the oldest first, breadth-first;
// thieves take the oldest too, from the front of its shallowest level, under mu.
//
// Why not a work-stealing deque library (Chase-Lev): such a deque is LIFO for its owner, and the
// owner here must take the oldest state as the thieves do (breadth-first, so that the depth every
// worker has passed, on which the output waits, keeps moving), and keep its states by depth; a
// mutex per worker that its owner takes twice per state and a thief once per steal costs the run
// nothing measurable (docs/parallelism.md).
type worker struct {
	id    int
	r     *run
	eng   *engine.Engine
	chain *solver.Chain
	mon   *budget.Monitor // the worker's own: the run interrupts its queries when it stops
	root  *engine.State

	mu     sync.Mutex
	base   int32    // the depth of lv[0]
	lv     []level  // the pending states, lv[i] of depth base+i
	spare  [][]item // slices of emptied levels, for the next ones
	npend  int
	oldest atomic.Int64 // the depth of the shallowest pending state (none: no state pending)
	// low is at most the depth of every state this worker holds, is expanding or has recorded
	// without handing the record over (flush): every state of a lesser depth that the run will
	// ever expand has been expanded and handed over. Only the worker itself stores it.
	low atomic.Int64

	recMu     sync.Mutex
	published []record // handed over, not yet taken by the merger
	local     []record // not yet handed over

	// anchors are states this worker made where the path branches, by the path node of the
	// states before the branching (two generations, each at most anchorCap): a stolen job is
	// replayed from the deepest of them on its path rather than from the root.
	anchors, oldAnchors map[*node]*engine.State
	buf, kids           []*engine.State
	items               []item
	dead                bool // the worker met an internal error (run.fail): the run ends with it
	solo                bool // the run's only worker, on the merger's goroutine (run.alone)

	expanded          atomic.Int64 // states expanded, in the output's prefix or not (balance)
	replayed, steals  int          // states replayed for stolen jobs; steals made
	stolen, stolenOff int          // jobs this worker took; jobs taken from it
}

// anchorCap bounds each generation of a worker's anchors.
const anchorCap = 1 << 14

// flushEvery is the number of records a worker keeps before handing them over.
const flushEvery = 512

func newWorker(r *run, id int, e *engine.Engine, mon *budget.Monitor) *worker {
	w := &worker{id: id, r: r, eng: e, chain: e.Solver(), mon: mon, root: e.Initial()}
	w.oldest.Store(none)
	w.low.Store(none)
	if len(r.workers) > 1 || r.n > 1 {
		w.anchors, w.oldAnchors = map[*node]*engine.State{}, map[*node]*engine.State{}
	}
	return w
}

// push queues its into the levels (under mu) and publishes the new oldest depth.
func (w *worker) push(its []item) {
	w.mu.Lock()
	for _, it := range its {
		if len(w.lv) == 0 {
			w.base = it.depth
		}
		if it.depth < w.base { // a stolen job older than every pending state
			k := int(w.base - it.depth)
			w.lv = append(make([]level, k, k+len(w.lv)), w.lv...)
			w.base = it.depth
		}
		i := int(it.depth - w.base)
		for len(w.lv) <= i {
			var l level
			if k := len(w.spare); k > 0 { // a slice of a level emptied before
				l.items, w.spare = w.spare[k-1], w.spare[:k-1]
			}
			w.lv = append(w.lv, l)
		}
		w.lv[i].items = append(w.lv[i].items, it)
		w.npend++
	}
	w.publishOldest()
	w.mu.Unlock()
}

// front returns the shallowest non-empty level (nil: none), dropping the empty levels before it.
// Under mu.
func (w *worker) front() *level {
	for len(w.lv) > 0 {
		l := &w.lv[0]
		if l.head < len(l.items) {
			return l
		}
		l.items, l.head = l.items[:0], 0
		if len(w.lv) == 1 {
			return nil
		}
		if len(w.spare) < 8 {
			w.spare = append(w.spare, l.items)
		}
		w.lv[0] = level{}
		w.lv = w.lv[1:]
		w.base++
	}
	return nil
}

// publishOldest stores the depth of the shallowest pending state in oldest. Under mu.
func (w *worker) publishOldest() {
	if w.npend == 0 {
		w.oldest.Store(none)
		return
	}
	w.front()
	w.oldest.Store(int64(w.base))
}

// pop takes the oldest pending state, unless it lies more than the run's window deeper than the
// depth every worker has passed (the worker then steals older states, or waits), or deeper than
// the state bound lets the run go (run.last).
func (w *worker) pop() (item, bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	l := w.front()
	if l == nil {
		return item{}, false
	}
	if d, low := int64(w.base), w.r.lowApprox(); d > w.r.last.Load() || d-int64(w.r.window) > low || w.r.pastBound(d, low) {
		return item{}, false
	}
	it := l.items[l.head]
	l.items[l.head] = item{}
	l.head++
	w.npend--
	w.publishOldest()
	return it, true
}

// step does one unit of work: expands the oldest pending state, or steals. It returns false when
// there was nothing to do.
func (w *worker) step() bool {
	if w.dead {
		return false
	}
	it, ok := w.pop()
	if !ok {
		if w.steal() {
			return true
		}
		w.settle()
		return false
	}
	if it.st == nil {
		st, err := w.replay(it.nd, int(it.depth), it.dec)
		if err != nil {
			w.dead = true
			w.r.fail(err)
			return false
		}
		it.st = st
	}
	w.expand(it)
	if len(w.local) >= flushEvery {
		w.flush()
	}
	w.settle()
	return true
}

// settle raises low to the depth of the oldest pending state, once the records below it are
// handed over.
func (w *worker) settle() {
	if o := w.oldest.Load(); o > w.low.Load() {
		if !w.solo { // alone, the worker hands its records over itself before the merger reads low
			w.flush()
		}
		w.low.Store(o)
	}
}

// flush hands the worker's records over to the merger.
func (w *worker) flush() {
	if len(w.local) == 0 {
		return
	}
	w.recMu.Lock()
	w.published = append(w.published, w.local...)
	w.recMu.Unlock()
	clear(w.local)
	w.local = w.local[:0]
	w.r.poke()
}

// take returns the records handed over since the last call (the merger's side).
func (w *worker) take(into []record) []record {
	w.recMu.Lock()
	into = append(into, w.published...)
	clear(w.published)
	w.published = w.published[:0]
	w.recMu.Unlock()
	return into
}

// expand expands st, the state of it: it queues the successors pruning keeps (the solver's
// answers in the order of Expand, as the single run asks them), classifies st when it is an
// error state, and records what the merger needs of it.
func (w *worker) expand(it item) {
	st := it.st
	w.expanded.Add(1)
	succ, huge := w.eng.ExpandStep(st, w.buf[:0])
	w.buf = succ
	rec := record{nd: it.nd, depth: it.depth, produced: uint8(len(succ))}
	branch := len(succ) >= 2
	if branch {
		w.anchor(it.nd, st)
	}
	noPrune := w.r.opts.NoPrune
	kids := w.items[:0]
	for i, s := range succ {
		q := !noPrune && Asks(st.PC, s.PC)
		status := s.PC.Status
		if !noPrune {
			status = w.chain.Check(s.PC)
		}
		if q {
			rec.count(status)
			if CutShort(status, s.PC.Reason) {
				rec.cut++
			}
		}
		if !noPrune && (status == pathcond.Unsat || (fault.Active == fault.PruneOnUnknown && status == pathcond.Unknown)) {
			rec.pruned++
			continue
		}
		nd := it.nd
		if branch {
			nd = it.nd.child(i)
		}
		kids = append(kids, item{st: s, nd: nd, depth: it.depth + 1})
	}
	rec.kept = uint8(len(kids))
	if f := st.ErrorOf(); f != nil {
		ev := &event{fail: f, st: st}
		// With pruning the state's path condition was decided before it was queued; without,
		// the single run asks it here, unless the error was reported already (the merger
		// knows): ask it, and let the merger count it or not.
		ev.asked = st.PC.Status == pathcond.Unchecked
		ev.status = w.chain.Check(st.PC)
		ev.interrupted = ev.status == pathcond.Unknown && (w.mon.Interrupted() || w.r.mon.Interrupted())
		ev.cut = !ev.interrupted && CutShort(ev.status, st.PC.Reason)
		rec.ev = ev
	}
	if huge != "" {
		if rec.ev == nil {
			rec.ev = &event{}
		}
		rec.ev.huge = huge
	}
	clear(succ)
	if len(kids) > 0 {
		w.push(kids)
		w.r.nudge()
	}
	clear(kids)
	w.items = kids[:0]
	w.local = append(w.local, rec)
}

// anchor remembers st, a branching state whose path is nd.
func (w *worker) anchor(nd *node, st *engine.State) {
	if w.anchors == nil {
		return
	}
	w.anchors[nd] = st
	if len(w.anchors) >= anchorCap {
		w.oldAnchors, w.anchors = w.anchors, make(map[*node]*engine.State, anchorCap)
	}
}

func (w *worker) anchorOf(nd *node) *engine.State {
	if w.anchors == nil {
		return nil
	}
	if st, ok := w.anchors[nd]; ok {
		return st
	}
	return w.oldAnchors[nd]
}

// replay makes, on this worker's engine, the state of the job (depth, nd): from the deepest
// branching state of the path that the worker has made (its anchors), or from the initial state,
// it expands the states on the path, taking the successor the path names at each branching.
// With pruning each state it makes is decided, as the single run decides every state it queues,
// so that the job's states reach the solver as they would there (without pruning nothing is);
// for a stolen job, the job's own state takes dec, the decision of the worker that queued it,
// and the states on the way are not decided: what is expanded below the job depends on its
// state's decision alone.
func (w *worker) replay(nd *node, depth int, dec *pathcond.Answer) (*engine.State, error) {
	path := nd.choices()
	if fault.Active == fault.StealWrongPrefix && dec != nil && len(path) > 0 {
		path[len(path)-1] ^= 1
	}
	anc := nd.ancestors()
	st, k := w.root, 0
	for j := len(path) - 1; j >= 0; j-- {
		if a := w.anchorOf(anc[j]); a != nil && a.Depth < depth {
			st, k = a, j
			break
		}
	}
	for st.Depth < depth {
		succ, _ := w.eng.ExpandStep(st, w.buf[:0])
		w.buf = succ
		var next *engine.State
		switch {
		case len(succ) == 0:
			return nil, w.lost(nd, depth, st.Depth, "a state without successors")
		case len(succ) == 1:
			next = succ[0]
		default:
			if k >= len(path) || int(path[k]) >= len(succ) {
				return nil, w.lost(nd, depth, st.Depth, fmt.Sprintf("a branching of %d successors", len(succ)))
			}
			w.anchor(anc[k], st)
			next = succ[path[k]]
			k++
		}
		clear(succ)
		switch {
		case w.r.opts.NoPrune:
		case dec != nil && fault.Active != fault.StealRedecide:
			// The job's state takes its owner's decision; the states on the way are not decided
			// (the states below the job are decided from its state's decision alone).
			if next.Depth == depth {
				next.PC.Take(dec)
			}
		default:
			w.chain.Check(next.PC)
		}
		st = next
		w.replayed++
	}
	if k != len(path) {
		return nil, w.lost(nd, depth, st.Depth, "the depth, with choices left")
	}
	return st, nil
}

func (w *worker) lost(nd *node, depth, at int, what string) error {
	return fmt.Errorf("internal error: the job %v does not name a state: its replay reached %s at depth %d",
		Job{Depth: depth, Path: nd.choices()}, what, at)
}

// steal takes, from the worker whose oldest pending states are the shallowest (and shallower than
// this worker's own, and within the window), half of its shallowest level (rounded up), the
// oldest first. The jobs are
// replayed when this worker pops them. low is lowered to their depth before the victim's own
// oldest moves past them, and the run's steal count moves between the two, so that the merger
// never sees the jobs in nobody's hands (run.low).
func (w *worker) steal() bool {
	// Only states within the window are worth taking: the others wait where they are.
	own := w.oldest.Load()
	if l := w.r.lowApprox(); l != none {
		own = min(own, l+int64(w.r.window)+1)
	}
	if l := w.r.last.Load(); l != none {
		own = min(own, l+1)
	}
	victim, best := -1, own
	n := len(w.r.workers)
	for k := 1; k < n; k++ {
		v := (w.id + k) % n
		if d := w.r.workers[v].oldest.Load(); d < best {
			victim, best = v, d
		}
	}
	if victim < 0 {
		return false
	}
	v := w.r.workers[victim]
	v.mu.Lock()
	l := v.front()
	if l == nil || int64(v.base) >= own {
		v.mu.Unlock()
		return false
	}
	avail := len(l.items) - l.head
	take := (avail + 1) / 2
	jobs := w.items[:0]
	for _, it := range l.items[l.head : l.head+take] {
		j := item{nd: it.nd, depth: it.depth, dec: it.dec}
		if it.st != nil {
			j.dec = it.st.PC.Answer()
		}
		jobs = append(jobs, j)
	}
	clear(l.items[l.head : l.head+take])
	l.head += take
	v.npend -= take
	if d := int64(v.base); d < w.low.Load() {
		w.low.Store(d)
	}
	w.r.steals.Add(1)
	v.publishOldest()
	v.stolenOff += take
	v.mu.Unlock()
	w.steals++
	w.stolen += take
	w.push(jobs)
	clear(jobs)
	w.items = jobs[:0]
	return true
}
