// Package verify is certsym verify: explicating symbolic execution (xSymExe) on top of the bounded
// interpreter (package bounded). The interpreter explores every path up to the loop bound; an
// observer (bounded.Observer) evaluates each
// claim in the state of every path that reaches it and collects the results; cutoffs (paths
// stopped by the loop or depth bound) are related to claims by control-flow reachability (CFG);
// each claim's collecting summary is interpreted by StatusTable.
package verify

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"certsym/bounded"
	"certsym/internal/budget"
	"certsym/internal/fault"
	"certsym/spec"
	"certsym/step"
	"certsym/sym"
)

// ClaimKind says what makes a claim.
type ClaimKind uint8

// The kinds of claims: an assert (an explicit fail is the assert false), and the implicit claim
// "divisor != 0" of each division or remainder.
const (
	ClaimAssert ClaimKind = iota
	ClaimDivision
	// ClaimIndex is the implicit claim "lo <= i <= hi" of each element read a[i] and element
	// write a[i] = e of an array a[lo..hi] (issue 13).
	ClaimIndex
)

func (k ClaimKind) String() string { return [...]string{"assert", "division", "index"}[k] }

// A Claim is one claim of the program with what verify established about it.
type Claim struct {
	Kind ClaimKind
	Line int       // the statement's line (the macro call's line for a statement inlined from a macro)
	Col  int       // the statement's column (the macro call's for a statement inlined from a macro)
	Stmt spec.Stmt // the statement that makes the claim
	Cond spec.BExpr
	// Div is the division or remainder of a division claim; the claim is Div.R != 0.
	Div *spec.BinA
	// Arr and Index are the array and the index of an index claim; the claim is
	// Arr.Lo <= Index <= Arr.Hi.
	Arr   *spec.Array
	Index spec.AExpr
	Text  string // the claim in IMP syntax
	// Where is the division or remainder a division claim is about (for example "a % x"), "" for an assert.
	Where string

	Summary Summary
	Counts  [numResults]int // how many evaluations gave each result (CUTOFF: how many cutoff points reach it)
	Paths   int             // evaluations: how many times an explored path reached the claim
	Status  Status

	// Witnesses holds, for FALSE, UNDEFINED, FALSE? and UNDEFINED?, the first input found.
	Witnesses map[Result]*Witness
	// Example is, for each result collected on a path, the path condition of the first such path.
	Example [numResults]string
	// OverApprox are the assumes where over-approximation entered the states of FALSE?/UNDEFINED? results.
	OverApprox []*spec.Assume
	// Unhandled are the places where an unhandled theory made a result DONTKNOW.
	Unhandled []Unhandled
	// Cutoffs are the cutoff points that can reach the claim, each with a control-flow path.
	Cutoffs []ClaimCutoff
}

// Witness is an input on which a claim fails (or is undefined), with the path condition of the
// path it follows and, for FALSE and UNDEFINED, what its concrete replay showed.
type Witness struct {
	Input         spec.Store
	PathCondition string
	Replay        string
}

// Unhandled is a place where the decision procedure could not decide: a product abstracted by
// --abstract-nonlinear, or a Z3 unknown.
type Unhandled struct {
	Line int
	What string
}

// Cutoff is a program point where the bounds stopped paths: a loop that would have started one
// more iteration than the loop bound allows, or a statement a path reached beyond the depth bound.
type Cutoff struct {
	Stmt   spec.Stmt // nil for a cutoff of the whole exploration (state, time or memory bound)
	Line   int
	Reason string
	Paths  int
}

// ClaimCutoff is a cutoff that can reach a claim, with the lines of a shortest control-flow path
// from the cutoff point to the claim.
type ClaimCutoff struct {
	Cutoff *Cutoff
	Path   []int
}

// Options are the bounds of certsym verify.
type Options struct {
	LoopBound  int // iterations of each loop each time it is entered
	DepthBound int // branch decisions (path condition conjuncts) on a path; 0: none
	// AbstractNonlinear encodes products of two non-constant terms as an uninterpreted function
	// with sign axioms.
	AbstractNonlinear bool
	// Limits bound the exploration: MaxStates counts the branch states created.
	budget.Limits
	// Monitor, when set, receives the live counters (for a progress ticker) and can interrupt
	// the exploration.
	Monitor *budget.Monitor
}

