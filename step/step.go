// Package step is the symbolic step kernel: the two steps of the rules that change a path
// condition or a store, written once for the three interpreters built on package sym. The bug
// finder's Expand (package engine), the bounded interpreter's cond_branches and assign (package
// bounded) and the verifier's constraints (package verify) all take their successors'
// constraints and stores from here (with arrays and quantifiers: the index-error
// successors after the division ones, SplitKinds, and the element assignment ArrAssign), and the
// fault hooks of these steps (DropElseNegation,
// NoDivZeroBranch, LostStoreUpdate) live here only. What a caller does with a successor (queue
// it, check it with the solver, cut it at a budget) is its own business.
package step

import (
	"fmt"

	"certsym/internal/fault"
	"certsym/spec/syntax"
	"certsym/sym"
)

// Skip is the skip a step continues with: the rest of an assignment, and the then branch of an
// assert (assert b is if b then skip else fail fi). The verifier recognizes it as no program
// point of its own.
var Skip = &syntax.Skip{}

// A Split is the condition split of a step on a condition b in a store S: the constraints of its
// then successor, S(D(b)) ∧ S(b), of its else successor, S(D(b)) ∧ ¬S(b), and of its
// division-error successor, ¬S(D(b)), which is nil when the step has no error successor (b does
// not divide).
type Split struct {
	Then, Else, Err *sym.Formula
	// IdxErr is the index-error successor's constraint S(F_idx(b)), nil when the
	// statement has no index-error successor (b reads no array element); Err is then
	// S(F_div(b)), or ¬S(D(b)) when b can fail by division only.
	IdxErr *sym.Formula
}

// extended reports whether the expression n reads an array element or has a quantifier: its
// definedness and first failures need the general formulas (sym.Terms.CondKinds).
func extended(n syntax.Node) bool {
	switch e := n.(type) {
	case *syntax.Elem, *syntax.Quant:
		return true
	case *syntax.Neg:
		return extended(e.X)
	case *syntax.BinA:
		return extended(e.L) || extended(e.R)
	case *syntax.Cmp:
		return extended(e.L) || extended(e.R)
	case *syntax.Not:
		return extended(e.X)
	case *syntax.BinB:
		return extended(e.L) || extended(e.R)
	case *syntax.Num, *syntax.Var, *syntax.BoundRef, *syntax.BoolLit:
		return false
	default:
		panic(fmt.Sprintf("step: not an expression: %T", n))
	}
}

// SplitKinds is SplitCond with both kinds of error successors: then under
// S(D(b)) ∧ S(b), else under S(D(b)) ∧ ¬S(b), the division error under S(F_div(b)) when divides,
// the index error under S(F_idx(b)) when indexes (each F is ¬S(D(b)) when b can fail in that way
// only). The successors' order is then, else, division error, index error.
//
// Coq: the sym_step constructors E_IfTrue, E_IfFalse and E_IfErr (one per kind k, bF k), and
// E_Assume, E_AssumeErr (Symbolic.v).
func SplitKinds(ts *sym.Terms, cond syntax.BExpr, s []*sym.Term, divides, indexes bool) Split {
	if !extended(cond) {
		return SplitCond(ts, cond, s, divides)
	}
	c, d, fdiv, fidx := ts.CondKinds(cond, s)
	notC := sym.Not(c)
	if fault.Active == fault.DropElseNegation {
		notC = c
	}
	sp := Split{Then: sym.And(d, c), Else: sym.And(d, notC)}
	switch {
	case divides && indexes:
		sp.Err, sp.IdxErr = fdiv, fidx
	case divides:
		sp.Err = sym.Not(d)
	case indexes:
		sp.IdxErr = sym.Not(d)
	}
	if fault.Active == fault.NoDivZeroBranch {
		sp.Err = nil
	}
	return sp
}

// SplitCond is the condition split of [E-If] (and of assert b, assume b and the test of a while
// loop): the then, else and division-error constraints of b under the store s. divides says
// whether the statement has a division-error successor (its Err is not nil); without one, D(b)
// is true. The order of the successors is the order of the rules: then, else, error.
//
// Coq: the sym_step constructors E_IfTrue, E_IfFalse and E_IfErr (Symbolic.v), the If case of
// expand (Expand.v), covered by Theorem 3.1, expand_correct (Expandproof.v). Why3: the
// constraints of cond_branches (interp.mlw).
func SplitCond(ts *sym.Terms, cond syntax.BExpr, s []*sym.Term, divides bool) Split {
	c := ts.SubstB(cond, s)
	d := sym.True
	if divides {
		d = ts.Defined(syntax.DivisorsB(cond, nil), s)
	}
	notC := sym.Not(c)
	if fault.Active == fault.DropElseNegation {
		notC = c
	}
	sp := Split{Then: sym.And(d, c), Else: sym.And(d, notC)}
	if divides && fault.Active != fault.NoDivZeroBranch {
		sp.Err = sym.Not(d)
	}
	return sp
}

