// Ghost checks: the reference's concrete run of an input followed step by step beside the
// engine's symbolic state (the input is the ghost valuation) and spec's concrete step. At each
// step the symbolic state concretizes to the reference's state, exactly one symbolic successor
// holds under the input and concretizes to the reference's successor, spec.Step agrees with the
// reference's step, and some states on the way are also replayed and checked for precision.

package refinement

import (
	"certsym/engine"
	"certsym/internal/budget"
	"certsym/pathcond"
	"certsym/refinement/checker"
	"certsym/refinement/conv"
	"certsym/refinement/refclient"
	"certsym/spec"
	"certsym/spec/integer"
	"time"
)

func (c *unitChecker) ghostRuns() {
	e := c.NewEngine(c.EngineOptions())
	// Inputs: random, and models of deep states of a short run (they get past assumes).
	// This run has no time bound (the others have the program's), so its stop is checked too.
	preOpts := engine.Options{Limits: budget.Limits{MaxStates: 60, RLimit: c.Cfg.EngineRLimit, QueryTimeout: c.Cfg.EngineTimeout}}
	start := time.Now()
	pre := c.NewEngine(preOpts)
	byDepth := map[int][]*engine.State{}
	for {
		st, ok := pre.NextState()
		if !ok {
			break
		}
		byDepth[st.Depth] = append(byDepth[st.Depth], st)
	}
	c.CheckStop("stop", pre, preOpts, start)
	for _, v := range c.Inputs(c.Cfg.GhostInputs, byDepth) {
		if c.Expired() {
			return
		}
		c.ghostRun(e, v)
	}
}

func outcomeKind(o spec.Outcome) string {
	return [...]string{spec.Stepped: "next", spec.Final: "final", spec.Failed: "error", spec.Blocked: "stuck"}[o]
}

// ghostRun follows the concrete run of input v on the reference, with the engine's symbolic
// state alongside (the ghost valuation is v) and spec's concrete state as a third party.
func (c *unitChecker) ghostRun(e *engine.Engine, v []integer.Int) {
	in := c.InputString(v)
	cur := e.Initial()
	conc := spec.State{Store: append(spec.Store(nil), v...), Prog: c.U.Prog.Body}
	precisionBudget := 40
	for step := 0; step < c.Cfg.GhostSteps && !c.Expired(); step++ {
		t := c.TraceTo(v, step+1)
		if t.Err != nil {
			c.Report("reference", in, step, "%v", t.Err)
			return
		}
		r := t.States[step]
		c.Sum.GhostChecks++
		if ok, why := c.Concretizes(cur.Store, cur.Prog.Stmt(), v, r); !ok {
			c.Report("ghost/concretization", in, step, "the symbolic state %s does not concretize to the reference's %s: %s", checker.StateString(cur, c.Slots), checker.RefStateString(r, c.Names), why)
			return
		}
		if !c.concreteStep(in, step, conc, r) {
			return
		}
		refKind := "next"
		if len(t.States) <= step+1 {
			refKind = t.End
		}
		if refKind == checker.CutRun {
			return
		}
		if step%3 == 2 { // deep states too are replayed against certsym-ref expand
			c.stepReplay(e, cur)
		}
		succs := e.Expand(cur, nil)
		var follow []*engine.State
		for _, s := range succs {
			f := s.PC.Formula()
			holds := f.Eval(v)
			if fb, err := c.FormulaB(f); err != nil {
				// conditional terms with too many cases to write in IMP: no claim
			} else if mine, err := refclient.EvalBE(fb, v); err == nil && mine != holds {
				c.Report("layer", in, step, "path condition %s: engine evaluation %v, syntax tree %v", s.PC.String(c.Slots), holds, mine)
			}
			if holds {
				follow = append(follow, s)
			}
		}
		if refKind != "next" {
			if len(follow) != 0 {
				c.Report("ghost/exhaustive", in, step, "the reference's run ends (%s) at %s but %d symbolic successors hold under the input:\n%s",
					refKind, checker.RefStateString(r, c.Names), len(follow), c.engineSuccs(follow))
			}
			return
		}
		next := t.States[step+1]
		if len(follow) != 1 {
			c.Report("ghost/exhaustive", in, step, "%d symbolic successors of %s hold under the input, want exactly 1 (the reference steps to %s):\n%s",
				len(follow), checker.StateString(cur, c.Slots), checker.RefStateString(next, c.Names), c.engineSuccs(succs))
			return
		}
		s := follow[0]
		if ok, why := c.Concretizes(s.Store, s.Prog.Stmt(), v, next); !ok {
			c.Report("ghost/exhaustive", in, step, "the successor %s that holds under the input does not concretize to the reference's successor %s: %s",
				checker.StateString(s, c.Slots), checker.RefStateString(next, c.Names), why)
			return
		}
		if e.Solver().Check(s.PC) == pathcond.Unsat {
			c.Report("ghost/exhaustive", in, step, "the successor %s holds under the input but the engine decides its path condition unsatisfiable", checker.StateString(s, c.Slots))
			return
		}
		for _, o := range succs {
			if o != s && precisionBudget > 0 && o.PC != s.PC {
				if c.precise("ghost/precise", o) {
					precisionBudget--
				}
			}
		}
		cur = s
		next2, _ := spec.Step(conc)
		conc = next2
	}
}

