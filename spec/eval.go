package spec

import "certsym/internal/budget"

// Store is a concrete store s: the value of each program variable, indexed by Var.Index, then the
// elements of each array, element j of array a at a.Offset + (j - a.Lo) (Program.Slots).
type Store []Int

// Env holds the values of the variables bound by the quantifiers enclosing an expression,
// indexed by their level (BoundRef.Level): env[0] is the outermost binder's value. A condition of
// a statement is evaluated in the empty environment (nil).
type Env []Int

// Eval is ⟦a⟧s, the value of a in s (SEMANTICS.md, Evaluation and definedness). ok is false when
// the value is undefined: a division or remainder by zero, or an element read out of its array's
// bounds. EvalKind says which error comes first.
func Eval(a AExpr, s Store) (v Int, ok bool) {
	v, _, ok = EvalKind(a, s, nil)
	return v, ok
}

// EvalB is ⟦b⟧s, the truth of b in s; ok is false when b is undefined (evaluation is strict:
// and/or do not short-circuit, a quantifier evaluates every instance). EvalBKind says which
// error comes first.
func EvalB(b BExpr, s Store) (v, ok bool) {
	v, _, ok = EvalBKind(b, s, nil)
	return v, ok
}

// EvalKind is the evaluation of a in store s and environment env with typed errors
// (SEMANTICS.md, "Evaluation order and typed errors"): the value, or, when ok is false, the kind
// of the first error in evaluation order, FailDivZero or FailIndex. Operands are evaluated left
// to right before their operation; a read a[i] evaluates i, then checks its range.
func EvalKind(a AExpr, s Store, env Env) (v Int, kind FailKind, ok bool) {
	return evalA(a, s, env, nil)
}

// work bounds an evaluation within its run's Limits: left is the quantifier instances that remain,
// bits the integer bound; a bound reached panics with its budget.Cut, which RunFastLimited
// recovers.
type work struct {
	left int64
	bits int
}

// assigned panics when v, about to be assigned, has more bits than the integer bound (w nil: none).
func (w *work) assigned(v Int) {
	if w != nil && w.bits > 0 && v.BitLen() > w.bits {
		panic(budget.CutIntBits)
	}
}

// evalA is EvalKind under the bound w (nil: no bound).
func evalA(a AExpr, s Store, env Env, w *work) (v Int, kind FailKind, ok bool) {
	switch a := a.(type) {
	case *Num:
		return a.Val, 0, true
	case *Var:
		return s[a.Index], 0, true
	case *BoundRef:
		return env[a.Level], 0, true
	case *Neg:
		x, k, ok := evalA(a.X, s, env, w)
		if !ok {
			return Int{}, k, false
		}
		return x.Neg(), 0, true
	case *BinA:
		l, k, ok := evalA(a.L, s, env, w)
		if !ok {
			return Int{}, k, false
		}
		r, k, ok := evalA(a.R, s, env, w)
		if !ok {
			return Int{}, k, false
		}
		v, ok := ApplyA(a.Op, l, r)
		if !ok {
			return Int{}, FailDivZero, false
		}
		return v, 0, true
	case *Elem:
		i, k, ok := evalA(a.I, s, env, w)
		if !ok {
			return Int{}, k, false
		}
		slot, ok := a.Arr.Slot(i)
		if !ok {
			return Int{}, FailIndex, false
		}
		return s[slot], 0, true
	}
	panic("spec.EvalKind: unknown expression")
}

