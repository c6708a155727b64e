// Package record watches a run of the bug finder (an engine.Observer) for the artifacts of
// certsym run: the coverage of the explored paths, a test case per terminal path, the execution
// tree. It keeps only what those need, and derives them once the run is over.
package record

import (
	"fmt"

	"certsym/cmd/certsym/internal/coverage"
	"certsym/cmd/certsym/internal/dot"
	"certsym/cmd/certsym/internal/report"
	"certsym/cmd/certsym/internal/testcase"
	"certsym/engine"
	"certsym/pathcond"
	"certsym/spec/syntax"
	"certsym/sym"
)

// Recorder is the engine.Observer behind run's artifacts: it keeps what --tests, --coverage,
// --lcov and --dot need, and nothing when none of them is asked for (run then installs no
// observer at all). It holds on to no state of the run beyond the expansion in progress (and the
// drawn part of the execution tree), so that the engine's memory stays its own: what it keeps is
// bounded by the program's size, plus one record per terminal path when --tests is given.
type Recorder struct {
	prog *syntax.Program

	// cur is the expansion in progress: the engine calls Pruned for its successors after
	// Expanded, and the expansion is accounted for when the next one starts (or at finish).
	cur expansion

	// hits counts, for each statement, the expansions of a feasible state about to execute it.
	hits map[syntax.Stmt]int
	// arms counts, for each If and Assert (a while loop's test is its unfolding's If), the
	// feasible successors in each direction: then / loop entered / assert holds, and else / loop
	// left / assert violated.
	arms map[syntax.Stmt]*[2]int

	// tests gathers the test cases of the terminal paths, in the order of the run, when --tests
	// is given (nil otherwise); pcs renders their path conditions.
	tests *testcase.Collector
	pcs   *pathcond.Renderer

	// tree is the execution tree, nil unless --dot was given.
	tree *dot.Tree
}

type expansion struct {
	st     *engine.State
	succ   []*engine.State
	pruned []bool
}

// New returns a recorder for a run of prog that keeps the terminal paths when tests, and draws
// the execution tree, up to nodeLimit states, when tree.
func New(prog *syntax.Program, tests, tree bool, nodeLimit int) *Recorder {
	r := &Recorder{prog: prog, hits: map[syntax.Stmt]int{}, arms: map[syntax.Stmt]*[2]int{}}
	if tests {
		r.tests = testcase.NewCollector(prog, 0)
		size := func(f *sym.Formula, limit int) int { return report.PrintSize([]*sym.Formula{f}, limit) }
		r.pcs = pathcond.NewRenderer(sym.SlotNames(prog), size, pcLimit)
	}
	if tree {
		r.tree = dot.New(nodeLimit)
	}
	return r
}

// pcLimit is the most symbols and operators a test case's path condition is printed with
// (report.PCText).
const pcLimit = 1_000_000

// LimitTests keeps at most max test cases (run --max-tests; 0: no maximum): the terminal paths
// past them are counted (testcase.Set.Over) and their path conditions not rendered.
func (r *Recorder) LimitTests(max int) {
	if r.tests != nil {
		r.tests = testcase.NewCollector(r.prog, max)
	}
}

// Expanded implements engine.Observer.
func (r *Recorder) Expanded(st *engine.State, succ []*engine.State) {
	r.flush()
	if r.tree != nil {
		r.tree.Expanded(st, succ)
	}
	if st.PC.Status == pathcond.Unsat {
		return // only reachable with --no-prune: no input follows this path
	}
	r.hits[st.HeadStmt()]++
	if len(succ) == 0 { // a finished program or an error state
		if f := st.ErrorOf(); f != nil {
			p := f.Pos()
			r.terminal(st, testcase.End{Outcome: "bug", Kind: f.Kind.String(), Line: p.Line, Col: p.Col, Steps: st.Depth})
		} else {
			r.terminal(st, testcase.End{Outcome: "normal", Steps: st.Depth})
		}
		return
	}
	r.cur = expansion{st: st, succ: append(r.cur.succ[:0], succ...), pruned: make([]bool, len(succ))}
}

// Pruned implements engine.Observer.
func (r *Recorder) Pruned(st *engine.State) {
	if r.tree != nil {
		r.tree.Pruned(st)
	}
	for i, s := range r.cur.succ {
		if s == st {
			r.cur.pruned[i] = true
		}
	}
}

// flush accounts for the expansion in progress, now that pruning has decided its successors.
func (r *Recorder) flush() {
	x := r.cur
	if x.st == nil {
		return
	}
	feasible := func(i int) bool { return !x.pruned[i] && x.succ[i].PC.Status != pathcond.Unsat }
	switch s := x.st.HeadStmt().(type) {
	case *syntax.If, *syntax.Assert:
		a := r.arms[s]
		if a == nil {
			a = new([2]int)
			r.arms[s] = a
		}
		for i := 0; i < 2 && i < len(x.succ); i++ {
			if feasible(i) {
				a[i]++
			}
		}
	case *syntax.Assume:
		all := true // every successor pruned: no input on this path gets past the assume
		for i := range x.succ {
			if feasible(i) {
				all = false
			}
		}
		if all {
			p := s.Pos()
			r.terminal(x.st, testcase.End{Outcome: "infeasible", Line: p.Line, Col: p.Col, Steps: x.st.Depth})
		}
	case *syntax.Skip, *syntax.Fail, *syntax.Assign, *syntax.ArrAssign, *syntax.Seq, *syntax.While: // no branch, nothing assumed
	default:
		panic(fmt.Sprintf("record: unknown statement %T", s))
	}
	clear(x.succ)
	r.cur = expansion{succ: x.succ[:0]}
}

// terminal records a path that ends at st with the given end, for --tests.
func (r *Recorder) terminal(st *engine.State, end testcase.End) {
	if r.tests == nil {
		return
	}
	// A path without a model gives no test case: its path condition is not rendered (a path the
	// solver gave up on can carry terms whose printed form is exponential in their size).
	if st.PC.Status != pathcond.Sat || st.PC.Witness == nil {
		r.tests.Add(end, nil, nil)
		return
	}
	// The renderer renders each path condition as report.PCText does, in time that does not grow
	// with its depth: the terminal paths of a loop, each one conjunct deeper than the last,
	// would otherwise cost the square of their number.
	r.tests.Add(end, st.PC.Witness, func() string {
		text, size := r.pcs.Render(st.PC)
		if size > pcLimit {
			return report.NotPrinted(pcLimit)
		}
		return text
	})
}

// Finish accounts for the last expansion; call it once the run is over, before Coverage,
// TestCases and Tree.
func (r *Recorder) Finish() { r.flush() }

// Coverage is the statement and branch coverage of the explored paths.
func (r *Recorder) Coverage() *coverage.Report {
	return coverage.Compute(r.prog.Body, r.hits, r.arms)
}

// TestCases are the test cases of the terminal paths explored (New with tests), for the program
// file whose bytes are src.
func (r *Recorder) TestCases(file string, src []byte) testcase.Set {
	if r.tests == nil {
		return testcase.Set{}
	}
	return r.tests.Set(file, src)
}

// Tree is the execution tree (New with tree), or nil.
func (r *Recorder) Tree() *dot.Tree { return r.tree }
