package sym

import "certsym/spec"

// Accessors for the refinement layer (package certsym/refinement), which replays the engine's
// states against the extracted reference and needs them as plain IMP syntax trees. They only read.

// AExpr returns the term as an IMP arithmetic expression over the symbols: symbol i is the
// variable names[i] (with Index i), products, divisions and remainders are the binary operators
// (read with the total division of the formal development, x / 0 = 0, x % 0 = x), and the linear
// part is c + k1*a1 + ... + kn*an. The expression has the value of the term under every
// valuation.
func (t *Term) AExpr(names []string) spec.AExpr {
	var out spec.AExpr
	for _, m := range t.monos {
		var e spec.AExpr = m.a.AExpr(names)
		if !m.k.Equal(one) {
			e = &spec.BinA{Op: spec.Mul, L: &spec.Num{Val: m.k}, R: e}
		}
		if out == nil {
			out = e
		} else {
			out = &spec.BinA{Op: spec.Add, L: out, R: e}
		}
	}
	switch {
	case out == nil:
		return &spec.Num{Val: t.c}
	case !t.c.IsZero():
		return &spec.BinA{Op: spec.Add, L: out, R: &spec.Num{Val: t.c}}
	}
	return out
}

// AExpr returns the atom as an IMP arithmetic expression over the symbols (see Term.AExpr).
func (a *Atom) AExpr(names []string) spec.AExpr {
	switch a.Kind {
	case AtomSym:
		name := ""
		if a.Sym >= 0 && a.Sym < len(names) {
			name = names[a.Sym]
		}
		return &spec.Var{Name: name, Index: a.Sym}
	case AtomMul:
		return &spec.BinA{Op: spec.Mul, L: a.L.AExpr(names), R: a.R.AExpr(names)}
	case AtomDiv:
		return &spec.BinA{Op: spec.Div, L: a.L.AExpr(names), R: a.R.AExpr(names)}
	case AtomSel, AtomBnd: // no IMP expression over the symbols: named by its rendering
		return &spec.Var{Name: a.String(names), Index: -1}
	}
	return &spec.BinA{Op: spec.Mod, L: a.L.AExpr(names), R: a.R.AExpr(names)}
}

// BExpr returns the formula as an IMP condition over the symbols: t >= 0, t == 0, t != 0 for the
// atomic predicates, and left-nested and/or for the junctions. Divisions inside are read with
// the total division, as in Formula.Eval.
func (f *Formula) BExpr(names []string) spec.BExpr {
	zero := func() spec.AExpr { return &spec.Num{} }
	switch f.Op {
	case FTrue:
		return &spec.BoolLit{Val: true}
	case FFalse:
		return &spec.BoolLit{Val: false}
	case FGe:
		return &spec.Cmp{Op: spec.Ge, L: f.T.AExpr(names), R: zero()}
	case FEq:
		return &spec.Cmp{Op: spec.Eq, L: f.T.AExpr(names), R: zero()}
	case FNe:
		return &spec.Cmp{Op: spec.Ne, L: f.T.AExpr(names), R: zero()}
	}
	op := spec.And
	if f.Op == FOr {
		op = spec.Or
	}
	if len(f.Args) == 0 {
		return &spec.BoolLit{Val: f.Op == FAnd}
	}
	var out spec.BExpr
	for _, g := range f.Args {
		if out == nil {
			out = g.BExpr(names)
		} else {
			out = &spec.BinB{Op: op, L: out, R: g.BExpr(names)}
		}
	}
	return out
}

// Const is the term's constant part (the refinement layer's own export of array terms).
func (t *Term) Const() spec.Int { return t.c }
