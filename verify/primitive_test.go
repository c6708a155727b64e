package verify

import (
	"strings"
	"testing"

	"certsym/bounded"
	"certsym/cfg"
	"certsym/internal/budget"
	"certsym/internal/testprog"
	"certsym/pathcond"
	"certsym/spec"
	"certsym/spec/syntax"
	"certsym/verify/paths"
)

// primNames renders a claim's primitive claims as KIND@LINE STATUS SUMMARY.
func primNames(cl *Claim) string {
	var out []string
	for _, p := range cl.Prims {
		out = append(out, p.Name()+" "+p.Status.String()+" "+p.Summary.String())
	}
	return strings.Join(out, "; ")
}

// stmts returns the program's statements in order (no sequences).
func stmts(p *syntax.Program) []syntax.Stmt {
	var out []syntax.Stmt
	var walk func(s syntax.Stmt)
	walk = func(s syntax.Stmt) {
		if q, ok := s.(*syntax.Seq); ok {
			walk(q.First)
			walk(q.Second)
			return
		}
		out = append(out, s)
	}
	walk(p.Body)
	return out
}

// handState is a verifier of src and a state built by hand: the store of the inputs and the path
// condition made of the conditions of the statements (assumes) numbered in pcFrom (their
// conditions only, not their execution); the caller sets the flag g and the truncated condition.
// It lets a test evaluate a claim on states the interpreter of main never
// makes (bounded.State.Over and Trunc are set by the quantifier loops).
func handState(t *testing.T, src string, opts Options, pcFrom []int) (*verifier, bounded.State, []syntax.Stmt) {
	t.Helper()
	prog := testprog.Parse(t, src)
	rep := &Report{Prog: prog, Opts: opts, Covered: map[syntax.Stmt]bool{}, CFG: cfg.New(prog),
		at: map[syntax.Stmt]syntax.Stmt{}, failOf: map[*syntax.Fail]syntax.Stmt{}}
	v := newVerifier(prog, opts, rep)
	ss := stmts(prog)
	ts := v.b.Terms()
	st := bounded.State{Store: ts.Syms(), PC: pathcond.RootPC(prog.Slots())}
	for _, i := range pcFrom {
		st.PC = pathcond.Extend(st.PC, ts.SubstB(ss[i].(*syntax.Assume).Cond, st.Store), ts.Slots())
	}
	return v, st, ss
}

// TestCheckPrim is CHECKPRIM (xSymExe, Section IV-B), case by case, on the primitive claims of
// whole runs: DP+'s TRUE, FALSE (with a counterexample that replays), DONTKNOW (Z3 unknown),
// and UT turning FALSE into DONTKNOW in the abstraction mode only.
func TestCheckPrim(t *testing.T) {
	for _, c := range []struct {
		name, src string
		opts      Options
		want      string // the primitive claims of the last claim
	}{
		{"IV-B DP+ TRUE: valid under the path condition", "assume x > 3;\nassert x > 2", Options{LoopBound: 1}, "ASSERT@2 VERIFIED {TRUE}"},
		{"IV-B DP+ FALSE: the negation is satisfiable, the model replays", "assume x > 3;\nassert x > 4", Options{LoopBound: 1}, "ASSERT@2 REFUTED {FALSE}"},
		{"IV-B DP+ DONTKNOW: Z3 unknown", "assume x >= 2 and y >= 2 and z >= 2;\nassert x * x * x + y * y * y != z * z * z",
			Options{LoopBound: 1, Limits: budget.Limits{RLimit: 1}}, "ASSERT@2 INDETERMINATE {DONTKNOW}"},
		{"IV-B UT: a product in the claim, abstraction mode: FALSE becomes DONTKNOW", "assume x > 0;\nassert x * y > 5",
			Options{LoopBound: 1, AbstractNonlinear: true}, "ASSERT@2 INDETERMINATE {DONTKNOW}"},
		{"IV-B UT is false in the default mode: products decided by Z3", "assume x > 0;\nassert x * y > 5",
			Options{LoopBound: 1}, "ASSERT@2 REFUTED {FALSE}"},
		{"IV-B UT: a product in the path condition, abstraction mode", "assume x * y > 5;\nassert x > 100",
			Options{LoopBound: 1, AbstractNonlinear: true}, "ASSERT@2 INDETERMINATE {DONTKNOW}"},
		{"IV-B TRUE is returned as is under UT (the sign axioms prove it)", "assume x > 0 and y > 0;\nassert x * y > 0",
			Options{LoopBound: 1, AbstractNonlinear: true}, "ASSERT@2 VERIFIED {TRUE}"},
	} {
		rep := Verify(testprog.Parse(t, c.src), c.opts)
		if len(rep.ReplayErrors) > 0 {
			t.Fatalf("%s: replay errors %v", c.name, rep.ReplayErrors)
		}
		if got := primNames(rep.Claims[len(rep.Claims)-1]); got != c.want {
			t.Errorf("%s:\n got %s\nwant %s", c.name, got, c.want)
		}
	}
}

