// Package spec is the Go transcription of IMP's concrete semantics: stores, the evaluation of
// expressions with typed errors, the small-step relation and its runs, and the bounded big-step
// execution. The programs it gives a meaning to are package syntax's (certsym/spec/syntax, the
// tree; certsym/spec/syntax/parser, the text), its values package integer's. SEMANTICS.md in
// this folder is the formal definition; each Go definition names the clause it transcribes.
package spec

import (
	"certsym/internal/budget"
	"certsym/spec/integer"
	"certsym/spec/syntax"
	"fmt"
)

// Store is a concrete store s: the value of each program variable, indexed by Var.Index, then the
// elements of each array, element j of array a at a.Offset + (j - a.Lo) (Program.Slots).
type Store []integer.Int

// Env holds the values of the variables bound by the quantifiers enclosing an expression,
// indexed by their level (BoundRef.Level): env[0] is the outermost binder's value. A condition of
// a statement is evaluated in the empty environment (nil).
type Env []integer.Int

// Eval is ⟦a⟧s, the value of a in s (SEMANTICS.md, Evaluation and definedness). ok is false when
// the value is undefined: a division or remainder by zero, or an element read out of its array's
// bounds. EvalKind says which error comes first.
func Eval(a syntax.AExpr, s Store) (v integer.Int, ok bool) {
	v, _, ok = EvalKind(a, s, nil)
	return v, ok
}

// EvalB is ⟦b⟧s, the truth of b in s; ok is false when b is undefined (evaluation is strict:
// and/or do not short-circuit, a quantifier evaluates every instance). EvalBKind says which
// error comes first.
func EvalB(b syntax.BExpr, s Store) (v, ok bool) {
	v, _, ok = EvalBKind(b, s, nil)
	return v, ok
}

// EvalKind is the evaluation of a in store s and environment env with typed errors
// (SEMANTICS.md, "Evaluation order and typed errors"): the value, or, when ok is false, the kind
// of the first error in evaluation order, FailDivZero or FailIndex. Operands are evaluated left
// to right before their operation; a read a[i] evaluates i, then checks its range.
func EvalKind(a syntax.AExpr, s Store, env Env) (v integer.Int, kind syntax.FailKind, ok bool) {
	return evalA(a, s, env, nil)
}

// work bounds an evaluation within its run's Limits: left is the quantifier instances that remain,
// bits the integer bound, stop the poll of Limits.Stop and ticks the steps and instances counted
// for it; a bound reached panics with its budget.Cut, which RunFastLimited, ExecBoundedLimited and
// the Limiter recover.
type work struct {
	left  int64
	bits  int
	stop  func() bool
	ticks uint
}

// newWork is the work of a run within lim (lim.Instances < 0: no bound on the instances).
func newWork(lim Limits) *work {
	w := &work{left: int64(lim.Instances), bits: lim.IntBits, stop: lim.Stop}
	if lim.Instances < 0 {
		w.left = 1<<63 - 1
	}
	return w
}

// tick counts one step, statement or quantifier instance, and asks stop once in 1,024 of them:
// a true answer panics with budget.CutStop.
func (w *work) tick() {
	w.ticks++
	if w.stop != nil && w.ticks&1023 == 0 && w.stop() {
		panic(budget.CutStop)
	}
}

// assigned panics when v, about to be assigned, has more bits than the integer bound (w nil: none).
func (w *work) assigned(v integer.Int) {
	if w != nil && w.bits > 0 && v.BitLen() > w.bits {
		panic(budget.CutIntBits)
	}
}

// evalA is EvalKind under the bound w (nil: no bound).
func evalA(a syntax.AExpr, s Store, env Env, w *work) (v integer.Int, kind syntax.FailKind, ok bool) {
	switch a := a.(type) {
	case *syntax.Num:
		return a.Val, 0, true
	case *syntax.Var:
		return s[a.Index], 0, true
	case *syntax.BoundRef:
		return env[a.Level], 0, true
	case *syntax.Neg:
		x, k, ok := evalA(a.X, s, env, w)
		if !ok {
			return integer.Int{}, k, false
		}
		return x.Neg(), 0, true
	case *syntax.BinA:
		l, k, ok := evalA(a.L, s, env, w)
		if !ok {
			return integer.Int{}, k, false
		}
		r, k, ok := evalA(a.R, s, env, w)
		if !ok {
			return integer.Int{}, k, false
		}
		v, ok := ApplyA(a.Op, l, r)
		if !ok {
			return integer.Int{}, syntax.FailDivZero, false
		}
		return v, 0, true
	case *syntax.Elem:
		i, k, ok := evalA(a.I, s, env, w)
		if !ok {
			return integer.Int{}, k, false
		}
		slot, ok := a.Arr.Slot(i)
		if !ok {
			return integer.Int{}, syntax.FailIndex, false
		}
		return s[slot], 0, true
	default:
		panic(fmt.Sprintf("spec.EvalKind: unknown expression %T", a))
	}
}

