package verify

import (
	"fmt"
	"slices"
	"strings"

	"certsym/bounded"
	"certsym/internal/fault"
	"certsym/pathcond"
	"certsym/spec"
	"certsym/spec/integer"
	"certsym/spec/syntax"
	"certsym/step"
	"certsym/sym"
)

// This file evaluates the claims in the states of the explored paths: CHECKPRIM (xSymExe,
// Section IV-B) for a primitive claim, CHECKCLAIM (Section IV-C) for a developer claim, and the
// collection of their results (COLLECTPRIM, COLLECTCLAIM).

// resNone is "no result": the time bound left a query undecided (the bound's cutoff, which
// reaches every claim, stands for the evaluation), or the defining claim is not reached on the
// state (every state where the supporting claims hold is infeasible).
const resNone = numResults

// primEval is one primitive claim to evaluate: the condition evaluated and the claim (an index
// into the developer claim's Prims) its result is collected into.
type primEval struct {
	expr syntax.BExpr
	idx  int
}

// primResult is one CHECKPRIM answer with its evidence, and what the lazy TRUE test needs.
type primResult struct {
	res       Result // ResTrue, ResFalse, ResDontKnow, ResFalseQ, or resNone
	input     spec.Store
	pc        *pathcond.PC // the path condition of the counterexample
	replay    string
	over      []*syntax.Assume
	overLoops []*syntax.While // the loops executed by the invariant transition on the path (Options.InvariantLoops)
	unhandled []Unhandled
	assumed   *pathcond.PC // the path condition strengthened by the earlier supporting claims
	a         *sym.Formula // the claim
	flagged   bool         // the state's flag g is set
}

// pcText renders the counterexample's path condition, "" when there is none (rendered only for
// the evidence kept: the first of each result).
func (r primResult) pcText(names []string) string {
	if r.pc == nil {
		return ""
	}
	return r.pc.String(names)
}

// At is the observer: it cuts paths at the depth bound, records coverage and evaluates the
// claims of s in st.
func (v *verifier) At(st bounded.State, s syntax.Stmt) bool {
	if v.synthetic[s] {
		return true
	}
	if v.opts.DepthBound > 0 && st.PC.Depth > v.opts.DepthBound {
		if v.depthCuts[s]++; v.depthPath[s] == nil {
			v.depthPath[s] = st.PC
		}
		return false
	}
	v.rep.Covered[s] = true
	if v.hasMul {
		v.noteOrigins(st.Store)
	}
	for _, cl := range v.claims[s] {
		v.evalClaim(st, cl)
	}
	var f *sym.Formula
	var made *sym.Term
	if v.hasMul { // the constraint only feeds the notes on products
		f, made = v.constraint(st, s)
	}
	if f != nil && f.HasMul() {
		u := v.productNote(f.FirstMul(), s.Pos().Line)
		v.nonlinear[st.PC.ID()] = append(v.nonlinear[st.PC.ID()], u)
		if !v.nonlinSeen[u] {
			v.nonlinSeen[u] = true
			v.rep.Nonlinear = append(v.rep.Nonlinear, u)
		}
	}
	if asg, ok := s.(*syntax.Assign); ok && v.hasMul {
		// The products this assignment makes, by their text: the interpreter makes its own atoms
		// (other pointers), which noteOrigins meets later in the stores of the paths.
		// The products of the store nested in made are rendered once each (madeSeen): the
		// squarings of a variable nest each product of the store in the next.
		made.EachAtom(func(a *sym.Atom) {
			if a.Kind == sym.AtomMul && !v.madeSeen[a] {
				k := a.String(v.names())
				if v.madeAt[k] == 0 {
					v.madeAt[k] = asg.Line()
				}
				if _, inStore := v.origin[a]; inStore && v.madeAt[k] != 0 {
					v.madeSeen[a] = true
				}
			}
		})
	}
	return true
}

