package verify

import (
	"fmt"
	"sync/atomic"

	"certsym/bounded"
	"certsym/internal/budget"
	"certsym/internal/concrete"
	"certsym/pathcond"
	"certsym/spec"
	"certsym/spec/syntax"
	"certsym/sym"
	"certsym/verify/paths"
)

// This file is the evidence of xSymExe's explications (Section V): the numbered paths with
// their tests, and the concrete replays that check every test and counterexample.

// path returns the number of the path whose path condition is pc, numbering it when it is new
// (the number is the order in which paths first reach a claim or a cutoff point: exploration
// order); the first Options.MaxPaths paths are kept in Report.Paths, with their condition
// rendered (now, or on the workers).
func (v *verifier) path(pc *pathcond.PC, s syntax.Stmt) int {
	key := pc.ID()
	if id, ok := v.ids[key]; ok {
		return id
	}
	id := v.rep.NumPaths
	v.rep.NumPaths++
	v.ids[key] = id
	if v.opts.MaxPaths > 0 && id >= v.opts.MaxPaths {
		return id
	}
	p := paths.New(id, s.Pos().Line, pc)
	v.rep.Paths = append(v.rep.Paths, p)
	if v.texts != nil {
		v.texts.Add(p, false)
	} else {
		p.PathCondition = pc.String(v.names()) // now too: the same memory as with workers
	}
	return id
}

// kept returns path id of Report.Paths, nil when it is not kept (Options.MaxPaths).
func (v *verifier) kept(id int) *Path {
	if id < len(v.rep.Paths) {
		return v.rep.Paths[id]
	}
	return nil
}

// tests waits for the paths' conditions (rendered as they are numbered) and gives the first
// MaxPathTests paths a test: a model of the path condition (checked on the real semantics of
// products), replayed on the bounded concrete semantics for its post-state and the lines it runs.
// The paths left undecided are decided first, in order, on the one solver; the replays,
// functions of each path alone, run on the workers. The phase polls the monitor: once the
// partial report is due (an interrupt or the time bound, budget.Monitor.Due), the paths not
// replayed yet get no test, and Report.Cuts says how many.
func (v *verifier) tests() {
	v.mon.Enter("rendering of the path conditions")
	if v.texts != nil {
		v.texts.Wait()
	}
	v.mon.Enter("replay of the tests")
	n := min(len(v.rep.Paths), MaxPathTests)
	for _, p := range v.rep.Paths[n:] {
		p.Ends = fmt.Sprintf("no test (only the first %d paths are given one)", MaxPathTests)
	}
	for _, p := range v.rep.Paths[:n] {
		if pc := p.PC(); p.Counterexample() == nil && pc.Status != pathcond.Sat && v.b.Stopped() == "" && !v.b.TimeUp() && v.mon.Stop() == "" {
			v.b.Solver().Check(pc)
		}
	}
	var cut atomic.Int64
	bounded.Each(n, v.opts.Workers, func(i int) {
		if !paths.Test(v.prog, v.opts.LoopBound, v.rep.Paths[i], v.mon.Due, v.mon) {
			cut.Add(1)
		}
	})
	if c := cut.Load(); c > 0 {
		v.cut(fmt.Sprintf("%s: the replay of the tests: %d of %d paths not replayed", v.mon.Stop(), c, n))
	}
}

// cut records that a phase was cut short (Report.Cuts, and the monitor's list).
func (v *verifier) cut(what string) {
	v.rep.Cuts = append(v.rep.Cuts, what)
	v.mon.Cut(what)
}

// concrete is CHECKCLAIM on the concrete semantics of cl in store s at its statement: TRUE when
// every primitive claim holds, UNDEFINED when a supporting one fails (the evaluation errs), FALSE
// when the defining one does; with the index of the primitive claim that decided it.
func (cl *Claim) concrete(s spec.Store) (Result, int) {
	r, j, _ := cl.concreteWithin(nil, s)
	return r, j
}

// concreteWithin is concrete within the bounds of l (nil: none); cut is the bound it reached
// (budget.NotCut: none; the result is then meaningless).
func (cl *Claim) concreteWithin(l *spec.Limiter, s spec.Store) (Result, int, budget.Cut) {
	n := len(cl.Prims)
	for j, p := range cl.Prims {
		val, _, ok, cut := l.EvalBKind(p.Expr, s, nil)
		switch {
		case cut != budget.NotCut:
			return 0, 0, cut
		case !ok || (!val && j < n-1):
			return ResUndefined, j, budget.NotCut
		case !val:
			return ResFalse, j, budget.NotCut
		}
	}
	return ResTrue, n - 1, budget.NotCut
}

// replayLimits are the bounds of a replay during the exploration (concrete.Limits: the integer
// bound, ReplayInstances quantifier instances, the monitor's stop).
func (v *verifier) replayLimits() spec.Limits {
	return concrete.Limits(-1, concrete.ReplayInstances, v.stopping)
}

// cutReason says which bound stopped a replay at statement at.
func (v *verifier) cutReason(cut budget.Cut, at syntax.Stmt) string {
	return concrete.Reason(cut, at, concrete.ReplayInstances, v.mon.Stop())
}

// boundedRun runs input m on the bounded concrete semantics (the loop bound of the exploration)
// within replayLimits: its end, and how many statements it executes (spec.ExecBoundedVisit's
// visits). cut says which bound stopped it, the monitor's reason for a stop ("" when none did).
func (v *verifier) boundedRun(m spec.Store) (end spec.BoundedResult, visits int, cut string) {
	end = spec.ExecBoundedLimited(v.prog, m, v.opts.LoopBound, v.replayLimits(), func(syntax.Stmt) { visits++ }, nil)
	if end.Cut != budget.NotCut {
		return end, visits, v.cutReason(end.Cut, end.At)
	}
	return end, visits, ""
}

