package search

import (
	"container/heap"
	"fmt"

	"certsym/cfg"
	"certsym/spec/syntax"
)

// The coverage heuristic, on the steps of the program's statement graph (cfg.Graph): a node per
// statement a state can be at the head of (every statement of the core program but skips and
// sequences, macros inlined; each loop's unfolding; each error target) and an edge per step of
// the semantics between them: an assignment (of a variable or of an array element) to its
// continuation and to its error targets (division by zero, index out of range), a branch to the
// head of each branch and to its error targets, an assert to its continuation, its violation
// and its error targets, a loop to its unfolding, the unfolding to its body, to what follows
// the loop and to its error targets, the end of a loop body back to the loop. A node is covered
// once a state with it at its head was expanded, an edge once a state that came along it was.
// The distance of a node is 0 when it is not covered, otherwise 1 + the least distance over its
// edges, an uncovered edge counting 0 for its target. A pending state's priority is 0 when its
// own node or the edge it came along is uncovered, else its node's distance; finished states
// have the lowest priority. The heap holds (priority, age); coverage only grows, so priorities
// only grow: the top is re-scored when taken and put back when it got worse (lazy
// re-evaluation), O(log n) amortized per pick.

// coverage is the coverage heuristic.
type coverage[S State] struct {
	g *cfg.Graph
	// cov says which nodes are covered, edgeCov which step edges (by index, cfg.Graph.StepEdge).
	// The nodes no state is ever at (the entry, the exit, the skips) and the steps to the exit
	// (a finished state is at no node) count as covered from the start: they are no target.
	cov, edgeCov []bool
	fail         []bool // the node is an error (a Fail)
	seed, dist   []int32
	dirty        bool // the coverage changed since the distances were computed
	h            entryHeap[S]
}

func newCoverage[S State](prog *syntax.Program) *coverage[S] {
	g := cfg.New(prog)
	n := g.Len()
	c := &coverage[S]{g: g, cov: make([]bool, n), edgeCov: make([]bool, g.StepEdges()), fail: make([]bool, n),
		seed: make([]int32, n), dist: make([]int32, n), dirty: true}
	for u := range n {
		switch s := g.Stmt(u).(type) {
		case nil, *syntax.Skip:
			c.cov[u] = true
		case *syntax.Fail:
			c.fail[u] = true
		case *syntax.Assign, *syntax.ArrAssign, *syntax.Assume, *syntax.Assert, *syntax.If, *syntax.While:
		default:
			panic(fmt.Sprintf("search: unexpected statement %T in the statement graph", s))
		}
		to, first := g.Steps(u)
		for k, v := range to {
			if v == g.Exit {
				c.edgeCov[first+k] = true
			}
		}
	}
	return c
}

// nodeOf is the node of the statement a state executes next (-1: finished).
func (c *coverage[S]) nodeOf(st S) int32 {
	if s := st.NextStmt(); s != nil {
		if n, ok := c.g.Node(s); ok {
			return int32(n)
		}
	}
	return -1
}

// cover marks the node and the edge (from -1: none) covered.
func (c *coverage[S]) cover(from, node int32) {
	if node < 0 {
		return
	}
	if !c.cov[node] {
		c.cov[node], c.dirty = true, true
	}
	if from >= 0 {
		if i := c.g.StepEdge(int64(from), int64(node)); i >= 0 && !c.edgeCov[i] {
			c.edgeCov[i], c.dirty = true, true
		}
	}
}

// distances recomputes the distance of every node when the coverage changed (cfg.Graph.Distances,
// edges weighing 1). The targets are the uncovered nodes, at 0 for an error (a Fail: a bug
// finder's aim) and 1 for other statements, and the nodes with an uncovered edge, at 1 + the
// edge target's own weight.
func (c *coverage[S]) distances() {
	if !c.dirty {
		return
	}
	c.dirty = false
	for u := range c.g.Len() {
		s := cfg.Far
		if !c.cov[u] {
			s = c.weight(u)
		}
		to, first := c.g.Steps(u)
		for k, v := range to {
			if !c.edgeCov[first+k] {
				s = min(s, 1+c.weight(v))
			}
		}
		c.seed[u] = s
	}
	c.g.Distances(c.seed, c.dist)
}

// weight is what reaching node v (uncovered) is worth: 0 for an error, 1 otherwise.
func (c *coverage[S]) weight(v int64) int32 {
	if c.fail[v] {
		return 0
	}
	return 1
}

// score is the priority of a pending entry under the current coverage: 0 for an error state,
// the weight of an uncovered node, 1 for a state that came along an uncovered edge, else its
// node's distance; cfg.Far for a finished state.
func (c *coverage[S]) score(en *entry[S]) int32 {
	switch {
	case en.node < 0:
		return cfg.Far
	case c.fail[en.node]:
		return 0
	case !c.cov[en.node]:
		return 1
	}
	if en.fromNode >= 0 {
		if i := c.g.StepEdge(int64(en.fromNode), int64(en.node)); i >= 0 && !c.edgeCov[i] {
			return 1
		}
	}
	return c.dist[en.node]
}

func (c *coverage[S]) add(parent *entry[S], kids []*entry[S]) {
	c.distances()
	for _, en := range kids {
		en.node = c.nodeOf(en.st)
		if parent != nil {
			en.fromNode = parent.node
		}
		en.key = c.score(en)
		heap.Push(&c.h, en)
	}
}

func (c *coverage[S]) pick() *entry[S] {
	c.distances()
	for {
		en := c.h[0]
		if en.taken {
			heap.Pop(&c.h)
			continue
		}
		if s := c.score(en); s != en.key {
			en.key = s
			heap.Fix(&c.h, 0)
			continue
		}
		heap.Pop(&c.h)
		return en
	}
}

func (c *coverage[S]) taken(en *entry[S]) { c.cover(en.fromNode, en.node) }

// entryHeap orders entries by (key, age).
type entryHeap[S any] []*entry[S]

func (h entryHeap[S]) Len() int { return len(h) }
func (h entryHeap[S]) Less(i, j int) bool {
	if h[i].key != h[j].key {
		return h[i].key < h[j].key
	}
	return h[i].seq < h[j].seq
}
func (h entryHeap[S]) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *entryHeap[S]) Push(x any)   { *h = append(*h, x.(*entry[S])) }
func (h *entryHeap[S]) Pop() any {
	old := *h
	en := old[len(old)-1]
	old[len(old)-1] = nil
	*h = old[:len(old)-1]
	return en
}
