package cfg

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"certsym/internal/testprog"
	"certsym/spec"
	"certsym/spec/syntax"
	"certsym/spec/syntax/parser"
)

// stepsProg has every kind of statement, skips at the heads of branches and bodies, and every
// kind of error target: divisions (Err), array reads and writes (IdxErr), an assert (Violation).
const stepsProg = `array a[0..3];
i = 0;
while i < n do
  a[i] = 10 / i;
  if a[i] > 0 then skip; x = 1 else skip fi;
  i = i + 1
od;
assume x < a[n];
assert x != 1`

// describe names a node for the tests: its statement's type and line, "exit", or "unfold" for a
// loop's unfolding, "Err", "IdxErr" or "Violation" for an error target.
func describe(c *Graph, n int64) string {
	if n == c.Exit {
		return "exit"
	}
	s := c.Stmt(n)
	l := s.Pos().Line
	if n >= c.flowNodes {
		if _, ok := s.(*syntax.If); ok {
			return fmt.Sprintf("unfold@%d", l)
		}
		return fmt.Sprintf("%s@%d", s.(*syntax.Fail).Kind, l)
	}
	return fmt.Sprintf("%s@%d", strings.TrimPrefix(fmt.Sprintf("%T", s), "*syntax."), l)
}

// TestSteps: the step edges of a program with every kind of statement and error, node by node.
func TestSteps(t *testing.T) {
	c := New(testprog.Parse(t, stepsProg))
	got := map[string]string{}
	for n := range c.Len() {
		to, first := c.Steps(n)
		if len(to) == 0 {
			continue
		}
		var ds []string
		for k, m := range to {
			if c.StepEdge(n, m) != first+k {
				t.Errorf("StepEdge(%s, %s) = %d, want %d", describe(c, n), describe(c, m), c.StepEdge(n, m), first+k)
			}
			ds = append(ds, describe(c, m))
		}
		slices.Sort(ds)
		got[describe(c, n)] = strings.Join(ds, " ")
	}
	want := map[string]string{
		"Assign@2":    "While@3",
		"While@3":     "unfold@3",
		"unfold@3":    "ArrAssign@4 Assume@8",
		"ArrAssign@4": "If@5 division-by-zero@4 index-out-of-range@4",
		"If@5":        "Assign@5 Assign@6 index-out-of-range@5", // the else branch's skip passed over
		"Assign@5":    "Assign@6",
		"Assign@6":    "While@3",
		"Assume@8":    "Assert@9 index-out-of-range@8",
		"Assert@9":    "assert@9 exit",
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("steps from %s: %q, want %q", k, got[k], v)
		}
	}
	for k, v := range got {
		if _, ok := want[k]; !ok {
			t.Errorf("unexpected steps from %s: %q", k, v)
		}
	}
	if c.StepEdge(c.Entry, c.Exit) != -1 || c.StepEdges() != 16 {
		t.Errorf("%d step edges, want 16", c.StepEdges())
	}
	// The control flow is unchanged by the steps' nodes: the loop goes to its body and its exit,
	// none of the error targets or unfoldings is a node of the gonum view.
	if c.G.Nodes().Len() != int(c.flowNodes) || c.G.Node(c.flowNodes) != nil {
		t.Errorf("the gonum view has %d nodes, want the %d control-flow nodes", c.G.Nodes().Len(), c.flowNodes)
	}
}

// TestDistances: the distance to the targets along the steps, each step counting 1 and each
// target its own weight; Far where no target is reached.
func TestDistances(t *testing.T) {
	p := testprog.Parse(t, "x = 1;\ny = 2;\nif x > y then\n  z = 1\nelse\n  z = 2\nfi;\nw = 1")
	c := New(p)
	line := map[int]int64{}
	for n := range c.flowNodes {
		if s := c.Stmt(n); s != nil {
			line[s.Pos().Line] = n
		}
	}
	seed := make([]int32, c.Len())
	dist := make([]int32, c.Len())
	for n := range seed {
		seed[n] = Far
	}
	seed[line[8]] = 1 // w = 1
	c.Distances(seed, dist)
	for l, d := range map[int]int32{1: 5, 2: 4, 3: 3, 4: 2, 6: 2, 8: 1} {
		if dist[line[l]] != d {
			t.Errorf("line %d: distance %d, want %d", l, dist[line[l]], d)
		}
	}
	if dist[c.Exit] != Far || dist[c.Entry] != Far {
		t.Errorf("exit %d, entry %d: want Far (no step from them reaches the target)", dist[c.Exit], dist[c.Entry])
	}
	seed[line[2]] = 0 // a nearer target of weight 0 on the way
	c.Distances(seed, dist)
	if dist[line[1]] != 1 || dist[line[2]] != 0 || dist[line[3]] != 3 {
		t.Errorf("distances %d %d %d, want 1 0 3", dist[line[1]], dist[line[2]], dist[line[3]])
	}
}

