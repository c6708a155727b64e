package spec

import (
	"fmt"

	"certsym/spec/syntax"
)

// Behaviour is how a bounded execution ends: the behaviours of the big-step semantics of the Why3
// development (proofs/why3, type behaviour).
type Behaviour uint8

// The behaviours.
const (
	Normal     Behaviour = iota // the statement finished
	Error                       // fail was reached (an explicit fail, a violated assert, a division by zero, an index out of range)
	Infeasible                  // an assume with a false condition was reached
	Incomplete                  // a while loop would start one more iteration than the loop limit allows
)

func (b Behaviour) String() string {
	return [...]string{"normal", "error", "infeasible", "incomplete"}[b]
}

// BoundedResult is the end of a bounded execution: the store, the behaviour, and where it ended (the
// Fail reached for Error, the Assume for Infeasible, the While cut off for Incomplete).
type BoundedResult struct {
	Store     Store
	Behaviour Behaviour
	Fail      *syntax.Fail
	At        syntax.Stmt
	// Quant tells an Incomplete run that ExecBoundedCut's cut (the quantifier bound) stopped at
	// At from one the loop limit cut off.
	Quant bool
}

// ExecBounded is the big-step semantics with loop limit n of the Why3 development (predicates
// exec and exec_loop), extended to the whole language: an evaluation error is Error at the Fail
// of the statement for the first error's kind (FailFor: Err for a division by zero, IdxErr for an
// index out of range), an element assignment is as [S-ArrAssign], assert b is
// if b then skip else fail fi. Each while loop may start at
// most n iterations each time the loop statement is entered; the (n+1)-th is Incomplete.
// Being deterministic, the relation is a function.
func ExecBounded(p *syntax.Program, s Store, n int) BoundedResult {
	return (&bexec{n: n}).stmt(s, p.Body)
}

// ExecBoundedVisit is ExecBounded calling visit, in execution order, with each statement it
// starts to execute (never a sequence) and, for a while loop, each time it evaluates the loop's
// condition. Up to the point where limit n cuts a run off, the runs with limits n and m > n
// visit the same statements.
func ExecBoundedVisit(p *syntax.Program, s Store, n int, visit func(syntax.Stmt)) BoundedResult {
	return (&bexec{n: n, visit: visit}).stmt(s, p.Body)
}

// ExecBoundedCut is ExecBoundedVisit (visit may be nil) with one more bound: before a statement
// other than an assume evaluates its condition, cut may cut the run off there (Incomplete at the
// statement, with Quant set). It is the concrete counterpart of the bounded interpreter with
// QuantLoop set (certsym verify: quantifiers as loops, after Kiasan; xSymExe, Section III-B3),
// whose rule (bounded.Exhausts) the caller passes as cut: the interpreter cuts a path at such a
// statement when one of its quantifiers has more instances than the loop bound. An assume is
// never cut: the interpreter over-approximates it instead (the rest of the quantifier takes any
// value and the state is flagged), so the concrete run is one of those the flagged state admits.
func ExecBoundedCut(p *syntax.Program, s Store, n int, visit func(syntax.Stmt), cut func(c syntax.Stmt, cond syntax.BExpr, s Store) bool) BoundedResult {
	return (&bexec{n: n, visit: visit, cut: cut}).stmt(s, p.Body)
}

// bexec is one bounded execution: the loop limit n, the visitor, and the cut of ExecBoundedCut.
type bexec struct {
	n     int
	visit func(syntax.Stmt)
	cut   func(c syntax.Stmt, cond syntax.BExpr, s Store) bool
}

// cond evaluates the condition b of statement c in s; cut reports that ExecBoundedCut's cut
// stops the statement (never an assume).
func (x *bexec) cond(c syntax.Stmt, b syntax.BExpr, s Store) (v bool, k syntax.FailKind, ok, cut bool) {
	if _, assume := c.(*syntax.Assume); x.cut != nil && !assume && x.cut(c, b, s) {
		return false, 0, false, true
	}
	v, k, ok = EvalBKind(b, s, nil)
	return v, k, ok, false
}

