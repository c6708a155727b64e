package sym

import (
	"fmt"

	"certsym/spec/integer"
	"certsym/spec/syntax"
)

// Accessors for the refinement layer (package certsym/refinement), which replays the engine's
// states against the extracted reference and needs them as plain IMP syntax trees. They only read.

// AExpr returns the term as an IMP arithmetic expression over the symbols: symbol i is the
// variable names[i] (with Index i), products, divisions and remainders are the binary operators
// (read with the total division of the formal development, x / 0 = 0, x % 0 = x), and the linear
// part is c + k1*a1 + ... + kn*an. The expression has the value of the term under every
// valuation.
func (t *Term) AExpr(names []string) syntax.AExpr {
	var out syntax.AExpr
	for _, m := range t.monos {
		var e syntax.AExpr = m.a.AExpr(names)
		if !m.k.Equal(one) {
			e = &syntax.BinA{Op: syntax.Mul, L: &syntax.Num{Val: m.k}, R: e}
		}
		if out == nil {
			out = e
		} else {
			out = &syntax.BinA{Op: syntax.Add, L: out, R: e}
		}
	}
	switch {
	case out == nil:
		return &syntax.Num{Val: t.c}
	case !t.c.IsZero():
		return &syntax.BinA{Op: syntax.Add, L: out, R: &syntax.Num{Val: t.c}}
	}
	return out
}

// AExpr returns the atom as an IMP arithmetic expression over the symbols (see Term.AExpr).
func (a *Atom) AExpr(names []string) syntax.AExpr {
	switch a.Kind {
	case AtomSym:
		name := ""
		if a.Sym >= 0 && a.Sym < len(names) {
			name = names[a.Sym]
		}
		return &syntax.Var{Name: name, Index: a.Sym}
	case AtomMul:
		return &syntax.BinA{Op: syntax.Mul, L: a.L.AExpr(names), R: a.R.AExpr(names)}
	case AtomDiv:
		return &syntax.BinA{Op: syntax.Div, L: a.L.AExpr(names), R: a.R.AExpr(names)}
	case AtomSel, AtomBnd, AtomIte: // no IMP expression over the symbols: named by its rendering
		return &syntax.Var{Name: a.String(names), Index: -1}
	case AtomMod:
		return &syntax.BinA{Op: syntax.Mod, L: a.L.AExpr(names), R: a.R.AExpr(names)}
	default:
		panic(fmt.Sprintf("sym: unknown atom kind %d", a.Kind))
	}
}

// Const is the term's constant part (the refinement layer's own export of array terms).
func (t *Term) Const() integer.Int { return t.c }