// TestCheckPrimFlagG is CHECKPRIM's flag g (xSymExe, Sections III-B3 and IV-B) on hand-built
// states (on main no interpreter sets bounded.State.Over): FALSE on a flagged state is FALSE?,
// with the flagged assume as the over-approximation location, unless the counterexample replays
// on the concrete semantics (a test that refines the path), which makes it FALSE; the developer
// claim of a FALSE? supporting claim is UNDEFINED? (Section IV-C).
func TestCheckPrimFlagG(t *testing.T) {
	// The assumes after the claims only give the hand-built path conditions; the runs that
	// replay a counterexample stop at the claim before them.
	src := "assume x > 0;\nassert x > 5;\nassume x <= 0;\nassume x == 3"
	// Path condition x <= 0: the run cannot pass the assume at line 1, the counterexample does
	// not replay: FALSE?.
	v, st, ss := handState(t, src, Options{LoopBound: 1}, []int{2})
	st.Over = &bounded.OverApprox{At: ss[0].(*syntax.Assume)}
	cl := v.claims[ss[1]][0]
	v.evalClaim(st, cl)
	if cl.Summary != SummaryOf(ResFalseQ) || cl.Defining().Summary != SummaryOf(ResFalseQ) {
		t.Fatalf("flagged, not replayable: claim %s, defining %s", cl.Summary, cl.Defining().Summary)
	}
	if e := cl.Evidence[ResFalseQ]; e == nil || e.Input == nil || len(e.Over) != 1 || e.Over[0] != 1 || !strings.Contains(e.Replay, "not replayed") {
		t.Errorf("FALSE? evidence %+v", e)
	}
	if len(cl.OverApprox) != 1 || cl.OverApprox[0] != ss[0] || cl.Witnesses[ResFalseQ] == nil {
		t.Errorf("over-approximation %v, witnesses %v", cl.OverApprox, cl.Witnesses)
	}
	// Path condition x == 3: the run passes the assume at line 1 and fails the claim: the test
	// refines the path, FALSE.
	v, st, ss = handState(t, src, Options{LoopBound: 1}, []int{3})
	st.Over = &bounded.OverApprox{At: ss[0].(*syntax.Assume)}
	cl = v.claims[ss[1]][0]
	v.evalClaim(st, cl)
	if cl.Summary != SummaryOf(ResFalse) || !strings.HasPrefix(cl.Evidence[ResFalse].Replay, "replayed") {
		t.Errorf("flagged, replayable: %s %+v", cl.Summary, cl.Evidence[ResFalse])
	}
	if len(v.rep.ReplayErrors) > 0 {
		t.Errorf("replay errors %v", v.rep.ReplayErrors)
	}
	// Not flagged, the same unreplayable counterexample would be certsym's defect: it is a
	// replay error, reported DONTKNOW, never FALSE.
	v, st, ss = handState(t, src, Options{LoopBound: 1}, []int{2})
	cl = v.claims[ss[1]][0]
	v.evalClaim(st, cl)
	if cl.Summary != SummaryOf(ResDontKnow) || len(v.rep.ReplayErrors) != 1 {
		t.Errorf("unflagged, not replayable: %s, replay errors %v", cl.Summary, v.rep.ReplayErrors)
	}
	// A supporting claim FALSE? makes the developer claim UNDEFINED? (Section IV-C).
	v, st, ss = handState(t, "assume x > 0;\nassert 10 / x > 1;\nassume x <= 0", Options{LoopBound: 1}, []int{2})
	st.Over = &bounded.OverApprox{At: ss[0].(*syntax.Assume)}
	cl = v.claims[ss[1]][0]
	v.evalClaim(st, cl)
	if cl.Summary != SummaryOf(ResUndefinedQ) || cl.Prims[0].Summary != SummaryOf(ResFalseQ) {
		t.Errorf("supporting FALSE?: claim %s, prims %s", cl.Summary, primNames(cl))
	}
}