// Report is the outcome of Verify.
type Report struct {
	Prog    *spec.Program
	Opts    Options
	Claims  []*Claim // in source order
	Cutoffs []*Cutoff
	// Stopped says why the state, time or memory bound ended the exploration early, or "".
	Stopped string
	// Stmts are the statements counted for coverage (every statement but sequences and skips), in
	// program order; Covered those some explored path executed.
	Stmts   []spec.Stmt
	Covered map[spec.Stmt]bool
	// Results counts the result states of the bounded interpreter by behaviour.
	Results [4]int
	// Nonlinear lists the statements whose constraints contain a product of two non-constant terms.
	Nonlinear []Unhandled
	// ReplayErrors are counterexamples that did not replay: certsym's own defects.
	ReplayErrors []string
	Overall      Status
	Conclusive   int
	Solver       sym.SolverStats
	Elapsed      time.Duration
	CFG          *CFG

	// at maps the statements a concrete state can start with to the claiming statement (a while
	// loop's unfolding to the loop); failOf maps each failure to the statement that reaches it.
	at     map[spec.Stmt]spec.Stmt
	failOf map[*spec.Fail]spec.Stmt
	claims map[spec.Stmt][]*Claim
}

// ClaimsAt returns the claims evaluated when a concrete run is at head (the first statement of
// its remaining program, spec.Head): those of head's statement, or of the loop for the
// unfolding of a while loop.
func (rep *Report) ClaimsAt(head spec.Stmt) []*Claim {
	if s, ok := rep.at[head]; ok {
		head = s
	}
	return rep.claims[head]
}

// ClaimsOfFail returns the claims of the statement that fails at f (an assert violated or a
// division by zero in it, or an explicit fail).
func (rep *Report) ClaimsOfFail(f *spec.Fail) []*Claim { return rep.claims[rep.failOf[f]] }

// Falsified reports whether the claim does not hold in the concrete store s at its statement:
// it is false there (an assert's condition, a division's "divisor != 0") or undefined (it divides
// by zero itself).
func (cl *Claim) Falsified(s spec.Store) bool {
	if cl.Kind == ClaimAssert {
		holds, ok := spec.EvalB(cl.Cond, s)
		return !ok || !holds
	}
	if cl.Kind == ClaimIndex {
		i, ok := spec.Eval(cl.Index, s)
		_, in := cl.Arr.Slot(i)
		return !ok || !in
	}
	d, ok := spec.Eval(cl.Div.R, s)
	return !ok || d.IsZero()
}

// verifier is the observer of the bounded interpreter.
type verifier struct {
	prog      *spec.Program
	opts      Options
	b         *bounded.Interp
	rep       *Report
	claims    map[spec.Stmt][]*Claim
	synthetic map[spec.Stmt]bool
	// overApprox marks the path condition in which an assume with an abstracted product was
	// entered: every later state whose path condition descends from it over-approximates.
	overApprox map[*sym.PC][]*spec.Assume
	// nonlinear marks the path condition in which a constraint with a product was evaluated.
	nonlinear  map[*sym.PC][]Unhandled
	nonlinSeen map[Unhandled]bool
	// origin is the line of the assignment that made each product of the store (0: unknown);
	// madeAt the line of the first assignment that made a product, by the product's text; hasMul
	// whether the program multiplies at all.
	origin    map[*sym.Atom]int
	madeAt    map[string]int
	hasMul    bool
	depthCuts map[spec.Stmt]int
}

