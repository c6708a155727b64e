package engine

import "certsym/spec"

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
func Added(parent, child *State) []*Formula {
	var fs []*Formula
	for n := child.PC; n != nil && n != parent.PC; n = n.Parent {
		fs = append(fs, n.Conj)
	}
	for i, j := 0, len(fs)-1; i < j; i, j = i+1, j-1 {
		fs[i], fs[j] = fs[j], fs[i]
	}
	return fs
}

// HeadStmt returns the statement that executes next in st (a sequence at the head flattened).
func (st *State) HeadStmt() spec.Stmt { return st.Prog.head().S }

// PrintSize returns the number of symbols, constants and operators the printed form of f has,
// or limit+1 when it has more than limit. Terms are shared: printing repeats a shared term at
// each of its occurrences, so the printed form can be exponentially larger than f itself. The
// count takes time linear in the size of f, so that a caller can decline to print f.
func (f *Formula) PrintSize(limit int) int {
	return printSize(map[*Term]int{}, []*Formula{f}, limit)
}

// PrintSize is Formula.PrintSize for the conjunction φ.
func (phi *PC) PrintSize(limit int) int {
	return printSize(map[*Term]int{}, phi.Conjuncts(), limit)
}

func printSize(memo map[*Term]int, fs []*Formula, limit int) int {
	var term func(t *Term) int
	term = func(t *Term) int {
		if n, ok := memo[t]; ok {
			return n
		}
		n := 1
		for _, m := range t.monos {
			n += 2
			if m.a.Kind != AtomSym {
				n += term(m.a.L) + term(m.a.R)
			}
			if n > limit {
				n = limit + 1
				break
			}
		}
		memo[t] = n
		return n
	}
	n := 0
	var form func(f *Formula)
	form = func(f *Formula) {
		n++
		if f.T != nil {
			n += term(f.T)
		}
		for _, g := range f.Args {
			if n > limit {
				return
			}
			form(g)
		}
	}
	for _, f := range fs {
		if n > limit {
			break
		}
		form(f)
	}
	return min(n, limit+1)
}
