package engine

import (
	"container/heap"

	"certsym/spec/syntax"
)

// The Coverage heuristic. The program's statement graph has a node per statement of the core
// program (macros inlined; skip and sequences are transparent) and an edge per step of the
// semantics between them: an assignment to its continuation and to its division-by-zero fail,
// a branch to the head of each branch, an assert to its continuation, its violation and its
// division fail, a loop to its unfolding, the end of a loop body back to the loop. A node is
// covered once a state with it at its head was expanded, an edge once a state that came along
// it was. The distance of a node is 0 when it is not covered, otherwise 1 + the least distance
// over its edges, an uncovered edge counting 0 for its target. A pending state's priority is 0
// when its own node or the edge it came along is uncovered, else its node's distance; finished
// states have the lowest priority. The heap holds (priority, age); coverage only grows, so
// priorities only grow: the top is re-scored when taken and put back when it got worse (lazy
// re-evaluation), O(log n) amortized per pick.

const farAway = int32(1 << 30)

// stmtGraph is the statement graph of a program.
type stmtGraph struct {
	ids   map[syntax.Stmt]int32
	succ  [][]int32
	pred  [][]int32
	edges map[[2]int32]bool // edge -> covered
	cov   []bool
	fail  []bool // the node is a Fail
	dist  []int32
	dirty bool
}

func newStmtGraph(prog *syntax.Program) *stmtGraph {
	g := &stmtGraph{ids: map[syntax.Stmt]int32{}, edges: map[[2]int32]bool{}}
	g.build(prog.Body, -1)
	g.pred = make([][]int32, len(g.succ))
	for u, vs := range g.succ {
		for _, v := range vs {
			g.pred[v] = append(g.pred[v], int32(u))
		}
	}
	g.cov = make([]bool, len(g.succ))
	g.fail = make([]bool, len(g.succ))
	for s, id := range g.ids {
		_, g.fail[id] = s.(*syntax.Fail)
	}
	g.dist = make([]int32, len(g.succ))
	g.dirty = true
	return g
}

func (g *stmtGraph) node(s syntax.Stmt) (int32, bool) {
	if id, ok := g.ids[s]; ok {
		return id, false
	}
	id := int32(len(g.succ))
	g.ids[s] = id
	g.succ = append(g.succ, nil)
	return id, true
}

func (g *stmtGraph) edge(u, v int32) {
	if _, ok := g.edges[[2]int32{u, v}]; ok || v < 0 {
		return
	}
	g.edges[[2]int32{u, v}] = false
	g.succ[u] = append(g.succ[u], v)
}

// build adds the nodes and edges of s, whose continuation starts at node next (-1: the end of
// the program), and returns the node s starts at.
func (g *stmtGraph) build(s syntax.Stmt, next int32) int32 {
	fail := func(u int32, f *syntax.Fail) {
		if f != nil {
			g.edge(u, g.build(f, -1))
		}
	}
	switch s := s.(type) {
	case *syntax.Seq:
		return g.build(s.First, g.build(s.Second, next))
	case *syntax.Skip:
		return next
	case *syntax.Fail:
		id, _ := g.node(s)
		return id
	case *syntax.Assign:
		id, _ := g.node(s)
		g.edge(id, next)
		fail(id, s.Err)
		return id
	case *syntax.Assume:
		id, _ := g.node(s)
		g.edge(id, next)
		fail(id, s.Err)
		return id
	case *syntax.Assert:
		id, _ := g.node(s)
		g.edge(id, next)
		fail(id, s.Violation)
		fail(id, s.Err)
		return id
	case *syntax.If:
		id, fresh := g.node(s)
		if fresh {
			g.edge(id, g.build(s.Then, next))
			g.edge(id, g.build(s.Else, next))
			fail(id, s.Err)
		}
		return id
	case *syntax.While:
		id, fresh := g.node(s)
		if fresh {
			u, _ := g.node(s.Unfold)
			g.edge(id, u)
			g.edge(u, g.build(s.Body, id))
			g.edge(u, g.build(s.Unfold.Else, next))
			fail(u, s.Unfold.Err)
		}
		return id
	}
	return next
}