// An Assignment is the assignment step x := a in a store S: the store S[x ↦ S(a)] of the
// normal successor, under the definedness condition S(D(a)), and, when a divides, the
// division-error successor under ¬S(D(a)) with the store unchanged.
type Assignment struct {
	// Value is S(a), Store is S[x ↦ S(a)] (a new slice; the old store is unchanged).
	Value *sym.Term
	Store []*sym.Term
	// Def is S(D(a)), the normal successor's constraint, and Err is ¬S(D(a)), the error
	// successor's; both are nil when a does not divide (the statement has no error successor).
	Def, Err *sym.Formula
	// IdxErr is S(F_idx(a)), the index-error successor's constraint, nil when a reads
	// no array element; Err is then S(F_div(a)) (¬S(D(a)) when a can fail by division only), and
	// Def is S(D(a)) whenever one of them is not nil.
	IdxErr *sym.Formula
	// Huge reports that S(a) has a constant of more than MaxIntBits bits: a resource bound, not
	// a step of the semantics; the caller stops its run (HugeReason says why).
	Huge bool
}

// Assign is the assignment step [E-Assign] (with its division error [E-AssignErr]) of x := a under
// the store s.
//
// Coq: the sym_step constructors E_Assign and E_AssignErr (Symbolic.v), the Assign case of expand
// (Expand.v), covered by Theorem 3.1, expand_correct (Expandproof.v). Why3: assign (interp.mlw),
// which substitutes as this does (x is bound to sym_aexpr σ a, no fresh symbol).
func Assign(ts *sym.Terms, a *syntax.Assign, s []*sym.Term) Assignment {
	if extended(a.A) {
		return assignKinds(ts, a, s)
	}
	t := ts.Subst(a.A, s)
	st := Assignment{Value: t, Huge: t.Exceeds(MaxIntBits)}
	st.Store = make([]*sym.Term, len(s))
	copy(st.Store, s)
	st.Store[a.X.Index] = t
	if c, ok := t.IsConst(); ok && c.IsZero() && fault.Active == fault.LostStoreUpdate {
		st.Store[a.X.Index] = s[a.X.Index]
	}
	if a.Err != nil && fault.Active != fault.NoDivZeroBranch {
		st.Def = ts.Defined(syntax.DivisorsA(a.A, nil), s)
		st.Err = sym.Not(st.Def)
	}
	return st
}

// MaxIntBits bounds the integers a run computes with: an assignment whose value has a constant of
// more bits stops the run (bug finder and bounded interpreter) with a stated reason. IMP's
// integers are unbounded, and a loop such as x = x * x * x * x multiplies their length by four at
// each iteration: without the bound, the arithmetic alone would take the machine's time and memory.
const MaxIntBits = 1 << 20

// HugeReason is the reason a run stops at the assignment s whose value is Huge.
func HugeReason(s *syntax.Assign) string {
	p := s.Pos()
	return fmt.Sprintf("integer bound reached (a value of more than %d bits assigned at %d:%d)", MaxIntBits, p.Line, p.Col)
}

// assignKinds is Assign for an expression that reads array elements: the division
// error under S(F_div(a)), the index error under S(F_idx(a)).
func assignKinds(ts *sym.Terms, a *syntax.Assign, s []*sym.Term) Assignment {
	t, d, fdiv, fidx := ts.ExprKinds(a.A, s)
	st := Assignment{Value: t, Huge: t.Exceeds(MaxIntBits)}
	st.Store = make([]*sym.Term, len(s))
	copy(st.Store, s)
	st.Store[a.X.Index] = t
	st.Def = d
	switch {
	case a.Err != nil && a.IdxErr != nil:
		st.Err, st.IdxErr = fdiv, fidx
	case a.Err != nil:
		st.Err = sym.Not(d)
	case a.IdxErr != nil:
		st.IdxErr = sym.Not(d)
	default:
		st.Def = nil
	}
	if fault.Active == fault.NoDivZeroBranch {
		st.Err = nil
	}
	return st
}

// An ArrAssignment is the element assignment step a[i] = e in a store S: the store
// S[a ↦ store(S(a), S(i), S(e))] of the normal successor under S(D), D the definedness of the
// statement's evaluation (i, then e, then the range check of the write), and its error
// successors with the store unchanged: division under S(F_div), index under S(F_idx), each nil
// when the statement has no such successor (its Err, IdxErr).
type ArrAssignment struct {
	Store            []*sym.Term
	Def, Err, IdxErr *sym.Formula
	Huge             bool
}

// ArrAssign is the element assignment step [E-ArrAssign] (with its errors [E-ArrAssignErr]) of
// a[i] = e under the store s. A write at a constant index replaces an earlier store at that
// index; a symbolic index is never split into one path per element.
//
// Coq: the sym_step constructors E_ArrAssign and E_ArrAssignErr (one per kind k, wF k)
// (Symbolic.v).
func ArrAssign(ts *sym.Terms, a *syntax.ArrAssign, s []*sym.Term) ArrAssignment {
	store, d, fdiv, fidx := ts.WriteKinds(a.Arr, a.I, a.A, s)
	st := ArrAssignment{Store: store, Def: d}
	if a.Err != nil && fault.Active != fault.NoDivZeroBranch {
		st.Err = fdiv
		if a.IdxErr == nil {
			st.Err = sym.Not(d)
		}
	}
	if a.IdxErr != nil {
		st.IdxErr = fidx
		if a.Err == nil {
			st.IdxErr = sym.Not(d)
		}
	}
	return st
}
