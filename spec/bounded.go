package spec

import (
	"fmt"

	"certsym/internal/budget"
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
	// Cut is the bound of ExecBoundedLimited's Limits that stopped an Incomplete run at At, in
	// the store Store, before At executed (budget.NotCut: none).
	Cut budget.Cut
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

// ExecBoundedLimited is ExecBoundedCut (visit and cut may be nil) within lim (Limits; the loop
// limit n bounds the run's length, lim.Steps is not used): a statement that would evaluate more
// than lim.Instances quantifier instances in all over the run, or assign a value of more than
// lim.IntBits bits, and the statement at which lim.Stop (asked once in 1,024 statements and
// instances) answers true, end the run Incomplete there, in the store before it, with Cut the
// bound reached. A run no bound stops is ExecBoundedCut's. The concrete replays of the commands
// use it, so that no input hangs them in a quantifier over a huge range or on huge integers, and
// each polls the command's monitor.
func ExecBoundedLimited(p *syntax.Program, s Store, n int, lim Limits, visit func(syntax.Stmt), cut func(c syntax.Stmt, cond syntax.BExpr, s Store) bool) (r BoundedResult) {
	x := &bexec{n: n, visit: visit, cut: cut, w: newWork(lim), at: p.Body, atS: s}
	defer func() {
		if e := recover(); e != nil {
			c, ok := e.(budget.Cut)
			if !ok {
				panic(e)
			}
			r = BoundedResult{Store: x.atS, Behaviour: Incomplete, At: x.at, Cut: c}
		}
	}()
	return x.stmt(s, p.Body)
}

// bexec is one bounded execution: the loop limit n, the visitor, the cut of ExecBoundedCut, and
// the bounds of ExecBoundedLimited (w, nil for none) with the statement at and store atS where a
// bound reached stops the run.
type bexec struct {
	n     int
	visit func(syntax.Stmt)
	cut   func(c syntax.Stmt, cond syntax.BExpr, s Store) bool
	w     *work
	at    syntax.Stmt
	atS   Store
}

// cond evaluates the condition b of statement c in s; cut reports that ExecBoundedCut's cut
// stops the statement (never an assume).
func (x *bexec) cond(c syntax.Stmt, b syntax.BExpr, s Store) (v bool, k syntax.FailKind, ok, cut bool) {
	if _, assume := c.(*syntax.Assume); x.cut != nil && !assume && x.cut(c, b, s) {
		return false, 0, false, true
	}
	v, k, ok = evalB(b, s, nil, x.w)
	return v, k, ok, false
}

// starts records that statement c starts in s, for the bounds of ExecBoundedLimited: a bound
// reached before the next statement starts stops the run at c.
func (x *bexec) starts(c syntax.Stmt, s Store) {
	if x.w != nil {
		x.at, x.atS = c, s
		x.w.tick()
	}
}

func (x *bexec) stmt(s Store, c syntax.Stmt) BoundedResult {
	n, visit := x.n, x.visit
	if _, seq := c.(*syntax.Seq); !seq {
		x.starts(c, s) // a loop starts again at each condition (below)
	}
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
		v, k, ok := evalA(c.A, s, nil, x.w)
		if !ok {
			return BoundedResult{Store: s, Behaviour: Error, Fail: FailFor(k, c.Err, c.IdxErr)}
		}
		x.w.assigned(v)
		s2 := make(Store, len(s))
		copy(s2, s)
		s2[c.X.Index] = v
		return BoundedResult{Store: s2}
	case *syntax.ArrAssign: // E_arrassign: as [S-ArrAssign] and [S-ArrAssignErr]
		slot, v, k, ok := evalArrAssign(c, s, x.w)
		if !ok {
			return BoundedResult{Store: s, Behaviour: Error, Fail: FailFor(k, c.Err, c.IdxErr)}
		}
		x.w.assigned(v)
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
			if k > 0 {
				x.starts(c, s)
			}
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
