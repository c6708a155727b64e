// Package cfg is the statement graph of an IMP program, over the statements of its syntax tree,
// seen two ways. Its control flow (the edges between the statements of the source) is what
// certsym verify decides cutoff reachability on: reachability, paths and chops between
// statements, and a gonum view for gonum's algorithms. Its steps (the edges of the semantics
// between the statements a state can be at the head of, loop unfoldings and error targets
// included) are what the coverage search heuristic measures distances on: Steps, Distances.
package cfg

import (
	"fmt"
	"slices"

	"gonum.org/v1/gonum/graph"
	"gonum.org/v1/gonum/graph/iterator"
	"gonum.org/v1/gonum/graph/simple"
	"gonum.org/v1/gonum/graph/topo"

	"certsym/internal/fault"
	"certsym/spec/syntax"
)

// Graph is the statement graph of a program. Its control-flow nodes are one per statement of the
// syntax tree other than a sequence (assignment, element assignment, conditional, loop, assert,
// assume, skip, fail), plus an entry and an exit node; a control-flow edge goes from a statement
// to each statement that may run next: a conditional to the first statement of each branch, a
// loop to the first statement of its body and to what follows the loop, the last statement of a
// loop body back to the loop. A loop's invariant clauses (Asserts) are statements too: the loop
// goes to its first clause, each clause to the next, the last back to the loop (whose node
// stands for its test), and the last statement of the body to the first clause, which is how
// every arrival at the loop's head checks them ([S-While-Inv]); the edges from the loop to its
// body and to what follows are kept, which changes no reachability. certsym verify uses them to decide which claims (and which
// statements, Report.Code) a cutoff may reach.
//
// The steps add the nodes the semantics reaches that are not statements of the source: each
// loop's one-step unfolding (While.Unfold, [S-While]) and each error target (the Fail of a
// division by zero, Err; of an index out of range, IdxErr; of a violated assert, Violation). A
// step edge goes from a node to each node a state at its head may be at after one step of the
// semantics, skips passed over (a state is never at a skip: skip ; p steps as p): a loop to its
// unfolding, the unfolding to its body and to what follows the loop, a loop with invariant
// clauses also to its first clause (its first arrival; the loop that runs, While.Loop, has the
// loop's node), a statement to its
// continuation and to its error targets, a conditional to its branches. A step that finishes
// the program goes to the exit node. The coverage heuristic measures on them the distance of a
// state to the code no state has covered yet (Distances).
//
// Nodes are numbered 0, 1, ... in the order they are made (Entry 0, Exit 1, then the statements:
// a sequence from its last statement back, a conditional or loop before its branches or body;
// then the unfoldings and error targets, after every control-flow node), and the edges are kept
// in slices, so that building the graph and searching it take time linear in the size of the
// program. G is the control flow seen as a gonum graph.Directed, for gonum's algorithms.
type Graph struct {
	G           graph.Directed
	Entry, Exit int64
	stmt        []syntax.Stmt // by node
	node        map[syntax.Stmt]int64
	flowNodes   int64 // nodes 0 to flowNodes-1 are the control-flow nodes; the others are steps' only
	// The control-flow edges, while building; then, in compressed rows, the successors of node n
	// are succ[at[n]:at[n+1]] in increasing order, and the predecessors likewise in pre (made on
	// first use).
	edges     [][2]int64
	at, back  []int
	succ, pre []int64
	// The step edges in compressed rows, likewise: the steps from n are step[stepAt[n]:stepAt[n+1]]
	// (an edge is known by its index in step), the steps to n stepPre[stepBack[n]:stepBack[n+1]].
	stepAt, stepBack []int
	step, stepPre    []int64
	// tree caches, per source node, the breadth-first tree of Path (the parent of each node
	// reached, -1 for the others), so that the paths from one cutoff to many claims cost one
	// search.
	tree map[int64][]int64
}