// Slot returns the store slot of element i of the array (Array.Offset + i - Lo); ok is false
// when i is outside Lo..Hi.
func (a *Array) Slot(i Int) (slot int, ok bool) {
	j, small := i.Int64()
	if !small || j < a.Lo || j > a.Hi {
		return 0, false
	}
	return a.Offset + int(j-a.Lo), true
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

// EvalBKind is EvalKind for a condition: comparisons and connectives evaluate their left
// operand, then their right one (both, even when the left decides the value); a quantifier
// follows [Quant] (SEMANTICS.md): its bounds, then each instance in increasing order of the bound
// variable, the first erring instance giving the error.
//
// Evaluation is exact, so a quantifier over a huge range takes time proportional to the range:
// the instances are evaluated one by one (a body that does not mention its bound variable is
// evaluated once, which gives the same result, and an instance that errs ends the evaluation,
// since the first error decides it). RunFastLimited can bound the instances a run evaluates (certsym
// exec bounds them by --max-steps), so that a run cannot hang in one quantifier; EvalBKind, Step,
// Run and ExecBounded have no such bound.
func EvalBKind(b BExpr, s Store, env Env) (v bool, kind FailKind, ok bool) {
	return evalB(b, s, env, nil)
}

// evalB is EvalBKind under the bound w (nil: no bound).
func evalB(b BExpr, s Store, env Env, w *work) (v bool, kind FailKind, ok bool) {
	switch b := b.(type) {
	case *BoolLit:
		return b.Val, 0, true
	case *Cmp:
		l, k, ok := evalA(b.L, s, env, w)
		if !ok {
			return false, k, false
		}
		r, k, ok := evalA(b.R, s, env, w)
		if !ok {
			return false, k, false
		}
		return b.Op.Holds(l.Cmp(r)), 0, true
	case *Not:
		x, k, ok := evalB(b.X, s, env, w)
		return !x && ok, k, ok
	case *BinB:
		l, k, ok := evalB(b.L, s, env, w)
		if !ok {
			return false, k, false
		}
		r, k, ok := evalB(b.R, s, env, w)
		if !ok {
			return false, k, false
		}
		if b.Op == And {
			return l && r, 0, true
		}
		return l || r, 0, true
	case *Quant:
		return evalQuant(b, s, env, w)
	}
	panic("spec.EvalBKind: unknown condition")
}

// evalQuant is the quantifier case of EvalBKind.
func evalQuant(q *Quant, s Store, env Env, w *work) (bool, FailKind, bool) {
	lo, k, ok := evalA(q.Lo, s, env, w)
	if !ok {
		return false, k, false
	}
	hi, k, ok := evalA(q.Hi, s, env, w)
	if !ok {
		return false, k, false
	}
	// The instances j = lo, ..., hi in increasing order; the environment gets the binder's slot.
	inner := make(Env, q.Level+1)
	copy(inner, env)
	uses := mentionsBound(q.Body, q.Level)
	found := false // forall: a false instance was met; exists: a true one
	one := IntOf(1)
	for j := lo; j.Cmp(hi) <= 0; j = j.Add(one) {
		inner[q.Level] = j
		if w != nil {
			if w.left <= 0 {
				panic(budget.CutInstances)
			}
			w.left--
		}
		v, k, ok := evalB(q.Body, s, inner, w)
		if !ok {
			return false, k, false
		}
		if v == q.Exists {
			found = true
		}
		if !uses {
			break // every instance is this one
		}
	}
	if q.Exists {
		return found, 0, true
	}
	return !found, 0, true
}

// mentionsBound reports whether n uses the variable bound at level (a BoundRef of that level).
func mentionsBound(n Node, level int) bool {
	found := false
	Inspect(n, func(m Node) bool {
		if r, ok := m.(*BoundRef); ok && r.Level == level {
			found = true
		}
		return !found
	})
	return found
}

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

// ConstNonZero reports whether a is constant, integer literals combined by operators (no
// variable, element read or bound variable), with a defined value that is not zero. A division or
// remainder by such a divisor, n % 2 or x / (2 * 3), can never divide by zero: it makes no
// division claim (issue 14).
func ConstNonZero(a AExpr) bool {
	v, ok := constValue(a)
	return ok && !v.IsZero()
}

// ConstInRange reports whether the index i is constant (as for ConstNonZero) with a defined
// value inside arr's bounds: an element access a[i] with such an index can never be out of range,
// and makes no index claim (issue 14).
func ConstInRange(arr *Array, i AExpr) bool {
	v, ok := constValue(i)
	if !ok {
		return false
	}
	_, in := arr.Slot(v)
	return in
}

// constValue is the value of a when a is constant (no variable, element read or bound variable)
// and defined.
func constValue(a AExpr) (Int, bool) {
	constant := true
	Inspect(a, func(n Node) bool {
		switch n.(type) {
		case *Var, *Elem, *BoundRef:
			constant = false
		}
		return constant
	})
	if !constant {
		return Int{}, false
	}
	return Eval(a, nil)
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
	}
}
