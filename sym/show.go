package sym

import (
	"strings"

	"certsym/spec/integer"
)

// Renderings of stores and atoms.

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

// String renders the atom in IMP syntax over the symbol names.
func (a *Atom) String(names []string) string {
	var b strings.Builder
	a.write(&b, names)
	return b.String()
}

// EachMono calls fn on each monomial k·a of t, in term order (symbol atoms included, the atoms
// nested in a's operands not: see EachAtom for those). The constant of t is not a monomial.
func (t *Term) EachMono(fn func(k integer.Int, a *Atom)) {
	for _, m := range t.monos {
		fn(m.k, m.a)
	}
}
