package sym

import (
	"github.com/aclements/go-z3/z3"
)

// This file is the solver side of certsym verify --abstract-nonlinear (Solver.AbstractMul).

// abstractMul is the translation of a product atom l * r as the uninterpreted function mul(l, r).
// Its sign axioms are recorded for withSignAxioms.
func (sv *Solver) abstractMul(a *Atom, l, r z3.Int) z3.Int {
	if !sv.mulFok {
		is := sv.ctx.IntSort()
		sv.mulF, sv.mulFok = sv.ctx.FuncDecl("mul", []z3.Sort{is, is}, is), true
		sv.axioms = map[*Atom]z3.Bool{}
	}
	m := sv.mulF.Apply(l, r).(z3.Int)
	sv.axioms[a] = signAxioms(sv.ctx, l, r, m)
	return m
}

// signAxioms are the sign axioms of m = l * r: the sign of the product is the product of the
// signs. m == 0 iff l == 0 or r == 0; m > 0 iff l and r are both positive or both negative;
// m < 0 iff they have opposite signs. Nothing is said of the magnitude.
func signAxioms(ctx *z3.Context, l, r, m z3.Int) z3.Bool {
	zero := ctx.FromInt(0, ctx.IntSort()).(z3.Int)
	lp, ln, rp, rn := l.GT(zero), l.LT(zero), r.GT(zero), r.LT(zero)
	return ctx.FromBool(true).And(
		m.Eq(zero).Eq(l.Eq(zero).Or(r.Eq(zero))),
		m.GT(zero).Eq(lp.And(rp).Or(ln.And(rn))),
		m.LT(zero).Eq(lp.And(rn).Or(ln.And(rp))),
	)
}

// withSignAxioms conjoins to the translation z of f the sign axioms of every product atom inside
// f (the axioms go with each conjunct that uses the atom, so popping a conjunct never loses the
// axioms another one needs).
func (sv *Solver) withSignAxioms(z z3.Bool, f *Formula) z3.Bool {
	var ax []z3.Bool
	seen := map[*Atom]bool{}
	f.EachAtom(func(a *Atom) {
		if a.Kind == AtomMul && !seen[a] {
			seen[a] = true
			if x, ok := sv.axioms[a]; ok {
				ax = append(ax, x)
			}
		}
	})
	if len(ax) == 0 {
		return z
	}
	return z.And(ax...)
}

// eachAtom calls fn on every non-symbol atom of f, nested ones included (inner ones first).
func (f *Formula) EachAtom(fn func(*Atom)) {
	if f.T != nil {
		f.T.EachAtom(fn)
	}
	if f.Lo != nil {
		f.Lo.EachAtom(fn)
		f.Hi.EachAtom(fn)
	}
	for _, g := range f.Args {
		g.EachAtom(fn)
	}
}

// EachAtom calls fn on every non-symbol atom of t, nested ones included (inner ones first).
func (t *Term) EachAtom(fn func(*Atom)) {
	for _, m := range t.monos {
		switch m.a.Kind {
		case AtomMul, AtomDiv, AtomMod:
			m.a.L.EachAtom(fn)
			m.a.R.EachAtom(fn)
			fn(m.a)
		case AtomSel:
			for t := m.a.A; t.Prev != nil; t = t.Prev {
				t.I.EachAtom(fn)
				t.V.EachAtom(fn)
			}
			m.a.L.EachAtom(fn)
			fn(m.a)
		case AtomBnd:
			fn(m.a)
		}
	}
}

// hasMul reports whether f contains a product of two non-constant terms.
func (f *Formula) HasMul() bool {
	found := false
	f.EachAtom(func(a *Atom) { found = found || a.Kind == AtomMul })
	return found
}

// firstMul returns the first product atom inside f, or nil.
func (f *Formula) FirstMul() *Atom {
	var first *Atom
	f.EachAtom(func(a *Atom) {
		if first == nil && a.Kind == AtomMul {
			first = a
		}
	})
	return first
}
