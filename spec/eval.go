package spec

// Store is a concrete store s: the value of each program variable, indexed by Var.Index.
type Store []Int

// Eval is ⟦a⟧s, the value of a in s (SEMANTICS.md, Evaluation and definedness). ok is false when
// the value is undefined: some division or remainder inside a has a zero divisor.
func Eval(a AExpr, s Store) (v Int, ok bool) {
	switch a := a.(type) {
	case *Num:
		return a.Val, true
	case *Var:
		return s[a.Index], true
	case *Neg:
		x, ok := Eval(a.X, s)
		return x.Neg(), ok
	case *BinA:
		// Strict: both operands are evaluated.
		l, okl := Eval(a.L, s)
		r, okr := Eval(a.R, s)
		if !okl || !okr {
			return Int{}, false
		}
		return ApplyA(a.Op, l, r)
	}
	panic("spec.Eval: unknown expression")
}

// ApplyA applies an arithmetic operator to two values; ok is false for a division or remainder
// by zero.
func ApplyA(op AOp, l, r Int) (Int, bool) {
	switch op {
	case Add:
		return l.Add(r), true
	case Sub:
		return l.Sub(r), true
	case Mul:
		return l.Mul(r), true
	case Div:
		return l.Quo(r), !r.IsZero()
	case Mod:
		return l.Rem(r), !r.IsZero()
	}
	panic("spec.ApplyA: unknown operator")
}

// EvalB is ⟦b⟧s, the truth of b in s; ok is false when b is undefined (a zero divisor inside it;
// evaluation is strict, and/or do not short-circuit).
func EvalB(b BExpr, s Store) (v, ok bool) {
	switch b := b.(type) {
	case *BoolLit:
		return b.Val, true
	case *Cmp:
		l, okl := Eval(b.L, s)
		r, okr := Eval(b.R, s)
		return b.Op.Holds(l.Cmp(r)), okl && okr
	case *Not:
		x, ok := EvalB(b.X, s)
		return !x, ok
	case *BinB:
		l, okl := EvalB(b.L, s)
		r, okr := EvalB(b.R, s)
		if b.Op == And {
			return l && r, okl && okr
		}
		return l || r, okl && okr
	}
	panic("spec.EvalB: unknown condition")
}

// HasDivA reports whether a contains a division or remainder.
func HasDivA(a AExpr) bool { return hasDiv(a) }

// HasDivB reports whether b contains a division or remainder.
func HasDivB(b BExpr) bool { return hasDiv(b) }

func hasDiv(n Node) bool {
	found := false
	eachDivision(n, func(*BinA) { found = true })
	return found
}

// Divisions appends to out the divisions and remainders inside n, in left-to-right post-order
// (an operation after the operations inside its operands).
func Divisions(n Node, out []*BinA) []*BinA {
	eachDivision(n, func(d *BinA) { out = append(out, d) })
	return out
}

// DivisorsA appends to ds the divisors of the divisions and remainders inside a, in the order of
// Divisions: D(a) of SEMANTICS.md is the conjunction of d != 0 over them.
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
	}
}
