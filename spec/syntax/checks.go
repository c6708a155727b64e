package syntax

import "fmt"

// Check is one run-time check of an evaluation (SEMANTICS.md, "Evaluation order and typed
// errors"): the divisor of a division or remainder is not zero (Kind FailDivZero, Div set), the
// index of an element read is within its array's bounds (Kind FailIndex, Elem set), or the index
// of an element assignment is (Kind FailIndex, Write set: the check after both operands).
// Quants are the quantifiers of the walked expression that enclose the check, outermost first
// (their Level is their index here): such a check is made once per instance.
type Check struct {
	Kind   FailKind
	Div    *BinA
	Elem   *Elem
	Write  *ArrAssign
	Quants []*Quant
}

// WalkChecks calls visit with the checks of the expression n (an AExpr or a BExpr), in
// evaluation order: the operands' checks left to right, then the operation's own; for a
// quantifier, the checks of its bounds, then those of its body (made per instance, in increasing
// order of the bound variable, each instance's in this order). For an expression without
// quantifiers this is exactly the order in which evaluation makes them, so the error of an
// evaluation is the kind of the first check that fails (and Divisions lists the FailDivZero
// checks in the same order). The Quants slice is reused between calls: copy it to keep it.
func WalkChecks(n Node, visit func(Check)) {
	var qs []*Quant
	var walk func(Node)
	walk = func(n Node) {
		switch e := n.(type) {
		case *Neg:
			walk(e.X)
		case *BinA:
			walk(e.L)
			walk(e.R)
			if e.Op == Div || e.Op == Mod {
				visit(Check{Kind: FailDivZero, Div: e, Quants: qs})
			}
		case *Elem:
			walk(e.I)
			visit(Check{Kind: FailIndex, Elem: e, Quants: qs})
		case *Cmp:
			walk(e.L)
			walk(e.R)
		case *Not:
			walk(e.X)
		case *BinB:
			walk(e.L)
			walk(e.R)
		case *Quant:
			walk(e.Lo)
			walk(e.Hi)
			qs = append(qs, e)
			walk(e.Body)
			qs = qs[:len(qs)-1]
		case *Num, *Var, *BoundRef, *BoolLit:
		default:
			panic(fmt.Sprintf("spec.WalkChecks: not an expression: %T", n))
		}
	}
	walk(n)
}

// WalkStmtChecks is WalkChecks for the expressions a statement evaluates, in its order: an
// assignment's expression; a condition (if, while, assume, assert); for an element assignment
// a[i] = e, i's checks, then e's, then the range check of the write. Other statements make none.
// A while's are those of its condition: its invariant clauses are statements of their own (the
// Asserts of While.Invariants, with their own Err and IdxErr).
func WalkStmtChecks(s Stmt, visit func(Check)) {
	switch s := s.(type) {
	case *Assign:
		WalkChecks(s.A, visit)
	case *ArrAssign:
		WalkChecks(s.I, visit)
		WalkChecks(s.A, visit)
		visit(Check{Kind: FailIndex, Write: s})
	case *If:
		WalkChecks(s.Cond, visit)
	case *While:
		WalkChecks(s.Cond, visit)
	case *Assume:
		WalkChecks(s.Cond, visit)
	case *Assert:
		WalkChecks(s.Cond, visit)
	case *Skip, *Fail, *Seq:
	default:
		panic(fmt.Sprintf("spec.WalkStmtChecks: unknown statement %T", s))
	}
}
