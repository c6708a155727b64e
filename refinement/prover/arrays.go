package prover

// Arrays and bounded quantifiers in the layer's own encoding, written independently of
// the engine's (solver/encode.go): one Z3 array constant Int → Int per declared array ("a_" + name),
// an element read a[i] is (select a_a i), the reference's select over a store chain is a select
// over Z3 stores, and a quantifier (or the reference's first-failure node) whose bounds are
// constants with at most MaxExpand elements is expanded into a conjunction (disjunction); any
// other quantifier is not encoded: the query is then undecided, never a mismatch.

import (
	"errors"
	"fmt"

	"github.com/aclements/go-z3/z3"

	"certsym/refinement/refclient"
	"certsym/spec/integer"
	"certsym/spec/syntax"
)

// MaxExpand bounds the ranges of the quantifiers the prover expands.
const MaxExpand = 64

// errQuant is the panic value of a quantifier the prover does not encode (the query is then
// undecided: sat's recovery turns every panic into Undecided).
var errQuant = errors.New("refinement/prover: quantifier over a symbolic or large range")

func (p *Prover) array(a *syntax.Array) z3.Array {
	isort := p.ctx.IntSort()
	return p.ctx.Const("a_"+a.Name, p.ctx.ArraySort(isort, isort)).(z3.Array)
}

func (p *Prover) arrTerm(t refclient.ArrTerm) z3.Array {
	switch t := t.(type) {
	case *refclient.ArrInit:
		return p.array(t.Arr)
	case *refclient.ArrStore:
		return p.arrTerm(t.T).Store(p.A(t.I), p.A(t.V))
	}
	panic(errQuant)
}

// constant is the value of a, when it is a constant expression (no variable, no element).
func constant(a syntax.AExpr) (integer.Int, bool) {
	switch a := a.(type) {
	case *syntax.Num:
		return a.Val, true
	case *syntax.Neg:
		v, ok := constant(a.X)
		return v.Neg(), ok
	case *syntax.BinA:
		l, ok1 := constant(a.L)
		r, ok2 := constant(a.R)
		if !ok1 || !ok2 {
			return integer.Int{}, false
		}
		return refclient.EvalA(&syntax.BinA{Op: a.Op, L: &syntax.Num{Val: l}, R: &syntax.Num{Val: r}}, nil), true
	case *syntax.Var, *syntax.Elem, *syntax.BoundRef, *refclient.Select:
		return integer.Int{}, false
	default:
		panic(fmt.Sprintf("refinement: unknown expression %T", a))
	}
}

// rangeOf returns the constant range lo..hi (empty: lo > hi) or panics with errQuant.
func rangeOf(lo, hi syntax.AExpr) (int64, int64) {
	l, ok1 := constant(lo)
	h, ok2 := constant(hi)
	if !ok1 || !ok2 {
		panic(errQuant)
	}
	li, ok1 := l.Int64()
	hi64, ok2 := h.Int64()
	if !ok1 || !ok2 || (hi64 >= li && hi64-li >= MaxExpand) {
		panic(errQuant)
	}
	return li, hi64
}

// withBound evaluates f with the bound variable of level set to j.
func (p *Prover) withBound(level int, j int64, f func() z3.Bool) z3.Bool {
	saved := p.env
	env := make([]z3.Int, level+1)
	copy(env, saved)
	env[level] = p.num(integer.Of(j))
	p.env = env
	defer func() { p.env = saved }()
	return f()
}

// quant expands a quantifier over a constant small range.
func (p *Prover) quant(c *syntax.Quant) z3.Bool {
	lo, hi := rangeOf(c.Lo, c.Hi)
	var parts []z3.Bool
	for j := lo; j <= hi; j++ {
		parts = append(parts, p.withBound(c.Level, j, func() z3.Bool { return p.B(c.Body) }))
	}
	if len(parts) == 0 {
		return p.ctx.FromBool(!c.Exists)
	}
	if c.Exists {
		return parts[0].Or(parts[1:]...)
	}
	return parts[0].And(parts[1:]...)
}

// first expands the reference's first-failure node: some j in lo..hi with F(j) and D(i) for
// every i in lo..j-1.
func (p *Prover) first(c *refclient.First) z3.Bool {
	lo, hi := rangeOf(c.Lo, c.Hi)
	out := p.ctx.FromBool(false)
	for j := hi; j >= lo; j-- { // F(j) ∨ (D(j) ∧ rest) read from the top: the disjunction by j
		jj := j
		fj := p.withBound(c.Level, jj, func() z3.Bool { return p.B(c.F) })
		dj := p.withBound(c.Level, jj, func() z3.Bool { return p.B(c.D) })
		out = fj.Or(dj.And(out))
	}
	return out
}

func (p *Prover) bound(b *syntax.BoundRef) z3.Int {
	if b.Level < 0 || b.Level >= len(p.env) {
		panic(errQuant)
	}
	return p.env[b.Level]
}

// arrayModel appends to a model of the variables the elements of the declared arrays.
func (p *Prover) arrayTerms() []z3.Int {
	var xs []z3.Int
	for _, a := range p.Arrays {
		arr := p.array(a)
		for j := a.Lo; j <= a.Hi; j++ {
			xs = append(xs, arr.Select(p.num(integer.Of(j))).(z3.Int))
		}
	}
	return xs
}
