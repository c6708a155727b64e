package conv

import (
	"errors"
	"fmt"

	"certsym/refinement/refclient"
	"certsym/spec/integer"
	"certsym/spec/syntax"
	"certsym/sym"
)

// The conditional term ite(c, t, e) of a merged state's store (sym.Ite) has no IMP expression. A
// comparison over terms with conditional terms inside is written as the disjunction of its cases:
// the term is split, conditional term by conditional term, into ite-free expressions, each with
// the conditions under which it is the term's value (c for t, not c for e), and
//
//	P(… ite(c, t, e) …)  is written  (c and P(… t …)) or (not c and P(… e …)),
//
// which has P's truth under every valuation. The cases multiply (a term with two conditional
// terms of two cases each has four), so a comparison has at most MaxCases of them and the
// formula at most MaxNodes nodes: past either, the conversion is an error (ErrTooLarge). A
// conditional term inside an array read (an index, a merged array's stored value) is not split
// (ErrIte).

// MaxCases bounds the cases of one comparison.
const MaxCases = 64

// MaxNodes bounds the nodes of a formula written with cases (as a tree: a condition shared by
// several cases counts at each).
const MaxNodes = 1 << 16

// ErrTooLarge is the error of a formula whose cases are more than MaxCases or whose syntax tree
// would have more than MaxNodes nodes.
var ErrTooLarge = errors.New("conv: a formula over conditional terms has too many cases to write in IMP")

// kase is one case of a term: its value expression, under the conjunction of the guards.
type kase struct {
	guards []syntax.BExpr
	e      syntax.AExpr
}

// splitCmp is t op 0 written as the disjunction of t's cases.
func (x *exporter) splitCmp(op syntax.CmpOp, t *sym.Term) syntax.BExpr {
	var out syntax.BExpr
	for _, c := range x.termCases(t) {
		var b syntax.BExpr = &syntax.Cmp{Op: op, L: c.e, R: &syntax.Num{}}
		for i := len(c.guards) - 1; i >= 0; i-- {
			b = &syntax.BinB{Op: syntax.And, L: c.guards[i], R: b}
		}
		x.count(b)
		if out == nil {
			out = b
		} else {
			out = &syntax.BinB{Op: syntax.Or, L: out, R: b}
		}
	}
	return out
}

// count adds the nodes of b (as a tree) to the formula's count; past MaxNodes, ErrTooLarge.
func (x *exporter) count(b syntax.BExpr) {
	x.countNode(b)
	if x.nodes > MaxNodes {
		panic(failure{ErrTooLarge})
	}
}

// countNode adds the nodes of n (as a tree) to the formula's count, up to past MaxNodes; the
// layer's own nodes, which syntax.Inspect does not know (a read of a stored array term, a
// first-failure node), with their parts.
func (x *exporter) countNode(n syntax.Node) {
	syntax.Inspect(n, func(n syntax.Node) bool {
		if n == nil {
			return x.nodes <= MaxNodes
		}
		x.nodes++
		switch n := n.(type) {
		case *refclient.Select:
			x.countNode(n.I)
			x.countArr(n.T)
			return false
		case *refclient.First:
			for _, p := range []syntax.Node{n.Lo, n.Hi, n.D, n.F} {
				x.countNode(p)
			}
			return false
		}
		return x.nodes <= MaxNodes
	})
}

// countArr adds the nodes of the array term t to the formula's count.
func (x *exporter) countArr(t refclient.ArrTerm) {
	for x.nodes <= MaxNodes {
		x.nodes++
		s, ok := t.(*refclient.ArrStore)
		if !ok {
			return
		}
		x.countNode(s.I)
		x.countNode(s.V)
		t = s.T
	}
}

// termCases splits t into its cases (one, with no guard, when t has no conditional term).
func (x *exporter) termCases(t *sym.Term) []kase {
	if !hasIte(t) {
		return []kase{{e: x.term(t)}}
	}
	out := []kase{{}}
	t.EachMono(func(k integer.Int, a *sym.Atom) {
		ac := x.atomCases(a)
		next := make([]kase, 0, len(out)*len(ac))
		for _, o := range out {
			for _, c := range ac {
				e := c.e
				if !k.Equal(integer.Of(1)) {
					e = &syntax.BinA{Op: syntax.Mul, L: &syntax.Num{Val: k}, R: e}
				}
				if o.e != nil {
					e = &syntax.BinA{Op: syntax.Add, L: o.e, R: e}
				}
				next = append(next, kase{guards: append(append([]syntax.BExpr(nil), o.guards...), c.guards...), e: e})
			}
		}
		if len(next) > MaxCases {
			panic(failure{ErrTooLarge})
		}
		out = next
	})
	c := t.Const()
	for i := range out {
		switch {
		case out[i].e == nil:
			out[i].e = &syntax.Num{Val: c}
		case !c.IsZero():
			out[i].e = &syntax.BinA{Op: syntax.Add, L: out[i].e, R: &syntax.Num{Val: c}}
		}
	}
	return out
}

