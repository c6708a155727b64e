package mergesearch

import (
	"fmt"
	"sort"

	"certsym/engine"
	"certsym/spec/syntax"
)

// The policy's one heuristic, after the query count estimation of Kuznetsov et al. (PLDI 2012):
// a merge pays when the conditional terms it makes are read by few queries afterwards, and loses
// when they are read again and again (each query then carries every constituent's case, and Z3
// decides one hard query where it decided many easy ones). So the states of a group are merged
// only where they agree on the hot slots of their remaining program: the variables (and arrays)
// that a condition inside a loop reads, which the run may branch on any number of times. They
// may differ everywhere else: in the variables read by the conditions outside loops (at most once
// a path each: one query over the merged state instead of one per constituent) and in those no
// condition reads.

// hotSlots are the store slots read, in the remaining program k, by a condition that a path may
// evaluate many times: a while loop's condition and its invariant clauses, and the conditions of the statements inside a
// loop's body (if, assert and assume conditions, and the expressions of the assignments that can
// fail, whose division and range checks are queries). A statement of k that is inside a loop
// body itself (k's program continues with the loop) sees the loop again: the loop is in k.
func hotSlots(prog *syntax.Program, k *engine.Kont) []int {
	set := map[int]bool{}
	read := func(n syntax.Node) {
		syntax.Inspect(n, func(n syntax.Node) bool {
			switch n := n.(type) {
			case *syntax.Var:
				set[n.Index] = true
			case *syntax.Elem:
				set[len(prog.Vars)+n.Arr.Index] = true
			}
			return true
		})
	}
	var stmt func(s syntax.Stmt, loop bool)
	stmt = func(s syntax.Stmt, loop bool) {
		switch s := s.(type) {
		case *syntax.Seq:
			stmt(s.First, loop)
			stmt(s.Second, loop)
		case *syntax.While:
			read(s.Cond)
			for _, inv := range s.Invariants { // checked at every arrival at the loop's head
				read(inv.Cond)
			}
			stmt(s.Body, true)
		case *syntax.If:
			if loop {
				read(s.Cond)
			}
			stmt(s.Then, loop)
			stmt(s.Else, loop)
		case *syntax.Assert:
			if loop {
				read(s.Cond)
			}
		case *syntax.Assume:
			if loop {
				read(s.Cond)
			}
		case *syntax.Assign:
			if loop && (s.Err != nil || s.IdxErr != nil) {
				read(s.A)
			}
		case *syntax.ArrAssign:
			if loop && (s.Err != nil || s.IdxErr != nil) {
				read(s.I)
				read(s.A)
			}
		case *syntax.Skip, *syntax.Fail:
		default:
			panic(fmt.Sprintf("mergesearch.hotSlots: unknown statement %T", s))
		}
	}
	for ; k != nil; k = k.Next {
		stmt(k.S, false)
	}
	out := make([]int, 0, len(set))
	for i := range set {
		out = append(out, i)
	}
	sort.Ints(out)
	return out
}
