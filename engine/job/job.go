// Package job names the subtrees of the execution tree that distributed and parallel runs hand
// out as units of work: a job is the subtree under one state, named by that state's depth and
// path of branch choices from the root, and any engine of the same program and options rebuilds
// its root from the program alone (Replay).
package job

import (
	"fmt"
	"strconv"
	"strings"

	"certsym/engine"
	"certsym/internal/fault"
	"certsym/pathcond"
)

// A Job is a subtree of the execution tree that another process or goroutine explores (package
// distrib). It is the
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

// Root is the job of the whole tree: the initial state.
var Root = Job{}

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

// Parse reads Job.String's form.
func Parse(text string) (Job, error) {
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
	return engine.ComparePositions(engine.Position{Depth: j.Depth, Path: j.Path}, 0, engine.Position{Depth: k.Depth, Path: k.Path}, 0)
}

// Replay makes the root of job j from this engine's initial state: from each state above it,
// Expand, then the successor the path names (at a state with two or more successors not known
// unsatisfiable) or the only one not known unsatisfiable, whose path condition the solver then
// decides, as the run would before queueing it (with pruning). It fails when the path does not
// name a state of this program: a choice out of range or known unsatisfiable, a chain that ends
// above Depth, a path left over, or (with pruning) a state the solver finds unsatisfiable.
// noPrune is the run's Options.NoPrune. Nothing is counted in the engine's Stats; the solver's
// queries are (Solver().Stats).
//
// root, when not nil, is the answer the engine that split the job off gave on its root's path
// condition (pathcond.Answer). Where this engine's solver answers otherwise (a time or resource
// bound cut one of the two short and not the other), the root takes it: the job is explored, and
// its root's error classified, under the one answer its splitter counted, as the single run asks
// each path condition once. Where the two agree, the root keeps this solver's model, which the
// replay of the path from the initial state made as the single run makes its models along a path
// (the splitter's model, made after other paths, would change the models below and with them
// the queries the single run asks and the inputs it prints).
func Replay(e *engine.Engine, j Job, noPrune bool, root *pathcond.Answer) (*engine.State, error) {
	st := e.Initial()
	next := 0
	var succ []*engine.State
	for st.Depth < j.Depth {
		succ = e.Expand(st, succ[:0])
		if e.Stopped() != "" {
			return nil, fmt.Errorf("job %v: the replay stopped at depth %d: %s", j, st.Depth, e.Stopped())
		}
		pick, err := choose(succ, j, &next, st.Depth, noPrune)
		if err != nil {
			return nil, err
		}
		if !noPrune {
			e.Solver().Prepare(pick.PC)
			status := e.Solver().Check(pick.PC)
			switch {
			case root != nil && pick.Depth == j.Depth && status != root.Status:
				pick.PC.Take(root) // the splitter's answer stands (see above)
			case status == pathcond.Unsat:
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

// Walk makes the state of job j from this engine's initial state as the engine that confirms the
// bugs of a partitioned run does (package steal's confirmer): from each state above it,
// ExpandStep, the successor the path names, and (with pruning) the solver's decision on that
// successor's path condition, nothing else. Two engines of the same program and options that walk
// the same jobs in the same order ask their solvers the same queries in the same order, and so
// find the same models: a distributed run's coordinator and run --workers confirm their bugs
// alike. It fails as Replay does when the path names no state.
func Walk(e *engine.Engine, j Job, noPrune bool) (*engine.State, error) {
	if fault.Active == fault.ConfirmWrongChoice && len(j.Path) > 0 {
		j.Path = append([]uint8(nil), j.Path...)
		j.Path[len(j.Path)-1] ^= 1
	}
	st := e.Initial()
	next := 0
	var succ []*engine.State
	for st.Depth < j.Depth {
		succ, _ = e.ExpandStep(st, succ[:0])
		pick, err := choose(succ, j, &next, st.Depth, noPrune)
		if err != nil {
			return nil, err
		}
		if !noPrune {
			e.Solver().Check(pick.PC)
		}
		st = pick
	}
	if next != len(j.Path) {
		return nil, fmt.Errorf("job %v: %d choices left over at depth %d", j, len(j.Path)-next, j.Depth)
	}
	clear(succ)
	return st, nil
}

// choose is the successor of the state at depth d (its successors succ) on job j's path, *next
// the index of the path's next choice: the one the path names where two or more successors are
// not known unsatisfiable (or, without pruning, where there are two or more), else the only one.
func choose(succ []*engine.State, j Job, next *int, d int, noPrune bool) (*engine.State, error) {
	var known []int
	for i, s := range succ {
		if noPrune || s.PC.Status != pathcond.Unsat {
			known = append(known, i)
		}
	}
	switch {
	case len(known) > 1:
		if *next >= len(j.Path) {
			return nil, fmt.Errorf("job %v: the path ends at depth %d, where the program branches", j, d)
		}
		c := int(j.Path[*next])
		*next++
		if c >= len(succ) || (!noPrune && succ[c].PC.Status == pathcond.Unsat) {
			return nil, fmt.Errorf("job %v: choice %d at depth %d names no successor", j, c, d)
		}
		return succ[c], nil
	case len(known) == 1:
		return succ[known[0]], nil
	}
	return nil, fmt.Errorf("job %v: the path ends at depth %d (no successor)", j, d)
}

// Paths is an engine.Observer that names every state of a run started at a job's root by its job
// (JobOf): the path of each successor is its parent's, plus the choice when the parent has two
// or more successors not known unsatisfiable. It keeps an entry for each pending state (a
// persistent list, shared by siblings).
type Paths struct {
	noPrune bool
	info    map[*engine.State]*pathNode
	// cur is the state expanded last, and its path.
	cur     *engine.State
	curPath *pathNode
}

// NewPaths returns the observer of a run started at root, the root of job j (of a run with
// pruning unless noPrune).
func NewPaths(root *engine.State, j Job, noPrune bool) *Paths {
	var p *pathNode
	for _, c := range j.Path {
		p = &pathNode{up: p, choice: c, n: pathLen(p) + 1}
	}
	return &Paths{noPrune: noPrune, info: map[*engine.State]*pathNode{root: p}}
}

// Expanded records the successors' paths (Observer).
func (t *Paths) Expanded(st *engine.State, succ []*engine.State) {
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
func (t *Paths) Pruned(st *engine.State) { delete(t.info, st) }

// JobOf returns the job whose root is st, the state expanded last or a pending one; ok is false
// for another state.
func (t *Paths) JobOf(st *engine.State) (j Job, ok bool) {
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
func (t *Paths) Last() *engine.State { return t.cur }

// pathNode is a persistent list of a path's choices, newest first.
type pathNode struct {
	up     *pathNode
	choice uint8
	n      int32
}

func pathLen(p *pathNode) int32 {
	if p == nil {
		return 0
	}
	return p.n
}