// Verify runs explicating symbolic execution on prog.
func Verify(prog *spec.Program, opts Options) *Report {
	start := time.Now()
	rep := &Report{Prog: prog, Opts: opts, Covered: map[spec.Stmt]bool{}, CFG: NewCFG(prog),
		at: map[spec.Stmt]spec.Stmt{}, failOf: map[*spec.Fail]spec.Stmt{}}
	b := bounded.New(prog, opts.LoopBound)
	b.Limits = opts.Limits
	if opts.Monitor != nil {
		b.SetMonitor(opts.Monitor)
	}
	b.Solver().AbstractMul = opts.AbstractNonlinear
	b.QuantLoop = true // quantifiers as loops under the loop bound (xSymExe, Section III-B3)
	v := &verifier{prog: prog, opts: opts, b: b, rep: rep, claims: map[spec.Stmt][]*Claim{},
		synthetic: map[spec.Stmt]bool{step.Skip: true}, overApprox: map[*sym.PC][]*spec.Assume{},
		nonlinear: map[*sym.PC][]Unhandled{}, nonlinSeen: map[Unhandled]bool{}, origin: map[*sym.Atom]int{}, madeAt: map[string]int{}, depthCuts: map[spec.Stmt]int{}}
	v.collectClaims(prog.Body)
	rep.claims = v.claims
	v.hasMul = strings.Contains(spec.PrintProgram(prog), "*")
	sort.SliceStable(rep.Claims, func(i, j int) bool { return rep.Claims[i].Line < rep.Claims[j].Line })
	b.Observer = v

	rs, _ := b.SymInterp(nil) // no ghost: no ghost error
	rep.Stopped = b.Stopped()
	// The cutoff points, in the order of the results: loop-bound cutoffs (Incomplete outcomes,
	// counted in incomplete) and the observer's depth-bound cuts (counted in v.depthCuts). Budget
	// cuts are not counted here: the cutoff of rep.Stopped below covers every claim.
	incomplete := map[spec.Stmt]int{}
	seen := map[spec.Stmt]bool{}
	var order []spec.Stmt
	for _, r := range rs {
		rep.Results[r.Behaviour]++
		if r.Behaviour != spec.Incomplete || r.Cut == bounded.CutBudget {
			continue
		}
		if !seen[r.At] {
			seen[r.At] = true
			order = append(order, r.At)
		}
		if r.Cut == bounded.CutNone {
			incomplete[r.At]++
		}
	}
	for _, s := range order {
		if n := v.depthCuts[s]; n > 0 {
			rep.Cutoffs = append(rep.Cutoffs, &Cutoff{Stmt: s, Line: spec.LineOf(s), Paths: n,
				Reason: fmt.Sprintf("depth bound %d: more branch decisions not explored", opts.DepthBound)})
		}
		if n := incomplete[s]; n > 0 {
			rep.Cutoffs = append(rep.Cutoffs, &Cutoff{Stmt: s, Line: spec.LineOf(s), Paths: n,
				Reason: fmt.Sprintf("loop bound %d: iteration %d not explored", opts.LoopBound, opts.LoopBound+1)})
		}
	}
	if rep.Stopped != "" {
		rep.Cutoffs = append(rep.Cutoffs, &Cutoff{Reason: rep.Stopped + ": the unexplored paths may reach any claim"})
	}
	for _, cl := range rep.Claims {
		for _, c := range rep.Cutoffs {
			if c.Stmt == nil {
				cl.Cutoffs = append(cl.Cutoffs, ClaimCutoff{Cutoff: c})
				cl.collect(ResCutoff)
				continue
			}
			if fault.Active != fault.VerifyIgnoresCutoffs && rep.CFG.Reaches(c.Stmt, cl.Stmt) {
				var lines []int
				for _, s := range rep.CFG.Path(c.Stmt, cl.Stmt) {
					if l := spec.LineOf(s); l > 0 && (len(lines) == 0 || lines[len(lines)-1] != l) {
						lines = append(lines, l)
					}
				}
				cl.Cutoffs = append(cl.Cutoffs, ClaimCutoff{Cutoff: c, Path: lines})
				cl.collect(ResCutoff)
			}
		}
		cl.Status = Interpret(cl.Summary)
	}
	var ss []Status
	for _, cl := range rep.Claims {
		ss = append(ss, cl.Status)
		if cl.Status.Conclusive() {
			rep.Conclusive++
		}
	}
	rep.Overall = Overall(ss)
	rep.Solver = b.Solver().Stats
	rep.Elapsed = time.Since(start)
	return rep
}

// Describe is the claim's text, with the division it is about for a division claim.
func (cl *Claim) Describe() string {
	if cl.Where != "" {
		return cl.Text + " (in " + cl.Where + ")"
	}
	return cl.Text
}

func (cl *Claim) collect(r Result) {
	cl.Summary |= 1 << r
	cl.Counts[r]++
}

func (cl *Claim) addUnhandled(u Unhandled) {
	for _, x := range cl.Unhandled {
		if x == u {
			return
		}
	}
	cl.Unhandled = append(cl.Unhandled, u)
}

