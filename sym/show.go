package sym

import (
	"strings"

	"certsym/spec"
)

// Renderings of stores, valuations and atoms, and the size of printed formulas.

// StoreString renders the symbolic store as x = term, ... over the variable names.
func StoreString(store []*Term, names []string) string {
	parts := make([]string, len(store))
	for i, t := range store {
		parts[i] = names[i] + " = " + t.String(names)
	}
	return strings.Join(parts, ", ")
}

// InputString renders a valuation of the symbols (a concrete input) as x=1, y=-2.
func InputString(in spec.Store, names []string) string {
	s := ""
	for i, v := range in {
		if i > 0 {
			s += ", "
		}
		s += names[i] + "=" + v.String()
	}
	return s
}

// String renders the atom in IMP syntax over the symbol names.
func (a *Atom) String(names []string) string {
	var b strings.Builder
	a.write(&b, names)
	return b.String()
}

// EachTopAtom calls fn on the atom of each monomial of t, in term order (symbols included,
// nested atoms not: see EachAtom for those).
func (t *Term) EachTopAtom(fn func(*Atom)) {
	for _, m := range t.monos {
		fn(m.a)
	}
}

// PrintSize returns the number of symbols, constants and operators the printed form of f has,
// or limit+1 when it has more than limit. Terms are shared: printing repeats a shared term at
// each of its occurrences, so the printed form can be exponentially larger than f itself. The
// count takes time linear in the size of f, so that a caller can decline to print f.
func (f *Formula) PrintSize(limit int) int {
	return printSize(map[*Term]int{}, []*Formula{f}, limit)
}

// PrintSize is Formula.PrintSize for the conjunction φ.
func (phi *PC) PrintSize(limit int) int {
	return printSize(map[*Term]int{}, phi.Conjuncts(), limit)
}

func printSize(memo map[*Term]int, fs []*Formula, limit int) int {
	var term func(t *Term) int
	term = func(t *Term) int {
		if n, ok := memo[t]; ok {
			return n
		}
		n := 1
		for _, m := range t.monos {
			n += 2
			if m.a.Kind != AtomSym {
				n += term(m.a.L) + term(m.a.R)
			}
			if n > limit {
				n = limit + 1
				break
			}
		}
		memo[t] = n
		return n
	}
	n := 0
	var form func(f *Formula)
	form = func(f *Formula) {
		n++
		if f.T != nil {
			n += term(f.T)
		}
		for _, g := range f.Args {
			if n > limit {
				return
			}
			form(g)
		}
	}
	for _, f := range fs {
		if n > limit {
			break
		}
		form(f)
	}
	return min(n, limit+1)
}