// nextStmt is the statement a concrete program executes next, the skips at its head passed over
// (nil when it is finished), as the engine's states see it.
func nextStmt(p syntax.Stmt) syntax.Stmt {
	var rest []syntax.Stmt // what follows p, innermost last
	for {
		if sq, ok := p.(*syntax.Seq); ok {
			rest = append(rest, sq.Second)
			p = sq.First
			continue
		}
		if _, ok := p.(*syntax.Skip); !ok {
			return p
		}
		if len(rest) == 0 {
			return nil
		}
		p = rest[len(rest)-1]
		rest = rest[:len(rest)-1]
	}
}

// TestStepsFollowSemantics: on every program of the corpus, from random inputs, every state of a
// concrete run (spec.Step) is at a node of the steps, and each step it takes, skips passed over,
// goes along a step edge (to the exit when the run finishes).
func TestStepsFollowSemantics(t *testing.T) {
	fz := testprog.InputFuzzer(1)
	programs, edges := 0, 0
	reached := map[string]bool{} // the kinds of node a step reached
	for _, file := range testprog.Corpus(t) {
		prog, err := parser.ParseFile(file)
		if err != nil {
			t.Fatal(err)
		}
		c := New(prog)
		programs++
		for run := 0; run < 20; run++ {
			st := spec.State{Store: testprog.RandomInput(fz, prog.Slots()), Prog: prog.Body}
			at, ok := c.Node(nextStmt(st.Prog))
			if !ok {
				t.Fatalf("%s: the first statement has no node", file)
			}
			for steps := 0; steps < 2000; steps++ {
				var out spec.Outcome
				st, out = spec.Step(st)
				if out != spec.Stepped {
					break
				}
				s := nextStmt(st.Prog)
				if s == nil {
					if c.StepEdge(at, c.Exit) < 0 {
						t.Fatalf("%s: %s finishes the run, but has no step to the exit", file, describe(c, at))
					}
					break
				}
				next, ok := c.Node(s)
				if !ok {
					t.Fatalf("%s: the %T at line %d, where a run is, has no node", file, s, s.Pos().Line)
				}
				if next == at {
					continue // a step past a skip ([S-SeqSkip]): the state is at the same statement
				}
				if c.StepEdge(at, next) < 0 {
					t.Fatalf("%s: a run steps from %s to %s, which is no step edge", file, describe(c, at), describe(c, next))
				}
				edges++
				at = next
				reached[strings.Split(describe(c, at), "@")[0]] = true
			}
		}
	}
	if programs < 100 || edges < 10_000 {
		t.Errorf("%d programs, %d steps checked: too few", programs, edges)
	}
	for _, k := range []string{"ArrAssign", "unfold", "division-by-zero", "index-out-of-range", "assert", "invariant"} {
		if !reached[k] {
			t.Errorf("no step reached a node %s: the corpus runs do not check its steps", k)
		}
	}
	t.Logf("%d programs, %d steps checked", programs, edges)
}

// TestStepsInvariant: a loop with invariant clauses steps to its first clause (its first
// arrival), each clause to the next and to its violation, the last clause to the loop that runs
// (at the loop's node), which steps to its unfolding; the body's end goes back to the first
// clause. The control flow goes through the clauses likewise.
func TestStepsInvariant(t *testing.T) {
	c := New(testprog.Parse(t, "i = 0;\nwhile i < n\ninvariant i >= 0\ninvariant i / n >= 0\ndo\n  i = i + 1\nod;\nx = 1"))
	got := map[string]string{}
	for n := range c.Len() {
		to, _ := c.Steps(n)
		var ds []string
		for _, m := range to {
			ds = append(ds, describe(c, m))
		}
		slices.Sort(ds)
		if len(ds) > 0 {
			got[describe(c, n)] = strings.Join(ds, " ")
		}
	}
	want := map[string]string{
		"Assign@1": "While@2",
		"While@2":  "Assert@3 unfold@2",
		"Assert@3": "Assert@4 invariant@3",
		"Assert@4": "While@2 division-by-zero@4 invariant@4",
		"unfold@2": "Assign@6 Assign@8",
		"Assign@6": "Assert@3",
		"Assign@8": "exit",
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("steps from %s: %q, want %q", k, got[k], v)
		}
	}
	for k, v := range got {
		if _, ok := want[k]; !ok {
			t.Errorf("unexpected steps from %s: %q", k, v)
		}
	}
	line := func(l int) syntax.Stmt {
		for n := range c.flowNodes {
			if s := c.Stmt(n); s != nil && s.Pos().Line == l {
				return s
			}
		}
		t.Fatalf("no statement at line %d", l)
		return nil
	}
	w := line(2).(*syntax.While)
	if n, ok := c.Node(w.Loop); !ok || n != c.node[w] {
		t.Errorf("the loop that runs is at node %d (%v), want the loop's node %d", n, ok, c.node[w])
	}
	for _, r := range []struct {
		from, to int
		want     bool
	}{{6, 3, true}, {6, 4, true}, {6, 2, true}, {4, 6, true}, {4, 8, true}, {8, 3, false}, {1, 4, true}} {
		if got := c.Reaches(line(r.from), line(r.to)); got != r.want {
			t.Errorf("Reaches(line %d, line %d) = %v, want %v", r.from, r.to, got, r.want)
		}
	}
}
