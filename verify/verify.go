// Package verify is certsym verify: explicating symbolic execution (xSymExe: Hatcliff, Robby,
// Chalin, Belt, ICSE 2013) on top of the bounded interpreter (package bounded).
//
// The interpreter explores every path up to the loop bound; an observer (bounded.Observer)
// evaluates each developer claim in the state of every path that reaches it, by CHECKCLAIM
// (Section IV-C) over its primitive claims (Section IV-A), each decided by CHECKPRIM (Section
// IV-B); cutoffs (paths stopped by a bound) are related to claims by control-flow reachability
// (Section III-B2). Each claim's collecting summary, and each primitive claim's, is interpreted
// by StatusTable (Section III-B5), and every collected result comes with its explication
// (Section V): paths numbered in exploration order, tests and counterexamples replayed on the
// concrete semantics. With Options.Workers, the paths' conditions are rendered and their tests
// replayed on other goroutines (verify/paths), with the same report.
package verify

import (
	"fmt"
	"sort"
	"time"

	"certsym/bounded"
	"certsym/cfg"
	"certsym/internal/budget"
	"certsym/internal/fault"
	"certsym/pathcond"
	"certsym/solver"
	"certsym/spec"
	"certsym/spec/syntax"
	"certsym/step"
	"certsym/sym"
	"certsym/verify/paths"
)

// A Claim is one developer claim of the program with what verify established about it: its
// collecting summary COLLECTCLAIM, its status INTERPCLAIM and the evidence of each result
// (Outcome), and its primitive claims with theirs.
type Claim struct {
	Kind ClaimKind
	Line int         // the statement's line (the macro call's line for a statement inlined from a macro)
	Col  int         // the statement's column (the macro call's for a statement inlined from a macro)
	Stmt syntax.Stmt // the statement that makes the claim
	Cond syntax.BExpr
	// Div is the division or remainder of a division claim; the claim is Div.R != 0.
	Div *syntax.BinA
	// Arr and Index are the array and the index of an index claim; the claim is
	// Arr.Lo <= Index <= Arr.Hi.
	Arr   *syntax.Array
	Index syntax.AExpr
	Text  string // the claim in IMP syntax
	// Where is the division or remainder a division claim is about (for example "a % x"), or the
	// element access of an index claim; "" for an assert.
	Where string
	// Prims are the primitive claims: the supporting ones in evaluation order, then the defining one.
	Prims []*Prim

	Outcome
	Counts [numResults]int // how many evaluations gave each result (CUTOFF: how many cutoff points reach it)
	Paths  int             // evaluations: how many times an explored path reached the claim

	// Witnesses holds, for FALSE, UNDEFINED, FALSE? and UNDEFINED?, the first input found.
	Witnesses map[Result]*Witness
	// Example is, for each result collected on a path, the path condition of the first such path.
	Example [numResults]string
	// OverApprox are the assumes whose quantifier bound ran out on the paths of FALSE?/UNDEFINED?
	// results (xSymExe's flag g, bounded.State.Over).
	OverApprox []*syntax.Assume
	// OverLoops are the loops executed by the invariant transition (Options.InvariantLoops) on
	// the paths of FALSE?/UNDEFINED? results (flag g too).
	OverLoops []*syntax.While
	// Unhandled are the places where an unhandled theory made a result DONTKNOW.
	Unhandled []Unhandled
	// Cutoffs are the cutoff points that can reach the claim, each with a control-flow path.
	Cutoffs []ClaimCutoff

	unhandledSeen map[Unhandled]bool // the set of Unhandled
}

// Witness is an input on which a claim fails (or is undefined), with the path condition of the
// path it follows and what its concrete replay showed.
type Witness struct {
	Input         spec.Store
	PathCondition string
	Replay        string
}

// Unhandled is a place where the decision procedure could not decide: a product abstracted by
// --abstract-nonlinear (the unhandled theory UT of Section IV-B), or a Z3 unknown.
type Unhandled struct {
	Line int
	What string
}