// New builds the statement graph of prog.
func New(prog *syntax.Program) *Graph {
	c := &Graph{tree: map[int64][]int64{}}
	c.G = cfgGraph{c}
	c.Entry = c.add(nil)
	c.Exit = c.add(nil)
	first := c.build(prog.Body, c.Exit)
	c.edge(c.Entry, first)
	c.flowNodes = int64(len(c.stmt))
	c.node = make(map[syntax.Stmt]int64, len(c.stmt))
	for n, s := range c.stmt {
		if s != nil {
			c.node[s] = int64(n)
		}
	}
	c.at, c.succ = rows(len(c.stmt), c.edges, false)
	c.edges = nil
	steps := c.steps()
	c.stepAt, c.step = rows(len(c.stmt), steps, false)
	c.stepBack, c.stepPre = rows(len(c.stmt), steps, true)
	return c
}

// rows packs edges into compressed rows over n nodes, by source (by target when reverse), each
// row in increasing order: the row of node k is list[at[k]:at[k+1]].
func rows(n int, edges [][2]int64, reverse bool) (at []int, list []int64) {
	from, to := 0, 1
	if reverse {
		from, to = 1, 0
	}
	at = make([]int, n+1)
	for _, e := range edges {
		at[e[from]+1]++
	}
	for k := 0; k < n; k++ {
		at[k+1] += at[k]
	}
	list = make([]int64, len(edges))
	fill := slices.Clone(at[:n])
	for _, e := range edges {
		list[fill[e[from]]] = e[to]
		fill[e[from]]++
	}
	for k := 0; k < n; k++ {
		slices.Sort(list[at[k]:at[k+1]])
	}
	return at, list
}

// from is the control-flow successors of node n, in increasing order (none for the nodes of the
// steps only).
func (c *Graph) from(n int64) []int64 {
	if n >= c.flowNodes {
		return nil
	}
	return c.succ[c.at[n]:c.at[n+1]]
}

// to is the control-flow predecessors of node n, in increasing order.
func (c *Graph) to(n int64) []int64 {
	if n >= c.flowNodes {
		return nil
	}
	if c.back == nil {
		edges := make([][2]int64, 0, len(c.succ))
		for k := range c.flowNodes {
			for _, m := range c.from(k) {
				edges = append(edges, [2]int64{k, m})
			}
		}
		c.back, c.pre = rows(int(c.flowNodes), edges, true)
	}
	return c.pre[c.back[n]:c.back[n+1]]
}

func (c *Graph) add(s syntax.Stmt) int64 {
	n := int64(len(c.stmt))
	c.stmt = append(c.stmt, s)
	return n
}

// edge adds an edge. The graph is simple: no loops, and build makes no parallel edges (the
// branches of a conditional and the body of a loop start at nodes of their own).
func (c *Graph) edge(from, to int64) {
	if from != to {
		c.edges = append(c.edges, [2]int64{from, to})
	}
}

// build adds the control-flow nodes and edges of s, whose control goes on to next, and returns
// the node s starts at.
// It keeps its own stack of pending work instead of recursing, so that building the graph of
// 100,000 nested statements costs heap, not Go stack; the nodes are made in the order of the
// recursive definition: a sequence from its last statement back, a conditional or loop before
// its branches or body, the then branch before the else branch.
func (c *Graph) build(s syntax.Stmt, next int64) int64 {
	// job builds statement s, whose control goes on to *next, and stores its first node in
	// *res; a job with no statement adds the edge from to *res.
	type job struct {
		s         syntax.Stmt
		next, res *int64
		from      int64
	}
	var first int64
	stack := []job{{s: s, next: &next, res: &first}}
	for len(stack) > 0 {
		j := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if j.s == nil {
			c.edge(j.from, *j.res)
			continue
		}
		switch s := j.s.(type) {
		case *syntax.Seq:
			var items []syntax.Stmt
			var cur syntax.Stmt = s
			for {
				sq, ok := cur.(*syntax.Seq)
				if !ok {
					break
				}
				items = append(items, sq.First)
				cur = sq.Second
			}
			items = append(items, cur)
			firsts := make([]int64, len(items))
			// Pushed first to last, popped last to first: each statement's next is the first
			// node of the one after it, built before it.
			for i, it := range items {
				nx, res := j.next, j.res
				if i < len(items)-1 {
					nx = &firsts[i+1]
				}
				if i > 0 {
					res = &firsts[i]
				}
				stack = append(stack, job{s: it, next: nx, res: res})
			}
		case *syntax.If:
			n := c.add(s)
			*j.res = n
			th, el := new(int64), new(int64)
			stack = append(stack, job{from: n, res: el}, job{s: s.Else, next: j.next, res: el},
				job{from: n, res: th}, job{s: s.Then, next: j.next, res: th})
		case *syntax.While:
			n := c.add(s)
			*j.res = n
			self, body := new(int64), new(int64)
			*self = n
			// The invariant clauses: from the loop to the first, each to the next, the last back
			// to the loop's test; the body's last statement goes back to the first clause.
			from := n
			for k, inv := range s.Invariants {
				a := c.add(inv)
				c.edge(from, a)
				if k == 0 {
					*self = a
				}
				from = a
			}
			c.edge(from, n)
			c.edge(n, *j.next)
			if fault.Active == fault.CFGNoBackEdge { // fault injection (build tag faults only)
				self = j.next
			}
			stack = append(stack, job{from: n, res: body}, job{s: s.Body, next: self, res: body})
		case *syntax.Fail: // an error: the run ends
			*j.res = c.add(s)
		case *syntax.Assign, *syntax.ArrAssign, *syntax.Assume, *syntax.Assert, *syntax.Skip:
			n := c.add(s)
			c.edge(n, *j.next)
			*j.res = n
		default:
			panic(fmt.Sprintf("cfg: unexpected statement %T", s))
		}
	}
	return first
}