// headNode is the node of the statement st executes next, skips passed over (-1: finished, or a
// statement the graph does not know).
func (g *stmtGraph) headNode(st *State) int32 {
	for k := st.Prog; k != nil; k = k.Next {
		k = k.head()
		if _, ok := k.S.(*syntax.Skip); ok {
			continue
		}
		if id, ok := g.ids[k.S]; ok {
			return id
		}
		return -1
	}
	return -1
}

// cover marks the node and the edge (from -1: none) covered.
func (g *stmtGraph) cover(from, node int32) {
	if node < 0 {
		return
	}
	if !g.cov[node] {
		g.cov[node], g.dirty = true, true
	}
	if from >= 0 {
		if c, ok := g.edges[[2]int32{from, node}]; ok && !c {
			g.edges[[2]int32{from, node}], g.dirty = true, true
		}
	}
}

// distances recomputes the distance of every node when the coverage changed: a search
// backwards from the targets, level by level (edges weigh 1). The targets are the uncovered
// nodes, at 0 for an error (a Fail: a bug finder's aim) and 1 for other statements, and the
// nodes with an uncovered edge, at 1 + the edge target's own weight.
func (g *stmtGraph) distances() {
	if !g.dirty {
		return
	}
	g.dirty = false
	var levels [][]int32
	set := func(u int32, d int32) {
		if d >= g.dist[u] {
			return
		}
		g.dist[u] = d
		for int(d) >= len(levels) {
			levels = append(levels, nil)
		}
		levels[d] = append(levels[d], u)
	}
	for u := range g.dist {
		g.dist[u] = farAway
	}
	for u := range g.dist {
		if !g.cov[u] {
			set(int32(u), g.weight(int32(u)))
		}
		for _, v := range g.succ[u] {
			if !g.edges[[2]int32{int32(u), v}] {
				set(int32(u), 1+g.weight(v))
			}
		}
	}
	for d := 0; d < len(levels); d++ {
		for _, v := range levels[d] {
			if g.dist[v] != int32(d) {
				continue
			}
			for _, u := range g.pred[v] {
				set(u, int32(d)+1)
			}
		}
	}
}

// weight is what reaching node v (uncovered) is worth: 0 for an error, 1 otherwise.
func (g *stmtGraph) weight(v int32) int32 {
	if g.fail[v] {
		return 0
	}
	return 1
}

// score is the priority of a pending entry under the current coverage: 0 for an error state,
// the weight of an uncovered node, 1 for a state that came along an uncovered edge, else its
// node's distance; farAway for a finished state.
func (g *stmtGraph) score(en *entry) int32 {
	switch {
	case en.node < 0:
		return farAway
	case g.fail[en.node]:
		return 0
	case !g.cov[en.node]:
		return 1
	}
	if en.fromNode >= 0 {
		if c, ok := g.edges[[2]int32{en.fromNode, en.node}]; ok && !c {
			return 1
		}
	}
	return g.dist[en.node]
}

// coverage is the Coverage heuristic.
type coverage struct {
	g *stmtGraph
	h entryHeap
}

func newCoverage(prog *syntax.Program) *coverage { return &coverage{g: newStmtGraph(prog)} }

func (c *coverage) add(parent *entry, kids []*entry) {
	c.g.distances()
	for _, en := range kids {
		en.node = c.g.headNode(en.st)
		if parent != nil {
			en.fromNode = parent.node
		}
		en.key = c.g.score(en)
		heap.Push(&c.h, en)
	}
}

func (c *coverage) pick() *entry {
	c.g.distances()
	for {
		en := c.h[0]
		if en.taken {
			heap.Pop(&c.h)
			continue
		}
		if s := c.g.score(en); s != en.key {
			en.key = s
			heap.Fix(&c.h, 0)
			continue
		}
		heap.Pop(&c.h)
		return en
	}
}

func (c *coverage) taken(en *entry) { c.g.cover(en.fromNode, en.node) }

// entryHeap orders entries by (key, age).
type entryHeap []*entry

func (h entryHeap) Len() int { return len(h) }
func (h entryHeap) Less(i, j int) bool {
	if h[i].key != h[j].key {
		return h[i].key < h[j].key
	}
	return h[i].seq < h[j].seq
}
func (h entryHeap) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *entryHeap) Push(x any)   { *h = append(*h, x.(*entry)) }
func (h *entryHeap) Pop() any {
	old := *h
	en := old[len(old)-1]
	old[len(old)-1] = nil
	*h = old[:len(old)-1]
	return en
}
