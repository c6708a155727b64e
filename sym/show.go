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

// EachAtom calls fn once on each distinct non-symbol atom of f, nested ones included (inner ones
// first: in the order of their first occurrences in the written formula). Terms are DAGs (y = y * y
// repeated n times makes n atoms with 2^n occurrences): the walk visits each atom and each store of
// an array term once, so it takes time linear in the size of the DAG.
func (f *Formula) EachAtom(fn func(*Atom)) {
	w := atomWalk{fn: fn}
	w.formula(f)
}

// EachAtom calls fn once on each distinct non-symbol atom of t, nested ones included (inner ones
// first; see Formula.EachAtom).
func (t *Term) EachAtom(fn func(*Atom)) {
	w := atomWalk{fn: fn}
	w.term(t)
}

// atomWalk is the walk of EachAtom: the atoms and stores already visited (made on the first
// composite atom: a linear term needs no set).
type atomWalk struct {
	fn     func(*Atom)
	atoms  map[*Atom]bool
	stores map[*ArrTerm]bool
}

func (w *atomWalk) formula(f *Formula) {
	if f.T != nil {
		w.term(f.T)
	}
	if f.Lo != nil {
		w.term(f.Lo)
		w.term(f.Hi)
	}
	for _, g := range f.Args {
		w.formula(g)
	}
}

func (w *atomWalk) term(t *Term) {
	for _, m := range t.monos {
		a := m.a
		if a.Kind == AtomSym {
			continue
		}
		if w.atoms[a] {
			continue
		}
		if w.atoms == nil {
			w.atoms, w.stores = map[*Atom]bool{}, map[*ArrTerm]bool{}
		}
		w.atoms[a] = true
		switch a.Kind {
		case AtomMul, AtomDiv, AtomMod:
			w.term(a.L)
			w.term(a.R)
		case AtomSel:
			for s := a.A; s.Prev != nil && !w.stores[s]; s = s.Prev {
				w.stores[s] = true
				w.term(s.I)
				w.term(s.V)
			}
			w.term(a.L)
		case AtomBnd:
		case AtomIte:
			w.formula(a.C)
			w.term(a.L)
			w.term(a.R)
		default:
			panic(fmt.Sprintf("sym: unknown atom kind %d", a.Kind))
		}
		w.fn(a)
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