func (x *bexec) stmt(s Store, c syntax.Stmt) BoundedResult {
	n, visit := x.n, x.visit
	if visit != nil {
		switch c.(type) {
		case *syntax.Seq, *syntax.While: // a sequence is no statement; a loop is visited at each condition
		case *syntax.Skip, *syntax.Fail, *syntax.Assign, *syntax.ArrAssign, *syntax.If, *syntax.Assert, *syntax.Assume:
			visit(c)
		default:
			panic(fmt.Sprintf("spec.ExecBounded: unknown statement %T", c))
		}
	}
	switch c := c.(type) {
	case *syntax.Skip: // E_skip
		return BoundedResult{Store: s}
	case *syntax.Fail: // E_fail
		return BoundedResult{Store: s, Behaviour: Error, Fail: c}
	case *syntax.Assign: // E_assign
		v, k, ok := EvalKind(c.A, s, nil)
		if !ok {
			return BoundedResult{Store: s, Behaviour: Error, Fail: FailFor(k, c.Err, c.IdxErr)}
		}
		s2 := make(Store, len(s))
		copy(s2, s)
		s2[c.X.Index] = v
		return BoundedResult{Store: s2}
	case *syntax.ArrAssign: // E_arrassign: as [S-ArrAssign] and [S-ArrAssignErr]
		slot, v, k, ok := EvalArrAssign(c, s)
		if !ok {
			return BoundedResult{Store: s, Behaviour: Error, Fail: FailFor(k, c.Err, c.IdxErr)}
		}
		s2 := make(Store, len(s))
		copy(s2, s)
		s2[slot] = v
		return BoundedResult{Store: s2}
	case *syntax.Seq: // E_seq, E_seq_abrupt
		r := x.stmt(s, c.First)
		if r.Behaviour != Normal {
			return r
		}
		return x.stmt(r.Store, c.Second)
	case *syntax.If: // E_if_true, E_if_false
		return x.ifs(s, c, c.Cond, c.Then, c.Else, c.Err, c.IdxErr)
	case *syntax.Assert:
		return x.ifs(s, c, c.Cond, &syntax.Skip{Loc: c.Loc}, c.Violation, c.Err, c.IdxErr)
	case *syntax.Assume: // E_assume_true, E_assume_false
		v, k, ok, _ := x.cond(c, c.Cond, s)
		switch {
		case !ok:
			return BoundedResult{Store: s, Behaviour: Error, Fail: FailFor(k, c.Err, c.IdxErr)}
		case v:
			return BoundedResult{Store: s}
		}
		return BoundedResult{Store: s, Behaviour: Infeasible, At: c}
	case *syntax.While: // E_while, then exec_loop from k = 0; with invariant clauses, E_while_inv
		if r := x.clauses(s, c); r.Behaviour != Normal {
			return r
		}
		for k := 0; ; k++ {
			if visit != nil {
				visit(c)
			}
			v, kind, ok, cut := x.cond(c, c.Cond, s)
			switch {
			case cut:
				return BoundedResult{Store: s, Behaviour: Incomplete, At: c, Quant: true}
			case !ok:
				return BoundedResult{Store: s, Behaviour: Error, Fail: FailFor(kind, c.Unfold.Err, c.Unfold.IdxErr)}
			case !v: // L_exit
				return BoundedResult{Store: s}
			case k >= n: // L_limit
				return BoundedResult{Store: s, Behaviour: Incomplete, At: c}
			}
			r := x.stmt(s, c.Body) // L_iter, L_abrupt
			if r.Behaviour == Normal {
				r = x.clauses(r.Store, c)
			}
			if r.Behaviour != Normal {
				return r
			}
			s = r.Store
		}
	default:
		panic(fmt.Sprintf("spec.ExecBounded: unknown statement %T", c))
	}
}

// clauses executes the invariant clauses of loop c (none for a loop without them), in order, as
// asserts: at every arrival at the loop's head, before its condition ([S-While-Inv]; Why3:
// E_while_inv: WhileInv b i c means i; while b do (c; i) od, whose checks of i are these).
func (x *bexec) clauses(s Store, c *syntax.While) BoundedResult {
	for _, inv := range c.Invariants {
		r := x.stmt(s, inv)
		if r.Behaviour != Normal {
			return r
		}
	}
	return BoundedResult{Store: s}
}

func (x *bexec) ifs(s Store, c syntax.Stmt, b syntax.BExpr, th, el syntax.Stmt, err, idxErr *syntax.Fail) BoundedResult {
	v, k, ok, cut := x.cond(c, b, s)
	switch {
	case cut:
		return BoundedResult{Store: s, Behaviour: Incomplete, At: c, Quant: true}
	case !ok:
		return BoundedResult{Store: s, Behaviour: Error, Fail: FailFor(k, err, idxErr)}
	case v:
		return x.stmt(s, th)
	}
	return x.stmt(s, el)
}