// Cutoff is a program point where the bounds stopped paths: a loop that would have started one
// more iteration than the loop bound allows, a statement whose quantifier has more instances than
// the bound, or a statement a path reached beyond the depth bound.
type Cutoff struct {
	Stmt   syntax.Stmt // nil for a cutoff of the whole exploration (state, time or memory bound)
	Line   int
	Reason string
	Paths  int
	// Path is the number of the first partial path cut off here (in Report.Paths when it is among
	// the paths kept), -1 for none: its input reaches the cutoff point (Section V, CUTOFF).
	Path int
}

// ClaimCutoff is a cutoff that can reach a claim, with the lines of a shortest control-flow path
// from the cutoff point to the claim (the chop of Section V).
type ClaimCutoff struct {
	Cutoff *Cutoff
	Path   []int
}

// Path is one explored symbolic path that reached a claim or a cutoff point, with its test
// (paths.Path).
type Path = paths.Path

// MaxPathTests is the most paths given a test and its replay (the first ones); MaxPathLines the
// most lines kept of a path's replay.
const (
	MaxPathTests = paths.MaxPathTests
	MaxPathLines = paths.MaxPathLines
)

// Options are the bounds of certsym verify.
type Options struct {
	LoopBound  int // iterations of each loop each time it is entered
	DepthBound int // branch decisions (path condition conjuncts) on a path; 0: none
	// AbstractNonlinear is the paper's solver: products of two non-constant terms are an
	// uninterpreted function with sign axioms, and a counterexample that depends on one is
	// DONTKNOW (UT, Section IV-B). Off, products are decided by Z3 directly and UT is false.
	AbstractNonlinear bool
	// InvariantLoops executes each loop with invariant clauses by the invariant transition
	// (bounded.Invariants, verify --loops invariant) instead of unrolling it; the loops without
	// clauses are unrolled up to LoopBound. The states after a transition are flagged (g).
	InvariantLoops bool
	// Limits bound the exploration: MaxStates counts the branch states created.
	budget.Limits
	// Monitor, when set, receives the live counters (for a progress ticker) and can interrupt
	// the exploration.
	Monitor *budget.Monitor
	// Workers is the number of goroutines that render the paths' conditions and replay their
	// tests (verify/paths); 1 or less: none, everything runs on the calling goroutine. The report
	// is the same for every number of workers.
	Workers int
	// MaxPaths is the most paths kept in Report.Paths: the first ones, each with its path
	// condition rendered and its test (those of the first MaxPathTests); 0: every path. The paths
	// after them are numbered and counted (Report.NumPaths), and the evidence cites them, but
	// nothing of them is kept: the report's memory grows with the paths kept, not with the paths
	// explored.
	MaxPaths int
	// CrossCheck, when not nil, is the refinement layer's crosscheck of the solver-free
	// decisions and of the solver's caching layer (solver.Options.CrossCheck).
	CrossCheck func(pathcond.Decision) `json:"-"`
}

// Report is the outcome of Verify.
type Report struct {
	Prog    *syntax.Program
	Opts    Options
	Claims  []*Claim // the developer claims, in source order
	Cutoffs []*Cutoff
	// Paths are the explored paths that reached a claim or a cutoff, by id: the first
	// Options.MaxPaths of the NumPaths numbered.
	Paths    []*Path
	NumPaths int
	// Stopped says why the state, time or memory bound ended the exploration early, or "".
	Stopped string
	// Stmts are the statements counted for coverage (every statement but sequences and skips), in
	// program order; Covered those some explored path executed.
	Stmts   []syntax.Stmt
	Covered map[syntax.Stmt]bool
	// Results counts the result states of the bounded interpreter by behaviour.
	Results [4]int
	// Nonlinear lists the statements whose constraints contain a product of two non-constant terms.
	Nonlinear []Unhandled
	// ReplayErrors are tests and counterexamples that did not replay: certsym's own defects, each
	// said as what it is ("a passing test of ...", "a counterexample of ...").
	ReplayErrors []string
	// Cuts are the phases after the exploration that an interrupt or the time or memory bound cut
	// short (budget.Monitor.Due), each with what it left out.
	Cuts []string
	// Overall is the overall status, from the developer claims (Overall), and VERIFIED? for a
	// program without claims whose exploration was stopped early (OverallOf).
	Overall    Status
	Conclusive int
	Solver     solver.Stats
	Elapsed    time.Duration
	CFG        *cfg.Graph

	// at maps the statements a concrete state can start with to the claiming statement (a while
	// loop's unfolding to the loop; a loop with invariant clauses to the loop that runs,
	// While.Loop, which claims nothing); failOf maps each failure to the statement that reaches it.
	at     map[syntax.Stmt]syntax.Stmt
	failOf map[*syntax.Fail]syntax.Stmt
	claims map[syntax.Stmt][]*Claim
}