// evalClaim evaluates developer claim cl in state st (CHECKCLAIM) and collects the results of
// the claim and of its primitive claims. When the statement's quantifiers ran out of the bound
// on this path (st.Trunc), an assert (or invariant clause) is evaluated on the truncated condition, whose primitive
// claims are collected into the claim's by the position of their checks, and no TRUE is
// collected (the cutoff at the statement covers the instances not evaluated); FALSE and
// UNDEFINED found on the instances evaluated are collected once their counterexample replays
// on the whole claim.
func (v *verifier) evalClaim(st bounded.State, cl *Claim) {
	items := make([]primEval, len(cl.Prims))
	for i, p := range cl.Prims {
		items[i] = primEval{expr: p.Expr, idx: i}
	}
	trunc := st.Trunc != nil
	if trunc && cl.Kind.Explicit() {
		items = truncItems(cl, st.Trunc)
	}
	res, at, per := v.checkClaim(st, cl, items, trunc)
	if res == resNone {
		return
	}
	path := v.path(st.PC, cl.Stmt)
	for j, it := range items {
		r := per[j]
		if r.res == resNone || (trunc && r.res == ResTrue) {
			continue
		}
		p := cl.Prims[it.idx]
		if e := p.collect(r.res, path); e != nil {
			v.explain(cl, it.idx, e, r, path)
		}
	}
	if trunc && res == ResTrue {
		return
	}
	cl.Paths++
	cl.Counts[res]++
	r := per[at]
	if cl.Example[res] == "" {
		cl.Example[res] = st.PC.String(v.names())
	}
	if e := cl.collect(res, path); e != nil {
		v.explain(cl, items[at].idx, e, r, path)
	}
	if p := v.kept(path); p != nil && (res == ResFalse || res == ResUndefined) && r.input != nil {
		p.SetCounterexample(r.input) // the path cited as failing the claim fails it in its test
	}
	if res != ResTrue && res != ResDontKnow && cl.Witnesses[res] == nil {
		if cl.Witnesses == nil {
			cl.Witnesses = map[Result]*Witness{}
		}
		cl.Witnesses[res] = &Witness{Input: v.input(r.input), PathCondition: r.pcText(v.names()), Replay: r.replay}
	}
	for _, a := range r.over {
		cl.addOverApprox(a)
	}
	for _, w := range r.overLoops {
		if !slices.Contains(cl.OverLoops, w) {
			cl.OverLoops = append(cl.OverLoops, w)
		}
	}
	for _, u := range r.unhandled {
		cl.addUnhandled(u)
	}
}

// truncItems maps the primitive claims of the truncated condition t of an assert onto the
// claim's own: by the kind and position of their checks (the defining claim onto the defining
// claim); a check of t with no counterpart is collected into the defining claim.
func truncItems(cl *Claim, t syntax.BExpr) []primEval {
	tmp := &Claim{Kind: ClaimAssert, Cond: t, Line: cl.Line, Col: cl.Col, Text: syntax.PrintB(t)}
	decompose(tmp, nil)
	var out []primEval
	for _, p := range tmp.Prims {
		idx := len(cl.Prims) - 1
		if !p.Defining {
			for i, q := range cl.Supporting() {
				if q.Kind == p.Kind && q.pos == p.pos {
					idx = i
					break
				}
			}
		}
		out = append(out, primEval{expr: p.Expr, idx: idx})
	}
	return out
}

// checkClaim is CHECKCLAIM (xSymExe, Section IV-C) of developer claim cl in state st over its
// primitive claims items (supporting ones in evaluation order, then the defining one): each
// supporting claim is decided by CHECKPRIM in the path condition strengthened by the earlier ones
// (a check is made only when the evaluation before it is defined), the defining claim in the path
// condition strengthened by all of them (on the states where every supporting claim holds; not at
// all when there are none). The claim's result is the first that applies: UNDEFINED when some
// supporting claim is FALSE, UNDEFINED? when some is FALSE?, DONTKNOW when some is DONTKNOW, and
// otherwise the defining claim's. It returns that result, the index of the primitive claim that
// decided it, and every primitive claim's answer.
func (v *verifier) checkClaim(st bounded.State, cl *Claim, items []primEval, trunc bool) (Result, int, []primResult) {
	ts := v.b.Terms()
	n := len(items)
	out := make([]primResult, n)
	assumed := st.PC
	allTrue := true
	for j, it := range items[:n-1] {
		if fault.Active == fault.VerifySkipsUndefined {
			out[j] = primResult{res: resNone}
			continue
		}
		a, _, _, _ := ts.CondKinds(it.expr, st.Store)
		out[j] = v.checkPrim(st, cl, it.idx, a, assumed, trunc)
		if out[j].res != ResTrue {
			allTrue = false
		}
		assumed = pathcond.Extend(assumed, a, ts.Slots())
	}
	a, _, _, _ := ts.CondKinds(items[n-1].expr, st.Store)
	if !allTrue && (assumed.Status == pathcond.Unsat || v.b.Solver().Check(assumed) == pathcond.Unsat) {
		out[n-1] = primResult{res: resNone} // the defining claim is not reached on this state
	} else {
		out[n-1] = v.checkPrim(st, cl, items[n-1].idx, a, assumed, trunc)
	}
	if fault.Active == fault.SupportNoPrecedence && out[n-1].res != resNone {
		return out[n-1].res, n - 1, out // fault injection (build tag faults only)
	}
	for _, rule := range [...]struct{ sup, claim Result }{{ResFalse, ResUndefined}, {ResFalseQ, ResUndefinedQ}, {ResDontKnow, ResDontKnow}} {
		for j := range items[:n-1] {
			if out[j].res == rule.sup {
				return rule.claim, j, out
			}
		}
	}
	return out[n-1].res, n - 1, out
}

