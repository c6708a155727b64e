package main

import (
	"certsym/engine"
	"certsym/spec"
)

// recorder is the engine.Observer behind run's artifacts: it keeps what --tests, --coverage,
// --lcov and --dot need, and nothing when none of them is asked for (run then installs no
// observer at all).
type recorder struct {
	prog *spec.Program

	// pruned holds the successors pruning dropped.
	pruned map[*engine.State]bool
	// expanded holds the states taken from the frontier.
	expanded map[*engine.State]bool

	// terminals are the expanded states with no successor (a finished program or an error), and
	// the expanded assumes all of whose successors turn out pruned, in the order of expansion.
	terminals []terminal

	// hits counts, for each statement, the expansions of a state about to execute it.
	hits map[spec.Stmt]int
	// arms are the successors of each branching statement, by direction (see branchArms).
	arms []arm

	// tree is the execution tree, nil unless --dot was given.
	tree *execTree
}

// terminal is a candidate test case: a state whose path ended (Assume: a state at an assume whose
// successors may all be pruned, which is decided at the end of the run).
type terminal struct {
	st     *engine.State
	assume []*engine.State // the successors of an assume
}

// arm is one successor of a branching statement.
type arm struct {
	stmt  spec.Stmt // the If, While or Assert
	dir   int       // 0: then / loop entered / assert holds; 1: else / loop left / assert violated
	child *engine.State
}

func newRecorder(prog *spec.Program, tree bool, nodeLimit int) *recorder {
	r := &recorder{prog: prog, pruned: map[*engine.State]bool{}, expanded: map[*engine.State]bool{},
		hits: map[spec.Stmt]int{}}
	if tree {
		r.tree = newExecTree(nodeLimit)
	}
	return r
}

// Expanded implements engine.Observer.
func (r *recorder) Expanded(st *engine.State, succ []*engine.State) {
	r.expanded[st] = true
	if r.tree != nil {
		r.tree.expand(st, succ)
	}
	head := st.HeadStmt()
	if st.PC.Status == engine.Unsat {
		return // only reachable with --no-prune: no input follows this path
	}
	r.hits[head]++
	switch s := head.(type) {
	case *spec.Skip, *spec.Fail:
		if len(succ) == 0 {
			r.terminals = append(r.terminals, terminal{st: st})
		}
	case *spec.Assume:
		r.terminals = append(r.terminals, terminal{st: st, assume: append([]*engine.State(nil), succ...)})
	case *spec.If, *spec.Assert:
		for i := 0; i < 2 && i < len(succ); i++ {
			r.arms = append(r.arms, arm{stmt: s, dir: i, child: succ[i]})
		}
	}
}

// Pruned implements engine.Observer.
func (r *recorder) Pruned(st *engine.State) {
	r.pruned[st] = true
	if r.tree != nil {
		r.tree.prune(st)
	}
}

// feasible reports whether some input may follow the path to st: it was not pruned and its path
// condition is not known unsatisfiable.
func (r *recorder) feasible(st *engine.State) bool {
	return !r.pruned[st] && st.PC.Status != engine.Unsat
}