// steps makes the nodes of the steps that are not control-flow nodes (the loops' unfoldings, the
// error targets) and returns the step edges, from the control-flow graph: for each control-flow
// node in turn, its control-flow successors, skips passed over, become its step successors (a
// loop's, its unfolding's, the loop stepping to its unfolding), and its error targets are added.
func (c *Graph) steps() [][2]int64 {
	var out [][2]int64
	// skipped is n with the skips from it passed over: the first node from n that is not a skip.
	skipped := func(n int64) int64 {
		for {
			if _, ok := c.stmt[n].(*syntax.Skip); !ok {
				return n
			}
			n = c.from(n)[0]
		}
	}
	// target returns the node of an error target, made on first use.
	target := func(f *syntax.Fail) int64 {
		if n, ok := c.node[f]; ok {
			return n
		}
		n := c.add(f)
		c.node[f] = n
		return n
	}
	var kids []int64
	// edges adds the step edges from n to its control-flow successors (skips passed over) and to
	// the error targets fails (nil ones left out), each once.
	edges := func(n, flow int64, fails ...*syntax.Fail) {
		kids = kids[:0]
		for _, m := range c.from(flow) {
			kids = append(kids, skipped(m))
		}
		for _, f := range fails {
			if f != nil {
				kids = append(kids, target(f))
			}
		}
		for i, m := range kids {
			if !slices.Contains(kids[:i], m) {
				out = append(out, [2]int64{n, m})
			}
		}
	}
	for n := range c.flowNodes {
		switch s := c.stmt[n].(type) {
		case nil, *syntax.Skip, *syntax.Fail: // the entry and exit nodes, a skip (never at a state's head), an error (the run ends)
		case *syntax.Assign:
			edges(n, n, s.Err, s.IdxErr)
		case *syntax.ArrAssign:
			edges(n, n, s.Err, s.IdxErr)
		case *syntax.Assume:
			edges(n, n, s.Err, s.IdxErr)
		case *syntax.Assert:
			edges(n, n, s.Violation, s.Err, s.IdxErr)
		case *syntax.If:
			edges(n, n, s.Err, s.IdxErr)
		case *syntax.While:
			u := c.add(s.Unfold)
			c.node[s.Unfold] = u
			out = append(out, [2]int64{n, u})
			if len(s.Invariants) == 0 {
				edges(u, n, s.Unfold.Err, s.Unfold.IdxErr)
				break
			}
			// [S-While-Inv]: the loop (its first arrival) steps to its first clause; the loop
			// that runs (While.Loop), at this node too, to the unfolding, which steps to the
			// body and to what follows the loop, not to the clause.
			c.node[s.Loop] = n
			a := c.node[s.Invariants[0]]
			out = append(out, [2]int64{n, a})
			at := len(out)
			edges(u, n, s.Unfold.Err, s.Unfold.IdxErr)
			out = append(out[:at], slices.DeleteFunc(out[at:], func(e [2]int64) bool { return e[1] == a })...)
		default:
			panic(fmt.Sprintf("cfg: unexpected statement %T", s))
		}
	}
	return out
}

