package main

import (
	"fmt"

	"certsym/engine"
	"certsym/spec"
	"certsym/sym"
)

// recorder is the engine.Observer behind run's artifacts: it keeps what --tests, --coverage,
// --lcov and --dot need, and nothing when none of them is asked for (run then installs no
// observer at all). It holds on to no state of the run beyond the expansion in progress (and the
// drawn part of the execution tree), so that the engine's memory stays its own: what it keeps is
// bounded by the program's size, plus one record per terminal path when --tests is given.
type recorder struct {
	prog *spec.Program

	// cur is the expansion in progress: the engine calls Pruned for its successors after
	// Expanded, and the expansion is accounted for when the next one starts (or at finish).
	cur expansion

	// hits counts, for each statement, the expansions of a feasible state about to execute it.
	hits map[spec.Stmt]int
	// arms counts, for each If and Assert (a while loop's test is its unfolding's If), the
	// feasible successors in each direction: then / loop entered / assert holds, and else / loop
	// left / assert violated.
	arms map[spec.Stmt]*[2]int

	// tests are the terminal paths, in the order of the run, when wantTests.
	wantTests bool
	tests     []terminalPath

	// tree is the execution tree, nil unless --dot was given.
	tree *execTree
}

type expansion struct {
	st     *engine.State
	succ   []*engine.State
	pruned []bool
}

// terminalPath is an explored path that ends: its model, predicted end and path condition.
type terminalPath struct {
	end   recordedEnd
	input spec.Store // nil when the path condition has no model (solver unknown)
	pc    string
}

func newRecorder(prog *spec.Program, tests, tree bool, nodeLimit int) *recorder {
	r := &recorder{prog: prog, hits: map[spec.Stmt]int{}, arms: map[spec.Stmt]*[2]int{}, wantTests: tests}
	if tree {
		r.tree = newExecTree(nodeLimit)
	}
	return r
}

// Expanded implements engine.Observer.
func (r *recorder) Expanded(st *engine.State, succ []*engine.State) {
	r.flush()
	if r.tree != nil {
		r.tree.expand(st, succ)
	}
	if st.PC.Status == sym.Unsat {
		return // only reachable with --no-prune: no input follows this path
	}
	r.hits[st.HeadStmt()]++
	if len(succ) == 0 { // a finished program or an error state
		if f := st.ErrorOf(); f != nil {
			p := posOf(f.Loc)
			r.terminal(st, recordedEnd{Outcome: "bug", Kind: f.Kind.String(), Line: p.Line, Col: p.Col, Steps: st.Depth})
		} else {
			r.terminal(st, recordedEnd{Outcome: "normal", Steps: st.Depth})
		}
		return
	}
	r.cur = expansion{st: st, succ: append(r.cur.succ[:0], succ...), pruned: make([]bool, len(succ))}
}

// Pruned implements engine.Observer.
func (r *recorder) Pruned(st *engine.State) {
	if r.tree != nil {
		r.tree.prune(st)
	}
	for i, s := range r.cur.succ {
		if s == st {
			r.cur.pruned[i] = true
		}
	}
}

// flush accounts for the expansion in progress, now that pruning has decided its successors.
func (r *recorder) flush() {
	x := r.cur
	if x.st == nil {
		return
	}
	feasible := func(i int) bool { return !x.pruned[i] && x.succ[i].PC.Status != sym.Unsat }
	switch s := x.st.HeadStmt().(type) {
	case *spec.If, *spec.Assert:
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
	case *spec.Assume:
		all := true // every successor pruned: no input on this path gets past the assume
		for i := range x.succ {
			if feasible(i) {
				all = false
			}
		}
		if all {
			p := stmtPos(s)
			r.terminal(x.st, recordedEnd{Outcome: "infeasible", Line: p.Line, Col: p.Col, Steps: x.st.Depth})
		}
	}
	clear(x.succ)
	r.cur = expansion{succ: x.succ[:0]}
}

// terminal records a path that ends at st with the given end, for --tests.
func (r *recorder) terminal(st *engine.State, end recordedEnd) {
	if !r.wantTests {
		return
	}
	t := terminalPath{end: end}
	// A path without a model gives no test case: its path condition is not rendered (a path the
	// solver gave up on can carry terms whose printed form is exponential in their size).
	if st.PC.Status == sym.Sat && st.PC.Witness != nil {
		t.input = append(spec.Store(nil), st.PC.Witness...)
		t.pc = pcText(st.PC, r.prog.Vars, 1_000_000)
	}
	r.tests = append(r.tests, t)
}

// pcText renders a path condition, unless its printed form has more than limit symbols and
// operators (shared terms print once per occurrence: see printSize).
func pcText(pc *sym.PC, names []string, limit int) string {
	if printSize(pc.Conjuncts(), limit) > limit {
		return fmt.Sprintf("(not printed: more than %d symbols and operators)", limit)
	}
	return pc.String(names)
}

// finish accounts for the last expansion; call it once the run is over.
func (r *recorder) finish() { r.flush() }
