package verify

import (
	"fmt"
	"slices"
	"sort"

	"certsym/spec"
	"certsym/spec/integer"
	"certsym/spec/syntax"
)

// This file is the claim model of xSymExe (Hatcliff, Robby, Chalin, Belt, ICSE 2013), Section
// IV-A: a developer claim (an assert, or an implicit claim of a statement: a divisor that must not
// be zero, an index that must be in range) is made of primitive claims, the supporting ones (the
// run-time checks its evaluation makes before it can give a value) and the defining one, last.
//
// The supporting claims are the checks of syntax.WalkChecks, in its order, which is the order of
// evaluation (strict: both sides of and/or are evaluated, so there is no short circuit to
// follow). A check inside a quantifier's body is made once per instance; it becomes one
// supporting claim quantified over the enclosing quantifiers' ranges ("forall k in lo..hi:
// b[k] != 0", whatever the quantifier, as every instance is evaluated), true when it holds for
// the instances evaluated (with the quantifier bound, the truncated condition
// bounded.State.Trunc gives those instances). The claims keep the order of the checks' first
// occurrence, not the interleaving instance by instance: whether the developer claim is
// UNDEFINED on a state is exact (some check fails where the earlier ones hold), which supporting
// claim is blamed for it inside a quantifier may be a later one in the instance order.

// ClaimKind says what makes a developer claim.
type ClaimKind uint8

// The kinds of developer claims: an assert (explicit; an explicit fail is the assert false), and
// the implicit claims of the statements, "divisor != 0" of each division or remainder and
// "lo <= i <= hi" of each element read a[i] and element write a[i] = e of an array a[lo..hi].
// Divisions and element reads inside an assert's condition are supporting claims of the assert,
// not claims of their own. An invariant clause of a loop (while b invariant I do ...) is an
// explicit claim of its own kind, made like an assert's at the loop's head (the clause's
// statement, While.Invariants): I holds at every arrival there, before b is evaluated.
const (
	ClaimAssert ClaimKind = iota
	ClaimDivision
	ClaimIndex
	ClaimInvariant
)

func (k ClaimKind) String() string {
	return [...]string{"assert", "division", "index", "invariant"}[k]
}

// Explicit reports whether the claim is written by the developer (an assert, a fail or an
// invariant clause), as opposed to an implicit claim of a statement's evaluation (Section VI
// counts them apart). An explicit claim is a condition (Claim.Cond) that must hold.
func (k ClaimKind) Explicit() bool { return k == ClaimAssert || k == ClaimInvariant }

// PrimKind is the kind of a primitive claim (Section IV-A; the names are those of the report
// excerpt of Section VI).
type PrimKind uint8

// The kinds of primitive claims.
const (
	// PrimDivision (DIVISION): the divisor of a division or remainder is not zero.
	PrimDivision PrimKind = iota
	// PrimIndexLower (INDEX_LOWER): an index is at least its array's lower bound.
	PrimIndexLower
	// PrimIndexUpper (INDEX_UPPER): an index is at most its array's upper bound.
	PrimIndexUpper
	// PrimIndex (INDEX): lo <= i <= hi, the defining claim of an implicit index claim (the
	// statement's own range check; as a supporting claim of an assert the two bounds are
	// separate primitive claims, as in the paper's report).
	PrimIndex
	// PrimAssert (ASSERT): the defining claim of an assert, its condition once every
	// sub-expression is defined (the paper's POST check for a postcondition).
	PrimAssert
	// PrimInvariant (INVARIANT): the defining claim of an invariant clause, as PrimAssert.
	PrimInvariant
)

var primKindNames = [...]string{"DIVISION", "INDEX_LOWER", "INDEX_UPPER", "INDEX", "ASSERT", "INVARIANT"}

func (k PrimKind) String() string { return primKindNames[k] }

