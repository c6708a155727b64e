package sym

import (
	"certsym/spec/integer"
	"certsym/spec/syntax"
)

// Crosscheck of the solver-free decisions (for the refinement layer, in the spirit of KLEE's
// --debug-crosscheck-core-solver). extend decides many conjuncts without Z3: constant folding,
// the bounds of single symbols, the linear facts, interval arithmetic through products,
// divisions and remainders, divisibility, the parent's witness, the clamped witness of a path
// condition made of bounds only, and the bookkeeping of bounds (shaving x != v at an interval
// end). With a hook installed (SetCrossCheck), extend hands every conjunct it adds to the hook
// with the path condition it returned, and the layer asks its own Z3 encoding the same question.
// When no hook is installed the cost is one nil test per conjunct added.

// crossCheck is the installed hook, nil when the crosscheck is off.
var crossCheck func(phi *PC, f *Formula, n *PC)

// Decision is one step of extend as the crosscheck sees it: the parent path condition, the
// conjunct added, the result, and what extend concluded without the solver.
type Decision struct {
	Parent *PC
	Conj   *Formula
	Result *PC
	// Kind is what extend concluded: "implied" (φ ⇒ f, the result is φ), "contradicted" (φ ∧ f
	// is unsatisfiable), "unsat-parent" (φ was already unsatisfiable), "witness" (the result is
	// satisfiable with the given witness), or "open" (nothing decided; only the bounds and
	// linear facts of the result, Facts, are claims).
	Kind string
	// Rule names the rule that decided (see DecisionRule); a caching layer's answer (Kind
	// "cache-unsat": φ, the Result, is unsatisfiable; "cache-witness": Witness satisfies φ) is
	// "cache/" and the layer's name (query-cache, cex-model, cex-unsat-subset, repair, slice-empty,
	// slice).
	Rule string
	// Witness is the model of a "cache-witness" answer (Result.Witness is set after the hook).
	Witness []integer.Int
}

// SetCrossCheck installs hook (nil: removes it). It must not be called while an engine runs;
// the hook is called from whatever goroutine runs extend.
func SetCrossCheck(hook func(Decision)) {
	if hook == nil {
		crossCheck, cacheCheck = nil, nil
		return
	}
	crossCheck = func(phi *PC, f *Formula, n *PC) { hook(classifyDecision(phi, f, n)) }
	cacheCheck = func(phi *PC, status SatStatus, model []integer.Int, rule string) {
		d := Decision{Parent: phi.Parent, Conj: phi.Conj, Result: phi, Kind: "cache-witness", Rule: "cache/" + rule, Witness: model}
		if status == Unsat {
			d.Kind = "cache-unsat"
		}
		hook(d)
	}
}

// CrossChecking reports whether a hook is installed (the engine then expands on one goroutine:
// the hook is the refinement layer's, which expects the decisions of one run in order).
func CrossChecking() bool { return crossCheck != nil }

func classifyDecision(phi *PC, f *Formula, n *PC) Decision {
	d := Decision{Parent: phi, Conj: f, Result: n}
	switch {
	case n == phi:
		d.Kind = "implied"
		if f.Op == FTrue {
			d.Rule = "fold"
		} else {
			d.Rule = DecisionRule(phi, f)
		}
	case phi.Status == Unsat:
		d.Kind, d.Rule = "unsat-parent", "unsat-parent"
	case n.Status == Unsat:
		d.Kind = "contradicted"
		if f.Op == FFalse {
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
// kind), "linfacts" (the interval of a linear form of several symbols was needed),
// "bounds-junction" (a disjunction decided by its parts), or "undecided".
func DecisionRule(phi *PC, f *Formula) string {
	bs := phi.bnd
	switch f.Op {
	case FOr, FAnd:
		return "bounds-junction"
	case FEq, FNe:
		t := f.T
		if len(t.monos) == 1 && t.monos[0].a.Kind == AtomSym && !t.c.Rem(t.monos[0].k).IsZero() {
			return "divisibility"
		}
		if g, ok := linForm(t); ok && !t.c.Rem(g).IsZero() {
			return "divisibility"
		}
		if bs.decideEq(t, nil, phi.absMul) != unknownT {
			return boundsRule(t)
		}
	case FGe:
		if bs.decide(f, nil, phi.absMul) != unknownT {
			return boundsRule(f.T)
		}
	}
	if bs.decide(f, phi.lin, phi.absMul) != unknownT {
		return "linfacts"
	}
	return "undecided"
}

// boundsRule is "bounds", or the interval rule of the first nonlinear atom kind in t.
func boundsRule(t *Term) string {
	var kind func(t *Term) string
	kind = func(t *Term) string {
		for _, m := range t.monos {
			switch m.a.Kind {
			case AtomMul:
				return "interval-mul"
			case AtomDiv:
				return "interval-div"
			case AtomMod:
				return "interval-mod"
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
	for _, sb := range phi.bnd {
		sym := sb.sym
		interval(func() syntax.AExpr { return (&Atom{Kind: AtomSym, Sym: sym}).AExpr(names) }, sb.b, nil)
	}
	seen := map[*linFact]bool{}
	for l := phi.lin; l != nil; l = l.next {
		if seen[l] {
			continue
		}
		// only the newest fact of each form holds the whole interval; older ones are weaker but
		// still implied, so every one is a claim
		seen[l] = true
		form := &Term{monos: l.form}
		interval(func() syntax.AExpr { return form.AExpr(names) }, l.b, l.ne)
	}
	return out
}

func isLinForm(t *Term) bool { _, ok := linForm(t); return ok }

// cacheCheck is the installed hook for the caching layers' answers (cache.go), nil when the
// crosscheck is off: phi is the path condition Check was asked about, status the answer, model
// the witness of a sat answer, rule the layer ("query-cache", "cex-model", "cex-unsat-subset",
// "repair", "slice-empty", or "slice" for Z3's answer about a slice in the slice solver).
var cacheCheck func(phi *PC, status SatStatus, model []integer.Int, rule string)
