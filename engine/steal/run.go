package steal

import (
	"math/rand"
	"sync"
	"sync/atomic"
	"time"

	"certsym/engine"
	"certsym/internal/budget"
	"certsym/pathcond"
	"certsym/spec/syntax"
)

// Options configure a partitioned run: the engine's options (Workers is the number of workers,
// at least 1) and how the workers are scheduled.
type Options struct {
	engine.Options
	// Interleave, when not 0, runs the workers on the calling goroutine instead of one goroutine
	// each, one step (a state expanded, or a steal) at a time, each step's worker drawn by a
	// PRNG seeded with Interleave: the tests run many interleavings, each reproducible, and the
	// balance is counted free of the machine's scheduling.
	Interleave int64
	// Window is how many depths a worker may run ahead of the depth every worker has passed
	// before it steals older states or waits (0: DefaultWindow): it bounds the records the
	// merger holds, the depths not yet passed by every worker.
	Window int
}

// DefaultWindow is Options.Window's default.
const DefaultWindow = 16

// WorkerStats is what one worker did, for the balance: states expanded (in the report's prefix or
// past it), states replayed for stolen jobs, steals made, jobs taken and jobs taken from it.
type WorkerStats struct {
	Expanded, Replayed, Steals, Stolen, StolenFrom int
}

// Result is a partitioned run's report, the single run's (engine.Report), and what each worker did.
type Result struct {
	*engine.Report
	Workers []WorkerStats
}

// Applies reports whether a partitioned run gives the output of the run with opts: breadth-first
// (the order in which the output lists the bugs and the state bound cuts is the position order),
// without the concrete fast path (whose stream is the bounded-burst schedule's), sharding (a
// partition of its own), an observer (the artifacts record the states as one run expands them),
// the refinement layer's crosscheck (which expects one run's decisions in order) or state merging
// (Options.Merge: a merging frontier sees each depth whole, on one goroutine).
func Applies(opts engine.Options) bool {
	return opts.Strategy == engine.BFS && opts.Burst == 0 && !opts.Shard.Enabled() && opts.Observer == nil && opts.CrossCheck == nil &&
		opts.Merge == nil
}

// run is one partitioned run: its workers, and what they and the merger share.
type run struct {
	prog   *syntax.Program
	opts   Options
	eopts  engine.Options // the options of each worker's engine and of the engines that confirm bugs
	mon    *budget.Monitor
	n      int
	window int

	workers []*worker
	// steals counts the steals made: the merger reads the workers' low depths between two
	// reads of it and reads them again when it moved (low).
	steals atomic.Int64
	// last is the deepest depth whose states the report may take: the state bound falls at that
	// depth or before (the merger lowers it as the records come in); none without a bound.
	last   atomic.Int64
	stop   atomic.Bool
	idle   atomic.Int32
	notify chan struct{} // wakes the merger
	wake   chan struct{} // wakes an idle worker

	errMu sync.Mutex
	err   error

	confirmer *worker // the engine that replays and confirms the bugs (confirm), made with the run (newConfirmer)
}

// Run runs the breadth-first bug finder of engine.FindBugs on prog with opts.Workers workers, each
// with its own engine, and returns the single run's report: the same verdict, bugs (in
// breadth-first order, each error once with AllBugs, the first only without), counters and
// reasons, for every number of workers and every interleaving. onBug, when not nil, is called
// with each bug as the report's list gets it, on the calling goroutine. A bug's input is the
// model of its path condition that an engine of the run's own finds by replaying the bugs' paths
// from the initial state in the report's order (confirm). The solver queries are counted as a
// function of the tree (worker.expand), the other solver counters (time, the caching layers')
// added up over the workers. It panics when Applies(opts.Options) is false.
func Run(prog *syntax.Program, opts Options, onBug func(*engine.Bug)) (*Result, error) {
	r, m := newRun(prog, opts, onBug)
	r.execute(m)
	return r.finish(m)
}