// Node returns the node of statement s and whether s has one: a statement of the program's
// syntax tree, a loop's unfolding or an error target.
func (c *Graph) Node(s syntax.Stmt) (int64, bool) {
	n, ok := c.node[s]
	return n, ok
}

// flowNode is Node for the control-flow nodes only: the statements of the syntax tree.
func (c *Graph) flowNode(s syntax.Stmt) (int64, bool) {
	n, ok := c.node[s]
	return n, ok && n < c.flowNodes
}

// Stmt returns the statement of node n (nil for the entry and exit nodes).
func (c *Graph) Stmt(n int64) syntax.Stmt {
	if n < 0 || n >= int64(len(c.stmt)) {
		return nil
	}
	return c.stmt[n]
}

// Reaches reports whether control can flow from statement from to statement to (a statement
// reaches itself).
func (c *Graph) Reaches(from, to syntax.Stmt) bool {
	f, ok1 := c.flowNode(from)
	t, ok2 := c.flowNode(to)
	if !ok1 || !ok2 {
		return false
	}
	return c.bfs(f)[t] >= 0
}

// bfs returns the breadth-first tree from node f (cached): the parent of each node reached (f is
// its own parent), -1 for the nodes f does not reach. Successors are taken by increasing node
// number, so among several shortest paths the tree holds the same one on every run.
func (c *Graph) bfs(f int64) []int64 {
	if t, ok := c.tree[f]; ok {
		return t
	}
	prev := make([]int64, len(c.stmt))
	for i := range prev {
		prev[i] = -1
	}
	prev[f] = f
	queue := []int64{f}
	for len(queue) > 0 {
		n := queue[0]
		queue = queue[1:]
		for _, m := range c.from(n) {
			if prev[m] < 0 {
				prev[m] = n
				queue = append(queue, m)
			}
		}
	}
	c.tree[f] = prev
	return prev
}

// Path returns a shortest control-flow path from statement from to statement to, as the
// statements along it (both ends included), or nil when there is none. Among several shortest
// paths it returns the same one on every run (bfs).
func (c *Graph) Path(from, to syntax.Stmt) []syntax.Stmt {
	f, ok1 := c.flowNode(from)
	t, ok2 := c.flowNode(to)
	if !ok1 || !ok2 {
		return nil
	}
	prev := c.bfs(f)
	if prev[t] < 0 {
		return nil
	}
	var out []syntax.Stmt
	for n := t; ; n = prev[n] {
		out = append(out, c.stmt[n])
		if n == f {
			break
		}
	}
	slices.Reverse(out)
	return out
}

// Owners maps each statement that some statement of starts reaches (itself included) to the
// index in starts of the first one that reaches it; a nil start, or one without a node, reaches
// nothing. Sweeping starts in order, a sweep stops at a node an earlier start reaches: whatever
// that node reaches, the earlier start reaches too, so each node is visited once.
func (c *Graph) Owners(starts []syntax.Stmt) map[syntax.Stmt]int {
	by := map[syntax.Stmt]int{}
	owner := make([]int, len(c.stmt)) // the index of the owning start plus one; 0: none yet
	for i, s := range starts {
		if s == nil {
			continue
		}
		n, ok := c.flowNode(s)
		if !ok || owner[n] != 0 {
			continue
		}
		owner[n] = i + 1
		stack := []int64{n}
		for len(stack) > 0 {
			m := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if st := c.stmt[m]; st != nil {
				by[st] = i
			}
			for _, k := range c.from(m) {
				if owner[k] == 0 {
					owner[k] = i + 1
					stack = append(stack, k)
				}
			}
		}
	}
	return by
}

// Forward returns the nodes some node of from reaches (from included), as a set indexed by node.
func (c *Graph) Forward(from []int64) []bool {
	return c.sweep(from, c.from)
}

// Backward returns the nodes that reach some node of to (to included), as a set indexed by node.
func (c *Graph) Backward(to []int64) []bool {
	return c.sweep(to, c.to)
}

// sweep is the set of nodes reached from start along the edges adj, in time linear in the graph.
func (c *Graph) sweep(start []int64, adj func(int64) []int64) []bool {
	seen := make([]bool, len(c.stmt))
	stack := []int64{}
	for _, n := range start {
		if !seen[n] {
			seen[n] = true
			stack = append(stack, n)
		}
	}
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, m := range adj(n) {
			if !seen[m] {
				seen[m] = true
				stack = append(stack, m)
			}
		}
	}
	return seen
}