// replaySteps is the step budget of a small-step replay of an input whose bounded concrete run
// executes visits statements: the path being replayed reached the claim within the loop bound,
// so the run reaches it within the steps of that bounded run, and each statement executed takes
// at most four small steps (its own; a loop's unfolding and test, the [S-SeqSkip] after its body;
// the [S-SeqSkip] of the sequence it ends).
func replaySteps(visits int) int { return 4*visits + 4 }

// visit runs input m on the concrete small-step semantics to the claim's statement: to its first
// visit (first), or to the first where the claim is not TRUE. It returns the claim's concrete
// result there and the primitive claim that decided it, or reached false and how the run ended;
// cut says which bound of replayLimits stopped the replay before either ("" when none did). The
// run takes at most steps steps (replaySteps).
func (v *verifier) visit(cl *Claim, m spec.Store, first bool, steps int) (res Result, idx int, reached bool, how, cut string) {
	st := spec.State{Store: append(spec.Store{}, m...), Prog: v.prog.Body}
	lim := spec.NewLimiter(v.replayLimits())
	for range steps {
		head := spec.Head(st.Prog)
		h := head
		if s, ok := v.rep.at[h]; ok {
			h = s
		}
		if h == cl.Stmt {
			r, j, c := cl.concreteWithin(lim, st.Store)
			if c != budget.NotCut {
				return 0, 0, false, "", v.cutReason(c, head)
			}
			if first || r != ResTrue {
				return r, j, true, "", ""
			}
		}
		next, out, c := lim.Step(st)
		if c != budget.NotCut {
			return 0, 0, false, "", v.cutReason(c, head)
		}
		if out != spec.Stepped {
			return 0, 0, false, fmt.Sprintf("the concrete run ends %s at line %d without reaching the claim so", out, h.Pos().Line), ""
		}
		st = next
	}
	return 0, 0, false, fmt.Sprintf("the concrete run does not reach the claim in %d steps (the length of its bounded concrete run)", steps), ""
}

// replayFalse checks a counterexample m of primitive claim idx of cl on the concrete semantics:
// the run reaches the claim's statement with the earlier primitive claims true and this one
// false, and the bounded concrete execution (spec.ExecBounded) ends there in an error. cut says
// which bound (the monitor's stop, or a bound of replayLimits) stopped the replay before it could
// tell (then ok is false and what empty).
func (v *verifier) replayFalse(cl *Claim, idx int, m spec.Store) (ok bool, what, cut string) {
	end, visits, cut := v.boundedRun(m)
	if cut != "" {
		return false, "", cut
	}
	r, j, reached, how, cut := v.visit(cl, m, false, replaySteps(visits))
	if cut != "" || !reached {
		return false, how, cut
	}
	ok = j == idx && end.Behaviour == spec.Error && v.rep.failOf[end.Fail] == cl.Stmt
	p := cl.Prims[j]
	what = fmt.Sprintf("the bounded concrete execution ends %s; at line %d ", paths.EndsText(end), cl.Line)
	if r == ResFalse {
		what += fmt.Sprintf("the defining claim %s is false", p.Text)
	} else {
		what += fmt.Sprintf("the supporting claim %s (%s) is false, so %s is undefined", p.Text, p.Kind, cl.Text)
	}
	if ok {
		return true, "replayed: " + what, ""
	}
	return false, what, ""
}

// stopping is the monitor's verdict during the exploration: a replay stops at once when the run
// must stop.
func (v *verifier) stopping() bool { return v.mon.Stop() != "" }

// replayTrue checks a test m of primitive claim idx of cl on the concrete semantics: the run
// reaches the claim's statement with the claim's primitive claims up to this one true.
// cut says which bound stopped the replay before it could tell (then ok is false and what empty).
func (v *verifier) replayTrue(cl *Claim, idx int, m spec.Store) (ok bool, what, cut string) {
	_, visits, cut := v.boundedRun(m)
	if cut != "" {
		return false, "", cut
	}
	r, j, reached, how, cut := v.visit(cl, m, true, replaySteps(visits))
	if cut != "" || !reached {
		return false, how, cut
	}
	if r == ResTrue || j > idx {
		return true, fmt.Sprintf("replayed: the concrete run reaches line %d with %s true", cl.Line, cl.Prims[idx].Text), ""
	}
	return false, fmt.Sprintf("the concrete run reaches line %d with %s %s", cl.Line, cl.Prims[j].Text, map[bool]string{true: "false", false: "undefined"}[r == ResFalse]), ""
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
	e.Input = append(spec.Store{}, v.input(pc.Witness)...)
	e.PathCondition = pc.String(names)
	ok, what, cut := v.replayTrue(cl, idx, e.Input)
	e.Replay = what
	switch {
	case cut != "" && v.stopping():
		e.Replay = "not replayed: the replay was stopped (" + cut + ")"
	case cut != "":
		e.Replay = "not replayed: the replay was cut short (" + cut + ")"
	case !ok && flagged:
		e.Replay += " (the path over-approximates: the test may not satisfy an assume)"
	case !ok:
		v.rep.ReplayErrors = append(v.rep.ReplayErrors, fmt.Sprintf("a passing test of the %s claim at line %d (%s), input %s, did not replay: %s",
			cl.Kind, cl.Line, cl.Prims[idx].Name(), spec.StoreString(v.prog, e.Input), what))
	}
}