// TestCheckClaim is CHECKCLAIM (xSymExe, Section IV-C), case by case: the first of UNDEFINED
// (some supporting claim FALSE), DONTKNOW (some DONTKNOW) and the defining claim's result; the
// defining claim is evaluated on the states where every supporting claim holds.
func TestCheckClaim(t *testing.T) {
	for _, c := range []struct {
		name, src string
		opts      Options
		claim     string // the last claim's status and summary
		prims     string
	}{
		{"IV-C UNDEFINED: a supporting claim is FALSE, before the defining claim", "assert 10 / x > 2", Options{LoopBound: 1},
			"FAULTY {UNDEFINED}", "DIVISION@1 REFUTED {FALSE}; ASSERT@1 REFUTED {FALSE}"},
		{"IV-C the defining claim on the states where the supporting claims hold", "assume x >= 0;\nassert 10 / x >= 0", Options{LoopBound: 1},
			"FAULTY {UNDEFINED}", "DIVISION@2 REFUTED {FALSE}; ASSERT@2 VERIFIED {TRUE}"},
		{"IV-C the defining claim's result when every supporting claim is TRUE", "assume x > 0;\nassert 10 / x > 2", Options{LoopBound: 1},
			"REFUTED {FALSE}", "DIVISION@2 VERIFIED {TRUE}; ASSERT@2 REFUTED {FALSE}"},
		{"IV-C the defining claim is not evaluated where no state passes the supporting claims", "assume x == 0;\nassert 10 / x > 2", Options{LoopBound: 1},
			"FAULTY {UNDEFINED}", "DIVISION@2 REFUTED {FALSE}; ASSERT@2 DEAD {}"},
		{"IV-C DONTKNOW: a supporting claim is DONTKNOW (UT)", "assume x * y > 3;\nassert 10 / (x - 1) > 0", Options{LoopBound: 1, AbstractNonlinear: true},
			"INDETERMINATE {DONTKNOW}", "DIVISION@2 INDETERMINATE {DONTKNOW}; ASSERT@2 INDETERMINATE {DONTKNOW}"},
		{"IV-C UNDEFINED before DONTKNOW: a later supporting claim FALSE wins", "assume x == 1;\nassert 10 / (x - 1) > x * y", Options{LoopBound: 1, AbstractNonlinear: true},
			"FAULTY {UNDEFINED}", "DIVISION@2 REFUTED {FALSE}; ASSERT@2 DEAD {}"},
		{"IV-A supporting claims in evaluation order, each index bound apart", "array a[0..3];\narray b[1..2];\nassume i >= 0 and i <= 3;\nassert a[i] / b[j] >= 0 or true",
			Options{LoopBound: 1}, "FAULTY {UNDEFINED}",
			"INDEX_LOWER@4 VERIFIED {TRUE}; INDEX_UPPER@4 VERIFIED {TRUE}; INDEX_LOWER@4 REFUTED {FALSE}; INDEX_UPPER@4 REFUTED {FALSE}; DIVISION@4 REFUTED {FALSE}; ASSERT@4 VERIFIED {TRUE}"},
		{"IV-A an implicit claim: the checks of its operand, then the check", "w = x / (y / z)", Options{LoopBound: 1},
			"FAULTY {UNDEFINED}", "DIVISION@1 REFUTED {FALSE}; DIVISION@1 REFUTED {FALSE}"},
		{"IV-A a check in a quantifier's body over the bound variable: quantified over the range", "array b[0..3];\nassume n >= 0 and n <= 3;\nassert forall k in 0..n: 12 / b[k] >= -12",
			Options{LoopBound: 4}, "FAULTY {UNDEFINED}",
			"INDEX_LOWER@3 VERIFIED {TRUE}; INDEX_UPPER@3 VERIFIED {TRUE}; DIVISION@3 REFUTED {FALSE}; ASSERT@3 VERIFIED {TRUE}"},
	} {
		rep := Verify(testprog.Parse(t, c.src), c.opts)
		if len(rep.ReplayErrors) > 0 {
			t.Fatalf("%s: replay errors %v", c.name, rep.ReplayErrors)
		}
		cl := rep.Claims[len(rep.Claims)-1]
		if got := cl.Status.String() + " " + cl.Summary.String(); got != c.claim {
			t.Errorf("%s: claim %s, want %s", c.name, got, c.claim)
		}
		if got := primNames(cl); got != c.prims {
			t.Errorf("%s:\n got %s\nwant %s", c.name, got, c.prims)
		}
	}
}

