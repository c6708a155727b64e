// Package sym is the term language of symbolic execution: terms in linear normal form over the
// symbols (the program's inputs), formulas in negation normal form, array terms and bounded
// quantified formulas, their evaluation under a valuation, the symbolic evaluation of IMP's
// expressions and conditions under a symbolic store (Subst, CondKinds), and their printing and
// export as IMP syntax. Path conditions over these formulas are package pathcond's, their
// satisfiability package solver's.
package sym

import (
	"fmt"
	"math/big"

	"certsym/internal/fault"
	"certsym/spec/integer"
	"certsym/spec/syntax"
)

// A Term is a symbolic arithmetic expression over the symbols (the program's inputs), kept in
// linear normal form: a constant plus a sum of coefficient × atom, atoms in a fixed order, no zero
// coefficient. Atoms are symbols and the nonlinear terms (a product of two non-constant terms, a
// division or a remainder whose divisor is not ±1), and, with arrays and quantifiers
// (array.go), the reads select(A, i) that the store chain does not resolve and the variables of
// quantified formulas. Terms are immutable and may be shared.
//
// The normal form is what lets the engine decide most branch conditions without the solver: a
// condition on concrete values folds to a constant, and a condition on one symbol becomes a bound.
type Term struct {
	c     integer.Int
	monos []mono
	// arr is not nil for an array value (the store slot of a declared array, array.go): such a
	// term is no number and only Subst's element reads look at it.
	arr *ArrTerm
}

type mono struct {
	k integer.Int
	a *Atom
}

// AtomKind says what an atom is.
type AtomKind uint8

// The kinds of atoms.
const (
	AtomSym AtomKind = iota
	AtomMul
	AtomDiv // truncating division, total: x / 0 = 0 (guarded by the definedness conditions)
	AtomMod // remainder of the truncating division, total: x % 0 = x
	AtomSel // select(A, L): the element L of the array term A (array.go); opaque to the deciders
	AtomBnd // the variable bound by the quantified formula whose Bind is Sym (array.go)
	AtomIte // ite(C, L, R): L where the formula C holds, R elsewhere (ite.go; the merge of states)
)

// An Atom is a symbol or a nonlinear operation on two terms. key orders atoms inside a term:
// symbols by their index, other atoms after them in creation order.
type Atom struct {
	Kind AtomKind
	Sym  int // AtomSym: the symbol's index (the slot of the flat store it stands for); AtomBnd: the binder
	L, R *Term
	A    *ArrTerm // AtomSel: the array term read (L is the index)
	C    *Formula // AtomIte: the condition (L is the then term, R the else term)
	key  int
	bnd  bool // the atom has a bound variable inside (its value depends on an environment)
	ext  bool // the atom is or has inside a select or a bound variable (Formula.Extended)
	// fac and inner are the atom's degrees (degree.go): as a factor of a polynomial, and the
	// largest of a polynomial inside it.
	fac, inner int32
}

// Terms is the factory of the terms of one run: it holds the symbols and creates the nonlinear
// atoms, with keys that are deterministic for the run (creation order). A Terms belongs to one
// goroutine.
type Terms struct {
	names   []string
	syms    []*Term
	nextKey int

	nvars    int             // the scalar symbols (the program's variables)
	elems    []*Term         // the term of each symbol (the arrays' element symbols included)
	arrays   []*syntax.Array // the declared arrays (their element symbols follow the scalars)
	sels     map[selKey]*Atom
	nextBind int
}

// NewTerms creates the factory of a run over the symbols names (the program's variables); for a
// program with arrays, NewTermsFor.
func NewTerms(names []string) *Terms {
	ts := &Terms{names: names, nextKey: len(names), nvars: len(names)}
	ts.syms = make([]*Term, len(names))
	for i := range names {
		ts.syms[i] = &Term{monos: []mono{{integer.Of(1), &Atom{Kind: AtomSym, Sym: i, key: i, fac: 1, inner: 1}}}}
	}
	return ts
}

// Syms returns the identity store: symbol i is the term of variable i (the store of the initial
// state, shared: do not modify it).
func (ts *Terms) Syms() []*Term { return ts.syms }

var one = integer.Of(1)

// zero is the constant term 0 (terms are immutable: one is enough).
var zero = &Term{}

// Const returns the constant term v.
func Const(v integer.Int) *Term { return &Term{c: v} }

