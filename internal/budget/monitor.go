package budget

import (
	"fmt"
	"runtime/metrics"
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
	// The queries that reached Z3 and ended undecided (a time bound, the rlimit, an abandoned
	// query): their number and time, and whether the running one is one (QueryUndecided).
	undecided      atomic.Int64
	undecidedNanos atomic.Int64
	running        atomic.Bool
	hinted         atomic.Bool
	queryTimeout   atomic.Int64 // Limits.QueryTimeout, for the hint

	halted atomic.Bool
	mu     sync.Mutex
	ctxs   []Interrupter

	// The bounds every phase polls (Stop): the time bound's deadline (UnixNano, 0: none) and the
	// memory bound, with when the heap was last read.
	deadline  atomic.Int64
	timeout   time.Duration
	maxMemory atomic.Uint64
	memRead   atomic.Int64
	heap      []metrics.Sample // read under mu
	// stopAt is when the run was told to stop (UnixNano: the interrupt, the deadline, the memory
	// bound seen), stopReason why; set once.
	stopAt     atomic.Int64
	stopReason atomic.Pointer[string]
	phase      atomic.Pointer[string]
	cuts       []string // under mu
}

// Phases. A command goes through phases: the exploration (with the claim checks and the replays
// it makes), then the replay of tests, the rendering of the report and the writing of artifacts.
// Each polls the monitor: the exploration stops as soon as Stop answers a reason, and the phases
// after it, which make the partial report out of what the exploration found, go on for WrapUp
// more (Due; the rendering of the report, the last phase, twice that: Overdue), then stop too,
// saying what they left out (Cut). So the report comes out within about 2 WrapUp of an
// interrupt or of the time bound, whichever phase was running.

// WrapUp is how long the phases after a stop have to complete the partial report.
const WrapUp = 200 * time.Millisecond

// memoryEvery is how often Stop reads the heap's size at most.
const memoryEvery = 10 * time.Millisecond

// SetLimits gives the monitor the time and memory bounds of lim, for Stop: the deadline is
// lim.Timeout after the monitor's start.
func (m *Monitor) SetLimits(lim Limits) {
	if m.start.IsZero() {
		m.start = time.Now()
	}
	if lim.Timeout > 0 {
		m.timeout = lim.Timeout
		m.deadline.Store(m.start.Add(lim.Timeout).UnixNano())
	}
	m.maxMemory.Store(lim.MaxMemory)
	m.queryTimeout.Store(int64(lim.QueryTimeout))
}

// Deadline is when the time bound set by SetLimits ends the run (the zero time when there is
// none).
func (m *Monitor) Deadline() time.Time {
	if d := m.deadline.Load(); d != 0 {
		return time.Unix(0, d)
	}
	return time.Time{}
}

// Stop reports why the run must stop, or "" while it may go on: "interrupted" after Interrupt,
// "time bound reached (D)" once the deadline has passed, "memory bound reached (...)" once the
// heap has exceeded the memory bound (read at most once in 10 ms). The first reason stays. Safe
// to call from any goroutine; it costs a few atomic loads and a clock read.
func (m *Monitor) Stop() string {
	if r := m.stopReason.Load(); r != nil {
		return *r
	}
	if m.halted.Load() {
		m.stopped("interrupted", time.Now().UnixNano())
		return *m.stopReason.Load()
	}
	now := time.Now().UnixNano()
	if d := m.deadline.Load(); d != 0 && now >= d {
		m.stopped(fmt.Sprintf("time bound reached (%v)", m.timeout), d)
		return *m.stopReason.Load()
	}
	if lim := m.maxMemory.Load(); lim > 0 {
		if last := m.memRead.Load(); now-last >= int64(memoryEvery) && m.memRead.CompareAndSwap(last, now) {
			if used := m.heapBytes(); used > lim {
				m.stopped(fmt.Sprintf("memory bound reached (heap %d MiB > %d MiB)", used>>20, lim>>20), now)
				return *m.stopReason.Load()
			}
		}
	}
	return ""
}

// stopped records the first reason to stop and its time.
func (m *Monitor) stopped(reason string, at int64) {
	if m.stopReason.CompareAndSwap(nil, &reason) {
		m.stopAt.Store(at)
	}
}

func (m *Monitor) heapBytes() uint64 {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.heap == nil {
		m.heap = []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	}
	metrics.Read(m.heap)
	return m.heap[0].Value.Uint64()
}

// Due reports whether the partial report is due: the run was told to stop (Stop) WrapUp ago or
// more, so the phase that asks (a replay, the writing of artifacts) must stop now and say what it
// left out (Cut).
func (m *Monitor) Due() bool { return m.since(WrapUp) }

// Overdue is Due for the rendering of the report, the last phase: it has WrapUp more.
func (m *Monitor) Overdue() bool { return m.since(2 * WrapUp) }

// since reports whether the run was told to stop d ago or more.
func (m *Monitor) since(d time.Duration) bool {
	if m.Stop() == "" {
		return false
	}
	return time.Now().UnixNano() >= m.stopAt.Load()+int64(d)
}

// Enter records that the run's phase is now phase (a noun phrase: "exploration", "replay of the
// tests"), for the messages about a run that does not stop.
func (m *Monitor) Enter(phase string) { m.phase.Store(&phase) }

// Phase is the phase Enter recorded last ("" before any).
func (m *Monitor) Phase() string {
	if p := m.phase.Load(); p != nil {
		return *p
	}
	return ""
}

// Cut records that a phase was cut short, what says what it left out ("the replay of the tests:
// 312 of 1000 paths replayed"); the report lists the cuts.
func (m *Monitor) Cut(what string) {
	m.mu.Lock()
	m.cuts = append(m.cuts, what)
	m.mu.Unlock()
}

// Cuts are the phases cut short, in the order Cut recorded them.
func (m *Monitor) Cuts() []string {
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([]string(nil), m.cuts...)
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
	if m.running.Swap(false) {
		m.undecided.Add(1)
		m.undecidedNanos.Add(int64(d))
	}
}

// QueryUndecided records that the running solver query reached Z3 and ends undecided (its time
// bound, the rlimit, abandoned): QueryDone counts its time in Snapshot.Undecided.
func (m *Monitor) QueryUndecided() { m.running.Store(true) }

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
	// UndecidedQueries finished queries reached the solver and ended undecided (a time bound, the
	// rlimit, abandoned), after Undecided in all.
	UndecidedQueries int
	Undecided        time.Duration
	// Hint, in the snapshots Tick reports, is the advice of SolverHint, in the first snapshot
	// where it applies (once per run); "" otherwise.
	Hint string
}

// Snapshot reads the counters. It may run concurrently with the run.
func (m *Monitor) Snapshot() Snapshot {
	now := time.Now()
	s := Snapshot{Elapsed: now.Sub(m.start), States: int(m.states.Load()), Pending: int(m.pending.Load()),
		Depth: int(m.depth.Load()), Bugs: int(m.bugs.Load()), Queries: int(m.queries.Load()),
		SolverTime: time.Duration(m.solverNanos.Load()), UndecidedQueries: int(m.undecided.Load()),
		Undecided: time.Duration(m.undecidedNanos.Load())}
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
				s := m.Snapshot()
				if !m.hinted.Load() {
					if s.Hint = SolverHint(s, time.Duration(m.queryTimeout.Load())); s.Hint != "" {
						m.hinted.Store(true)
					}
				}
				report(s)
			}
		}
	}()
	var once sync.Once
	return func() {
		once.Do(func() { close(done); <-finished })
	}
}