// concreteStep compares spec.Step on conc with the reference's step on the same state, and conc
// with the reference's own run at this step r. It returns false when the run cannot go on.
func (c *unitChecker) concreteStep(in string, step int, conc spec.State, r checker.RefState) bool {
	cs := c.ConcStore(conc.Store)
	for _, x := range c.Names {
		if !cs[x].Equal(r.Store[x]) {
			c.Report("concrete-step", in, step, "spec's run has %s = %s, the reference's %s", x, cs[x], r.Store[x])
			return false
		}
	}
	if why := conv.SameArrays(c.U.Prog, conc.Store, r.Arrays); why != "" {
		c.Report("concrete-step", in, step, "spec's run and the reference's differ: %s", why)
		return false
	}
	if got := refclient.Canon(conc.Prog); got != r.Canon {
		c.Report("concrete-step", in, step, "spec's run is at %s, the reference's at %s", got, r.Canon)
		return false
	}
	raw, err := refclient.EncodeStmt(conc.Prog)
	if err != nil {
		c.Report("layer", in, step, "encoding: %v", err)
		return false
	}
	want, err := c.Ref.StepA(cs, c.ConcArrays(conc.Store), c.Names, raw)
	if err != nil {
		c.Report("reference", in, step, "%v", err)
		return false
	}
	c.Sum.ConcreteSteps++
	next, out := spec.Step(conc)
	if k := outcomeKind(out); k != want.Kind {
		c.Report("concrete-step", in, step, "spec.Step of (%s | %s) is %s, the reference's step is %s", c.InputString(conc.Store), refclient.Canon(conc.Prog), k, want.Kind)
		return false
	}
	if out != spec.Stepped {
		return true
	}
	for i, x := range c.Names {
		if !next.Store[i].Equal(want.Store[x]) {
			c.Report("concrete-step", in, step, "spec.Step of %s gives %s = %s, the reference %s", refclient.Canon(conc.Prog), x, next.Store[i], want.Store[x])
			return false
		}
	}
	if why := conv.SameArrays(c.U.Prog, next.Store, want.Arrays); why != "" {
		c.Report("concrete-step", in, step, "spec.Step of %s and the reference's step differ: %s", refclient.Canon(conc.Prog), why)
		return false
	}
	wc, err := c.CanonRaw(want.Prog)
	if err != nil {
		c.Report("reference", in, step, "%v", err)
		return false
	}
	if got := refclient.Canon(next.Prog); got != wc {
		c.Report("concrete-step", in, step, "spec.Step of %s gives %s, the reference %s", refclient.Canon(conc.Prog), got, wc)
		return false
	}
	return true
}
