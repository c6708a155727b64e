package distrib

import (
	"encoding/json"
	"errors"
	"fmt"

	"certsym/engine"
	"certsym/engine/job"
	"certsym/engine/steal"
	"certsym/internal/budget"
	"certsym/pathcond"
	"certsym/spec/syntax"
)

// Renderer turns a confirmed bug of eng into the record the command prints (opaque here): the
// worker renders its bugs, since only it has their states.
type Renderer func(eng *engine.Engine, b *engine.Bug) (json.RawMessage, error)

// ErrInterrupted is Explore's error when its monitor was interrupted: the job is not done.
var ErrInterrupted = errors.New("interrupted")

// lateObserver passes the engine's observations to the job's path observer, which can only be
// made once the root is replayed (the engine is made with its observer), and notes what the
// state expanded last counts as queries (steal.Asks: the partitioned runs' rule, a function of the
// tree).
type lateObserver struct {
	paths   *job.Paths
	noPrune bool
	// asks are the path conditions of the successors of the state expanded last that count as
	// queries; unchecked says that state's own path condition was not decided yet (without
	// pruning: its error's check is a query).
	asks      []*pathcond.PC
	unchecked bool
}

func (o *lateObserver) Expanded(st *engine.State, succ []*engine.State) {
	o.asks = o.asks[:0]
	o.unchecked = st.PC.Status == pathcond.Unchecked
	if !o.noPrune {
		for _, s := range succ {
			if steal.Asks(st.PC, s.PC) {
				o.asks = append(o.asks, s.PC)
			}
		}
	}
	if o.paths != nil {
		o.paths.Expanded(st, succ)
	}
}

func (o *lateObserver) Pruned(st *engine.State) {
	if o.paths != nil {
		o.paths.Pruned(st)
	}
}

// count adds a query answered status (for the reason) to l.
func (l *Level) count(status pathcond.SatStatus, reason string) {
	l.Queries++
	switch status {
	case pathcond.Sat:
		l.Sat++
	case pathcond.Unsat:
		l.Unsat++
	default:
		l.Unknown++
	}
	if steal.CutShort(status, reason) {
		l.Cut++
	}
}

func (l Level) minus(m Level) Level {
	return Level{States: l.States - m.States, Pruned: l.Pruned - m.Pruned, Queries: l.Queries - m.Queries,
		Sat: l.Sat - m.Sat, Unsat: l.Unsat - m.Unsat, Unknown: l.Unknown - m.Unknown, Cut: l.Cut - m.Cut}
}

