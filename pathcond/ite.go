package pathcond

import "certsym/sym"

// The deciders and the conditional term ite(c, t, e) (sym.Ite). Its value is t's or e's, so its
// range is within the hull of their ranges whatever c says: a decision taken on the hull holds on
// both branches, hence on the ite, and is sound without looking at c. The condition is not used
// to narrow the branches' ranges (it would be sound, since t is only taken where c holds, but the
// bounds of a path condition say nothing of c). The linear facts see an ite as an atom that is no
// symbol: a term with one is no linear form, and no fact is recorded or used for it.

// iteRange is the hull of the ranges of the branches of the ite atom a.
func (bs bounds) iteRange(a *sym.Atom, depth int, abs bool) bound {
	_, then, els := a.IteParts()
	return hull(bs.rngDepth(then, depth, abs), bs.rngDepth(els, depth, abs))
}

// hull is the smallest interval holding b and c.
func hull(b, c bound) bound {
	out := bound{hasLo: b.hasLo && c.hasLo, hasHi: b.hasHi && c.hasHi}
	if out.hasLo {
		out.lo = b.lo
		if c.lo.Cmp(b.lo) < 0 {
			out.lo = c.lo
		}
	}
	if out.hasHi {
		out.hi = b.hi
		if c.hi.Cmp(b.hi) > 0 {
			out.hi = c.hi
		}
	}
	return out
}
