package steal

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"certsym/engine"
	"certsym/internal/budget"
	"certsym/internal/fault"
	"certsym/pathcond"
	"certsym/spec/syntax"
)

// record is what the merger needs of one expanded state: its position (depth, path), its
// successors (produced, dropped by pruning, kept) and the solver queries among them by answer
// (the rule of worker.expand), and, for an error state or a huge assignment, the event.
type record struct {
	nd                     *node
	ev                     *event
	depth                  int32
	produced, pruned, kept uint8
	q, sat, unsat, unknown uint8
	cut                    uint8 // the successors whose query a bound cut short (cutShort)
}

// count counts a query of the record's successors answered status.
func (r *record) count(status pathcond.SatStatus) {
	r.q++
	switch status {
	case pathcond.Sat:
		r.sat++
	case pathcond.Unsat:
		r.unsat++
	default:
		r.unknown++
	}
}

// Asks reports whether pc, the path condition of a successor of a state whose path condition is
// parent, counts as a solver query of a partitioned run: a function of the tree, whatever the
// solver's history. It does when the solver-free deciders left pc open, or knew it satisfiable
// only by the parent's model (which depends on the solver's history); not when they decided it
// unsatisfiable, nor for a conjunction of bounds (satisfiable whatever the model), nor for the
// parent's own. It reads the deciders' answer, before the solver's (engine.Observer.Expanded sees
// the successors then). The distributed runs count their queries by it too (package distrib).
func Asks(parent, pc *pathcond.PC) bool {
	return pc != parent && pc.Status != pathcond.Unsat && !(pc.Status == pathcond.Sat && pc.Pure())
}

// CutShort reports whether the answer of a query, unknown for reason (the solver's backend), was
// cut short by a bound: the query's time (--query-timeout), the solver time (--solver-time), the
// run's deadline, the resource limit (--rlimit), Z3's own timeout, cancellation or memory limit
// (reported when the backend cannot tell which bound Z3 met), or abandoned after one. Which queries a time
// bound cuts short depends on the machine's load; which ones the resource limit cuts depends on
// the solver's history (its caches and Z3's incremental state), which each worker has its own.
// The run's interrupt and the solver's own incompleteness (quantifier instantiation) are not cuts.
func CutShort(status pathcond.SatStatus, reason string) bool {
	if status != pathcond.Unknown {
		return false
	}
	for _, s := range []string{"time bound", "abandoned", "resource limit", "Z3: timeout", "Z3: canceled", "Z3: memout"} {
		if strings.Contains(reason, s) {
			return true
		}
	}
	return false
}

// event is what a record says besides its counts: the error of an error state, as the worker's
// solver classified it, or the stop of a huge assignment.
type event struct {
	fail        *syntax.Fail
	st          *engine.State // the worker's error state (its path condition decided)
	status      pathcond.SatStatus
	asked       bool // the classification was a query (without pruning: the path condition was unchecked)
	interrupted bool // unknown because the run was interrupted
	cut         bool // unknown because a bound cut the query short (cutShort)
	huge        string
}

// merger turns the workers' records into the single run's report. It takes the records of one
// depth once every worker has passed that depth (run.low), and then, in the breadth-first order of
// the single run (sorted by path, when the order matters: a bug, an undecided error state, a huge
// assignment or the state bound inside the depth), does what the single run does with each state
// it takes: the state bound before it, the counters, the classification of an error state (each
// error once with --all-bugs; the first bug ends the run without), the stop of a huge assignment.
// So its report is the single run's whatever the workers did beyond or in which order, and the
// output waits for nothing but the depth of the state it reports.
type merger struct {
	r     *run
	onBug func(*engine.Bug)
	// buckets[head+i] holds the records handed over of depth next+i; spare holds the slices of
	// depths taken, for the depths to come.
	buckets [][]record
	spare   [][]record
	head    int
	next    int32 // the next depth to take
	taken   []record
	// partial is how many records of depth next (buckets[head]) are taken already: the run's
	// only worker hands its records over in breadth-first order, and the merger takes them as
	// they come (takePartial) rather than at the end of their depth.
	partial int

	expanded, produced, pruned, maxDepth int
	pending                              int // the single run's queue: 1 + the kept successors - the states taken
	queries, sat, unsat, unknown         int
	cut                                  int // answers cut short by a bound in the states taken (cutShort)
	bugs                                 []*engine.Bug
	unknownErrors                        []*engine.State
	reported                             map[*syntax.Fail]bool
	stopped                              string
	done                                 bool
	err                                  error

	meter    *budget.Meter
	lastPoll time.Time
}

func newMerger(r *run, onBug func(*engine.Bug)) *merger {
	return &merger{r: r, onBug: onBug, pending: 1, reported: map[*syntax.Fail]bool{},
		meter: budget.NewMeter(r.opts.Limits)}
}