// IsConst returns the term's value and true when it is a constant.
func (t *Term) IsConst() (integer.Int, bool) { return t.c, len(t.monos) == 0 && t.arr == nil }

// Sym returns the symbol of a term that is exactly one symbol, or -1.
func (t *Term) Sym() int {
	if len(t.monos) == 1 && t.c.IsZero() && t.monos[0].k.Equal(one) && t.monos[0].a.Kind == AtomSym {
		return t.monos[0].a.Sym
	}
	return -1
}

func add(x, y *Term) *Term { return lin(x, one, y, integer.Int{}) }

// lin is x + k·y + c, built in one pass: a difference, or a comparison's l - r - 1, makes no
// intermediate negated or constant term. The result shares x's (or, for k = 1, y's) monomials when
// the other operand has none, and is x (y) itself when the sum changes nothing.
func lin(x *Term, k integer.Int, y *Term, c integer.Int) *Term {
	ky := func(v integer.Int) integer.Int { // k·v, no arithmetic for k = 1 (big constants)
		if k.Equal(one) {
			return v
		}
		return v.Mul(k)
	}
	cc := x.c
	if !y.c.IsZero() {
		cc = cc.Add(ky(y.c))
	}
	if !c.IsZero() {
		cc = cc.Add(c)
	}
	switch {
	case fault.Active == fault.WrapInt64 && len(x.monos) == 0 && len(y.monos) == 0:
		return Const(wrap(cc))
	case len(y.monos) == 0 && y.c.IsZero() && c.IsZero():
		return x
	case len(y.monos) == 0:
		return &Term{c: cc, monos: x.monos}
	case len(x.monos) == 0 && k.Equal(one) && x.c.IsZero() && c.IsZero():
		return y
	case len(x.monos) == 0 && k.Equal(one):
		return &Term{c: cc, monos: y.monos}
	}
	ms := make([]mono, 0, len(x.monos)+len(y.monos))
	i, j := 0, 0
	for i < len(x.monos) && j < len(y.monos) {
		a, b := x.monos[i], y.monos[j]
		switch {
		case a.a.key < b.a.key:
			ms = append(ms, a)
			i++
		case a.a.key > b.a.key:
			ms = append(ms, mono{ky(b.k), b.a})
			j++
		default:
			if s := a.k.Add(ky(b.k)); !s.IsZero() {
				ms = append(ms, mono{s, a.a})
			}
			i++
			j++
		}
	}
	ms = append(ms, x.monos[i:]...)
	for _, b := range y.monos[j:] {
		ms = append(ms, mono{ky(b.k), b.a})
	}
	return &Term{c: cc, monos: ms}
}

func scale(x *Term, k integer.Int) *Term {
	switch {
	case k.IsZero():
		return &Term{}
	case k.Equal(one):
		return x
	}
	ms := make([]mono, len(x.monos))
	for i, m := range x.monos {
		ms[i] = mono{m.k.Mul(k), m.a}
	}
	return &Term{c: x.c.Mul(k), monos: ms}
}

var minusOne = integer.Of(-1)

func neg(x *Term) *Term      { return scale(x, minusOne) }
func sub(x, y *Term) *Term   { return lin(x, minusOne, y, integer.Int{}) }
func (ts *Terms) key() int   { ts.nextKey++; return ts.nextKey }
func atomTerm(a *Atom) *Term { return &Term{monos: []mono{{one, a}}} }

func (ts *Terms) mul(x, y *Term) *Term {
	if k, ok := x.IsConst(); ok {
		return scale(y, k)
	}
	if k, ok := y.IsConst(); ok {
		return scale(x, k)
	}
	return atomTerm(operation(AtomMul, x, y, ts.key()))
}

func (ts *Terms) div(x, y *Term) *Term {
	if k, ok := y.IsConst(); ok {
		if kx, ok := x.IsConst(); ok {
			if fault.Active == fault.EuclideanDiv {
				return Const(euclid(kx, k, false))
			}
			return Const(kx.Quo(k))
		}
		if k.Equal(one) {
			return x
		}
		if k.Equal(minusOne) {
			return neg(x)
		}
	}
	return atomTerm(operation(AtomDiv, x, y, ts.key()))
}

