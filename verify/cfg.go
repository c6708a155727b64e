package verify

import (
	"sort"

	"gonum.org/v1/gonum/graph"
	"gonum.org/v1/gonum/graph/simple"
	"gonum.org/v1/gonum/graph/topo"

	"certsym/spec"
)

// CFG is the control-flow graph of a program (gonum simple.DirectedGraph): one node per statement
// other than a sequence (assignment, conditional, loop, assert, assume, skip, fail), plus an entry
// and an exit node. An edge goes from a statement to each statement that may run next: a
// conditional to the first statement of each branch, a loop to the first statement of its body
// and to what follows the loop, the last statement of a loop body back to the loop. certsym
// verify uses it to decide which claims a cutoff may reach.
type CFG struct {
	G           *simple.DirectedGraph
	Entry, Exit int64
	node        map[spec.Stmt]int64
	stmt        map[int64]spec.Stmt
}

// NewCFG builds the control-flow graph of prog.
func NewCFG(prog *spec.Program) *CFG {
	c := &CFG{G: simple.NewDirectedGraph(), node: map[spec.Stmt]int64{}, stmt: map[int64]spec.Stmt{}}
	c.Entry = c.add(nil)
	c.Exit = c.add(nil)
	first := c.build(prog.Body, c.Exit)
	c.edge(c.Entry, first)
	return c
}

func (c *CFG) add(s spec.Stmt) int64 {
	n := c.G.NewNode()
	c.G.AddNode(n)
	if s != nil {
		c.node[s] = n.ID()
		c.stmt[n.ID()] = s
	}
	return n.ID()
}

func (c *CFG) edge(from, to int64) {
	if from != to {
		c.G.SetEdge(c.G.NewEdge(c.G.Node(from), c.G.Node(to)))
	}
}

// build adds the nodes of s, whose control goes on to next, and returns the node s starts at.
func (c *CFG) build(s spec.Stmt, next int64) int64 {
	switch s := s.(type) {
	case *spec.Seq:
		return c.build(s.First, c.build(s.Second, next))
	case *spec.If:
		n := c.add(s)
		c.edge(n, c.build(s.Then, next))
		c.edge(n, c.build(s.Else, next))
		return n
	case *spec.While:
		n := c.add(s)
		c.edge(n, c.build(s.Body, n))
		c.edge(n, next)
		return n
	case *spec.Fail: // an error: the run ends
		return c.add(s)
	}
	n := c.add(s)
	c.edge(n, next)
	return n
}

// Node returns the node of statement s and whether s has one.
func (c *CFG) Node(s spec.Stmt) (int64, bool) {
	n, ok := c.node[s]
	return n, ok
}

// Stmt returns the statement of node n (nil for the entry and exit nodes).
func (c *CFG) Stmt(n int64) spec.Stmt { return c.stmt[n] }

// Reaches reports whether control can flow from statement from to statement to (a statement
// reaches itself).
func (c *CFG) Reaches(from, to spec.Stmt) bool {
	f, ok1 := c.node[from]
	t, ok2 := c.node[to]
	if !ok1 || !ok2 {
		return false
	}
	return f == t || topo.PathExistsIn(c.G, c.G.Node(f), c.G.Node(t))
}

// Path returns a shortest control-flow path from statement from to statement to, as the
// statements along it (both ends included), or nil when there is none. Among several shortest
// paths it returns the same one on every run: a breadth-first search that takes successors by
// increasing node number (gonum's graphs iterate their edges in no fixed order).
func (c *CFG) Path(from, to spec.Stmt) []spec.Stmt {
	f, ok1 := c.node[from]
	t, ok2 := c.node[to]
	if !ok1 || !ok2 {
		return nil
	}
	prev := map[int64]int64{f: f}
	for queue := []int64{f}; len(queue) > 0; queue = queue[1:] {
		if _, found := prev[t]; found {
			break
		}
		succ := graph.NodesOf(c.G.From(queue[0]))
		sort.Slice(succ, func(i, j int) bool { return succ[i].ID() < succ[j].ID() })
		for _, n := range succ {
			if _, seen := prev[n.ID()]; !seen {
				prev[n.ID()] = queue[0]
				queue = append(queue, n.ID())
			}
		}
	}
	if _, found := prev[t]; !found {
		return nil
	}
	var out []spec.Stmt
	for n := t; ; n = prev[n] {
		out = append([]spec.Stmt{c.stmt[n]}, out...)
		if n == f {
			return out
		}
	}
}
