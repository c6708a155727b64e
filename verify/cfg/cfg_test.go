package cfg

import (
	"strconv"
	"strings"
	"testing"

	"gonum.org/v1/gonum/graph"

	"certsym/internal/testprog"
	"certsym/spec/syntax"
	"certsym/spec/syntax/parser"
)

const cfgProg = `i = 0;
while i < n do
  if i % 2 == 0 then
    y = 1
  else
    fail
  fi;
  i = i + 1
od;
assume y > 0;
if y > 3 then
  while y > 3 do y = y - 1 od
fi;
assert y > 0`

// TestCFGGonumView: the CFG seen as a gonum graph.Directed agrees with its own searches: gonum's
// topo.PathExistsIn gives Reaches for every pair of statements, From and To are the edges both
// ways, in increasing order.
func TestCFGGonumView(t *testing.T) {
	c := New(testprog.Parse(t, cfgProg))
	var stmts []syntax.Stmt
	for n := int64(0); c.G.Node(n) != nil; n++ {
		if s := c.Stmt(n); s != nil {
			stmts = append(stmts, s)
		}
	}
	if len(stmts) != 12 || c.G.Nodes().Len() != 14 {
		t.Fatalf("%d statements, %d nodes; want 12 and 14", len(stmts), c.G.Nodes().Len())
	}
	for _, a := range stmts {
		for _, b := range stmts {
			if c.Reaches(a, b) != c.PathExists(a, b) {
				t.Errorf("line %d to line %d: Reaches %v, gonum %v", a.Pos().Line, b.Pos().Line, c.Reaches(a, b), c.PathExists(a, b))
			}
		}
	}
	edges := 0
	for n := int64(0); c.G.Node(n) != nil; n++ {
		prev := int64(-1)
		for _, m := range graph.NodesOf(c.G.From(n)) {
			if m.ID() <= prev {
				t.Errorf("successors of %d not in increasing order", n)
			}
			prev = m.ID()
			edges++
			if !c.G.HasEdgeFromTo(n, m.ID()) || c.G.Edge(n, m.ID()) == nil || !c.G.HasEdgeBetween(m.ID(), n) {
				t.Errorf("edge %d -> %d not reported", n, m.ID())
			}
			found := false
			for _, p := range graph.NodesOf(c.G.To(m.ID())) {
				found = found || p.ID() == n
			}
			if !found {
				t.Errorf("edge %d -> %d missing from To(%d)", n, m.ID(), m.ID())
			}
		}
	}
	// entry, i = 0, while (body, exit), if (two branches), y = 1, i = i + 1, assume, if (two
	// branches), inner while (body, exit), y = y - 1, assert: fail has none.
	if edges != 16 {
		t.Errorf("%d edges, want 16", edges)
	}
	if c.G.Node(-1) != nil || c.G.Node(99) != nil || c.G.From(99).Len() != 0 || c.G.Edge(0, 0) != nil {
		t.Error("nodes outside the graph")
	}
}

// TestCFGChop: the chop from a statement to another is the statements on the paths between them,
// in source order; none when there is no path.
func TestCFGChop(t *testing.T) {
	p := testprog.Parse(t, cfgProg)
	c := New(p)
	byLine := map[int]syntax.Stmt{}
	for s := range c.node {
		if _, seen := byLine[s.Pos().Line]; !seen {
			byLine[s.Pos().Line] = s
		}
	}
	lines := func(ss []syntax.Stmt) string {
		var ls []int
		for _, s := range ss {
			ls = append(ls, s.Pos().Line)
		}
		return fmtInts(ls)
	}
	// From the loop to the assume: the loop, its body except the fail (which ends the run), the
	// assume.
	if got := lines(c.Chop(byLine[2], byLine[10])); got != "2 3 4 8 10" {
		t.Errorf("chop 2 -> 10: %s", got)
	}
	// From y = 1 back to the loop's test, through i = i + 1.
	if got := lines(c.Chop(byLine[4], byLine[2])); got != "2 3 4 8" {
		t.Errorf("chop 4 -> 2: %s", got)
	}
	if c.Chop(byLine[10], byLine[2]) != nil || c.Chop(byLine[6], byLine[8]) != nil {
		t.Error("a chop against control flow, or through fail")
	}
	if got := lines(c.Chop(byLine[14], byLine[14])); got != "14" {
		t.Errorf("chop of a statement to itself: %s", got)
	}
	fw := c.Forward([]int64{c.node[byLine[11]]})
	bw := c.Backward([]int64{c.node[byLine[11]]})
	for s, n := range c.node {
		l := s.Pos().Line
		if fw[n] != (l >= 11) {
			t.Errorf("forward from line 11: line %d %v", l, fw[n])
		}
		if bw[n] != (l <= 11 && l != 6) {
			t.Errorf("backward to line 11: line %d %v", l, bw[n])
		}
	}
}