// TestInterpretations checks INTERPPRIM and INTERPCLAIM (xSymExe, Sections III-B5 and IV-B) on a
// program shaped like the swap of Figure 1(h) and its report (Section VI): the supporting index
// claims VERIFIED on every path, the defining claim REFUTED on one path and TRUE on the others,
// the claim REFUTED; the overall status comes from the developer claims only (an implicit claim
// whose own supporting claim fails is FAULTY, not counted twice).
func TestInterpretations(t *testing.T) {
	src := `array a[0..3];
assume i >= 0 and i <= 3 and j >= 0 and j <= 3;
if i < j then t = 0 else t = 1 fi;
if i == j then t = 2 fi;
assert a[i] + t >= a[j] + t`
	rep := Verify(testprog.Parse(t, src), Options{LoopBound: 1})
	if len(rep.ReplayErrors) > 0 {
		t.Fatal(rep.ReplayErrors)
	}
	cl := rep.Claims[0]
	want := "INDEX_LOWER@5 VERIFIED {TRUE}; INDEX_UPPER@5 VERIFIED {TRUE}; INDEX_LOWER@5 VERIFIED {TRUE}; INDEX_UPPER@5 VERIFIED {TRUE}; ASSERT@5 REFUTED {TRUE, FALSE}"
	if got := primNames(cl); got != want || cl.Status != StatusRefuted || rep.Overall != StatusRefuted {
		t.Errorf("got %s, claim %s, overall %s\nwant %s", got, cl.Status, rep.Overall, want)
	}
	def := cl.Defining().Evidence
	if def[ResFalse] == nil || def[ResTrue] == nil || len(def[ResFalse].Paths)+len(def[ResTrue].Paths) != 3 {
		t.Errorf("the defining claim's paths: FALSE %+v TRUE %+v", def[ResFalse], def[ResTrue])
	}
	// Overall from developer claims only: one FAULTY implicit claim, its supporting claim REFUTED.
	rep = Verify(testprog.Parse(t, "assume z >= 0;\nw = x / (y / z)"), Options{LoopBound: 1})
	if got := rep.Claims[1].Status.String() + " " + rep.Overall.String(); got != "FAULTY REFUTED" {
		t.Errorf("claims %s %s, overall %s", rep.Claims[0].Status, rep.Claims[1].Status, rep.Overall)
	}
}

// TestTruncated: a statement whose quantifier ran out of the bound (bounded.State.Trunc, set by
// the quantifier loops; built by hand here) is evaluated on the truncated condition:
// TRUE is not collected from it (the statement's cutoff covers the instances not evaluated),
// FALSE found on the instances evaluated is, once the counterexample replays on the whole claim.
func TestTruncated(t *testing.T) {
	src := "assume n >= 10;\nassert forall k in 0..n: k != x;\nassert forall k in 0..2: k != x;\nassert forall k in 0..2: k != k + 1"
	v, st, ss := handState(t, src, Options{LoopBound: 3}, []int{0})
	cl := v.claims[ss[1]][0]
	st.Trunc = ss[2].(*syntax.Assert).Cond // the first three instances of line 2
	v.evalClaim(st, cl)
	if cl.Summary != SummaryOf(ResFalse) || cl.Defining().Summary != SummaryOf(ResFalse) {
		t.Errorf("FALSE on the first instances: claim %s, defining %s", cl.Summary, cl.Defining().Summary)
	}
	if e := cl.Evidence[ResFalse]; e == nil || !strings.HasPrefix(e.Replay, "replayed") {
		t.Errorf("evidence %+v", e)
	}
	v, st, ss = handState(t, src, Options{LoopBound: 3}, []int{0})
	cl = v.claims[ss[1]][0]
	st.Trunc = ss[3].(*syntax.Assert).Cond // a truncation that holds
	v.evalClaim(st, cl)
	if cl.Summary != 0 || cl.Paths != 0 {
		t.Errorf("TRUE on a truncated evaluation collected: %s", cl.Summary)
	}
}