// Chop returns the statements on some control-flow path from statement from to one of the
// statements to (the ends included), in source order (by position, then by node), or nil when
// from reaches none of them: the chop of program slicing, the part of the program a cutoff at
// from may run before it reaches them. It takes time linear in the graph.
func (c *Graph) Chop(from syntax.Stmt, to ...syntax.Stmt) []syntax.Stmt {
	f, ok := c.flowNode(from)
	if !ok {
		return nil
	}
	fw := c.Forward([]int64{f})
	var ts []int64
	for _, s := range to {
		if t, ok := c.flowNode(s); ok && fw[t] {
			ts = append(ts, t)
		}
	}
	if len(ts) == 0 {
		return nil
	}
	bw := c.Backward(ts)
	var ns []int64
	for n := range int64(len(c.stmt)) {
		if fw[n] && bw[n] && c.stmt[n] != nil {
			ns = append(ns, n)
		}
	}
	slices.SortStableFunc(ns, func(a, b int64) int {
		la := c.stmt[a].Location()
		lb := c.stmt[b].Location()
		if d := comparePos(la.Pos(), lb.Pos()); d != 0 {
			return d
		}
		return comparePos(la.P, lb.P)
	})
	out := make([]syntax.Stmt, len(ns))
	for i, n := range ns {
		out[i] = c.stmt[n]
	}
	return out
}

func comparePos(a, b syntax.Pos) int {
	if a.Line != b.Line {
		return a.Line - b.Line
	}
	return a.Col - b.Col
}

// PathExists is Reaches computed by gonum (topo.PathExistsIn over G): the crosscheck of the
// graph view in the tests.
func (c *Graph) PathExists(from, to syntax.Stmt) bool {
	f, ok1 := c.flowNode(from)
	t, ok2 := c.flowNode(to)
	return ok1 && ok2 && topo.PathExistsIn(c.G, c.G.Node(f), c.G.Node(t))
}

// cfgGraph is the Graph's control flow as a gonum graph.Directed (nodes simple.Node, edges
// simple.Edge).
type cfgGraph struct{ c *Graph }

func (g cfgGraph) has(id int64) bool { return id >= 0 && id < g.c.flowNodes }

func (g cfgGraph) nodes(ids []int64) graph.Nodes {
	if len(ids) == 0 {
		return graph.Empty
	}
	ns := make([]graph.Node, len(ids))
	for i, id := range ids {
		ns[i] = simple.Node(id)
	}
	return iterator.NewOrderedNodes(ns)
}

// Node returns the node with the given ID, or nil.
func (g cfgGraph) Node(id int64) graph.Node {
	if !g.has(id) {
		return nil
	}
	return simple.Node(id)
}

// Nodes returns all the control-flow nodes, in increasing order.
func (g cfgGraph) Nodes() graph.Nodes {
	ids := make([]int64, g.c.flowNodes)
	for i := range ids {
		ids[i] = int64(i)
	}
	return g.nodes(ids)
}

// From returns the successors of node id.
func (g cfgGraph) From(id int64) graph.Nodes {
	if !g.has(id) {
		return graph.Empty
	}
	return g.nodes(g.c.from(id))
}

// To returns the predecessors of node id.
func (g cfgGraph) To(id int64) graph.Nodes {
	if !g.has(id) {
		return graph.Empty
	}
	return g.nodes(g.c.to(id))
}

// HasEdgeFromTo reports whether there is an edge from u to v.
func (g cfgGraph) HasEdgeFromTo(u, v int64) bool {
	return g.has(u) && slices.Contains(g.c.from(u), v)
}

// HasEdgeBetween reports whether there is an edge between x and y in either direction.
func (g cfgGraph) HasEdgeBetween(x, y int64) bool {
	return g.HasEdgeFromTo(x, y) || g.HasEdgeFromTo(y, x)
}

// Edge returns the edge from u to v, or nil.
func (g cfgGraph) Edge(u, v int64) graph.Edge {
	if !g.HasEdgeFromTo(u, v) {
		return nil
	}
	return simple.Edge{F: simple.Node(u), T: simple.Node(v)}
}
