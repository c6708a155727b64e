package syntax

import "fmt"

// HasDivA reports whether a contains a division or remainder.
func HasDivA(a AExpr) bool { return hasDiv(a) }

// HasMul reports whether the syntax tree n (a statement or an expression) multiplies: whether
// its printed form contains '*', found without printing it.
func HasMul(n Node) bool {
	return contains(n, func(m Node) bool { b, ok := m.(*BinA); return ok && b.Op == Mul })
}

// contains reports whether some node of the syntax tree n satisfies match (the walk stops at the
// first).
func contains(n Node, match func(Node) bool) bool {
	found := false
	Inspect(n, func(m Node) bool {
		found = found || match(m)
		return !found
	})
	return found
}

// HasQuant reports whether the syntax tree n contains a quantifier (forall or exists).
func HasQuant(n Node) bool {
	return contains(n, func(m Node) bool { _, ok := m.(*Quant); return ok })
}

// UsesBound reports whether the expression n uses a quantifier's bound variable (of any level).
func UsesBound(n Node) bool {
	return contains(n, func(m Node) bool { _, ok := m.(*BoundRef); return ok })
}

// HasDivB reports whether b contains a division or remainder (inside quantifiers too).
func HasDivB(b BExpr) bool { return hasDiv(b) }

func hasDiv(n Node) bool {
	found := false
	eachDivision(n, func(*BinA) { found = true })
	return found
}

// HasIndex reports whether the expression n (an AExpr or BExpr) reads an array element, so that
// its evaluation can fail with an index out of range.
func HasIndex(n Node) bool {
	found := false
	Inspect(n, func(m Node) bool {
		if _, ok := m.(*Elem); ok {
			found = true
		}
		return !found
	})
	return found
}

// CanFail reports whether the evaluation of the expression n can fail with an error of kind k
// (FailDivZero: n divides; FailIndex: n reads an element).
func CanFail(n Node, k FailKind) bool {
	switch k {
	case FailDivZero:
		return hasDiv(n)
	case FailIndex:
		return HasIndex(n)
	}
	return false
}

// Divisions appends to out the divisions and remainders inside n, in left-to-right post-order
// (an operation after the operations inside its operands). For an expression without element
// reads and quantifiers, this is the order of evaluation; with them, the checks of evaluation
// order interleave with the index checks and are repeated per instance of a quantifier (see
// WalkChecks).
func Divisions(n Node, out []*BinA) []*BinA {
	eachDivision(n, func(d *BinA) { out = append(out, d) })
	return out
}

// DivisorsA appends to ds the divisors of the divisions and remainders inside a, in the order of
// Divisions: for an expression without element reads and quantifiers, D(a) of SEMANTICS.md is
// the conjunction of d != 0 over them.
func DivisorsA(a AExpr, ds []AExpr) []AExpr {
	eachDivision(a, func(d *BinA) { ds = append(ds, d.R) })
	return ds
}

// DivisorsB is DivisorsA for a condition.
func DivisorsB(b BExpr, ds []AExpr) []AExpr {
	eachDivision(b, func(d *BinA) { ds = append(ds, d.R) })
	return ds
}

// eachDivision calls visit on the divisions and remainders inside the expression n, in the order
// of Divisions. It recurses rather than going through Inspect: the symbolic step asks for the
// divisors of every dividing statement it executes, and Inspect's stack costs an allocation.
func eachDivision(n Node, visit func(*BinA)) {
	switch e := n.(type) {
	case *Neg:
		eachDivision(e.X, visit)
	case *BinA:
		eachDivision(e.L, visit)
		eachDivision(e.R, visit)
		if e.Op == Div || e.Op == Mod {
			visit(e)
		}
	case *Cmp:
		eachDivision(e.L, visit)
		eachDivision(e.R, visit)
	case *Not:
		eachDivision(e.X, visit)
	case *BinB:
		eachDivision(e.L, visit)
		eachDivision(e.R, visit)
	case *Elem:
		eachDivision(e.I, visit)
	case *Quant:
		eachDivision(e.Lo, visit)
		eachDivision(e.Hi, visit)
		eachDivision(e.Body, visit)
	case *Num, *Var, *BoundRef, *BoolLit:
	default:
		panic(fmt.Sprintf("syntax.eachDivision: unknown expression %T", n))
	}
}