// A Prim is one primitive claim of a developer claim, with what verify established about it: its
// collecting summary COLLECTPRIM and its status INTERPPRIM (the table of Section III-B5 applied to
// the primitive claim's own summary, as Section IV-B says the definitions carry over).
type Prim struct {
	Kind     PrimKind
	Defining bool // the defining claim (the last); the others are supporting claims
	Line     int  // the developer claim's line (the macro call's for an inlined statement)
	Col      int  // the column of the checked expression (the call's for an inlined statement)
	// Text is the claim in IMP syntax; a check inside a quantifier whose operands use the bound
	// variable is quantified over the range ("forall k in 0..n: b[k] != 0").
	Text string
	// Expr is the claim as a condition of the language, evaluated in the claim's state.
	Expr syntax.BExpr
	// Quantified: the check is made once per instance of enclosing quantifiers, and the claim
	// says it holds for the instances evaluated.
	Quantified bool
	// pos identifies the checked expression (the division or element read, or the condition) to
	// map the claims of a truncated condition (bounded.State.Trunc) onto these.
	pos syntax.Pos

	Outcome
}

// Outcome is what the evaluations of a claim (a developer claim or a primitive one) collected:
// the summary, the status it interprets to, and the evidence of each result (Section V).
type Outcome struct {
	Summary Summary
	Status  Status
	// Evidence holds, for each result collected, its explication; nil for the others.
	Evidence [numResults]*Evidence
}

// Evidence is the explication of one collected result of a claim (Section V's table): the paths
// it was collected on, and the first one's concrete evidence.
//   - TRUE: Path and Input, a test that reaches the claim and satisfies it (replayed: Replay);
//   - FALSE, UNDEFINED: Path, the counterexample Input, the claim's location (the claim's Line
//     and Col) and what its concrete replay showed;
//   - FALSE?, UNDEFINED?: the counterexample and the over-approximation locations (Over);
//   - DONTKNOW: Path and the unhandled-theory locations (Unhandled);
//   - CUTOFF: the cutoff points that can reach the claim (the claim's Cutoffs), each with its
//     partial path (Report.Paths) and the control-flow chop.
type Evidence struct {
	Result Result
	Count  int   // evaluations that gave the result (CUTOFF: cutoff points that reach the claim)
	Paths  []int // the ids of the paths (Report.Paths) it was collected on, increasing, no repeats
	// Path is the id of the first path, -1 for CUTOFF.
	Path          int
	Input         spec.Store // the test or counterexample input; nil when none could be given
	PathCondition string
	Replay        string // what the concrete replay of Input showed
	// Over are the lines of the assumes whose quantifier bound ran out on the path, and of the
	// loops executed by the invariant transition (Options.InvariantLoops) on it (flag g).
	Over      []int
	Unhandled []Unhandled
}

// addPath records path id p (paths are met in increasing order of first evaluation, but a path
// can be met again later, so the list is kept sorted and without repeats): appended when new,
// else found by binary search (a linear scan made the evidence of many paths quadratic).
func (e *Evidence) addPath(p int) {
	n := len(e.Paths)
	if n == 0 || e.Paths[n-1] < p {
		e.Paths = append(e.Paths, p)
		return
	}
	i := sort.SearchInts(e.Paths, p)
	if e.Paths[i] == p {
		return
	}
	e.Paths = slices.Insert(e.Paths, i, p)
}