// replayTo runs input in on the small-step semantics to the first time the claim's statement
// (or, for a loop, its unfolding) is next, and returns the store there.
func replayTo(t *testing.T, rep *Report, cl *Claim, in spec.Store) (spec.Store, bool) {
	t.Helper()
	st := spec.State{Store: append(spec.Store{}, in...), Prog: rep.Prog.Body}
	for range 100000 {
		for _, c := range rep.ClaimsAt(spec.Head(st.Prog)) {
			if c == cl {
				return st.Store, true
			}
		}
		next, out := spec.Step(st)
		if out != spec.Stepped {
			return nil, false
		}
		st = next
	}
	return nil, false
}

// TestExplications checks the evidence of Section V's table on a program with every kind: the
// TRUE test of each claim and primitive claim reaches the claim and satisfies it, the FALSE and
// UNDEFINED counterexamples make the bounded run fail at the claim's statement and falsify it,
// every cited path exists, and each cutoff's partial path has an input that reaches the cutoff.
func TestExplications(t *testing.T) {
	src := `assume x >= 0 and n >= 0;
i = 0;
while i < n do i = i + 1 od;
assert 10 / x > 2;
y = 100 / (x + 1);
assert y >= 0`
	rep := Verify(testprog.Parse(t, src), Options{LoopBound: 2})
	if len(rep.ReplayErrors) > 0 {
		t.Fatal(rep.ReplayErrors)
	}
	checked := map[Result]int{}
	check := func(cl *Claim, idx int, o *Outcome) {
		for _, e := range o.Evidence {
			if e == nil {
				continue
			}
			for _, p := range e.Paths {
				if p < 0 || p >= len(rep.Paths) {
					t.Errorf("%s: path %d cited, %d paths", cl.Text, p, len(rep.Paths))
				}
			}
			switch e.Result {
			case ResTrue:
				s, ok := replayTo(t, rep, cl, e.Input)
				if e.Input == nil || !ok {
					t.Errorf("%s: TRUE test %v does not reach the claim", cl.Text, e.Input)
					continue
				}
				for _, p := range cl.Prims[:idx+1] {
					if v, _, def := spec.EvalBKind(p.Expr, s, nil); !def || !v {
						t.Errorf("%s: TRUE test %v: %s is not true at the claim", cl.Text, e.Input, p.Text)
					}
				}
				checked[ResTrue]++
			case ResFalse, ResUndefined:
				r := spec.ExecBounded(rep.Prog, e.Input, rep.Opts.LoopBound)
				if r.Behaviour != spec.Error || rep.failOf[r.Fail] != cl.Stmt {
					t.Errorf("%s: counterexample %v ends %s", cl.Text, e.Input, r.Behaviour)
				}
				s, _ := replayTo(t, rep, cl, e.Input)
				if v, _, def := spec.EvalBKind(cl.Prims[idx].Expr, s, nil); def && v && o != &cl.Outcome {
					t.Errorf("%s: counterexample %v does not falsify %s", cl.Text, e.Input, cl.Prims[idx].Text)
				}
				if !cl.Falsified(s) {
					t.Errorf("%s: counterexample %v does not falsify the claim", cl.Text, e.Input)
				}
				checked[e.Result]++
			}
		}
	}
	for _, cl := range rep.Claims {
		check(cl, len(cl.Prims)-1, &cl.Outcome)
		for i, p := range cl.Prims {
			check(cl, i, &p.Outcome)
		}
	}
	if checked[ResTrue] == 0 || checked[ResFalse] == 0 || checked[ResUndefined] == 0 {
		t.Errorf("evidence checked %v: want TRUE, FALSE and UNDEFINED", checked)
	}
	if len(rep.Cutoffs) != 1 {
		t.Fatalf("cutoffs %+v", rep.Cutoffs)
	}
	c := rep.Cutoffs[0]
	p := rep.Paths[c.Path]
	if r := spec.ExecBounded(rep.Prog, p.Input, rep.Opts.LoopBound); r.Behaviour != spec.Incomplete || r.At != c.Stmt || p.Ends != paths.EndsText(r) {
		t.Errorf("the partial path %d of the cutoff: %v ends %s (%q)", c.Path, p.Input, r.Behaviour, p.Ends)
	}
	// Determinism: the same program and options number the paths the same way.
	again := Verify(testprog.Parse(t, src), Options{LoopBound: 2})
	for i, p := range rep.Paths {
		if q := again.Paths[i]; q.PathCondition != p.PathCondition || q.Line != p.Line {
			t.Errorf("path %d: %s at %d, then %s at %d", i, p.PathCondition, p.Line, q.PathCondition, q.Line)
		}
	}
}