// ApplyA applies an arithmetic operator to two values; ok is false for a division or remainder
// by zero.
func ApplyA(op syntax.AOp, l, r integer.Int) (integer.Int, bool) {
	switch op {
	case syntax.Add:
		return l.Add(r), true
	case syntax.Sub:
		return l.Sub(r), true
	case syntax.Mul:
		return l.Mul(r), true
	case syntax.Div:
		return l.Quo(r), !r.IsZero()
	case syntax.Mod:
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
// since the first error decides it). RunFastLimited, ExecBoundedLimited and a Limiter bound the
// instances a run evaluates (certsym exec bounds them by --max-steps) and poll its Stop between
// them, so that a run cannot hang in one quantifier; EvalBKind, Step, Run and ExecBounded have no
// such bound.
func EvalBKind(b syntax.BExpr, s Store, env Env) (v bool, kind syntax.FailKind, ok bool) {
	return evalB(b, s, env, nil)
}

// evalB is EvalBKind under the bound w (nil: no bound).
func evalB(b syntax.BExpr, s Store, env Env, w *work) (v bool, kind syntax.FailKind, ok bool) {
	switch b := b.(type) {
	case *syntax.BoolLit:
		return b.Val, 0, true
	case *syntax.Cmp:
		l, k, ok := evalA(b.L, s, env, w)
		if !ok {
			return false, k, false
		}
		r, k, ok := evalA(b.R, s, env, w)
		if !ok {
			return false, k, false
		}
		return b.Op.Holds(l.Cmp(r)), 0, true
	case *syntax.Not:
		x, k, ok := evalB(b.X, s, env, w)
		return !x && ok, k, ok
	case *syntax.BinB:
		l, k, ok := evalB(b.L, s, env, w)
		if !ok {
			return false, k, false
		}
		r, k, ok := evalB(b.R, s, env, w)
		if !ok {
			return false, k, false
		}
		if b.Op == syntax.And {
			return l && r, 0, true
		}
		return l || r, 0, true
	case *syntax.Quant:
		return evalQuant(b, s, env, w)
	default:
		panic(fmt.Sprintf("spec.EvalBKind: unknown condition %T", b))
	}
}

// evalQuant is the quantifier case of EvalBKind.
func evalQuant(q *syntax.Quant, s Store, env Env, w *work) (bool, syntax.FailKind, bool) {
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
	one := integer.Of(1)
	for j := lo; j.Cmp(hi) <= 0; j = j.Add(one) {
		inner[q.Level] = j
		if w != nil {
			if w.left <= 0 {
				panic(budget.CutInstances)
			}
			w.left--
			w.tick()
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
func mentionsBound(n syntax.Node, level int) bool {
	found := false
	syntax.Inspect(n, func(m syntax.Node) bool {
		if r, ok := m.(*syntax.BoundRef); ok && r.Level == level {
			found = true
		}
		return !found
	})
	return found
}

// ConstNonZero reports whether a is constant, integer literals combined by operators (no
// variable, element read or bound variable), with a defined value that is not zero. A division or
// remainder by such a divisor, n % 2 or x / (2 * 3), can never divide by zero: it makes no
// division claim.
func ConstNonZero(a syntax.AExpr) bool {
	v, ok := constValue(a)
	return ok && !v.IsZero()
}

// ConstInRange reports whether the index i is constant (as for ConstNonZero) with a defined
// value inside arr's bounds: an element access a[i] with such an index can never be out of range,
// and makes no index claim.
func ConstInRange(arr *syntax.Array, i syntax.AExpr) bool {
	v, ok := constValue(i)
	if !ok {
		return false
	}
	_, in := arr.Slot(v)
	return in
}

// constValue is the value of a when a is constant (no variable, element read or bound variable)
// and defined.
func constValue(a syntax.AExpr) (integer.Int, bool) {
	constant := true
	syntax.Inspect(a, func(n syntax.Node) bool {
		switch n.(type) {
		case *syntax.Var, *syntax.Elem, *syntax.BoundRef:
			constant = false
		}
		return constant
	})
	if !constant {
		return integer.Int{}, false
	}
	return Eval(a, nil)
}