// newRun makes the run's engines, the confirmer's first: its clock (the time bound of the bugs'
// replays, engine.Confirm, and of its queries) starts with the run, as the single run's does,
// not at the first bug. Then the merger, whose clock is the run's time bound.
func newRun(prog *syntax.Program, opts Options, onBug func(*engine.Bug)) (*run, *merger) {
	if !Applies(opts.Options) {
		panic("steal.Run: the options need the single run (Applies)")
	}
	r := &run{prog: prog, opts: opts, n: max(opts.Workers, 1), window: opts.Window,
		notify: make(chan struct{}, 1), wake: make(chan struct{}, 1)}
	if r.window <= 0 {
		r.window = DefaultWindow
	}
	r.mon = opts.Monitor
	if r.mon == nil {
		r.mon = budget.NewMonitor()
	}
	r.eopts = opts.Options
	r.eopts.Workers, r.eopts.Monitor = 0, r.mon
	r.confirmer = r.newConfirmer()
	for i := 0; i < r.n; i++ {
		eo := r.eopts
		eo.Monitor = budget.NewMonitor()
		r.workers = append(r.workers, newWorker(r, i, engine.New(prog, eo), eo.Monitor))
	}
	r.last.Store(none)
	w0 := r.workers[0]
	w0.push([]item{{st: w0.root}})
	w0.low.Store(0)
	return r, newMerger(r, onBug)
}

// execute runs the workers and the merger until the merger has the report.
func (r *run) execute(m *merger) {
	switch {
	case r.opts.Interleave != 0:
		r.interleaved(m)
	case r.n == 1:
		r.alone(m)
	default:
		r.concurrent(m)
	}
}

// finish closes the run's engines and returns its result.
func (r *run) finish(m *merger) (*Result, error) {
	res := &Result{}
	for _, w := range r.workers {
		res.Workers = append(res.Workers, WorkerStats{Expanded: int(w.expanded.Load()), Replayed: w.replayed, Steals: w.steals,
			Stolen: w.stolen, StolenFrom: w.stolenOff})
	}
	rep := m.report()
	for _, w := range r.workers {
		w.eng.Close()
	}
	r.confirmer.eng.Close()
	if m.err != nil {
		return nil, m.err
	}
	res.Report = rep
	return res, nil
}

// concurrent runs each worker on a goroutine of its own and the merger on this one, until the
// merger has the report; then it stops the workers (interrupting their queries) and waits for them.
func (r *run) concurrent(m *merger) {
	var wg sync.WaitGroup
	for _, w := range r.workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			w.loop()
		}()
	}
	tick := time.NewTicker(5 * time.Millisecond)
	defer tick.Stop()
	for m.poll(); !m.done; m.poll() {
		select {
		case <-r.notify:
		case <-tick.C:
		}
	}
	r.stop.Store(true)
	for _, w := range r.workers {
		w.mon.Interrupt()
	}
	wg.Wait()
}

// loop is a worker's goroutine: steps until the run stops, resting a little longer each time it
// finds nothing to do, until another worker queues states or the run stops.
func (w *worker) loop() {
	rest := time.Duration(0)
	for !w.r.stop.Load() {
		if w.step() {
			rest = 0
			continue
		}
		w.r.poke()
		rest = min(max(2*rest, 20*time.Microsecond), time.Millisecond)
		w.r.idle.Add(1)
		select {
		case <-w.r.wake:
		case <-time.After(rest):
		}
		w.r.idle.Add(-1)
	}
}

// interleaved runs the workers' steps on this goroutine in the order a seeded PRNG draws, the
// merger polling after each step that found nothing to do and at random between the others.
func (r *run) interleaved(m *merger) {
	rng := rand.New(rand.NewSource(r.opts.Interleave))
	for m.poll(); !m.done; {
		w := r.workers[rng.Intn(len(r.workers))]
		if !w.step() || rng.Intn(8) == 0 {
			w.flush()
			m.poll()
		}
	}
}

// alone runs the one worker of a run on this goroutine, the merger polling after each step: it
// takes each state's record as soon as it is made (merger.takePartial), so the worker expands
// the single run's states and stops where the single run stops.
func (r *run) alone(m *merger) {
	w := r.workers[0]
	w.solo = true
	for m.poll(); !m.done; {
		w.step()
		w.flush()
		m.poll()
	}
}

// poke wakes the merger.
func (r *run) poke() {
	select {
	case r.notify <- struct{}{}:
	default:
	}
}