// ClaimsAt returns the claims evaluated when a concrete run is at head (the first statement of
// its remaining program, spec.Head): those of head's statement, or of the loop for the
// unfolding of a while loop.
func (rep *Report) ClaimsAt(head syntax.Stmt) []*Claim {
	if s, ok := rep.at[head]; ok {
		head = s
	}
	return rep.claims[head]
}

// ClaimsOfFail returns the claims of the statement that fails at f (an assert violated or a
// division by zero in it, or an explicit fail).
func (rep *Report) ClaimsOfFail(f *syntax.Fail) []*Claim { return rep.claims[rep.failOf[f]] }

// Falsified reports whether the claim does not hold in the concrete store s at its statement:
// it is false there (an assert's condition, a division's "divisor != 0") or undefined (it divides
// by zero itself).
func (cl *Claim) Falsified(s spec.Store) bool {
	r, _ := cl.concrete(s)
	return r != ResTrue
}

// Describe is the claim's text, with the division it is about for a division claim.
func (cl *Claim) Describe() string {
	if cl.Where != "" {
		return cl.Text + " (in " + cl.Where + ")"
	}
	return cl.Text
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

// verifier is the observer of the bounded interpreter.
type verifier struct {
	prog      *syntax.Program
	opts      Options
	b         *bounded.Interp
	rep       *Report
	claims    map[syntax.Stmt][]*Claim
	synthetic map[syntax.Stmt]bool
	// nonlinear marks the path condition in which a constraint with a product was evaluated, by
	// its identity (pathcond.PC.ID: the mark does not keep it alive).
	nonlinear  map[uint64][]Unhandled
	nonlinSeen map[Unhandled]bool
	// mulPC memoizes whether a path condition has a product of two non-constant terms (UT), by
	// its identity.
	mulPC map[uint64]bool
	// origin is the line of the assignment that made each product of the store (0: unknown);
	// madeAt the line of the first assignment that made a product, by the product's text; hasMul
	// whether the program multiplies at all.
	origin map[*sym.Atom]int
	madeAt map[string]int
	// madeSeen holds the products of the stores (keys of origin) whose text madeAt has.
	madeSeen  map[*sym.Atom]bool
	hasMul    bool
	depthCuts map[syntax.Stmt]int
	depthPath map[syntax.Stmt]*pathcond.PC // the first path cut at each statement by the depth bound
	// ids is the number of each path (Report.Paths), by the identity of its path condition
	// (pathcond.PC.ID), which does not keep the path condition alive.
	ids   map[uint64]int
	texts *paths.Texts // renders the paths' conditions on the workers; nil with one worker
	// mon is the interpreter's monitor, which every phase polls (its time and memory bounds are
	// the exploration's, Options.Limits).
	mon *budget.Monitor
}

// Verify runs explicating symbolic execution on prog.
func Verify(prog *syntax.Program, opts Options) *Report {
	start := time.Now()
	rep := &Report{Prog: prog, Opts: opts, Covered: map[syntax.Stmt]bool{}, CFG: cfg.New(prog),
		at: map[syntax.Stmt]syntax.Stmt{}, failOf: map[*syntax.Fail]syntax.Stmt{}}
	v := newVerifier(prog, opts, rep)
	b := v.b
	defer b.Close()
	if opts.Workers > 1 {
		v.texts = paths.NewTexts(v.names(), opts.Workers, v.mon)
	}
	v.mon.Enter("exploration")
	// The results are taken as the interpreter makes them: each is counted and its cutoff noted
	// (tally), and its state dropped, so that the exploration holds the paths under way, not
	// every path explored.
	var t tally
	_ = b.SymInterpEach(nil, t.add) // no ghost: no ghost error
	rep.Stopped = b.Stopped()
	rep.Results = t.results
	v.cutoffs(&t)
	v.tests()
	for _, cl := range rep.Claims {
		for _, c := range rep.Cutoffs {
			if c.Stmt == nil {
				cl.Cutoffs = append(cl.Cutoffs, ClaimCutoff{Cutoff: c})
				cl.collectCutoff(c)
				continue
			}
			if fault.Active != fault.VerifyIgnoresCutoffs && rep.CFG.Reaches(c.Stmt, cl.Stmt) {
				var lines []int
				for _, s := range rep.CFG.Path(c.Stmt, cl.Stmt) {
					if l := s.Pos().Line; l > 0 && (len(lines) == 0 || lines[len(lines)-1] != l) {
						lines = append(lines, l)
					}
				}
				cl.Cutoffs = append(cl.Cutoffs, ClaimCutoff{Cutoff: c, Path: lines})
				cl.collectCutoff(c)
			}
		}
		cl.Status = Interpret(cl.Summary) // INTERPCLAIM
		for _, p := range cl.Prims {
			p.Status = Interpret(p.Summary) // INTERPPRIM
		}
	}
	var ss []Status
	for _, cl := range rep.Claims {
		ss = append(ss, cl.Status)
		if cl.Status.Conclusive() {
			rep.Conclusive++
		}
	}
	rep.Overall = OverallOf(ss, rep.Stopped)
	rep.Solver = b.Solver().Stats
	rep.Elapsed = time.Since(start)
	return rep
}

// newVerifier makes the observer of a verification of prog and its interpreter, and the claims.
func newVerifier(prog *syntax.Program, opts Options, rep *Report) *verifier {
	var inv *bounded.Invariants
	over := prog // the program of the symbols: with the fresh ones of the invariant mode
	if opts.InvariantLoops {
		inv = bounded.NewInvariant(prog, opts.LoopBound)
		over = inv.Layout.Ext
	}
	b := bounded.NewWith(over, opts.LoopBound, solver.Options{AbstractMul: opts.AbstractNonlinear, CrossCheck: opts.CrossCheck})
	b.Invariant = inv
	b.Limits = opts.Limits
	if opts.Monitor != nil {
		b.SetMonitor(opts.Monitor)
	}
	b.Monitor().SetLimits(opts.Limits)
	// Quantifiers run as loops bounded by the loop bound, as Kiasan runs them (Section III-B3):
	// past the bound, an assume gives the rest any value and flags the state (State.Over, the
	// flag g), any other statement is cut off there after its claims are evaluated on the
	// instances evaluated (State.Trunc).
	b.QuantLoop = true
	v := &verifier{prog: prog, opts: opts, b: b, rep: rep, claims: map[syntax.Stmt][]*Claim{},
		synthetic: map[syntax.Stmt]bool{step.Skip: true}, nonlinear: map[uint64][]Unhandled{},
		nonlinSeen: map[Unhandled]bool{}, mulPC: map[uint64]bool{}, origin: map[*sym.Atom]int{}, madeAt: map[string]int{}, madeSeen: map[*sym.Atom]bool{},
		depthCuts: map[syntax.Stmt]int{}, depthPath: map[syntax.Stmt]*pathcond.PC{}, ids: map[uint64]int{}, mon: b.Monitor()}
	v.collectClaims(prog.Body)
	rep.claims = v.claims
	v.hasMul = syntax.HasMul(prog.Body)
	sort.SliceStable(rep.Claims, func(i, j int) bool { return rep.Claims[i].Line < rep.Claims[j].Line })
	b.Observer = v
	return v
}

// tally is what verify keeps of the bounded interpreter's results, taken one by one as the
// interpreter makes them (bounded.Interp.SymInterpEach): the count of each behaviour, and for the
// cutoff points, in the order in which results first end there, how many paths the bounds cut
// off at each and the path condition of the first. Its size grows with the program points, not
// with the paths.
type tally struct {
	results    [4]int
	order      []syntax.Stmt // the statements where Incomplete results not cut by a budget end, first first
	seen       map[syntax.Stmt]bool
	incomplete map[syntax.Stmt]int          // the loop-bound and quantifier-bound cutoffs at each
	first      map[syntax.Stmt]*pathcond.PC // the path condition of the first of them
}

// add counts result r.
func (t *tally) add(r bounded.Result) {
	t.results[r.Behaviour]++
	if r.Behaviour != spec.Incomplete || r.Cut == bounded.CutBudget {
		return
	}
	if t.seen == nil {
		t.seen, t.incomplete, t.first = map[syntax.Stmt]bool{}, map[syntax.Stmt]int{}, map[syntax.Stmt]*pathcond.PC{}
	}
	if !t.seen[r.At] {
		t.seen[r.At] = true
		t.order = append(t.order, r.At)
	}
	if r.Cut == bounded.CutNone {
		t.incomplete[r.At]++
		if t.first[r.At] == nil {
			t.first[r.At] = r.State.PC
		}
	}
}

// cutoffs makes the cutoff points from the tally of the results, in the order of the results:
// loop-bound cutoffs and quantifier-bound cutoffs (Incomplete outcomes at a loop, or at the
// statement whose quantifier ran out of the bound) and the observer's depth-bound cuts. Budget
// cuts are not counted here: the cutoff of rep.Stopped covers every claim.
func (v *verifier) cutoffs(t *tally) {
	rep, opts := v.rep, v.opts
	incomplete, first := t.incomplete, t.first
	for _, s := range t.order {
		if n := v.depthCuts[s]; n > 0 {
			rep.Cutoffs = append(rep.Cutoffs, &Cutoff{Stmt: s, Line: s.Pos().Line, Paths: n, Path: v.path(v.depthPath[s], s),
				Reason: fmt.Sprintf("depth bound %d: more branch decisions not explored", opts.DepthBound)})
		}
		if n := incomplete[s]; n > 0 {
			reason := fmt.Sprintf("loop bound %d: iteration %d not explored", opts.LoopBound, opts.LoopBound+1)
			if _, loop := s.(*syntax.While); !loop {
				reason = fmt.Sprintf("quantifier bound %d: instance %d not evaluated", opts.LoopBound, opts.LoopBound+1)
			}
			rep.Cutoffs = append(rep.Cutoffs, &Cutoff{Stmt: s, Line: s.Pos().Line, Paths: n, Path: v.path(first[s], s), Reason: reason})
		}
	}
	if rep.Stopped != "" && fault.Active != fault.VerifyForgetsStop { // fault injection (build tag faults only)
		rep.Cutoffs = append(rep.Cutoffs, &Cutoff{Path: -1, Reason: rep.Stopped + ": the unexplored paths may reach any claim"})
	}
}

// collectCutoff adds CUTOFF for the cutoff point c to the claim and to each of its primitive
// claims (a cutoff that can reach the statement can reach each of its checks).
func (cl *Claim) collectCutoff(c *Cutoff) {
	cl.Counts[ResCutoff]++
	cl.Outcome.collectCut(c)
	for _, p := range cl.Prims {
		p.Outcome.collectCut(c)
	}
}

func (o *Outcome) collectCut(c *Cutoff) {
	o.Summary |= 1 << ResCutoff
	e := o.Evidence[ResCutoff]
	if e == nil {
		e = &Evidence{Result: ResCutoff, Path: -1}
		o.Evidence[ResCutoff] = e
	}
	e.Count++
	if c.Path >= 0 {
		e.addPath(c.Path)
	}
}

// collectClaims walks the program in order and makes its developer claims with their primitive
// claims, its coverage statements and the set of statements the parser synthesized (assert
// violations).
func (v *verifier) collectClaims(s syntax.Stmt) {
	add := func(cl *Claim, c *syntax.Check) {
		cl.Stmt, cl.Line, cl.Col = s, s.Pos().Line, s.Pos().Col
		decompose(cl, c)
		v.claims[s] = append(v.claims[s], cl)
		v.rep.Claims = append(v.rep.Claims, cl)
	}
	// implicit claims of an expression: each run-time check its evaluation makes (in evaluation
	// order), except those inside a quantifier whose operands use its bound variable
	implicit := func(n syntax.Node) {
		syntax.WalkChecks(n, func(c syntax.Check) {
			c.Quants = nil
			switch {
			case trivial(c):
				// a check that cannot fail (a constant divisor, a constant index in range) is no claim
			case c.Div != nil && !syntax.UsesBound(c.Div.R):
				add(&Claim{Kind: ClaimDivision, Div: c.Div, Text: syntax.PrintA(c.Div.R) + " != 0", Where: syntax.PrintA(c.Div)}, &c)
			case c.Elem != nil && !syntax.UsesBound(c.Elem.I):
				e := c.Elem
				add(&Claim{Kind: ClaimIndex, Arr: e.Arr, Index: e.I, Where: e.Arr.Name + "[" + syntax.PrintA(e.I) + "]",
					Text: fmt.Sprintf("%d <= %s <= %d", e.Arr.Lo, syntax.PrintA(e.I), e.Arr.Hi)}, &c)
			}
		})
	}
	switch s := s.(type) {
	case *syntax.Seq:
		v.collectClaims(s.First)
		v.collectClaims(s.Second)
		return
	case *syntax.Skip:
		return
	case *syntax.Assign, *syntax.ArrAssign, *syntax.If, *syntax.While, *syntax.Assume, *syntax.Assert, *syntax.Fail: // below
	default:
		panic(fmt.Sprintf("verify: unknown statement %T", s))
	}
	v.rep.Stmts = append(v.rep.Stmts, s)
	if f := errOf(s); f != nil {
		v.rep.failOf[f] = s
	}
	if f := idxErrOf(s); f != nil {
		v.rep.failOf[f] = s
	}
	switch s := s.(type) {
	case *syntax.Assign:
		implicit(s.A)
	case *syntax.ArrAssign:
		implicit(s.I)
		implicit(s.A)
		if c := (syntax.Check{Kind: syntax.FailIndex, Write: s}); !trivial(c) {
			add(&Claim{Kind: ClaimIndex, Arr: s.Arr, Index: s.I, Where: s.Arr.Name + "[" + syntax.PrintA(s.I) + "] = " + syntax.PrintA(s.A),
				Text: fmt.Sprintf("%d <= %s <= %d", s.Arr.Lo, syntax.PrintA(s.I), s.Arr.Hi)}, &c)
		}
	case *syntax.If:
		implicit(s.Cond)
		v.collectClaims(s.Then)
		v.collectClaims(s.Else)
	case *syntax.While:
		v.rep.at[s.Unfold] = s
		if s.Loop != nil {
			// The first arrival at a loop with invariant clauses only steps to them: its claims
			// (those of its condition) are evaluated at the unfolding, after the clauses.
			v.rep.at[s] = s.Loop
		}
		implicit(s.Cond)
		for _, inv := range s.Invariants { // the clauses, each a statement at the loop's head
			v.collectClaims(inv)
		}
		v.collectClaims(s.Body)
	case *syntax.Assume:
		if fault.Active != fault.VerifyDropsAssumeClaims {
			implicit(s.Cond)
		}
	case *syntax.Assert:
		v.synthetic[s.Violation] = true
		v.rep.failOf[s.Violation] = s
		kind := ClaimAssert
		if s.Violation.Kind == syntax.FailInvariant {
			kind = ClaimInvariant
		}
		add(&Claim{Kind: kind, Cond: s.Cond, Text: syntax.PrintB(s.Cond)}, nil)
	case *syntax.Fail:
		// An explicit fail is assert false (SEMANTICS.md): the claim that it is unreachable.
		v.rep.failOf[s] = s
		add(&Claim{Kind: ClaimAssert, Cond: &syntax.BoolLit{P: s.P, Val: false}, Text: "false (fail statement)"}, nil)
	default:
		panic(fmt.Sprintf("verify: unknown statement %T", s))
	}
}

// errOf is the Fail a statement reaches when one of its divisions divides by zero.
func errOf(s syntax.Stmt) *syntax.Fail { div, _ := syntax.Fails(s); return div }

// idxErrOf is the Fail a statement reaches when an index is out of range.
func idxErrOf(s syntax.Stmt) *syntax.Fail { _, idx := syntax.Fails(s); return idx }