// checkPrim is CHECKPRIM (xSymExe, Section IV-B) of primitive claim idx of cl, the formula a, in
// state st under the path condition assumed. DP+ decides the validity of a by the satisfiability
// of its negation: unsat is TRUE, unknown DONTKNOW, sat FALSE with the model as counterexample.
// FALSE then becomes DONTKNOW when UT(s, A) holds (in the abstraction mode, the path condition or
// the claim has a product of two non-constant terms, an uninterpreted function there), and
// FALSE? when the state's flag g is set (st.Over: a quantifier bound ran out in an assume on the
// path) unless the counterexample replays on the concrete semantics (the test refines the path,
// which makes it FALSE). A FALSE counterexample that does not replay is certsym's own defect
// (Report.ReplayErrors), reported DONTKNOW; on a truncated evaluation (trunc) it is dropped, as
// the truncation may have made it.
func (v *verifier) checkPrim(st bounded.State, cl *Claim, idx int, a *sym.Formula, assumed *pathcond.PC, trunc bool) primResult {
	names := v.names()
	out := primResult{res: ResTrue, assumed: assumed, a: a, flagged: st.Over != nil}
	if a == sym.True {
		return out
	}
	pc := pathcond.Extend(assumed, sym.Not(a), len(names))
	if pc.Status != pathcond.Unsat {
		switch v.b.Solver().Check(pc) {
		case pathcond.Unsat:
		case pathcond.Unknown:
			if fault.Active == fault.VerifyUnknownAsTrue {
				return out
			}
			if v.b.TimeUp() {
				out.res = resNone
				return out
			}
			out.res, out.pc = ResDontKnow, pc
			out.unhandled = append([]Unhandled{{Line: cl.Line, What: "solver: " + pc.Reason}}, v.pathNonlinear(assumed)...)
			return out
		default:
			return v.dpFalse(st, cl, idx, a, assumed, pc, trunc)
		}
	}
	return out
}