func (ts *Terms) mod(x, y *Term) *Term {
	if k, ok := y.IsConst(); ok {
		if kx, ok := x.IsConst(); ok {
			if fault.Active == fault.EuclideanDiv {
				return Const(euclid(kx, k, true))
			}
			return Const(kx.Rem(k))
		}
		if k.Equal(one) || k.Equal(minusOne) {
			return &Term{}
		}
	}
	return atomTerm(operation(AtomMod, x, y, ts.key()))
}

// Add is x + y.
func Add(x, y *Term) *Term { return add(x, y) }

// Sub is x - y.
func Sub(x, y *Term) *Term { return sub(x, y) }

// Neg is -x.
func Neg(x *Term) *Term { return neg(x) }

// Scale is k·x.
func Scale(x *Term, k integer.Int) *Term { return scale(x, k) }

// Mul is x * y: a product atom unless one of them is constant.
func (ts *Terms) Mul(x, y *Term) *Term { return ts.mul(x, y) }

// Div is the truncating x / y (total: x / 0 = 0), folded when both are constant or y is ±1.
func (ts *Terms) Div(x, y *Term) *Term { return ts.div(x, y) }

// Mod is the remainder x % y of the truncating division (total: x % 0 = x), folded when both are
// constant or y is ±1.
func (ts *Terms) Mod(x, y *Term) *Term { return ts.mod(x, y) }

// apply is S(l op r) for the operands' terms.
func (ts *Terms) apply(op syntax.AOp, l, r *Term) *Term {
	switch op {
	case syntax.Add:
		return add(l, r)
	case syntax.Sub:
		return sub(l, r)
	case syntax.Mul:
		return ts.mul(l, r)
	case syntax.Div:
		return ts.div(l, r)
	}
	return ts.mod(l, r)
}

// Subst is S(a): the term of a program expression under the symbolic store S (sym_aexpr of the
// Why3 development; Fig. 7 substitution of the WiSE paper). An element read a[i] is the select
// of the array term of a in S at S(i) (Select).
func (ts *Terms) Subst(a syntax.AExpr, s []*Term) *Term { return ts.subst(a, s, nil) }

// subst is Subst in the environment env of the enclosing quantifiers' bound variables, indexed
// by their level (syntax.BoundRef.Level): a constant or a bound atom each.
func (ts *Terms) subst(a syntax.AExpr, s []*Term, env []*Term) *Term {
	switch a := a.(type) {
	case *syntax.Num:
		return Const(a.Val)
	case *syntax.Var:
		return s[a.Index]
	case *syntax.Neg:
		return neg(ts.subst(a.X, s, env))
	case *syntax.BinA:
		return ts.apply(a.Op, ts.subst(a.L, s, env), ts.subst(a.R, s, env))
	case *syntax.Elem:
		return ts.Select(s[ts.nvars+a.Arr.Index].arr, ts.subst(a.I, s, env))
	case *syntax.BoundRef:
		return env[a.Level]
	default:
		panic(fmt.Sprintf("sym: unknown expression %T", a))
	}
}

// Exceeds reports whether t has a constant or coefficient of more than bits bits.
func (t *Term) Exceeds(bits int) bool {
	big := func(x integer.Int) bool { return !x.IsSmall() && x.BitLen() > bits }
	for _, m := range t.monos {
		if big(m.k) {
			return true
		}
	}
	return big(t.c)
}

// Eval is the value of t under the valuation v of the symbols (a flat store: the scalars, then
// the arrays' elements), with the total division of the formal development (x / 0 = 0,
// x % 0 = x); a select reads the store chain (array.go), 0 outside the array's bounds.
func (t *Term) Eval(v []integer.Int) integer.Int {
	env := rootEnv()
	r := t.eval(v, env)
	env.release()
	return r
}

func (t *Term) eval(v []integer.Int, env *benv) integer.Int {
	r := t.c
	for _, m := range t.monos {
		r = r.Add(m.k.Mul(m.a.eval(v, env)))
	}
	return r
}

// Eval is the value of the atom under v.
func (a *Atom) Eval(v []integer.Int) integer.Int {
	env := rootEnv()
	r := a.eval(v, env)
	env.release()
	return r
}

