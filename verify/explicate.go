package verify

import (
	"fmt"

	"certsym/bounded"
	"certsym/pathcond"
	"certsym/spec"
	"certsym/spec/syntax"
	"certsym/sym"
)

// This file is the evidence of xSymExe's explications (Section V): the numbered paths with
// their tests, and the concrete replays that check every test and counterexample.

// maxReplaySteps bounds a concrete replay to a claim (the run of an input that follows an
// explored path reaches the claim within the loop bound; the bound only stops a defect).
const maxReplaySteps = 1_000_000

// path returns the path whose path condition is pc, numbering it when it is new (the id is the
// order in which paths first reach a claim or a cutoff point: exploration order).
func (v *verifier) path(pc *pathcond.PC, s syntax.Stmt) *Path {
	if p := v.paths[pc]; p != nil {
		return p
	}
	p := &Path{ID: len(v.rep.Paths), Line: s.Pos().Line, pc: pc}
	v.paths[pc] = p
	v.rep.Paths = append(v.rep.Paths, p)
	if v.texts != nil {
		v.texts.add(p, false)
	} else {
		p.PathCondition = pc.String(v.names()) // now too: the same memory as with workers
	}
	return p
}

// tests waits for the paths' conditions (rendered as they are numbered) and gives the first
// MaxPathTests paths a test: a model of the path condition (checked on the real semantics of
// products), replayed on the bounded concrete semantics for its post-state and the lines it runs.
// The paths left undecided are decided first, in order, on the one solver; the replays,
// functions of each path alone, run on the workers.
func (v *verifier) tests() {
	if v.texts != nil {
		v.texts.wait()
	}
	n := min(len(v.rep.Paths), MaxPathTests)
	for _, p := range v.rep.Paths[n:] {
		p.Ends = fmt.Sprintf("no test (only the first %d paths are given one)", MaxPathTests)
	}
	for _, p := range v.rep.Paths[:n] {
		if p.pc.Status != pathcond.Sat && v.b.Stopped() == "" && !v.b.TimeUp() {
			v.b.Solver().Check(p.pc)
		}
	}
	bounded.Each(n, v.opts.Workers, func(i int) { testPath(v.prog, v.opts.LoopBound, v.rep.Paths[i]) })
}

// testPath gives path p of prog its test, if the solver gave a model of its path condition, and
// replays it with loop bound n: a function of the path alone, which writes only p's test fields.
func testPath(prog *syntax.Program, n int, p *Path) {
	if p.pc.Status != pathcond.Sat || !p.pc.Formula().Eval(p.pc.Witness) {
		p.Ends = "no test: the solver gave no model of the path condition on the real semantics of products"
		return
	}
	p.Input = append(spec.Store{}, p.pc.Witness...)
	r := spec.ExecBoundedVisit(prog, p.Input, n, func(s syntax.Stmt) {
		if l := s.Pos().Line; l > 0 && len(p.Lines) < MaxPathLines && (len(p.Lines) == 0 || p.Lines[len(p.Lines)-1] != l) {
			p.Lines = append(p.Lines, l)
		}
	})
	p.Final = r.Store
	p.Ends = endsText(r)
}

// endsText says how a bounded concrete run ended.
func endsText(r spec.BoundedResult) string {
	switch {
	case r.Fail != nil:
		return fmt.Sprintf("%s (%s at line %d)", r.Behaviour, r.Fail.Kind, r.Fail.Line())
	case r.At != nil:
		return fmt.Sprintf("%s at line %d", r.Behaviour, r.At.Pos().Line)
	}
	return r.Behaviour.String()
}

// concrete is CHECKCLAIM on the concrete semantics of cl in store s at its statement: TRUE when
// every primitive claim holds, UNDEFINED when a supporting one fails (the evaluation errs), FALSE
// when the defining one does; with the index of the primitive claim that decided it.
func (cl *Claim) concrete(s spec.Store) (Result, int) {
	n := len(cl.Prims)
	for j, p := range cl.Prims {
		val, _, ok := spec.EvalBKind(p.Expr, s, nil)
		switch {
		case !ok || (!val && j < n-1):
			return ResUndefined, j
		case !val:
			return ResFalse, j
		}
	}
	return ResTrue, n - 1
}