// dpFalse is the post-processing of CHECKPRIM when DP+ answered FALSE with a model of pc.
func (v *verifier) dpFalse(st bounded.State, cl *Claim, idx int, a *sym.Formula, assumed, pc *pathcond.PC, trunc bool) primResult {
	out := primResult{res: ResFalse, assumed: assumed, a: a, pc: pc}
	m := spec.Store(pc.Witness)
	if v.opts.AbstractNonlinear && (a.HasMul() || v.pathHasMul(assumed)) { // UT(s, A)
		out.res = ResDontKnow
		if p := a.FirstMul(); p != nil {
			u := v.productNote(p, cl.Line)
			u.What = "the claim depends on the " + u.What
			out.unhandled = append(out.unhandled, u)
		}
		out.unhandled = append(out.unhandled, v.pathNonlinear(assumed)...)
		if len(out.unhandled) == 0 {
			out.unhandled = []Unhandled{{Line: cl.Line, What: "abstracted product on the path"}}
		}
		return out
	}
	if !pc.Formula().Eval(m) {
		out.res = ResDontKnow
		out.unhandled = append([]Unhandled{{Line: cl.Line, What: "the solver's counterexample " + spec.StoreString(v.prog, m) + " is spurious"}},
			v.pathNonlinear(assumed)...)
		return out
	}
	out.input = m
	ok, replay, cut := v.replayFalse(cl, idx, v.input(m))
	switch {
	case cut != "" && v.stopping():
		// The run is stopping (the monitor cut the replay short): the result is dropped, as on a
		// truncated evaluation; the stop's cutoff covers the claim.
		out.res = resNone
		return out
	case cut != "": // a bound of the replay (the integer bound, the quantifier instances)
		out.res, out.replay = ResDontKnow, "not replayed: the replay was cut short ("+cut+")"
		out.unhandled = []Unhandled{{Line: cl.Line, What: "the counterexample's replay was cut short: " + cut}}
		return out
	}
	out.replay = replay
	if st.Over != nil {
		if ok {
			out.replay += " (a test that refines the path: FALSE)"
			return out
		}
		out.res = ResFalseQ
		for o := st.Over; o != nil; o = o.Prev {
			if o.Loop != nil {
				out.overLoops = append([]*syntax.While{o.Loop}, out.overLoops...)
				continue
			}
			out.over = append([]*syntax.Assume{o.At}, out.over...)
		}
		var why []string
		if len(out.over) > 0 {
			var lines []string
			for _, a := range out.over {
				lines = append(lines, fmt.Sprint(a.Line()))
			}
			why = append(why, "the quantifier bound ran out in the assume at line "+strings.Join(lines, ", ")+
				", whose rest was given any value; the input may not satisfy it")
		}
		if len(out.overLoops) > 0 {
			var lines []string
			for _, w := range out.overLoops {
				lines = append(lines, fmt.Sprint(w.Line()))
			}
			what := "the loop at line " + lines[0] + " was executed by its invariant (its modified variables given any values that satisfy it)"
			if len(lines) > 1 {
				what = "the loops at lines " + strings.Join(lines, ", ") + " were executed by their invariants (their modified variables given any values that satisfy them)"
			}
			why = append(why, what+": the state may be one no run reaches")
		}
		out.replay = "not replayed (" + replay + "): " + strings.Join(why, "; ")
		return out
	}
	if !ok {
		if trunc {
			out.res = resNone
			return out
		}
		v.rep.ReplayErrors = append(v.rep.ReplayErrors, fmt.Sprintf("a counterexample of the %s claim at line %d (%s), input %s, did not replay: %s",
			cl.Kind, cl.Line, cl.Prims[idx].Name(), spec.StoreString(v.prog, m), replay))
		out.res = ResDontKnow
		out.unhandled = []Unhandled{{Line: cl.Line, What: "counterexample did not replay (internal error): " + replay}}
	}
	return out
}

// collect adds result r on path to the outcome (COLLECTPRIM, COLLECTCLAIM); it returns the
// result's evidence when r is new (for the caller to explain), nil otherwise.
func (o *Outcome) collect(r Result, path int) *Evidence {
	o.Summary |= 1 << r
	e := o.Evidence[r]
	first := e == nil
	if first {
		e = &Evidence{Result: r, Path: path}
		o.Evidence[r] = e
	}
	e.Count++
	e.addPath(path)
	if first {
		return e
	}
	return nil
}

// explain fills in the first evidence e of a result of primitive claim idx of cl (or of cl
// itself, from the primitive claim that decided it) from the CHECKPRIM answer r.
func (v *verifier) explain(cl *Claim, idx int, e *Evidence, r primResult, path int) {
	e.PathCondition, e.Replay, e.Unhandled = r.pcText(v.names()), r.replay, r.unhandled
	for _, a := range r.over {
		e.Over = append(e.Over, a.Line())
	}
	for _, w := range r.overLoops {
		e.Over = append(e.Over, w.Line())
	}
	if r.input != nil {
		e.Input = v.input(r.input)
	}
	if e.Result == ResTrue && r.a != nil {
		v.trueTest(cl, idx, r.assumed, r.a, r.flagged, e)
	}
}

// addUnhandled adds u to the claim's unhandled-theory locations, once (a set beside the list: a
// spurious counterexample's location names its input, so there can be one per path).
func (cl *Claim) addUnhandled(u Unhandled) {
	if cl.unhandledSeen[u] {
		return
	}
	if cl.unhandledSeen == nil {
		cl.unhandledSeen = map[Unhandled]bool{}
	}
	cl.unhandledSeen[u] = true
	cl.Unhandled = append(cl.Unhandled, u)
}

func (cl *Claim) addOverApprox(a *syntax.Assume) {
	for _, x := range cl.OverApprox {
		if x == a {
			return
		}
	}
	cl.OverApprox = append(cl.OverApprox, a)
}