func (a *Atom) eval(v []integer.Int, env *benv) integer.Int {
	switch a.Kind {
	case AtomSym:
		return v[a.Sym]
	case AtomBnd:
		return env.lookup(a.Sym)
	}
	if env == nil || env.bind != 0 { // under a quantifier (or outside an evaluation): no memo
		return a.evalComposite(v, env)
	}
	if x, ok := env.memo[a]; ok {
		return x
	}
	x := a.evalComposite(v, env)
	if env.memo == nil {
		env.memo = map[*Atom]integer.Int{}
	}
	env.memo[a] = x
	return x
}

// evalComposite is eval for a product, a quotient, a remainder or a select.
func (a *Atom) evalComposite(v []integer.Int, env *benv) integer.Int {
	switch a.Kind {
	case AtomSym:
		return v[a.Sym]
	case AtomMul:
		return a.L.eval(v, env).Mul(a.R.eval(v, env))
	case AtomDiv:
		return a.L.eval(v, env).Quo(a.R.eval(v, env))
	case AtomSel:
		return a.A.read(a.L.eval(v, env), v, env)
	case AtomBnd:
		return env.lookup(a.Sym)
	case AtomIte:
		return a.evalIte(v, env)
	case AtomMod:
		return a.L.eval(v, env).Rem(a.R.eval(v, env))
	default:
		panic(fmt.Sprintf("sym: unknown atom kind %d", a.Kind))
	}
}

// String renders the term in IMP syntax over the symbol names; a term whose expansion is large
// names its shared subterms (render).
func (t *Term) String(names []string) string {
	return render(names, func(c *counter) { c.term(t) }, func(p *printer) { t.write(p) })
}

func (t *Term) write(p *printer) {
	b := p.b
	if len(t.monos) == 0 {
		b.WriteString(t.c.String())
		return
	}
	for i, m := range t.monos {
		k := m.k
		if i == 0 {
			if k.Sign() < 0 {
				b.WriteString("-")
			}
		} else if k.Sign() < 0 {
			b.WriteString(" - ")
		} else {
			b.WriteString(" + ")
		}
		if k.Sign() < 0 {
			k = k.Neg()
		}
		if !k.Equal(one) {
			b.WriteString(k.String())
			b.WriteString("*")
		}
		m.a.write(p)
	}
	switch s := t.c.Sign(); {
	case s > 0:
		b.WriteString(" + " + t.c.String())
	case s < 0:
		b.WriteString(" - " + t.c.Neg().String())
	}
}

func (a *Atom) write(p *printer) {
	b := p.b
	switch a.Kind {
	case AtomSym:
		b.WriteString(p.names[a.Sym])
		return
	case AtomBnd:
		b.WriteString(p.bound(a.Sym, false))
		return
	}
	if p.named(a) {
		return
	}
	a.writeBody(p, true)
}

// writeBody writes a composite atom itself (its name aside), in parentheses when paren says so.
func (a *Atom) writeBody(p *printer, paren bool) {
	b := p.b
	switch a.Kind {
	case AtomSel:
		a.A.write(p)
		b.WriteByte('[')
		a.L.write(p)
		b.WriteByte(']')
		return
	case AtomIte:
		a.writeIte(p)
		return
	}
	op := map[AtomKind]string{AtomMul: " * ", AtomDiv: " / ", AtomMod: " % "}[a.Kind]
	if paren {
		b.WriteByte('(')
	}
	a.L.writeOperand(p)
	b.WriteString(op)
	a.R.writeOperand(p)
	if paren {
		b.WriteByte(')')
	}
}

func (t *Term) writeOperand(p *printer) {
	simple := (len(t.monos) == 0 && t.c.Sign() >= 0) ||
		(len(t.monos) == 1 && t.c.IsZero() && t.monos[0].k.Equal(one))
	if simple {
		t.write(p)
		return
	}
	p.b.WriteByte('(')
	t.write(p)
	p.b.WriteByte(')')
}

// euclid is the Euclidean quotient (or remainder) of a by b, for fault.EuclideanDiv only.
func euclid(a, b integer.Int, rem bool) integer.Int {
	if b.IsZero() {
		return integer.Int{}
	}
	q, m := new(big.Int).DivMod(a.Big(), b.Big(), new(big.Int))
	if rem {
		return integer.FromBig(m)
	}
	return integer.FromBig(q)
}

// wrap reduces v to a two's complement int64, for fault.WrapInt64 only.
func wrap(v integer.Int) integer.Int {
	return integer.Of(v.Big().Int64())
}