// visit runs input m on the concrete small-step semantics to the claim's statement: to its first
// visit (first), or to the first where the claim is not TRUE. It returns the claim's concrete
// result there and the primitive claim that decided it, or reached false and how the run ended.
func (v *verifier) visit(cl *Claim, m spec.Store, first bool) (res Result, idx int, reached bool, how string) {
	st := spec.State{Store: append(spec.Store{}, m...), Prog: v.prog.Body}
	for range maxReplaySteps {
		h := spec.Head(st.Prog)
		if s, ok := v.rep.at[h]; ok {
			h = s
		}
		if h == cl.Stmt {
			if r, j := cl.concrete(st.Store); first || r != ResTrue {
				return r, j, true, ""
			}
		}
		next, out := spec.Step(st)
		if out != spec.Stepped {
			return 0, 0, false, fmt.Sprintf("the concrete run ends %s at line %d without reaching the claim so", out, h.Pos().Line)
		}
		st = next
	}
	return 0, 0, false, fmt.Sprintf("the concrete run does not reach the claim in %d steps", maxReplaySteps)
}

// replayFalse checks a counterexample m of primitive claim idx of cl on the concrete semantics:
// the run reaches the claim's statement with the earlier primitive claims true and this one
// false, and the bounded concrete execution (spec.ExecBounded) ends there in an error.
func (v *verifier) replayFalse(cl *Claim, idx int, m spec.Store) (bool, string) {
	r, j, reached, how := v.visit(cl, m, false)
	if !reached {
		return false, how
	}
	end := spec.ExecBounded(v.prog, m, v.opts.LoopBound)
	ok := j == idx && end.Behaviour == spec.Error && v.rep.failOf[end.Fail] == cl.Stmt
	p := cl.Prims[j]
	what := fmt.Sprintf("the bounded concrete execution ends %s; at line %d ", endsText(end), cl.Line)
	if r == ResFalse {
		what += fmt.Sprintf("the defining claim %s is false", p.Text)
	} else {
		what += fmt.Sprintf("the supporting claim %s (%s) is false, so %s is undefined", p.Text, p.Kind, cl.Text)
	}
	if ok {
		return true, "replayed: " + what
	}
	return false, what
}

// replayTrue checks a test m of primitive claim idx of cl on the concrete semantics: the run
// reaches the claim's statement with the claim's primitive claims up to this one true.
func (v *verifier) replayTrue(cl *Claim, idx int, m spec.Store) (bool, string) {
	r, j, reached, how := v.visit(cl, m, true)
	if !reached {
		return false, how
	}
	if r == ResTrue || j > idx {
		return true, fmt.Sprintf("replayed: the concrete run reaches line %d with %s true", cl.Line, cl.Prims[idx].Text)
	}
	return false, fmt.Sprintf("the concrete run reaches line %d with %s %s", cl.Line, cl.Prims[j].Text, map[bool]string{true: "false", false: "undefined"}[r == ResFalse])
}

// trueTest gives the TRUE evidence e of primitive claim idx of cl (or of cl, from its defining
// claim) a test: a model of the path condition assumed (strengthened by the earlier supporting
// claims) and the claim a, replayed on the concrete semantics (Section V: a path and a test that
// reaches the claim and satisfies it). A test that does not replay is certsym's own defect,
// unless the path over-approximates.
func (v *verifier) trueTest(cl *Claim, idx int, assumed *pathcond.PC, a *sym.Formula, flagged bool, e *Evidence) {
	names := v.names()
	pc := pathcond.Extend(assumed, a, len(names))
	if pc.Status != pathcond.Sat {
		v.b.Solver().Check(pc)
	}
	if pc.Status != pathcond.Sat || !pc.Formula().Eval(pc.Witness) {
		e.Replay = "no test: the solver gave no model on the real semantics of products"
		return
	}
	e.Input = append(spec.Store{}, pc.Witness...)
	e.PathCondition = pc.String(names)
	ok, what := v.replayTrue(cl, idx, e.Input)
	e.Replay = what
	if !ok && flagged {
		e.Replay += " (the path over-approximates: the test may not satisfy an assume)"
	} else if !ok {
		v.rep.ReplayErrors = append(v.rep.ReplayErrors, fmt.Sprintf("the %s claim at line %d (%s): the test %s: %s",
			cl.Kind, cl.Line, cl.Prims[idx].Name(), spec.StoreString(v.prog, e.Input), what))
	}
}