// nudge wakes an idle worker, when there is one, to steal the states just queued.
func (r *run) nudge() {
	if r.idle.Load() > 0 {
		select {
		case r.wake <- struct{}{}:
		default:
		}
	}
}

// fail records an internal error of a worker; the run ends with the first.
func (r *run) fail(err error) {
	r.errMu.Lock()
	if r.err == nil {
		r.err = err
	}
	r.errMu.Unlock()
	r.poke()
}

func (r *run) failed() error {
	r.errMu.Lock()
	defer r.errMu.Unlock()
	return r.err
}

// low is the least of the workers' low depths, read consistently: every state of a lesser depth
// that the run expands has been expanded and its record handed over. A steal moves states from
// one worker to another; the thief lowers its own low before the victim can raise its own past
// them, and the steal count moves in between, so a read of all the lows between two equal
// counts sees the stolen states in someone's hands. none when no worker holds a state.
func (r *run) low() int64 {
	for {
		c := r.steals.Load()
		m := int64(none)
		for _, w := range r.workers {
			m = min(m, w.low.Load())
		}
		if r.steals.Load() == c {
			return m
		}
	}
}

// pastBound reports whether a worker should leave its states of depth d for later: the workers
// have expanded as many states as the state bound allows, so the bound falls at the oldest
// pending depth or later, and the states deeper than that depth may all be past the report's end.
// The run then goes depth by depth (a depth is expanded once every worker has passed the one
// before), the workers no further than the depth the merger needs to decide where the bound
// falls; before, they went up to the window's depths ahead.
// low is lowApprox, read by the caller.
func (r *run) pastBound(d, low int64) bool {
	b := r.opts.MaxStates
	if b == 0 || r.n == 1 || d <= low {
		return false
	}
	n := 0
	for _, w := range r.workers {
		n += int(w.expanded.Load())
	}
	return n >= b
}

// lowApprox is low without the consistent read (for the window: a worker that reads it a little
// low only waits a little longer).
func (r *run) lowApprox() int64 {
	m := int64(none)
	for _, w := range r.workers {
		m = min(m, w.low.Load())
	}
	return m
}

// ConfirmTimeoutFactor is how many times the run's query time bound the confirmer's queries may
// take when the run has a resource limit (newConfirmer).
const ConfirmTimeoutFactor = 10

// confirm makes the bug of the error state of rc: an engine of its own (its own terms and solver,
// the run's confirmer, made with the run) replays the state's path from the initial state,
// deciding each state on the way as the single run does, and confirms the model it finds on the
// concrete semantics (engine.Confirm). The bugs are confirmed in the order of the report, so the
// input is a function of the path and of the bugs before it, whichever worker found the state
// and whatever its solver had answered before. Its queries are bounded by the resource limit
// (--rlimit) when there is one, so that the same queries get the same answers, with a time bound
// ten times the run's behind it (newConfirmer). When it cannot decide the path condition within
// the bounds, the worker's own model is confirmed instead (that input then depends on the
// worker's solver). A nil bug without an error
// is a replay a bound cut short (engine.Confirm): the confirmer's Stopped says which, and the run
// stops there, as the single run does.
func (r *run) confirm(rc *record, ev *event) (*engine.Bug, error) {
	e := r.confirmer.eng
	st, err := r.confirmer.replay(rc.nd, int(rc.depth), nil)
	if err != nil {
		return nil, err
	}
	if e.Solver().Check(st.PC) != pathcond.Sat {
		st = ev.st
	}
	return e.Confirm(st, ev.fail)
}

// newConfirmer makes the engine of confirm, at the start of the run. Its queries are bounded by
// the resource limit when there is one, the time a query takes depending on the machine's load
// and its resource use not; the query time bound is then ConfirmTimeoutFactor times the run's, a
// backstop for the queries Z3 does not stop at the resource limit (a loop of its arithmetic that
// counts no resource ran for eleven minutes in the refinement layer with the time bound off).
func (r *run) newConfirmer() *worker {
	eo := r.eopts
	if eo.RLimit > 0 {
		eo.QueryTimeout *= ConfirmTimeoutFactor
	}
	e := engine.New(r.prog, eo)
	return &worker{r: r, eng: e, chain: e.Solver(), root: e.Initial()}
}
