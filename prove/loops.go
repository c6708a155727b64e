package prove

import (
	"fmt"
	"sort"

	"certsym/havoc"
	"certsym/spec/syntax"
)

// loopInfo is a loop executed by the invariant transition: its clauses (its own, or given
// beside the program), its modifies set, and the statement at which a run arrives at its head
// with every clause checked (arrival: the clause-less loop that runs, While.Loop, or the loop
// itself when it has no clauses of its own).
type loopInfo struct {
	w       *syntax.While
	clauses []*syntax.Assert
	given   []bool
	mods    havoc.Set // the modifies set of the body
	arrival syntax.Stmt
}

// loops are the loops of a proof attempt: those executed by the transition, and an index for
// each of the others (their unrolling counters).
type loops struct {
	inv   map[*syntax.While]*loopInfo
	order []*loopInfo // in the order of the program text
	plain map[*syntax.While]int
	// clauseOf names the clause each Fail of a clause's claim belongs to (its loop and index).
	clauseOf map[*syntax.Fail]clauseRef
}

// clauseRef is an invariant clause: its loop and its index among the loop's clauses.
type clauseRef struct {
	loop *syntax.While
	i    int
}

// collectLoops finds the loops of the program, their clauses (own and given) and modifies sets.
// Given clauses must name loops of the program.
func collectLoops(prog *syntax.Program, given Invariants) (*loops, error) {
	ls := &loops{inv: map[*syntax.While]*loopInfo{}, plain: map[*syntax.While]int{}, clauseOf: map[*syntax.Fail]clauseRef{}}
	used := map[syntax.Pos]bool{}
	syntax.Inspect(prog.Body, func(n syntax.Node) bool {
		w, ok := n.(*syntax.While)
		if !ok {
			return true
		}
		li := &loopInfo{w: w, arrival: w}
		if w.Loop != nil {
			li.arrival = w.Loop
		}
		g, has := given[w.Pos()]
		if has {
			used[w.Pos()] = true
		}
		if !has || !g.Replace {
			for _, a := range w.Invariants {
				li.clauses = append(li.clauses, a)
				li.given = append(li.given, false)
			}
		}
		for _, c := range g.Conds {
			li.clauses = append(li.clauses, givenClause(w, c))
			li.given = append(li.given, true)
		}
		if len(li.clauses) == 0 {
			ls.plain[w] = len(ls.plain)
			return true
		}
		for i, a := range li.clauses {
			for _, f := range []*syntax.Fail{a.Violation, a.Err, a.IdxErr} {
				if f != nil {
					ls.clauseOf[f] = clauseRef{w, i}
				}
			}
		}
		li.mods = havoc.Of(w.Body)
		ls.inv[w] = li
		ls.order = append(ls.order, li)
		return true
	})
	var missing []string
	for p := range given {
		if !used[p] {
			missing = append(missing, fmt.Sprintf("%d:%d", p.Line, p.Col))
		}
	}
	if len(missing) > 0 {
		sort.Strings(missing)
		return nil, fmt.Errorf("%s: invariant clauses given for no loop at %v", prog.File, missing)
	}
	return ls, nil
}

// givenClause is the claim of a clause given beside the program for the loop w: an assert at
// the loop's position whose violation has kind invariant, with the Fails of its evaluation
// errors when it divides or reads elements.
func givenClause(w *syntax.While, c syntax.BExpr) *syntax.Assert {
	loc := syntax.Loc{P: w.Pos()}
	a := &syntax.Assert{Loc: loc, Cond: c, Violation: &syntax.Fail{Loc: loc, Kind: syntax.FailInvariant}}
	if syntax.CanFail(c, syntax.FailDivZero) {
		a.Err = &syntax.Fail{Loc: loc, Kind: syntax.FailDivZero}
	}
	if syntax.CanFail(c, syntax.FailIndex) {
		a.IdxErr = &syntax.Fail{Loc: loc, Kind: syntax.FailIndex}
	}
	return a
}

// generations bounds the applications of the transition on one path of s: each needs symbols
// of its own (a generation). A path runs a loop with clauses once, its body once (the path
// ends after it), and a loop without clauses up to unroll times.
func (ls *loops) generations(s syntax.Stmt, unroll int) int {
	switch s := s.(type) {
	case *syntax.Seq:
		return ls.generations(s.First, unroll) + ls.generations(s.Second, unroll)
	case *syntax.If:
		return max(ls.generations(s.Then, unroll), ls.generations(s.Else, unroll))
	case *syntax.While:
		if _, ok := ls.inv[s]; ok {
			return 1 + ls.generations(s.Body, unroll)
		}
		return unroll * ls.generations(s.Body, unroll)
	case *syntax.Skip, *syntax.Fail, *syntax.Assign, *syntax.ArrAssign, *syntax.Assume, *syntax.Assert:
		return 0
	default:
		panic(fmt.Sprintf("prove.generations: unknown statement %T", s))
	}
}

// invariants lists the invariants used, for the result.
func (ls *loops) invariants() []LoopInvariant {
	var out []LoopInvariant
	for _, li := range ls.order {
		l := LoopInvariant{Loop: li.w.Pos(), Given: li.given}
		for _, c := range li.clauses {
			l.Clauses = append(l.Clauses, syntax.PrintB(c.Cond))
		}
		out = append(out, l)
	}
	return out
}

// sets are the modifies sets of the loops with clauses, in the order of the program text.
func (ls *loops) sets() []havoc.Set {
	var out []havoc.Set
	for _, li := range ls.order {
		out = append(out, li.mods)
	}
	return out
}
