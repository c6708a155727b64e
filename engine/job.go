package engine

import (
	"fmt"
	"strconv"
	"strings"

	"certsym/pathcond"
)

// Jobs: a run cut into subtrees that other processes explore (package distrib). A job is the
// subtree of the execution tree under one state, named by where that state stands: its Depth and
// its Path, the choice (the index among the parent's successors, in the order of Expand) at each
// state above it that has two or more successors not known unsatisfiable by the solver-free
// deciders (Position's rule, with no split level: the path grows all the way down). Depth tells
// apart the states of a chain along which nothing branches, which share their path.
//
// Any engine of the same program and options can make the root of a job from its own initial
// state (Replay): each choice is one of the successors Expand returns, and the known-unsatisfiable
// test reads the formula alone, so the same job names the same state in every process. Jobs
// compare in breadth-first order (Compare), the order of the single run's queue: by depth, then by
// path, as Position explains.
type Job struct {
	Depth int
	Path  []uint8
}

// RootJob is the job of the whole tree: the initial state.
var RootJob = Job{}

// String is "DEPTH:PATH", the path as digits ("0:" for the root).
func (j Job) String() string {
	var b strings.Builder
	b.WriteString(strconv.Itoa(j.Depth))
	b.WriteByte(':')
	for _, c := range j.Path {
		b.WriteByte('0' + c)
	}
	return b.String()
}

// ParseJob reads Job.String's form.
func ParseJob(text string) (Job, error) {
	d, p, ok := strings.Cut(text, ":")
	depth, err := strconv.Atoi(d)
	if !ok || err != nil || depth < 0 || len(p) > depth {
		return Job{}, fmt.Errorf("want DEPTH:PATH (a path of at most DEPTH digits), found %q", text)
	}
	path := make([]uint8, len(p))
	for i := range p {
		if p[i] < '0' || p[i] > '9' {
			return Job{}, fmt.Errorf("want DEPTH:PATH (the path as digits), found %q", text)
		}
		path[i] = p[i] - '0'
	}
	return Job{Depth: depth, Path: path}, nil
}

// Compare orders two jobs' roots (or two states, by depth and path) in breadth-first order:
// -1, 0 or 1 as j comes before k.
func (j Job) Compare(k Job) int {
	return ComparePositions(Position{Depth: j.Depth, Path: j.Path}, 0, Position{Depth: k.Depth, Path: k.Path}, 0)
}

// Replay makes the root of job j from this engine's initial state: from each state above it,
// Expand, then the successor the path names (at a state with two or more successors not known
// unsatisfiable) or the only one not known unsatisfiable, whose path condition the solver then
// decides, as the run would before queueing it (with pruning). It fails when the path does not
// name a state of this program: a choice out of range or known unsatisfiable, a chain that ends
// above Depth, a path left over, or (with pruning) a state the solver finds unsatisfiable.
// Nothing is counted in Stats; the solver's queries are (Solver().Stats).
func (e *Engine) Replay(j Job) (*State, error) {
	st := e.Initial()
	next := 0
	var succ []*State
	for st.Depth < j.Depth {
		succ = e.Expand(st, succ[:0])
		if e.stopped != "" {
			return nil, fmt.Errorf("job %v: the replay stopped at depth %d: %s", j, st.Depth, e.stopped)
		}
		var known []int
		for i, s := range succ {
			if e.opts.NoPrune || s.PC.Status != pathcond.Unsat {
				known = append(known, i)
			}
		}
		var pick *State
		switch {
		case len(known) > 1:
			if next >= len(j.Path) {
				return nil, fmt.Errorf("job %v: the path ends at depth %d, where the program branches", j, st.Depth)
			}
			c := int(j.Path[next])
			next++
			if c >= len(succ) || (!e.opts.NoPrune && succ[c].PC.Status == pathcond.Unsat) {
				return nil, fmt.Errorf("job %v: choice %d at depth %d names no successor", j, c, st.Depth)
			}
			pick = succ[c]
		case len(known) == 1:
			pick = succ[known[0]]
		default:
			return nil, fmt.Errorf("job %v: the path ends at depth %d (no successor)", j, st.Depth)
		}
		if !e.opts.NoPrune {
			e.solver.Prepare(pick.PC)
			if e.solver.Check(pick.PC) == pathcond.Unsat {
				return nil, fmt.Errorf("job %v: the state at depth %d is unsatisfiable", j, pick.Depth)
			}
		}
		st = pick
	}
	if next != len(j.Path) {
		return nil, fmt.Errorf("job %v: %d choices left over at depth %d", j, len(j.Path)-next, j.Depth)
	}
	clear(succ)
	return st, nil
}