// Explore explores job j of the run spec describes (its program parsed as prog) breadth-first:
// it rebuilds the root (job.Replay, under root, the answer on its path condition of the job
// that split j off, nil for the run's first job), then expands states in the single run's order restricted
// to the subtree, each error state classified as the single run classifies it, until the subtree
// is explored, or (without AllBugs) its first bug is found, or Budget states are expanded, when
// the pending states become the split-off jobs. mon, when not nil, is the engine's monitor (its
// Interrupt abandons the job with ErrInterrupted). A bug that does not replay (an internal
// error) is a result with StatusFailed.
func Explore(prog *syntax.Program, spec *Spec, j job.Job, root *Answer, mon *budget.Monitor, render Renderer) (*Result, error) {
	obs := &lateObserver{noPrune: spec.NoPrune}
	opts := engine.Options{Strategy: engine.BFS, NoPrune: spec.NoPrune, AllBugs: spec.AllBugs, Monitor: mon, Observer: obs,
		Limits: budget.Limits{QueryTimeout: spec.QueryTimeout, RLimit: spec.RLimit}}
	e := engine.New(prog, opts)
	defer e.Close()
	res := &Result{Run: spec.Run, Job: j.String(), Status: StatusDone}
	var ans *pathcond.Answer
	if root != nil {
		var err error
		if ans, err = root.answer(); err != nil {
			res.Status, res.Reason = StatusFailed, fmt.Sprintf("job %v: %v", j, err)
			return res, nil
		}
	}
	start, err := job.Replay(e, j, spec.NoPrune, ans)
	if err != nil {
		if e.Monitor().Interrupted() {
			return nil, ErrInterrupted
		}
		res.Status, res.Reason = StatusFailed, err.Error()
		return res, nil
	}
	res.ReplayQueries = e.Solver().Stats.Queries
	obs.paths = job.NewPaths(start, j, spec.NoPrune)
	e.StartAt(start)
	ids := engine.FailIDs(prog)
	reported := map[*syntax.Fail]bool{}
	budgetN := spec.Budget
	if budgetN <= 0 {
		budgetN = DefaultBudget
	}
	level := func(d int) *Level {
		i := d - j.Depth
		for len(res.Levels) <= i {
			res.Levels = append(res.Levels, Level{Depth: j.Depth + len(res.Levels)})
		}
		return &res.Levels[i]
	}
	expanded := 0
	for {
		if expanded >= budgetN && e.Pending() > 0 {
			for _, s := range e.PendingStates() {
				sub, ok := obs.paths.JobOf(s)
				if !ok {
					panic("distrib: a pending state without its path")
				}
				res.Jobs = append(res.Jobs, sub.String())
				res.Roots = append(res.Roots, answerOf(s.PC.Answer()))
			}
			return res, nil
		}
		pruned := e.Stats.Pruned
		s, err := e.Next()
		if err != nil {
			res.Status, res.Reason = StatusFailed, err.Error()
			return res, nil
		}
		if e.Monitor().Interrupted() {
			return nil, ErrInterrupted
		}
		switch s.Kind {
		case engine.Finished:
			return res, nil
		case engine.Stopped:
			res.Status, res.Reason = StatusStopped, e.Stopped()
			if at, ok := obs.paths.JobOf(obs.lastExpanded()); ok {
				res.StoppedAt = at.String()
			}
			return res, nil
		}
		st := s.State
		expanded++
		cost := Level{States: 1, Pruned: e.Stats.Pruned - pruned}
		for _, pc := range obs.asks {
			cost.count(pc.Status, pc.Reason)
		}
		f := st.ErrorOf()
		if f == nil || (spec.AllBugs && reported[f]) {
			level(st.Depth).add(cost)
			continue // not an error state, or one the engine did not check (reported before)
		}
		at, _ := obs.paths.JobOf(st)
		ev := Event{At: at.String(), Fail: ids[f]}
		if obs.unchecked { // without pruning the error's check is a query (with, it was decided when queued)
			ev.Cost.count(st.PC.Status, st.PC.Reason)
			cost.add(ev.Cost)
		}
		level(st.Depth).add(cost)
		switch {
		case s.Kind == engine.BugFound:
			ev.Outcome = OutcomeBug
			if ev.Bug, err = render(e, s.Bug); err != nil {
				res.Status, res.Reason = StatusFailed, err.Error()
				return res, nil
			}
			reported[f] = spec.AllBugs
		case st.PC.Status == pathcond.Unknown:
			ev.Outcome, ev.Kind, ev.Line, ev.Reason = OutcomeUnknown, f.Kind.String(), f.Line(), st.PC.Reason
		default:
			ev.Outcome = OutcomeUnsat
		}
		res.Events = append(res.Events, ev)
		if ev.Outcome == OutcomeBug && !spec.AllBugs {
			res.Cut = true
			return res, nil
		}
	}
}

// lastExpanded is the state the engine expanded last (the observer's).
func (o *lateObserver) lastExpanded() *engine.State {
	if o.paths == nil {
		return nil
	}
	return o.paths.Last()
}

// Pending is a split-off job with the answer on its root's path condition.
type Pending struct {
	Job  job.Job
	Root *Answer
}

// SplitOff reads the split-off jobs of r, each with its root's answer.
func (r *Result) SplitOff() ([]Pending, error) {
	out := make([]Pending, 0, len(r.Jobs))
	for i, s := range r.Jobs {
		j, err := job.Parse(s)
		if err != nil {
			return nil, fmt.Errorf("job %s split off %q: %v", r.Job, s, err)
		}
		out = append(out, Pending{Job: j, Root: r.rootOf(i)})
	}
	return out, nil
}

// rootOf is the answer on the root of the i-th split-off job (nil from a worker that sent none).
func (r *Result) rootOf(i int) *Answer {
	if i < len(r.Roots) {
		return r.Roots[i]
	}
	return nil
}