// TestCFGDeep: the CFG of 100,000 nested conditionals is built and searched (the innermost
// statement reaches the exit, the entry reaches it) without recursion through sequences.
func TestCFGDeep(t *testing.T) {
	p, err := parser.Parse("deep.imp", nestedIfs(100_000))
	if err != nil {
		t.Fatal(err)
	}
	c := New(p)
	var inner syntax.Stmt
	for s := range c.node {
		if _, ok := s.(*syntax.Assign); ok {
			inner = s
		}
	}
	if inner == nil || !c.Forward([]int64{c.node[inner]})[c.Exit] || !c.Forward([]int64{c.Entry})[c.node[inner]] {
		t.Fatal("the innermost assignment is not between entry and exit")
	}
	if got := len(c.Path(p.Body, inner)); got != 100_001 {
		t.Errorf("path from the outermost conditional to the innermost assignment: %d statements, want 100001", got)
	}
}

func TestCFG(t *testing.T) {
	p := testprog.Parse(t, `x = 1;
while x < 10 do
  if x > 5 then
    y = 1
  else
    y = 2
  fi;
  x = x + 1
od;
assert y > 0`)
	c := New(p)
	byLine := map[int]syntax.Stmt{}
	for s := range c.node {
		byLine[s.Pos().Line] = s
	}
	w, asg, th, inc, as := byLine[2], byLine[1], byLine[4], byLine[8], byLine[10]
	if !c.Reaches(w, as) || !c.Reaches(w, th) || !c.Reaches(inc, th) || !c.Reaches(th, w) {
		t.Error("loop reachability missing")
	}
	if c.Reaches(as, w) || c.Reaches(w, asg) {
		t.Error("reachability against control flow")
	}
	if !c.Reaches(w, w) {
		t.Error("a statement reaches itself")
	}
	var lines []int
	for _, s := range c.Path(inc, th) {
		lines = append(lines, s.Pos().Line)
	}
	if got := fmtInts(lines); got != "8 2 3 4" {
		t.Errorf("path from line 8 to line 4: %s, want 8 2 3 4", got)
	}
	// From the loop to the increment there are two shortest paths (through either branch): the
	// same one is chosen every time, whatever order the graph iterates its edges in.
	var first string
	for i := 0; i < 50; i++ {
		lines = lines[:0]
		for _, s := range c.Path(w, inc) {
			lines = append(lines, s.Pos().Line)
		}
		if got := fmtInts(lines); i == 0 {
			first = got
		} else if got != first {
			t.Fatalf("path from line 2 to line 8: %s, then %s", first, got)
		}
	}
	if first != "2 3 4 8" && first != "2 3 6 8" {
		t.Errorf("path from line 2 to line 8: %s", first)
	}
	if c.Path(as, w) != nil {
		t.Error("a path against control flow")
	}
}

func fmtInts(a []int) string {
	parts := make([]string, len(a))
	for i, x := range a {
		parts[i] = strconv.Itoa(x)
	}
	return strings.Join(parts, " ")
}

// nestedIfs is n nested conditionals around one assignment.
func nestedIfs(n int) []byte {
	var b strings.Builder
	for i := 0; i < n; i++ {
		b.WriteString("if x > " + strconv.Itoa(i) + " then\n")
	}
	b.WriteString("y = 1\n" + strings.Repeat("fi\n", n))
	return []byte(b.String())
}