// StartAt makes root (a state of this engine: Initial's, or one Replay returned) the only pending
// state, so that the run explores root's subtree in the strategy's order. Only bfs and dfs runs
// (the engine's own queue) can start elsewhere.
func (e *Engine) StartAt(root *State) {
	if e.searcher != &e.queue {
		panic("engine.StartAt: only bfs and dfs runs start at a job's root")
	}
	clear(e.queue.items)
	e.queue.items, e.queue.head = append(e.queue.items[:0], root), 0
	e.cur, e.ahead = nil, nil
	e.mon.SetPending(1)
}

// PendingStates returns the pending states in the order the run would take them (bfs and dfs
// runs; a new slice).
func (e *Engine) PendingStates() []*State {
	if e.searcher != &e.queue {
		panic("engine.PendingStates: only bfs and dfs runs")
	}
	out := make([]*State, 0, e.queue.len())
	if e.queue.lifo {
		for i := len(e.queue.items) - 1; i >= e.queue.head; i-- {
			out = append(out, e.queue.items[i])
		}
		return out
	}
	return append(out, e.queue.items[e.queue.head:]...)
}

// JobPaths is an Observer that names every state of a run started at a job's root by its job
// (JobOf): the path of each successor is its parent's, plus the choice when the parent has two
// or more successors not known unsatisfiable. It keeps an entry for each pending state (a
// persistent list, shared by siblings).
type JobPaths struct {
	noPrune bool
	info    map[*State]*pathNode
	// cur is the state expanded last, and its path.
	cur     *State
	curPath *pathNode
}

// NewJobPaths returns the observer of a run started at root, the root of job j (of a run with
// pruning unless noPrune).
func NewJobPaths(root *State, j Job, noPrune bool) *JobPaths {
	var p *pathNode
	for _, c := range j.Path {
		p = &pathNode{up: p, choice: c, n: pathLen(p) + 1}
	}
	return &JobPaths{noPrune: noPrune, info: map[*State]*pathNode{root: p}}
}

// Expanded records the successors' paths (Observer).
func (t *JobPaths) Expanded(st *State, succ []*State) {
	p := t.info[st]
	delete(t.info, st)
	t.cur, t.curPath = st, p
	known := 0
	for _, s := range succ {
		if t.noPrune || s.PC.Status != pathcond.Unsat {
			known++
		}
	}
	for i, s := range succ {
		if !t.noPrune && s.PC.Status == pathcond.Unsat {
			continue // dropped without a query, never expanded
		}
		if known > 1 {
			t.info[s] = &pathNode{up: p, choice: uint8(i), n: pathLen(p) + 1}
		} else {
			t.info[s] = p
		}
	}
}

// Pruned forgets a successor pruning dropped (Observer).
func (t *JobPaths) Pruned(st *State) { delete(t.info, st) }

// JobOf returns the job whose root is st, the state expanded last or a pending one; ok is false
// for another state.
func (t *JobPaths) JobOf(st *State) (j Job, ok bool) {
	p, ok := t.info[st]
	if st == t.cur {
		p, ok = t.curPath, true
	}
	if !ok {
		return Job{}, false
	}
	j.Depth = st.Depth
	j.Path = make([]uint8, pathLen(p))
	for n, i := p, len(j.Path)-1; n != nil; n, i = n.up, i-1 {
		j.Path[i] = n.choice
	}
	return j, true
}

// Last returns the state expanded last (nil before the first).
func (t *JobPaths) Last() *State { return t.cur }