// primsOf builds the primitive claims of one run-time check c (syntax.WalkChecks) of a developer
// claim at line and column col: DIVISION, or the two bounds of an index (INDEX_LOWER,
// INDEX_UPPER), or INDEX when whole is set (the defining claim of an implicit index claim); a
// check inside quantifiers is quantified over their ranges (for the instances evaluated).
func primsOf(c syntax.Check, whole bool, line, col int) []*Prim {
	type part struct {
		kind PrimKind
		e    syntax.BExpr
		pos  syntax.Pos
	}
	var parts []part
	switch {
	case c.Div != nil:
		parts = append(parts, part{PrimDivision, &syntax.Cmp{P: c.Div.P, Op: syntax.Ne, L: c.Div.R, R: &syntax.Num{Val: integer.Of(0)}}, c.Div.P})
	default:
		arr, i, p := (*syntax.Array)(nil), syntax.AExpr(nil), syntax.Pos{}
		if c.Elem != nil {
			arr, i, p = c.Elem.Arr, c.Elem.I, c.Elem.P
		} else {
			arr, i, p = c.Write.Arr, c.Write.I, c.Write.P
		}
		lo := &syntax.Cmp{P: p, Op: syntax.Ge, L: i, R: &syntax.Num{Val: integer.Of(int64(arr.Lo))}}
		hi := &syntax.Cmp{P: p, Op: syntax.Le, L: i, R: &syntax.Num{Val: integer.Of(int64(arr.Hi))}}
		if whole {
			parts = append(parts, part{PrimIndex, &syntax.BinB{P: p, Op: syntax.And, L: lo, R: hi}, p})
		} else {
			parts = append(parts, part{PrimIndexLower, lo, p}, part{PrimIndexUpper, hi, p})
		}
	}
	var out []*Prim
	for _, pt := range parts {
		e := pt.e
		for k := len(c.Quants) - 1; k >= 0; k-- {
			q := c.Quants[k]
			e = &syntax.Quant{P: q.P, Name: q.Name, Level: q.Level, Lo: q.Lo, Hi: q.Hi, Body: e}
		}
		pr := &Prim{Kind: pt.kind, Line: line, Text: syntax.PrintB(e), Expr: e, Quantified: len(c.Quants) > 0, pos: pt.pos}
		if pr.Col = col; pt.pos.Line == line {
			pr.Col = pt.pos.Col // else inlined from a macro: the call's position
		}
		out = append(out, pr)
	}
	return out
}

// supporting returns the supporting primitive claims of an expression n evaluated by a claim at
// line and column col: its run-time checks in evaluation order (syntax.WalkChecks), each index split into its two
// bounds.
func supporting(n syntax.Node, line, col int) []*Prim {
	var out []*Prim
	syntax.WalkChecks(n, func(c syntax.Check) {
		if !trivial(c) {
			out = append(out, primsOf(c, false, line, col)...)
		}
	})
	return out
}

// trivial reports whether the run-time check c can never fail, whatever the state: a division by
// a constant that is not zero (n % 2), an element access at a constant index inside the array's
// bounds (a[1]). Such checks make no claim, implicit or supporting.
func trivial(c syntax.Check) bool {
	switch {
	case c.Div != nil:
		return spec.ConstNonZero(c.Div.R)
	case c.Elem != nil:
		return spec.ConstInRange(c.Elem.Arr, c.Elem.I)
	case c.Write != nil:
		return spec.ConstInRange(c.Write.Arr, c.Write.I)
	}
	return false
}

// decompose builds the primitive claims of a developer claim made by statement s (Section
// IV-A): for an assert (or fail, or invariant clause), the checks of its condition, then ASSERT, its condition; for an
// implicit claim of the check c, the checks of its operand (the divisor, the index), then the
// check itself.
func decompose(cl *Claim, c *syntax.Check) {
	var sup []*Prim
	var def *Prim
	if cl.Kind.Explicit() {
		kind := PrimAssert
		if cl.Kind == ClaimInvariant {
			kind = PrimInvariant
		}
		sup = supporting(cl.Cond, cl.Line, cl.Col)
		def = &Prim{Kind: kind, Line: cl.Line, Col: cl.Col, Text: cl.Text, Expr: cl.Cond, pos: cl.Cond.Pos()}
	} else {
		switch {
		case c.Div != nil:
			sup = supporting(c.Div.R, cl.Line, cl.Col)
		case c.Elem != nil:
			sup = supporting(c.Elem.I, cl.Line, cl.Col)
		default:
			sup = supporting(c.Write.I, cl.Line, cl.Col)
		}
		def = primsOf(*c, true, cl.Line, cl.Col)[0]
	}
	def.Defining = true
	cl.Prims = append(sup, def)
}

// Defining returns the claim's defining primitive claim (the last).
func (cl *Claim) Defining() *Prim { return cl.Prims[len(cl.Prims)-1] }

// Supporting returns the claim's supporting primitive claims, in evaluation order.
func (cl *Claim) Supporting() []*Prim { return cl.Prims[:len(cl.Prims)-1] }

// Name is the primitive claim's row name in the report: KIND@LINE (Section VI).
func (p *Prim) Name() string { return fmt.Sprintf("%s@%d", p.Kind, p.Line) }
