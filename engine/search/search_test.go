package search

import (
	"math"
	"testing"

	"certsym/cfg"
	"certsym/internal/testprog"
	"certsym/spec/syntax"
	"certsym/spec/syntax/parser"
)

// at is a state of the tests: it is at statement s.
type at struct{ s syntax.Stmt }

func (a at) NextStmt() syntax.Stmt { return a.s }

// runStmts is every statement a run of prog can be at: each statement of the syntax tree but
// sequences and skips, each loop's unfolding, each error target (the Fails of divisions, index
// failures and asserts), found from the syntax, not from the statement graph.
func runStmts(prog *syntax.Program) []syntax.Stmt {
	var out []syntax.Stmt
	fail := func(fs ...*syntax.Fail) {
		for _, f := range fs {
			if f != nil {
				out = append(out, f)
			}
		}
	}
	syntax.Inspect(prog.Body, func(n syntax.Node) bool {
		s, ok := n.(syntax.Stmt)
		if !ok {
			return true
		}
		if _, seq := s.(*syntax.Seq); seq {
			return true
		}
		if _, skip := s.(*syntax.Skip); skip {
			return true
		}
		out = append(out, s)
		div, idx := syntax.Fails(s)
		fail(div, idx)
		if a, ok := s.(*syntax.Assert); ok {
			fail(a.Violation)
		}
		if w, ok := s.(*syntax.While); ok {
			out = append(out, w.Unfold)
		}
		return true
	})
	return out
}

// TestCoverageEveryStatement: under the coverage heuristic, before anything is covered, a state
// at any statement a run can be at has the priority of an uncovered statement (1), or of an
// error (0) at a Fail; never the priority of a finished state (cfg.Far). A state at an element
// assignment or at an index failure once had that one, missing from the statement graph, and
// waited for a fairness pick.
func TestCoverageEveryStatement(t *testing.T) {
	kinds := map[string]int{}
	for _, file := range testprog.Corpus(t) {
		prog, err := parser.ParseFile(file)
		if err != nil {
			t.Fatal(err)
		}
		c := newCoverage[at](prog)
		for _, s := range runStmts(prog) {
			en := &entry[at]{st: at{s}, fromNode: -1}
			c.add(nil, []*entry[at]{en})
			want := int32(1)
			if f, ok := s.(*syntax.Fail); ok {
				want = 0
				kinds[f.Kind.String()]++
			} else if _, ok := s.(*syntax.ArrAssign); ok {
				kinds["element assignment"]++
			}
			if en.key != want {
				t.Errorf("%s: a state at the %T of line %d has priority %d, want %d", file, s, s.Pos().Line, en.key, want)
			}
		}
		finished := &entry[at]{fromNode: -1}
		if c.add(nil, []*entry[at]{finished}); finished.key != cfg.Far {
			t.Errorf("%s: a finished state has priority %d, want %d", file, finished.key, cfg.Far)
		}
	}
	if kinds["element assignment"] == 0 || kinds[syntax.FailIndex.String()] == 0 || kinds[syntax.FailDivZero.String()] == 0 || kinds[syntax.FailAssert.String()] == 0 {
		t.Errorf("the corpus lacks a kind of statement: %v", kinds)
	}
}

// checkTree checks the live execution tree of random path: every node but a leaf has two or more
// children, each knowing its parent and its place, and every leaf holds a pending entry that
// knows its leaf. It returns the leaves' entries.
func checkTree(t *testing.T, r *randomPath[at]) []*entry[at] {
	t.Helper()
	var leaves []*entry[at]
	var walk func(n *rpNode[at])
	walk = func(n *rpNode[at]) {
		if n.en != nil {
			if len(n.kids) != 0 || n.en.leaf != n {
				t.Fatal("a leaf with children, or whose entry does not know it")
			}
			leaves = append(leaves, n.en)
			return
		}
		if len(n.kids) < 2 {
			t.Fatalf("a node with %d children", len(n.kids))
		}
		for i, k := range n.kids {
			if k.parent != n || k.at != i {
				t.Fatal("a child that does not know its parent or its place")
			}
			walk(k)
		}
	}
	if r.root != nil {
		if r.root.parent != nil {
			t.Fatal("the root has a parent")
		}
		walk(r.root)
	}
	return leaves
}

// picks draws n picks and returns the share of each entry.
func picks(r *randomPath[at], n int) map[*entry[at]]float64 {
	share := map[*entry[at]]float64{}
	for range n {
		share[r.pick()] += 1 / float64(n)
	}
	return share
}

// TestRandomPathDistribution: the picks follow the walk from the root that chooses uniformly among
// the children with pending states below them, whatever leaves went: on root → {a, n → {b, c,
// d}}, a is picked half the time and b, c, d a sixth each; once c finished, b and d a quarter
// each; once a finished too (the root left with one child, spliced out), b and d half each.
func TestRandomPathDistribution(t *testing.T) {
	r := newRandomPath[at](1)
	mk := func() *entry[at] { return &entry[at]{} }
	root, a, n, b, c, d := mk(), mk(), mk(), mk(), mk(), mk()
	r.add(nil, []*entry[at]{root})
	r.add(root, []*entry[at]{a, n})
	r.add(n, []*entry[at]{b, c, d})
	const draws = 60_000
	check := func(step string, want map[*entry[at]]float64) {
		t.Helper()
		if leaves := checkTree(t, r); len(leaves) != len(want) {
			t.Fatalf("%s: %d leaves, want %d", step, len(leaves), len(want))
		}
		got := picks(r, draws)
		for en, p := range want {
			// 5 standard deviations of the share of draws picks.
			if tol := 5 * math.Sqrt(p*(1-p)/draws); math.Abs(got[en]-p) > tol {
				t.Errorf("%s: a leaf is picked %.4f of the time, want %.4f", step, got[en], p)
			}
		}
	}
	check("whole tree", map[*entry[at]]float64{a: 1.0 / 2, b: 1.0 / 6, c: 1.0 / 6, d: 1.0 / 6})
	r.add(c, nil)
	check("c finished", map[*entry[at]]float64{a: 1.0 / 2, b: 1.0 / 4, d: 1.0 / 4})
	r.add(a, nil)
	check("a finished", map[*entry[at]]float64{b: 1.0 / 2, d: 1.0 / 2})
	e := mk()
	r.add(b, []*entry[at]{e}) // one successor: b's leaf is handed on
	check("b stepped", map[*entry[at]]float64{e: 1.0 / 2, d: 1.0 / 2})
	r.add(d, nil)
	r.add(e, nil)
	if r.root != nil {
		t.Error("the tree is not empty once every state finished")
	}
}

// TestRandomPathLongPath: on a long path whose every step branches once to a state that finishes
// (a counting loop: continue or exit), the live tree stays one node per pending state, whatever
// the depth: each pick and each update costs the same at step 100,000 as at step 1.
func TestRandomPathLongPath(t *testing.T) {
	r := newRandomPath[at](1)
	cur := &entry[at]{}
	r.add(nil, []*entry[at]{cur})
	for i := 0; i < 100_000; i++ {
		exit, next := &entry[at]{}, &entry[at]{}
		r.add(cur, []*entry[at]{exit, next})
		if i%1000 == 0 && len(checkTree(t, r)) != 2 {
			t.Fatalf("step %d: not 2 leaves", i)
		}
		r.add(exit, nil)
		if r.root.en != next || r.root.parent != nil {
			t.Fatalf("step %d: the root is not the one pending state", i)
		}
		if r.pick() != next {
			t.Fatalf("step %d: the pick is not the one pending state", i)
		}
		cur = next
	}
}
