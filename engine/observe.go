package engine

import (
	"certsym/spec/syntax"
	"certsym/sym"
)

// An Observer watches a run of the engine from outside its hot path, for the artifacts of the
// command line (tests, coverage, the execution tree). Options.Observer is nil by default, and
// the search then pays one nil check per expansion and per pruned successor.
//
// The engine calls Expanded once for each state it takes from the frontier, with all the
// successors Expand produced (in the order of the rules, before pruning and before DFS reverses
// them), and Pruned for each of those successors that pruning drops. The successors slice is
// reused by the engine after the call: an observer copies what it keeps.
type Observer interface {
	Expanded(st *State, succ []*State)
	Pruned(st *State)
}

// Added returns the conjuncts that the path condition of child adds to that of parent, in order:
// the branch condition of the step from parent to child (none when the step does not branch, or
// when the parent's bounds already implied the condition). child must be a successor of parent.
func Added(parent, child *State) []*sym.Formula {
	var fs []*sym.Formula
	for n := child.PC; n != nil && n != parent.PC; n = n.Parent {
		fs = append(fs, n.Conj)
	}
	for i, j := 0, len(fs)-1; i < j; i, j = i+1, j-1 {
		fs[i], fs[j] = fs[j], fs[i]
	}
	return fs
}

// HeadStmt returns the statement that executes next in st (a sequence at the head flattened).
func (st *State) HeadStmt() syntax.Stmt { return st.Prog.head().S }