// poll takes the records handed over, takes the depths every worker has passed, and checks the
// bounds of time, memory and interrupts (those stop at the depths taken so far: a prefix of the
// single run's stream).
func (m *merger) poll() {
	if m.done {
		return
	}
	low := m.r.low()
	early := int64(-1)
	for _, w := range m.r.workers {
		m.taken = w.take(m.taken[:0])
		for _, rc := range m.taken {
			i := m.head + int(rc.depth-m.next)
			for len(m.buckets) <= i {
				m.buckets = append(m.buckets, nil)
			}
			if m.buckets[i] == nil {
				if k := len(m.spare); k > 0 {
					m.buckets[i], m.spare = m.spare[k-1], m.spare[:k-1]
				}
			}
			m.buckets[i] = append(m.buckets[i], rc)
			if fault.Active == fault.FirstBugEarly && !m.r.opts.AllBugs && rc.ev != nil && rc.ev.status == pathcond.Sat && rc.ev.fail != nil {
				early = max(early, int64(rc.depth)+1)
			}
		}
		clear(m.taken)
	}
	m.lastDepth()
	if err := m.r.failed(); err != nil {
		m.err = err
		m.done = true
		return
	}
	if early > low && low != none {
		low = early // the fault: a bug handed in is taken before the others passed its depth
	}
	for !m.done {
		if bound := m.r.opts.MaxStates; bound > 0 && m.expanded >= bound && m.pending > 0 {
			// The bound is reached and states are pending: the single run stops before taking
			// the next one (the workers expand none of them: run.last). With none pending it
			// has finished (below).
			m.stop(fmt.Sprintf("state bound reached (%d states expanded, %d pending)", m.expanded, m.pending))
			break
		}
		if int64(m.next) >= low {
			break
		}
		if m.head >= len(m.buckets) || len(m.buckets[m.head]) == 0 { // no state at this depth: the exploration is over (low is none)
			m.done = true
			break
		}
		recs := m.buckets[m.head]
		m.takeDepth(recs[m.partial:])
		clear(recs)
		if len(m.spare) < 8 {
			m.spare = append(m.spare, recs[:0])
		}
		m.buckets[m.head] = nil
		m.partial = 0
		m.head++
		m.next++
		if m.head > 64 && 2*m.head > len(m.buckets) { // move the buckets to come to the front
			n := copy(m.buckets, m.buckets[m.head:])
			clear(m.buckets[n:])
			m.buckets = m.buckets[:n]
			m.head = 0
		}
	}
	if !m.done && m.r.n == 1 && m.r.workers[0].solo && int64(m.next) == low {
		m.takePartial()
	}
	mon := m.r.mon // the progress line's counters: the states taken, as the single run's
	mon.SetStates(m.expanded)
	mon.SetPending(m.pending)
	mon.SetDepth(m.maxDepth)
	if !m.done {
		m.bounds()
	}
}

// takePartial takes the records of depth next handed over since the last call, when the run has
// one worker alone (run.alone): it expands the states of a depth in the single run's order
// (breadth-first, the successors of a state in Expand's order) and hands each record over as it
// is made, so the records of depth next are a prefix of the depth in breadth-first order. Taken
// at once, they let the run stop where the single run stops (its first bug, its state bound)
// with the worker no further: waiting for the end of the depth would let it expand the rest of
// the depth and the next one, past the report's end, where the queries may take seconds each.
func (m *merger) takePartial() {
	if m.head >= len(m.buckets) {
		return
	}
	recs := m.buckets[m.head]
	bound := m.r.opts.MaxStates
	for ; m.partial < len(recs) && !m.done; m.partial++ {
		if bound > 0 && m.expanded >= bound {
			m.stop(fmt.Sprintf("state bound reached (%d states expanded, %d pending)", m.expanded, m.pending))
			return
		}
		rc := &recs[m.partial]
		m.count(rc)
		if rc.ev != nil {
			m.event(rc, rc.ev)
		}
	}
	if bound > 0 && m.expanded >= bound && m.pending > 0 && !m.done {
		// The single run stops before its next state: the worker must not expand it.
		m.stop(fmt.Sprintf("state bound reached (%d states expanded, %d pending)", m.expanded, m.pending))
	}
}

// lastDepth lowers run.last to the depth where the state bound falls at the latest: the first
// at which the states taken and the records handed over, depth by depth, reach the bound (the
// records of a depth only grow, so the bound falls there or before). The workers expand nothing
// deeper: it would be past the report's end.
func (m *merger) lastDepth() {
	bound := m.r.opts.MaxStates
	if bound == 0 {
		return
	}
	n := m.expanded - m.partial
	for i, recs := range m.buckets[m.head:] {
		if len(recs) == 0 {
			return
		}
		if n += len(recs); n >= bound {
			if d := int64(m.next) + int64(i); d < m.r.last.Load() {
				m.r.last.Store(d)
			}
			return
		}
	}
}

// bounds stops the run at the depths taken when it is interrupted or reaches the time or memory
// bound, with the single run's reasons.
func (m *merger) bounds() {
	switch {
	case m.r.mon.Interrupted():
		m.stop("interrupted")
		return
	case m.meter.TimeUp(time.Now()):
		m.stop(fmt.Sprintf("time bound reached (%v, %d states expanded, %d pending)", m.r.opts.Timeout, m.expanded, m.pending))
		return
	}
	if now := time.Now(); m.r.opts.MaxMemory > 0 && now.Sub(m.lastPoll) > 50*time.Millisecond {
		m.lastPoll = now
		if reached, used := m.meter.Poll(0); reached == budget.MemoryReached {
			m.stop(fmt.Sprintf("memory bound reached (heap %d MiB > %d MiB, %d states expanded, %d pending)",
				used>>20, m.r.opts.MaxMemory>>20, m.expanded, m.pending))
		}
	}
}

