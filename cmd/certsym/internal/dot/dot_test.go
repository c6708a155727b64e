package dot

import (
	"bytes"
	"certsym/engine"
	"certsym/internal/budget"
	"certsym/internal/testprog"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// drawTree runs the bug finder on src with opts, the tree (of at most limit states) as its
// observer, and writes the tree to a file in dir; it returns the file's path.
func drawTree(t *testing.T, dir, name, src string, opts engine.Options, limit int) string {
	t.Helper()
	prog := testprog.Parse(t, src)
	tree := New(limit)
	opts.Observer = tree
	if _, err := engine.New(prog, opts).FindBugs(nil); err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := tree.Write(&b, prog.Vars); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestDOTTree draws the execution trees of run --dot (as run draws them, the tree observing the
// engine) and lays them out with Graphviz: the states and steps, each node's kind and colour, the
// edges' branch conditions, the node limit, conditions too large to print, pending states.
func TestDOTTree(t *testing.T) {
	dot := testprog.NeedTool(t, "dot", "graphviz")
	f := "if x > 0 then\n  y = 1\nelse\n  y = 2\nfi;\nassert y > 1\n"
	dir := t.TempDir()
	full := drawTree(t, dir, "full.dot", f, engine.Options{AllBugs: true}, 500)
	// The tree: the if (1), its two arms (2), each arm's skip and assert (4), and under each
	// assert its two successors, one of them pruned (4): 11 states.
	nodes, edges := renderDOT(t, dot, full)
	if len(nodes) != 11 || edges != 10 {
		t.Errorf("rendered %d nodes and %d edges, want 11 and 10", len(nodes), edges)
	}
	b, _ := os.ReadFile(full)
	s := string(b)
	for kind, n := range map[string]int{"(error)": 1, "(pruned)": 2, "(finished)": 1} {
		if c := strings.Count(s, kind+`", fillcolor="`+nodeColor[strings.Trim(kind, "()")]+`"`); c != n {
			t.Errorf("%d %s nodes with their color, want %d:\n%s", c, kind, n, s)
		}
	}
	if !strings.Contains(s, `[label="x > 0\npath condition += x >= 1"]`) || !strings.Contains(s, `[label="not (y > 1)"]`) {
		t.Errorf("edges are not labelled with their branch conditions:\n%s", s)
	}
	// A node limit of 4: four states and the note saying how many were left out.
	small := drawTree(t, dir, "small.dot", f, engine.Options{AllBugs: true}, 4)
	nodes, _ = renderDOT(t, dot, small)
	if len(nodes) != 5 || nodes[4] != "omitted" {
		t.Errorf("with --dot-nodes 4: nodes %v, want 4 states and the note", nodes)
	}
	if b, _ := os.ReadFile(small); !strings.Contains(string(b), "node limit 4 reached: 7 more states not drawn") {
		t.Errorf("the note does not count the 7 states left out:\n%s", b)
	}
	// A condition whose printed form is exponential in its size ((x + 1) squared 14 times, the
	// squares shared) is not printed: the file stays small.
	squares := "y = x + 1;\n" + strings.Repeat("y = y * y;\n", 14) + "assume y != 3\n"
	big := drawTree(t, dir, "big.dot", squares, engine.Options{NoPrune: true}, 500)
	if b, _ := os.ReadFile(big); len(b) > 20_000 || !strings.Contains(string(b), "(a condition too large to print)") ||
		!strings.Contains(string(b), "(not printed: more than 5000 symbols and operators)") {
		t.Errorf("the tree of shared squares (%d bytes) does not decline to print them:\n%.2000s", len(b), b)
	}
	// A pending state: a run stopped by --max-states leaves states unexpanded.
	loop := "while x > 0 do x = x - 1 od\n"
	pend := drawTree(t, dir, "pending.dot", loop, engine.Options{Limits: budget.Limits{MaxStates: 5}}, 500)
	if b, _ := os.ReadFile(pend); !strings.Contains(string(b), "(pending)") {
		t.Errorf("no pending state in a run stopped by a bound:\n%s", b)
	}
}

// renderDOT lays the graph out with Graphviz and returns its node names and edge count, as dot
// read them (the plain output format).
func renderDOT(t *testing.T, dot, path string) ([]string, int) {
	t.Helper()
	out, err := exec.Command(dot, "-Tplain", path).CombinedOutput()
	if err != nil {
		t.Fatalf("dot: %v\n%s", err, out)
	}
	var nodes []string
	edges := 0
	for _, l := range strings.Split(string(out), "\n") {
		f := strings.Fields(l)
		if len(f) > 1 && f[0] == "node" {
			nodes = append(nodes, f[1])
		}
		if len(f) > 0 && f[0] == "edge" {
			edges++
		}
	}
	return nodes, edges
}

// TestDOTElementAssign: the state about to execute an element assignment is labelled with its
// position and statement, and the edges of a range check (of the element assignment, of the if
// that reads an element) say which way they go.
func TestDOTElementAssign(t *testing.T) {
	src := "array a[0..2];\nassume i >= 0 and i <= 3;\na[i] = 5;\nif a[i] > 0 then x = 1 fi\n"
	b, err := os.ReadFile(drawTree(t, t.TempDir(), "arr.dot", src, engine.Options{AllBugs: true, NoPrune: true}, 500))
	if err != nil {
		t.Fatal(err)
	}
	s := string(b)
	if !strings.Contains(s, `\n3:1 a[i] = ...\n`) || !strings.Contains(s, `[label="index in range\npath condition += i <= 2"]`) {
		t.Errorf("the element assignment's state or its in-range edge is not labelled:\n%s", s)
	}
	// The out-of-range edges: one from the element assignment, one from the if; the program
	// divides nowhere.
	if n := strings.Count(s, `[label="index out of range\npath condition += i <= -1 or i >= 3"]`); n != 2 || strings.Contains(s, "division") {
		t.Errorf("%d edges labelled index out of range, want 2, and none labelled division:\n%s", n, s)
	}
}