// atomCases splits an atom into its cases: a conditional term into its condition's and its
// negation's, the branches split in turn; a product, quotient or remainder into the pairs of its
// operands' cases.
func (x *exporter) atomCases(a *sym.Atom) []kase {
	switch a.Kind {
	case sym.AtomIte:
		c, then, els := a.IteParts()
		cond := x.formula(c)
		var out []kase
		for _, k := range x.termCases(then) {
			out = append(out, kase{guards: append([]syntax.BExpr{cond}, k.guards...), e: k.e})
		}
		for _, k := range x.termCases(els) {
			out = append(out, kase{guards: append([]syntax.BExpr{&syntax.Not{X: cond}}, k.guards...), e: k.e})
		}
		if len(out) > MaxCases {
			panic(failure{ErrTooLarge})
		}
		return out
	case sym.AtomMul, sym.AtomDiv, sym.AtomMod:
		if !hasIte(a.L) && !hasIte(a.R) {
			return []kase{{e: x.atom(a)}}
		}
		op := map[sym.AtomKind]syntax.AOp{sym.AtomMul: syntax.Mul, sym.AtomDiv: syntax.Div, sym.AtomMod: syntax.Mod}[a.Kind]
		var out []kase
		for _, l := range x.termCases(a.L) {
			for _, r := range x.termCases(a.R) {
				out = append(out, kase{guards: append(append([]syntax.BExpr(nil), l.guards...), r.guards...),
					e: &syntax.BinA{Op: op, L: l.e, R: r.e}})
			}
		}
		if len(out) > MaxCases {
			panic(failure{ErrTooLarge})
		}
		return out
	case sym.AtomSym, sym.AtomBnd, sym.AtomSel:
		return []kase{{e: x.atom(a)}} // a conditional term inside a read: ErrIte (atom)
	default:
		panic(fmt.Sprintf("conv: atom kind %d", a.Kind))
	}
}

// hasIte reports whether t has a conditional term inside (array reads' indices and store chains
// included). Each atom is visited once.
func hasIte(t *sym.Term) bool { return (&iteSearch{seen: map[*sym.Atom]bool{}}).term(t) }

// formulaHasIte reports whether f has a conditional term inside.
func formulaHasIte(f *sym.Formula) bool {
	return (&iteSearch{seen: map[*sym.Atom]bool{}, formulas: map[*sym.Formula]bool{}}).formula(f)
}

// iteSearch looks for a conditional term, visiting each atom and formula once (the terms and
// formulas of merged states share their parts).
type iteSearch struct {
	seen     map[*sym.Atom]bool
	formulas map[*sym.Formula]bool
}

func (s *iteSearch) formula(f *sym.Formula) bool {
	if s.formulas == nil {
		s.formulas = map[*sym.Formula]bool{}
	}
	if s.formulas[f] {
		return false
	}
	s.formulas[f] = true
	if (f.T != nil && s.term(f.T)) || (f.Lo != nil && (s.term(f.Lo) || s.term(f.Hi))) {
		return true
	}
	for _, g := range f.Args {
		if s.formula(g) {
			return true
		}
	}
	return false
}

func (s *iteSearch) term(t *sym.Term) bool {
	found := false
	t.EachMono(func(_ integer.Int, a *sym.Atom) {
		if found || s.seen[a] {
			return
		}
		s.seen[a] = true
		switch a.Kind {
		case sym.AtomIte:
			found = true
		case sym.AtomMul, sym.AtomDiv, sym.AtomMod:
			found = s.term(a.L) || s.term(a.R)
		case sym.AtomSel:
			found = s.term(a.L)
			for arr := a.A; !found && arr.Prev != nil; arr = arr.Prev {
				found = s.term(arr.I) || s.term(arr.V)
			}
		case sym.AtomSym, sym.AtomBnd:
		default:
			panic(fmt.Sprintf("conv: atom kind %d", a.Kind))
		}
	})
	return found
}
