package pathcond

import (
	"fmt"

	"certsym/spec/integer"
	"certsym/spec/syntax"
	"certsym/sym"
)

// The decisions of Extend, as the crosscheck sees them (for the refinement layer, in the spirit of
// KLEE's --debug-crosscheck-core-solver). Extend decides many conjuncts without Z3: constant
// folding, the bounds of single symbols, the linear facts, interval arithmetic through products,
// divisions and remainders, divisibility, the parent's witness, the clamped witness of a path
// condition made of bounds only, and the bookkeeping of bounds (shaving x != v at an interval
// end). Below a root whose Deciders have an observer (the solver's crosscheck option, package
// solver), Extend hands every conjunct it adds to the observer, classified here, with the path
// condition it returned; the refinement layer asks its own Z3 encoding the same question. Without
// an observer the cost is one nil test per conjunct added.

// Decision is one step of extend as the crosscheck sees it: the parent path condition, the
// conjunct added, the result, and what extend concluded without the solver.
type Decision struct {
	Parent *PC
	Conj   *sym.Formula
	Result *PC
	// Kind is what extend concluded: "implied" (φ ⇒ f, the result is φ), "contradicted" (φ ∧ f
	// is unsatisfiable), "unsat-parent" (φ was already unsatisfiable), "witness" (the result is
	// satisfiable with the given witness), or "open" (nothing decided; only the bounds and
	// linear facts of the result, Facts, are claims).
	Kind string
	// Rule names the rule that decided (see DecisionRule); a caching layer's answer (Kind
	// "cache-unsat": φ, the Result, is unsatisfiable; "cache-witness": Witness satisfies φ),
	// which the solver's crosscheck reports in the same form, is "cache/" and the layer's name
	// (query-cache, cex-model, cex-unsat-subset, repair, slice-empty, slice).
	Rule string
	// Witness is the model of a "cache-witness" answer (Result.Witness is set after the hook).
	Witness []integer.Int
}

func classifyDecision(phi *PC, f *sym.Formula, n *PC) Decision {
	d := Decision{Parent: phi, Conj: f, Result: n}
	switch {
	case n == phi:
		d.Kind = "implied"
		if f.Op == sym.FTrue {
			d.Rule = "fold"
		} else {
			d.Rule = DecisionRule(phi, f)
		}
	case phi.Status == Unsat:
		d.Kind, d.Rule = "unsat-parent", "unsat-parent"
	case n.Status == Unsat:
		d.Kind = "contradicted"
		if f.Op == sym.FFalse {
			d.Rule = "fold"
		} else {
			d.Rule = DecisionRule(phi, f)
		}
	case n.Status == Sat && phi.Status == Sat && len(n.Witness) > 0 && len(phi.Witness) > 0 && &n.Witness[0] == &phi.Witness[0]:
		d.Kind, d.Rule = "witness", "parent-witness"
	case n.Status == Sat:
		d.Kind, d.Rule = "witness", "pure-bounds-clamp"
	default:
		d.Kind, d.Rule = "open", "record"
		if _, _, ok := asBound(f); ok {
			d.Rule = "record-bound"
		} else if _, _, ok := phi.bnd.shaved(f); ok {
			d.Rule = "shave"
		} else if f.T != nil && isLinForm(f.T) {
			d.Rule = "record-linfact"
		}
	}
	return d
}

// DecisionRule names the rule by which the bounds and linear facts of phi decide f (the
// conjunct is implied or contradicted): "divisibility" (k·x + c == 0 or g·F + c == 0 with k or g
// not dividing c), "bounds" (interval arithmetic on linear terms over bounded symbols),
// "interval-mul", "interval-div", "interval-mod" (the same through nonlinear atoms of that
// kind), "interval-ite" (through a conditional term, by the hull of its branches), "linfacts"
// (the interval of a linear form of several symbols was needed), "bounds-junction" (a
// disjunction decided by its parts), or "undecided".
func DecisionRule(phi *PC, f *sym.Formula) string {
	bs := phi.bnd
	switch f.Op {
	case sym.FOr, sym.FAnd:
		return "bounds-junction"
	case sym.FEq, sym.FNe:
		t := f.T
		if oneSym(t) {
			if k, _ := t.Mono(0); !t.Const().Rem(k).IsZero() {
				return "divisibility"
			}
		}
		if g, ok := linForm(t); ok && !t.Const().Rem(g).IsZero() {
			return "divisibility"
		}
		if bs.decideEq(t, nil, phi.absMul()) != unknownT {
			return boundsRule(t)
		}
	case sym.FGe:
		if bs.decide(f, nil, phi.absMul()) != unknownT {
			return boundsRule(f.T)
		}
	}
	if bs.decide(f, phi.lin, phi.absMul()) != unknownT {
		return "linfacts"
	}
	return "undecided"
}

// boundsRule is "bounds", or the interval rule of the first nonlinear atom kind in t.
func boundsRule(t *sym.Term) string {
	var kind func(t *sym.Term) string
	kind = func(t *sym.Term) string {
		for i := 0; i < t.Monos(); i++ {
			switch _, a := t.Mono(i); a.Kind {
			case sym.AtomMul:
				return "interval-mul"
			case sym.AtomDiv:
				return "interval-div"
			case sym.AtomMod:
				return "interval-mod"
			case sym.AtomIte:
				return "interval-ite"
			case sym.AtomSym, sym.AtomSel, sym.AtomBnd:
			default:
				panic(fmt.Sprintf("pathcond: unknown atom kind %d", a.Kind))
			}
		}
		return ""
	}
	if k := kind(t); k != "" {
		return k
	}
	return "bounds"
}

// Facts returns what phi records besides its conjuncts, as IMP conditions over names: the
// interval of each bounded symbol and the interval (and excluded values) of each linear form of
// the linear facts. Each must be implied by phi's formula; the crosscheck asks Z3.
func (phi *PC) Facts(names []string) []syntax.BExpr {
	var out []syntax.BExpr
	num := func(v integer.Int) syntax.AExpr { return &syntax.Num{Val: v} }
	interval := func(e func() syntax.AExpr, b bound, ne []integer.Int) {
		if b.hasLo {
			out = append(out, &syntax.Cmp{Op: syntax.Ge, L: e(), R: num(b.lo)})
		}
		if b.hasHi {
			out = append(out, &syntax.Cmp{Op: syntax.Le, L: e(), R: num(b.hi)})
		}
		for _, v := range ne {
			out = append(out, &syntax.Cmp{Op: syntax.Ne, L: e(), R: num(v)})
		}
	}
	phi.bnd.each(func(sb symBound) {
		x := sb.sym
		interval(func() syntax.AExpr { return (&sym.Atom{Kind: sym.AtomSym, Sym: x}).AExpr(names) }, sb.b, nil)
	})
	seen := map[*linFact]bool{}
	for l := phi.lin; l != nil; l = l.next {
		if seen[l] {
			continue
		}
		// only the newest fact of each form holds the whole interval; older ones are weaker but
		// still implied, so every one is a claim
		seen[l] = true
		form := sym.Const(integer.Int{})
		for _, m := range l.form {
			form = sym.Add(form, sym.Scale(sym.AtomTerm(m.a), m.k))
		}
		interval(func() syntax.AExpr { return form.AExpr(names) }, l.b, l.ne)
	}
	return out
}

func isLinForm(t *sym.Term) bool { _, ok := linForm(t); return ok }
