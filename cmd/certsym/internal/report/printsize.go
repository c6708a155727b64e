package report

import (
	"fmt"

	"certsym/pathcond"
	"certsym/spec/integer"
	"certsym/sym"
)

// PCText renders a path condition, unless its printed form has more than limit symbols and
// operators (shared terms print once per occurrence: see PrintSize).
func PCText(pc *pathcond.PC, names []string, limit int) string {
	if PrintSize(pc.Conjuncts(), limit) > limit {
		return NotPrinted(limit)
	}
	return pc.String(names)
}

// NotPrinted is what stands for a path condition PCText does not print.
func NotPrinted(limit int) string {
	return fmt.Sprintf("(not printed: more than %d symbols and operators)", limit)
}

// PrintSize returns the number of symbols, constants and operators the printed form of the
// conjunction of fs has, or limit+1 when it has more than limit. Terms are shared: printing
// repeats a shared term at each of its occurrences, so the printed form can be exponentially
// larger than the formulas themselves. The count takes time linear in their size, so that the
// command can decline to print them.
func PrintSize(fs []*sym.Formula, limit int) int {
	memo := map[*sym.Term]int{}
	var term func(t *sym.Term) int
	term = func(t *sym.Term) int {
		if n, ok := memo[t]; ok {
			return n
		}
		n := 1
		t.EachMono(func(_ integer.Int, a *sym.Atom) {
			if n > limit {
				return
			}
			n += 2
			switch a.Kind {
			case sym.AtomSym, sym.AtomBnd:
			case sym.AtomSel: // the index, then each store of the chain
				n += term(a.L)
				for s := a.A; s.Prev != nil && n <= limit; s = s.Prev {
					n += 2 + term(s.I) + term(s.V)
				}
			default:
				n += term(a.L) + term(a.R)
			}
			if n > limit {
				n = limit + 1
			}
		})
		memo[t] = n
		return n
	}
	n := 0
	var form func(f *sym.Formula)
	form = func(f *sym.Formula) {
		n++
		if f.T != nil {
			n += term(f.T)
		}
		if f.Lo != nil { // a quantified formula's bounds
			n += term(f.Lo) + term(f.Hi)
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
