package sym

import (
	"fmt"
	"strings"

	"certsym/spec/integer"
)

// Renderings of stores and atoms, and walks over terms and formulas.

// StoreString renders the symbolic store as x = term, ... over the variable names.
func StoreString(store []*Term, names []string) string {
	parts := make([]string, len(store))
	for i, t := range store {
		if t.arr != nil {
			base := t.arr
			for base.Prev != nil {
				base = base.Prev
			}
			parts[i] = base.Arr.Name + " = " + t.arr.String(names)
			continue
		}
		parts[i] = names[i] + " = " + t.String(names)
	}
	return strings.Join(parts, ", ")
}

// String renders the atom in IMP syntax over the symbol names; one whose expansion is large
// names its shared subterms (render).
func (a *Atom) String(names []string) string {
	return render(names, func(c *counter) { c.atom(a) }, func(p *printer) { a.write(p) })
}

// EachMono calls fn on each monomial k·a of t, in term order (symbol atoms included, the atoms
// nested in a's operands not: see EachAtom for those). The constant of t is not a monomial.
func (t *Term) EachMono(fn func(k integer.Int, a *Atom)) {
	for _, m := range t.monos {
		fn(m.k, m.a)
	}
}

// Monos returns the number of monomials of t; Mono(i) for i below it is one of them, in term order.
func (t *Term) Monos() int { return len(t.monos) }

// Mono returns the i-th monomial k·a of t.
func (t *Term) Mono(i int) (k integer.Int, a *Atom) { return t.monos[i].k, t.monos[i].a }

// AtomTerm is the term 1·a.
func AtomTerm(a *Atom) *Term { return atomTerm(a) }

// HasBound reports whether the atom has a quantified formula's variable inside (its value depends
// on the values of the enclosing quantifiers' variables).
func (a *Atom) HasBound() bool { return a.Kind == AtomBnd || a.bnd }

// EachAtom calls fn on every non-symbol atom of f, nested ones included (inner ones first).
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
		case AtomIte:
			m.a.C.EachAtom(fn)
			m.a.L.EachAtom(fn)
			m.a.R.EachAtom(fn)
			fn(m.a)
		case AtomSym:
		default:
			panic(fmt.Sprintf("sym: unknown atom kind %d", m.a.Kind))
		}
	}
}

// HasMul reports whether f contains a product of two non-constant terms.
func (f *Formula) HasMul() bool {
	found := false
	f.EachAtom(func(a *Atom) { found = found || a.Kind == AtomMul })
	return found
}

// FirstMul returns the first product atom inside f, or nil.
func (f *Formula) FirstMul() *Atom {
	var first *Atom
	f.EachAtom(func(a *Atom) {
		if first == nil && a.Kind == AtomMul {
			first = a
		}
	})
	return first
}