// collectClaims walks the program in order and makes its claims, its coverage statements and
// the set of statements the parser synthesized (assert violations).
func (v *verifier) collectClaims(s spec.Stmt) {
	add := func(cl *Claim) {
		cl.Stmt, cl.Line = s, spec.LineOf(s)
		if w, ok := s.(interface{ Where() spec.Pos }); ok {
			cl.Col = w.Where().Col
		}
		v.claims[s] = append(v.claims[s], cl)
		v.rep.Claims = append(v.rep.Claims, cl)
	}
	divisions := func(e []*spec.BinA) {
		for _, d := range e {
			add(&Claim{Kind: ClaimDivision, Div: d, Text: spec.PrintA(d.R) + " != 0", Where: spec.PrintA(d)})
		}
	}
	index := func(a *spec.Array, i spec.AExpr, where string) {
		add(&Claim{Kind: ClaimIndex, Arr: a, Index: i, Where: where,
			Text: fmt.Sprintf("%d <= %s <= %d", a.Lo, spec.PrintA(i), a.Hi)})
	}
	// claims of an expression: its divisions, then its element reads (issue 13); those inside
	// a quantifier whose operands use its bound variable are not claims of their own (their
	// failures are the statement's UNDEFINED results of the assert claim, the error branches)
	claims := func(n spec.Node) {
		var ds []*spec.BinA
		for _, d := range spec.Divisions(n, nil) {
			if !usesBound(d.R) {
				ds = append(ds, d)
			}
		}
		divisions(ds)
		spec.Inspect(n, func(m spec.Node) bool {
			if e, ok := m.(*spec.Elem); ok && !usesBound(e.I) {
				index(e.Arr, e.I, e.Arr.Name+"["+spec.PrintA(e.I)+"]")
			}
			return true
		})
	}
	switch s := s.(type) {
	case *spec.Seq:
		v.collectClaims(s.First)
		v.collectClaims(s.Second)
		return
	case *spec.Skip:
		return
	}
	v.rep.Stmts = append(v.rep.Stmts, s)
	if f := errOf(s); f != nil {
		v.rep.failOf[f] = s
	}
	if f := idxErrOf(s); f != nil {
		v.rep.failOf[f] = s
	}
	switch s := s.(type) {
	case *spec.Assign:
		claims(s.A)
	case *spec.ArrAssign:
		claims(s.I)
		claims(s.A)
		index(s.Arr, s.I, s.Arr.Name+"["+spec.PrintA(s.I)+"] = "+spec.PrintA(s.A))
	case *spec.If:
		claims(s.Cond)
		v.collectClaims(s.Then)
		v.collectClaims(s.Else)
	case *spec.While:
		v.rep.at[s.Unfold] = s
		claims(s.Cond)
		v.collectClaims(s.Body)
	case *spec.Assume:
		if fault.Active != fault.VerifyDropsAssumeClaims {
			claims(s.Cond)
		}
	case *spec.Assert:
		v.synthetic[s.Violation] = true
		v.rep.failOf[s.Violation] = s
		add(&Claim{Kind: ClaimAssert, Cond: s.Cond, Text: spec.PrintB(s.Cond)})
		claims(s.Cond)
	case *spec.Fail:
		// An explicit fail is assert false (SEMANTICS.md): the claim that it is unreachable.
		v.rep.failOf[s] = s
		add(&Claim{Kind: ClaimAssert, Cond: &spec.BoolLit{P: s.P, Val: false}, Text: "false (fail statement)"})
	}
}

// errOf is the Fail a statement reaches when one of its divisions divides by zero.
func errOf(s spec.Stmt) *spec.Fail { div, _ := spec.Fails(s); return div }

// idxErrOf is the Fail a statement reaches when an index is out of range (issue 13).
func idxErrOf(s spec.Stmt) *spec.Fail { _, idx := spec.Fails(s); return idx }

