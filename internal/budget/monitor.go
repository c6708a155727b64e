package budget

import (
	"sync"
	"sync/atomic"
	"time"
)

// Monitor is a run's window for other goroutines: a progress ticker reads its counters, a signal
// handler asks the run to stop through it. The run writes the counters with single atomic stores
// (no lock, no call), so watching costs the hot path nothing it would notice; when nobody reads
// them they are just memory writes. The zero value is ready; one Monitor watches one run.
type Monitor struct {
	start time.Time

	// States counts states expanded (run) or branch states created (run --loop-bound, verify).
	states  atomic.Int64
	pending atomic.Int64
	depth   atomic.Int64
	bugs    atomic.Int64

	queries     atomic.Int64
	solverNanos atomic.Int64 // time in finished queries
	queryStart  atomic.Int64 // UnixNano when the running query started, 0 between queries

	halted atomic.Bool
	mu     sync.Mutex
	ctxs   []Interrupter
}

// An Interrupter is what Monitor.Interrupt cuts short: a solver context (*z3.Context).
type Interrupter interface{ Interrupt() }

// NewMonitor returns a monitor whose clock starts now.
func NewMonitor() *Monitor { return &Monitor{start: time.Now()} }

// Interrupt asks the run to stop as soon as it can: the search stops before its next state and
// a running solver query is interrupted (it answers unknown). The run then ends as if a bound had
// stopped it, with the reason "interrupted". Safe to call from any goroutine, any number of times.
func (m *Monitor) Interrupt() {
	m.halted.Store(true)
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, c := range m.ctxs {
		c.Interrupt()
	}
}

// Interrupted reports whether Interrupt was called.
func (m *Monitor) Interrupted() bool { return m.halted.Load() }

// Attach registers a solver context whose queries Interrupt must cut short.
func (m *Monitor) Attach(c Interrupter) {
	m.mu.Lock()
	m.ctxs = append(m.ctxs, c)
	m.mu.Unlock()
}

// SetStates records the number of states expanded (run) or branch states created (bounded modes).
func (m *Monitor) SetStates(n int) { m.states.Store(int64(n)) }

// SetPending records the number of states waiting to be expanded.
func (m *Monitor) SetPending(n int) { m.pending.Store(int64(n)) }

// SetDepth records the depth of the deepest state expanded.
func (m *Monitor) SetDepth(d int) { m.depth.Store(int64(d)) }

// SetBugs records the number of bugs confirmed.
func (m *Monitor) SetBugs(n int) { m.bugs.Store(int64(n)) }

// CountQuery counts one solver query (asked, whether or not it reaches the solver).
func (m *Monitor) CountQuery() { m.queries.Add(1) }

// QueryStarted records that the solver started a query at start.
func (m *Monitor) QueryStarted(start time.Time) { m.queryStart.Store(start.UnixNano()) }

// QueryDone records that the running solver query finished after d.
func (m *Monitor) QueryDone(d time.Duration) {
	m.queryStart.Store(0)
	m.solverNanos.Add(int64(d))
}

// Snapshot is what a Monitor knows of its run at one moment, for progress reports.
type Snapshot struct {
	Elapsed time.Duration
	// States is the number of states expanded (run) or branch states created (bounded modes).
	States, Pending, Depth, Bugs int
	// Queries is the number of solver queries finished.
	Queries int
	// SolverTime is the time spent in finished queries plus the running one.
	SolverTime time.Duration
	// InQuery is how long the running query has run (0 when none is running).
	InQuery time.Duration
}

// Snapshot reads the counters. It may run concurrently with the run.
func (m *Monitor) Snapshot() Snapshot {
	now := time.Now()
	s := Snapshot{Elapsed: now.Sub(m.start), States: int(m.states.Load()), Pending: int(m.pending.Load()),
		Depth: int(m.depth.Load()), Bugs: int(m.bugs.Load()), Queries: int(m.queries.Load()),
		SolverTime: time.Duration(m.solverNanos.Load())}
	if qs := m.queryStart.Load(); qs != 0 {
		if d := now.Sub(time.Unix(0, qs)); d > 0 {
			s.InQuery = d
			s.SolverTime += d
		}
	}
	return s
}

// Tick calls report with a snapshot every period until the returned stop function is called;
// stop waits for a report under way to finish.
func (m *Monitor) Tick(period time.Duration, report func(Snapshot)) (stop func()) {
	done := make(chan struct{})
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		t := time.NewTicker(period)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
				report(m.Snapshot())
			}
		}
	}()
	var once sync.Once
	return func() {
		once.Do(func() { close(done); <-finished })
	}
}
