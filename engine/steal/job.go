package steal

import (
	"fmt"
	"strings"
)

// A Job is a subtree of the execution tree, named by the state at its root: the state reached from
// the initial state in Depth steps that takes, at each state with two or more successors (Expand's
// successors, counted before pruning: their number depends on the statement and the store alone),
// the successor Path[k] of the k-th such state, and the only successor at the others. A job is
// data, with no state, term or solver object in it, so that another worker, or another process,
// can replay it on a solver of its own (worker.replay). Two states of one depth are in
// breadth-first order when their paths are in lexicographic order (package engine's Position).
type Job struct {
	Depth int
	Path  []uint8
}

// String is the job as DEPTH:PATH, the path as digits ("3:" for a state at depth 3 above every
// branching).
func (j Job) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d:", j.Depth)
	for _, c := range j.Path {
		b.WriteByte('0' + c)
	}
	return b.String()
}

// node is a path of branch choices as a persistent list, newest first: the choice at the last
// branching and the path above it. One node stands for every state between two branchings (the
// states with one successor keep their parent's). The nodes are shared by every worker of a run
// and never written after they are made; the path of the root is nil.
type node struct {
	up     *node
	n      int32 // the number of choices on the path
	choice uint8
}

func (p *node) len() int32 {
	if p == nil {
		return 0
	}
	return p.n
}

// child is the path of the successor i of a branching whose path is p.
func (p *node) child(i int) *node { return &node{up: p, n: p.len() + 1, choice: uint8(i)} }

// choices returns the path as a slice, oldest choice first.
func (p *node) choices() []uint8 {
	out := make([]uint8, p.len())
	for q, i := p, len(out)-1; q != nil; q, i = q.up, i-1 {
		out[i] = q.choice
	}
	return out
}

// ancestors returns the paths on the way to p: ancestors(p)[k] has k choices, the last one is p.
func (p *node) ancestors() []*node {
	out := make([]*node, p.len()+1)
	for q := p; q != nil; q = q.up {
		out[q.n] = q
	}
	return out
}

// compare orders the paths of two states of one depth lexicographically: -1, 0 or 1. Neither is
// a proper prefix of the other (a state below a branching is deeper than every state above it),
// so they are equal or differ at the choice just below their last common node; the nodes are
// shared, so that node is found by walking up from both.
func compare(a, b *node) int {
	for a.len() > b.len() {
		a = a.up
	}
	for b.len() > a.len() {
		b = b.up
	}
	if a == b {
		return 0
	}
	for a.up != b.up {
		a, b = a.up, b.up
	}
	switch {
	case a.choice < b.choice:
		return -1
	case a.choice > b.choice:
		return 1
	}
	return 0
}