// At is the observer: it cuts paths at the depth bound, records coverage, evaluates the claims of
// s and marks the states an abstracted assume over-approximates.
func (v *verifier) At(st bounded.State, s spec.Stmt) bool {
	if v.synthetic[s] {
		return true
	}
	if v.opts.DepthBound > 0 && st.PC.Depth > v.opts.DepthBound {
		v.depthCuts[s]++
		return false
	}
	v.rep.Covered[s] = true
	if v.hasMul {
		v.noteOrigins(st.Store)
	}
	for _, cl := range v.claims[s] {
		v.evalClaim(st, cl)
	}
	f, made := v.constraint(st, s)
	if f != nil && f.HasMul() {
		u := v.productNote(f.FirstMul(), spec.LineOf(s))
		v.nonlinear[st.PC] = append(v.nonlinear[st.PC], u)
		if !v.nonlinSeen[u] {
			v.nonlinSeen[u] = true
			v.rep.Nonlinear = append(v.rep.Nonlinear, u)
		}
		if a, ok := s.(*spec.Assume); ok && v.opts.AbstractNonlinear {
			v.overApprox[st.PC] = append(v.overApprox[st.PC], a)
		}
	}
	if asg, ok := s.(*spec.Assign); ok && v.hasMul {
		// The products this assignment makes, by their text: the interpreter makes its own atoms
		// (other pointers), which noteOrigins meets later in the stores of the paths.
		made.EachAtom(func(a *sym.Atom) {
			if a.Kind == sym.AtomMul {
				if k := a.String(v.names()); v.madeAt[k] == 0 {
					v.madeAt[k] = asg.Line()
				}
			}
		})
	}
	return true
}