func (m *merger) stop(reason string) {
	m.stopped, m.done = reason, true
}

// takeDepth takes the records of one depth, all of them, in breadth-first order.
func (m *merger) takeDepth(recs []record) {
	bound := m.r.opts.MaxStates
	events := false
	for i := range recs {
		if recs[i].ev != nil {
			events = true
			break
		}
	}
	if !events && (bound == 0 || m.expanded+len(recs) <= bound) {
		for i := range recs {
			m.count(&recs[i])
		}
		return
	}
	slices.SortStableFunc(recs, func(a, b record) int { return compare(a.nd, b.nd) })
	for i := range recs {
		if bound > 0 && m.expanded >= bound {
			m.stop(fmt.Sprintf("state bound reached (%d states expanded, %d pending)", m.expanded, m.pending))
			return
		}
		m.count(&recs[i])
		if ev := recs[i].ev; ev != nil {
			m.event(&recs[i], ev)
			if m.done {
				return
			}
		}
	}
}

// count adds a state taken to the counters.
func (m *merger) count(rc *record) {
	m.expanded++
	m.produced += int(rc.produced)
	m.pruned += int(rc.pruned)
	m.pending += int(rc.kept) - 1
	m.maxDepth = int(rc.depth)
	m.queries += int(rc.q)
	m.sat += int(rc.sat)
	m.unsat += int(rc.unsat)
	m.unknown += int(rc.unknown)
	m.cut += int(rc.cut)
}

// event classifies an error state taken, as engine.Next does, or stops after a huge assignment.
func (m *merger) event(rc *record, ev *event) {
	if f := ev.fail; f != nil && !(m.r.opts.AllBugs && m.reported[f]) {
		if ev.asked {
			if ev.cut {
				m.cut++
			}
			m.queries++
			switch ev.status {
			case pathcond.Sat:
				m.sat++
			case pathcond.Unsat:
				m.unsat++
			default:
				m.unknown++
			}
		}
		switch ev.status {
		case pathcond.Unknown:
			if !ev.interrupted {
				m.unknownErrors = append(m.unknownErrors, ev.st)
			}
		case pathcond.Sat:
			bug, err := m.r.confirm(rc, ev)
			if err != nil {
				m.err, m.done = err, true
				return
			}
			if bug == nil { // a bound cut the replay short (engine.Confirm): the run stops there
				m.stop(m.r.confirmer.eng.Stopped())
				return
			}
			m.bugs = append(m.bugs, bug)
			m.r.mon.SetBugs(len(m.bugs))
			if m.onBug != nil {
				m.onBug(bug)
			}
			if !m.r.opts.AllBugs {
				m.done = true
				return
			}
			m.reported[f] = true
		}
	}
	if ev.huge != "" {
		m.stop(ev.huge)
	}
}

// report is the single run's report of the prefix taken (engine.Conclude), with the solver's
// counters of the prefix (the queries by answer) and the workers' own added up (time, layers).
func (m *merger) report() *engine.Report {
	rep := &engine.Report{Bugs: m.bugs}
	s := &rep.Stats
	s.Expanded, s.Produced, s.Pruned, s.MaxDepth = m.expanded, m.produced, m.pruned, m.maxDepth
	for _, w := range m.r.workers {
		c := w.chain.Stats
		s.Solver.Time += c.Time
		s.Solver.Z3Queries += c.Z3Queries
		s.Solver.CacheHits += c.CacheHits
		s.Solver.CexModelHits += c.CexModelHits
		s.Solver.CexUnsatHits += c.CexUnsatHits
		s.Solver.SliceEmpty += c.SliceEmpty
		s.Solver.RepairHits += c.RepairHits
		s.Solver.Sliced += c.Sliced
	}
	s.Solver.Queries, s.Solver.Sat, s.Solver.Unsat, s.Solver.Unknown = m.queries, m.sat, m.unsat, m.unknown
	rep = engine.Conclude(rep, m.unknownErrors, m.stopped, m.r.opts.AllBugs)
	// The answers cut short decide which states the tree keeps below them, and which queries are
	// cut depends on the load and on each worker's solver: say so.
	rep.Reason = WithCutNote(rep.Reason, m.cut)
	return rep
}

// WithCutNote is a partitioned run's reason (in process or distributed) when n > 0 of the answers
// of the states its report takes were cut short by a bound (CutShort): the reason, then a note
// that says so.
func WithCutNote(reason string, n int) string {
	if n == 0 {
		return reason
	}
	note := fmt.Sprintf("%d solver %s cut short by a time or resource bound (which ones depends on the load and on each worker's solver): another run, with any number of workers or without, may expand other states",
		n, plural(n, "answer was", "answers were"))
	if reason != "" {
		return reason + "; " + note
	}
	return note
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
