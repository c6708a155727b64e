package solver

import (
	"github.com/aclements/go-z3/z3"

	"certsym/sym"
)

// The Z3 side of certsym verify --abstract-nonlinear (Options.AbstractMul); the deciders' side is
// pathcond.Deciders.AbstractMul.

// abstractProduct is the translation of a product atom l * r as the uninterpreted function
// mul(l, r). Its sign axioms are recorded for withSignAxioms.
func (z *encoder) abstractProduct(a *sym.Atom, l, r z3.Int) z3.Int {
	if !z.mulFok {
		is := z.ctx.IntSort()
		z.mulF, z.mulFok = z.ctx.FuncDecl("mul", []z3.Sort{is, is}, is), true
		z.axioms = map[*sym.Atom]z3.Bool{}
	}
	m := z.mulF.Apply(l, r).(z3.Int)
	z.axioms[a] = signAxioms(z.ctx, l, r, m)
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

// withSignAxioms conjoins to the translation x of f the sign axioms of every product atom inside
// f (the axioms go with each conjunct that uses the atom, so popping a conjunct never loses the
// axioms another one needs).
func (z *encoder) withSignAxioms(x z3.Bool, f *sym.Formula) z3.Bool {
	var ax []z3.Bool
	seen := map[*sym.Atom]bool{}
	f.EachAtom(func(a *sym.Atom) {
		if a.Kind == sym.AtomMul && !seen[a] {
			seen[a] = true
			if y, ok := z.axioms[a]; ok {
				ax = append(ax, y)
			}
		}
	})
	if len(ax) == 0 {
		return x
	}
	return x.And(ax...)
}