// noteOrigins records where the products in σ not seen before were made: the assignment that made
// a product with the same text.
func (v *verifier) noteOrigins(sigma []*sym.Term) {
	var walk func(t *sym.Term)
	walk = func(t *sym.Term) {
		t.EachMono(func(_ spec.Int, a *sym.Atom) {
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
func (v *verifier) constraint(st bounded.State, s spec.Stmt) (f *sym.Formula, made *sym.Term) {
	ts := v.b.Terms()
	var cond spec.BExpr
	switch s := s.(type) {
	case *spec.Assign:
		if s.Err == nil && !v.hasMul {
			return nil, nil
		}
		as := step.Assign(ts, s, st.Store)
		return as.Def, as.Value
	case *spec.ArrAssign:
		return step.ArrAssign(ts, s, st.Store).Def, nil
	case *spec.If:
		cond = s.Cond
	case *spec.While:
		cond = s.Cond
	case *spec.Assume:
		cond = s.Cond
	case *spec.Assert:
		cond = s.Cond
	default:
		return nil, nil
	}
	return step.SplitKinds(ts, cond, st.Store, true, true).Then, nil
}

// names are the symbols' names (the variables, then the arrays' elements).
func (v *verifier) names() []string { return v.b.Terms().Names() }

// evalClaim evaluates claim cl in state st: UNDEFINED when the claim's own evaluation may divide
// by zero, FALSE when it may be false, TRUE when neither is possible (each decided by the solver,
// each answer checked as described at check).
func (v *verifier) evalClaim(st bounded.State, cl *Claim) {
	ts := v.b.Terms()
	cl.Paths++
	var cond *sym.Formula
	var ds []spec.AExpr
	var expr spec.Node // the expression the claim evaluates
	switch cl.Kind {
	case ClaimAssert:
		cond, expr = ts.SubstB(cl.Cond, st.Store), cl.Cond
		ds = spec.DivisorsB(cl.Cond, nil)
	case ClaimIndex:
		expr = cl.Index
		ds = spec.DivisorsA(cl.Index, nil)
	default:
		cond, expr = sym.Pred(sym.FNe, ts.Subst(cl.Div.R, st.Store)), cl.Div.R
		ds = spec.DivisorsA(cl.Div.R, nil)
	}
	var def *sym.Formula
	undefinable := len(ds) > 0
	if spec.HasIndex(expr) || hasQuant(expr) || cl.Kind == ClaimIndex {
		// the definedness of an expression with element reads or quantifiers (issue 13)
		undefinable = undefinable || spec.HasIndex(expr)
		switch e := expr.(type) {
		case spec.BExpr:
			cond, def, _, _ = ts.CondKinds(e, st.Store)
		case spec.AExpr:
			var t *sym.Term
			t, def, _, _ = ts.ExprKinds(e, st.Store)
			if cl.Kind == ClaimIndex {
				cond = sym.InRange(cl.Arr, t)
			} else {
				cond = sym.Pred(sym.FNe, t)
			}
		}
	} else {
		def = ts.Defined(ds, st.Store)
	}
	got := false
	if undefinable && fault.Active != fault.VerifySkipsUndefined {
		got = v.check(st, cl, sym.Not(def), ResUndefined)
	}
	if v.check(st, cl, sym.And(def, sym.Not(cond)), ResFalse) {
		got = true
	}
	if !got {
		cl.collect(ResTrue)
		if cl.Example[ResTrue] == "" {
			cl.Example[ResTrue] = st.PC.String(v.names())
		}
	}
}

// check decides whether psi (the claim's failure, res FALSE, or its undefinedness, res UNDEFINED)
// is possible in st, records the result and reports whether there was one:
//   - unsat: nothing (the failure is impossible on this path);
//   - unknown: DONTKNOW;
//   - sat with a model that satisfies the real path condition and psi (the terms evaluated with
//     real products): FALSE/UNDEFINED, once the model replays on the bounded concrete semantics;
//   - sat with a spurious model (possible only when products are abstracted): DONTKNOW when psi
//     itself contains a product, FALSE?/UNDEFINED? when an abstracted assume made the state
//     over-approximate, DONTKNOW otherwise (an abstracted branch condition on the path).
func (v *verifier) check(st bounded.State, cl *Claim, psi *sym.Formula, res Result) bool {
	if psi == sym.False {
		return false
	}
	names := v.names()
	pc := sym.Extend(st.PC, psi, len(names))
	defer func() {
		for r := Result(0); r < ResCutoff; r++ {
			if cl.Summary.Has(r) && cl.Example[r] == "" {
				cl.Example[r] = st.PC.String(names)
			}
		}
	}()
	switch v.b.Solver().Check(pc) {
	case sym.Unsat:
		return false
	case sym.Unknown:
		if fault.Active == fault.VerifyUnknownAsTrue {
			return false
		}
		if v.b.TimeUp() {
			// The time bound, not the claim, left the query undecided: the bound's cutoff, which
			// reaches every claim, stands for this evaluation.
			return true
		}
		cl.collect(ResDontKnow)
		cl.addUnhandled(Unhandled{Line: cl.Line, What: "solver: " + pc.Reason})
		v.addPathNonlinear(cl, st.PC)
		return true
	}
	m := spec.Store(pc.Witness)
	if pc.Formula().Eval(m) {
		replay, ok := v.replay(cl, m, res)
		if !ok {
			v.rep.ReplayErrors = append(v.rep.ReplayErrors, fmt.Sprintf("the %s claim at line %d: input %s: %s",
				cl.Kind, cl.Line, v.prog.InputString(m), replay))
			cl.collect(ResDontKnow)
			cl.addUnhandled(Unhandled{Line: cl.Line, What: "counterexample did not replay (internal error): " + replay})
			return true
		}
		cl.collect(res)
		cl.witness(res, &Witness{Input: m, PathCondition: pc.String(names), Replay: replay})
		return true
	}
	if a := psi.FirstMul(); a != nil {
		cl.collect(ResDontKnow)
		u := v.productNote(a, cl.Line)
		u.What = "the claim depends on the " + u.What + "; the solver's counterexample " + v.prog.InputString(m) + " is spurious"
		cl.addUnhandled(u)
		return true
	}
	if assumes := v.overApproxOn(st.PC); len(assumes) > 0 {
		q := ResFalseQ
		if res == ResUndefined {
			q = ResUndefinedQ
		}
		cl.collect(q)
		var lines []string
		for _, a := range assumes {
			lines = append(lines, fmt.Sprint(a.Line()))
			cl.addOverApprox(a)
		}
		cl.witness(q, &Witness{Input: m, PathCondition: pc.String(names),
			Replay: "not replayed: the assume at line " + strings.Join(lines, ", ") + " was over-approximated, the input may not satisfy it"})
		return true
	}
	cl.collect(ResDontKnow)
	cl.addUnhandled(Unhandled{Line: cl.Line, What: "the solver's counterexample " + v.prog.InputString(m) + " is spurious (abstracted products on the path)"})
	v.addPathNonlinear(cl, st.PC)
	return true
}

func (cl *Claim) witness(r Result, w *Witness) {
	if cl.Witnesses == nil {
		cl.Witnesses = map[Result]*Witness{}
	}
	if cl.Witnesses[r] == nil {
		cl.Witnesses[r] = w
	}
}

func (cl *Claim) addOverApprox(a *spec.Assume) {
	for _, x := range cl.OverApprox {
		if x == a {
			return
		}
	}
	cl.OverApprox = append(cl.OverApprox, a)
}

// Counterexample returns the witness that goes with the claim's status (REFUTED: a FALSE input,
// FAULTY: an UNDEFINED one, REFUTED?, FAULTY?: the possibly spurious one), or nil.
func (cl *Claim) Counterexample() *Witness {
	r, ok := map[Status]Result{StatusRefuted: ResFalse, StatusFaulty: ResUndefined, StatusRefutedQ: ResFalseQ, StatusFaultyQ: ResUndefinedQ}[cl.Status]
	if !ok {
		return nil
	}
	return cl.Witnesses[r]
}

// overApproxOn returns the abstracted assumes on the path of path condition phi, first first.
func (v *verifier) overApproxOn(phi *sym.PC) []*spec.Assume {
	var out []*spec.Assume
	for n := phi; n != nil; n = n.Parent {
		out = append(append([]*spec.Assume{}, v.overApprox[n]...), out...)
	}
	return out
}

// addPathNonlinear adds to cl's unhandled-theory locations the statements with products on the
// path of phi.
func (v *verifier) addPathNonlinear(cl *Claim, phi *sym.PC) {
	for n := phi; n != nil; n = n.Parent {
		for _, u := range v.nonlinear[n] {
			cl.addUnhandled(u)
		}
	}
}

// replay runs input m on the bounded concrete semantics (spec.ExecBounded) and checks that it
// fails claim cl as res says: for an assert, the run ends at its violation (FALSE) or at its
// division by zero (UNDEFINED); for a division, the run ends at the statement's division by zero
// with this divisor 0 (FALSE) or undefined (UNDEFINED).
func (v *verifier) replay(cl *Claim, m spec.Store, res Result) (string, bool) {
	r := spec.ExecBounded(v.prog, m, v.opts.LoopBound)
	got := fmt.Sprintf("the bounded concrete execution ends %s", r.Behaviour)
	if r.Fail != nil {
		got += fmt.Sprintf(" (%s at line %d)", r.Fail.Kind, r.Fail.Line())
	}
	if r.Behaviour != spec.Error {
		return got, false
	}
	if f, ok := cl.Stmt.(*spec.Fail); ok {
		return got, r.Fail == f
	}
	if cl.Kind == ClaimAssert {
		a := cl.Stmt.(*spec.Assert)
		if res == ResUndefined {
			return got, r.Fail == a.Err || (r.Fail == a.IdxErr && r.Fail != nil)
		}
		return got, r.Fail == a.Violation
	}
	if cl.Kind == ClaimIndex {
		// the statement errs (with this access out of range, or an earlier failure of its
		// evaluation: the claim is evaluated on its own, the run stops at the first failure)
		return got, r.Fail != nil && (r.Fail == errOf(cl.Stmt) || r.Fail == idxErrOf(cl.Stmt))
	}
	if f := idxErrOf(cl.Stmt); f != nil && r.Fail == f {
		return got + " (an index error comes first)", true
	}
	if r.Fail != errOf(cl.Stmt) {
		return got, false
	}
	d, ok := spec.Eval(cl.Div.R, r.Store)
	if res == ResFalse {
		return got + fmt.Sprintf(", divisor %s = %s", spec.PrintA(cl.Div.R), d), ok && d.IsZero()
	}
	return got + fmt.Sprintf(", divisor %s undefined", spec.PrintA(cl.Div.R)), !ok
}

// hasQuant reports whether the expression n has a quantifier.
func hasQuant(n spec.Node) bool {
	found := false
	spec.Inspect(n, func(m spec.Node) bool {
		if _, ok := m.(*spec.Quant); ok {
			found = true
		}
		return !found
	})
	return found
}

// usesBound reports whether the expression n uses a quantifier's bound variable.
func usesBound(n spec.Node) bool {
	found := false
	spec.Inspect(n, func(m spec.Node) bool {
		if _, ok := m.(*spec.BoundRef); ok {
			found = true
		}
		return !found
	})
	return found
}
