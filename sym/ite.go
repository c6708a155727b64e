package sym

import (
	"fmt"

	"certsym/spec/integer"
)

// The conditional term ite(c, t, e): t where the formula c holds, e elsewhere. It is what a merge
// of symbolic states (package merge) stores for a variable whose terms differ between the states,
// c being the path condition of one of them. It is an atom (AtomIte): opaque to the linear
// normal form, seen by the deciders as the hull of its two branches (package pathcond), encoded
// as Z3's ite (package solver). An ite is extended (Formula.Extended): the solver's caching layers
// count the symbols of products, divisions and remainders only, so they set aside the path
// conditions that have one and hand them to Z3 whole.

// Ite is the term ite(c, then, els): then where c holds, els elsewhere (Coq: ite of Merge.v, the
// guarded term Ite c g1 g2 or, when the sides are equal, that side; evaluated as pick reads it). A constant condition
// folds to the branch it selects, and equal branches (the same normal form) to that branch.
// Both branches are numbers and the condition has no quantifier (the solver encodes quantified
// formulas by instantiation, which an ite's two polarities defeat): an array value
// (Term.ArrayValue) or a quantified condition panics.
func (ts *Terms) Ite(c *Formula, then, els *Term) *Term {
	if then.arr != nil || els.arr != nil {
		panic("sym: ite of an array value")
	}
	if c.Quantified() {
		panic("sym: ite with a quantified condition")
	}
	switch {
	case c == True || c.Op == FTrue:
		return then
	case c == False || c.Op == FFalse:
		return els
	case sameTerm(then, els):
		return then
	}
	a := &Atom{Kind: AtomIte, C: c, L: then, R: els, key: ts.key(),
		bnd: c.hasBound() || then.hasBound() || els.hasBound(), ext: true}
	// its value is one branch's polynomial; the condition's polynomials are inside it too
	l, r := then.props(), els.props()
	a.fac = max(l.fac, r.fac)
	a.inner = max(a.fac, l.inner, r.inner, int32(min(c.Degree(), DegreeCap)))
	return atomTerm(a)
}

// IteParts returns the condition and the branches of an ite atom.
func (a *Atom) IteParts() (c *Formula, then, els *Term) {
	if a.Kind != AtomIte {
		panic(fmt.Sprintf("sym: IteParts of an atom of kind %d", a.Kind))
	}
	return a.C, a.L, a.R
}

// evalIte is the value of an ite atom under v: the then branch's when the condition holds. A
// quantified condition is evaluated within EvalInstances instances, past which it reads false
// (as Formula.Eval).
func (a *Atom) evalIte(v []integer.Int, env *benv) integer.Int {
	budget := EvalInstances
	if a.C.eval(v, env, &budget) && budget >= 0 {
		return a.L.eval(v, env)
	}
	return a.R.eval(v, env)
}

// writeIte renders an ite atom as ite(c, then, else).
func (a *Atom) writeIte(p *printer) {
	b := p.b
	b.WriteString("ite(")
	a.C.write(p, false)
	b.WriteString(", ")
	a.L.write(p)
	b.WriteString(", ")
	a.R.write(p)
	b.WriteByte(')')
}

// hasBound reports whether f has a quantified formula's variable inside (a quantifier's own
// variable included).
func (f *Formula) hasBound() bool {
	switch f.Op {
	case FTrue, FFalse:
		return false
	case FGe, FEq, FNe:
		return f.T.hasBound()
	case FForall, FExists:
		return true
	case FAnd, FOr:
		for _, g := range f.Args {
			if g.hasBound() {
				return true
			}
		}
		return false
	default:
		panic(fmt.Sprintf("sym: unknown formula operator %d", f.Op))
	}
}
