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

// EachAtom calls fn once on each distinct non-symbol atom of f, nested ones included, inner ones
// first (in the order of their first occurrences). Terms are DAGs (y = y * y n times makes n atoms
// with 2^n occurrences): each atom and store is visited once, in time linear in the DAG.
func (f *Formula) EachAtom(fn func(*Atom)) { (&atomWalk{fn: fn}).formula(f) }

// EachAtom calls fn once on each distinct non-symbol atom of t (see Formula.EachAtom).
func (t *Term) EachAtom(fn func(*Atom)) { (&atomWalk{fn: fn}).term(t) }

// atomWalk is the walk of EachAtom, with the atoms and stores visited (made on first use).
type atomWalk struct {
	fn   func(*Atom)
	seen map[any]bool
}

func (w *atomWalk) formula(f *Formula) {
	for _, t := range [...]*Term{f.T, f.Lo, f.Hi} {
		if t != nil {
			w.term(t)
		}
	}
	for _, g := range f.Args {
		w.formula(g)
	}
}

func (w *atomWalk) term(t *Term) {
	for _, m := range t.monos {
		a := m.a
		if a.Kind == AtomSym || w.seen[a] {
			continue
		}
		if w.seen == nil {
			w.seen = map[any]bool{}
		}
		w.seen[a] = true
		switch a.Kind {
		case AtomMul, AtomDiv, AtomMod:
			w.term(a.L)
			w.term(a.R)
		case AtomSel:
			for s := a.A; s.Prev != nil && !w.seen[s]; s = s.Prev {
				w.seen[s] = true
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
func (f *Formula) HasMul() bool { return f.FirstMul() != nil }

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