// pathHasMul reports whether the path condition phi has a product of two non-constant terms
// (memoized along the path).
func (v *verifier) pathHasMul(phi *pathcond.PC) bool {
	if phi == nil || phi.Conj == nil {
		return false
	}
	if m, ok := v.mulPC[phi.ID()]; ok {
		return m
	}
	m := phi.Conj.HasMul() || v.pathHasMul(phi.Parent)
	v.mulPC[phi.ID()] = m
	return m
}

// pathNonlinear returns the statements with products on the path of phi (the unhandled-theory
// locations of a DONTKNOW), first first.
func (v *verifier) pathNonlinear(phi *pathcond.PC) []Unhandled {
	var out []Unhandled // reversed, then put back in order: prepending was quadratic in depth
	for n := phi; n != nil; n = n.Parent {
		marks := v.nonlinear[n.ID()]
		for i := len(marks) - 1; i >= 0; i-- {
			out = append(out, marks[i])
		}
	}
	slices.Reverse(out)
	return out
}

// noteOrigins records where the products in σ not seen before were made: the assignment that made
// a product with the same text.
func (v *verifier) noteOrigins(sigma []*sym.Term) {
	var walk func(t *sym.Term)
	walk = func(t *sym.Term) {
		t.EachMono(func(_ integer.Int, a *sym.Atom) {
			if a.Kind == sym.AtomSym {
				return
			}
			if _, seen := v.origin[a]; seen {
				return
			}
			v.origin[a] = 0
			if a.Kind == sym.AtomMul {
				v.origin[a] = v.madeAt[a.String(v.names())]
			}
			if a.Kind != sym.AtomMul && a.Kind != sym.AtomDiv && a.Kind != sym.AtomMod {
				return // a select's operands are not walked: the products in stores are
			}
			walk(a.L)
			walk(a.R)
		})
	}
	for _, t := range sigma {
		if t.ArrayValue() == nil {
			walk(t)
		}
	}
}

// productNote describes the product a, used by the constraint or claim at line used: where it
// was made (the assignment that made it, or the line that uses it) and how it is decided.
func (v *verifier) productNote(a *sym.Atom, used int) Unhandled {
	line := used
	if l := v.origin[a]; l > 0 {
		line = l
	}
	what := "product " + a.String(v.names())
	if line != used {
		what += fmt.Sprintf(" (used at line %d)", used)
	}
	if v.opts.AbstractNonlinear {
		what += " abstracted: uninterpreted function with sign axioms"
	} else {
		what += ": nonlinear arithmetic, decided by Z3 directly"
	}
	return Unhandled{Line: line, What: what}
}

// constraint is the constraint statement s adds to the path condition in st (its condition and
// the definedness of its divisions: the then constraint of the step kernel's split, or the
// definedness condition of its assignment), or nil; for an assignment, made is the value it
// assigns (the step kernel's step.Assign), whose products the caller records.
func (v *verifier) constraint(st bounded.State, s syntax.Stmt) (f *sym.Formula, made *sym.Term) {
	ts := v.b.Terms()
	var cond syntax.BExpr
	switch s := s.(type) {
	case *syntax.Assign:
		if s.Err == nil && !v.hasMul {
			return nil, nil
		}
		as := step.Assign(ts, s, st.Store)
		return as.Def, as.Value
	case *syntax.ArrAssign:
		return step.ArrAssign(ts, s, st.Store).Def, nil
	case *syntax.If:
		cond = s.Cond
	case *syntax.While:
		cond = s.Cond
	case *syntax.Assume:
		cond = s.Cond
	case *syntax.Assert:
		cond = s.Cond
	case *syntax.Skip, *syntax.Fail, *syntax.Seq:
		return nil, nil
	default:
		panic(fmt.Sprintf("verify: unknown statement %T", s))
	}
	return step.SplitKinds(ts, cond, st.Store, true, true).Then, nil
}

// names are the symbols' names (the variables, then the arrays' elements).
func (v *verifier) names() []string { return v.b.Terms().Names() }

// input is the program's input in a model m of a path condition: its first Prog.Slots()
// values (with Options.InvariantLoops the models also value the fresh symbols of the havocs,
// which no run reads).
func (v *verifier) input(m spec.Store) spec.Store {
	if m == nil {
		return nil
	}
	return m[:v.prog.Slots()]
}
