// The bug finder's oracles: every reported bug replays on the reference, the engine's states are
// precise (each concretizes to a reference state) and exhaustive (every concrete run is covered),
// also under a starved solver.

package refinement

import (
	"strings"
	"time"

	"certsym/engine"
	"certsym/refinement/checker"
	"certsym/spec/syntax"
)

// precise is the precision check of one symbolic state: the model of its path condition, run on
// the reference for as many steps as the state's depth, reaches a concretization of the state.
// It returns false when there was nothing to check (unsatisfiable or undecided).
func (c *unitChecker) precise(check string, st *engine.State) bool {
	return c.preciseWithin(check, st, 0)
}

// preciseWithin is precise for a state of a run with merging whose merges may take in states one
// depth deeper than their own (engine/mergesearch/join.go): the model's run may reach the state
// up to slack steps after its depth.
func (c *unitChecker) preciseWithin(check string, st *engine.State, slack int) bool {
	v, ok := c.Model(st.PC)
	if !ok {
		return false
	}
	c.Sum.PrecisionReplays++
	t := c.TraceTo(v, st.Depth+slack)
	if t.Err != nil {
		c.Report("reference", c.InputString(v), st.Depth, "%v", t.Err)
		return true
	}
	if len(t.States) <= st.Depth && t.End == checker.CutRun {
		return true
	}
	if len(t.States) <= st.Depth {
		c.Report(check, c.InputString(v), st.Depth, "imprecise: the model of the symbolic state %s ends (%s) after %d steps on the reference, before reaching depth %d",
			checker.StateString(st, c.Slots), t.End, len(t.States)-1, st.Depth)
		return true
	}
	for k := st.Depth + 1; k <= st.Depth+slack && k < len(t.States); k++ {
		if ok, _ := c.Concretizes(st.Store, st.Prog.Stmt(), v, t.States[k]); ok {
			return true
		}
	}
	r := t.States[st.Depth]
	if ok, why := c.Concretizes(st.Store, st.Prog.Stmt(), v, r); !ok {
		c.Report(check, c.InputString(v), st.Depth, "imprecise: the model of the symbolic state %s reaches %s on the reference: %s",
			checker.StateString(st, c.Slots), checker.RefStateString(r, c.Names), why)
	}
	return true
}

// bugReplay checks the evidence of a reported bug on the reference: its input, run for as many
// steps as the bug's depth, reaches an error state that concretizes the symbolic error state.
func (c *unitChecker) bugReplay(b *engine.Bug) { c.bugReplayAs("oracle/bug-replay", b) }

// bugReplayAs is bugReplay, its mismatches reported as check.
func (c *unitChecker) bugReplayAs(check string, b *engine.Bug) {
	c.Sum.BugsReplayed++
	st := b.State
	t := c.TraceTo(b.Input, st.Depth)
	in := c.InputString(b.Input)
	if t.Err != nil {
		c.Report("reference", in, st.Depth, "%v", t.Err)
		return
	}
	if len(t.States) <= st.Depth && t.End == checker.CutRun {
		return
	}
	if len(t.States) <= st.Depth {
		c.Report(check, in, st.Depth, "the reported bug's input ends (%s) after %d steps on the reference, the bug is at depth %d: %s",
			t.End, len(t.States)-1, st.Depth, checker.StateString(st, c.Slots))
		return
	}
	r := t.States[st.Depth]
	if ok, why := c.Concretizes(st.Store, st.Prog.Stmt(), b.Input, r); !ok {
		c.Report(check, in, st.Depth, "the reported bug %s does not replay on the reference: reached %s: %s", checker.StateString(st, c.Slots), checker.RefStateString(r, c.Names), why)
		return
	}
	if !strings.HasPrefix(r.Canon, "fail") {
		c.Report(check, in, st.Depth, "the reported bug's input reaches %s on the reference, not an error state", checker.RefStateString(r, c.Names))
	}
}

// exhaustive is is_probably_exhaustive: the reference's concrete run of each input is covered,
// at every step up to the depth the engine's run explored completely, by a symbolic state of that
// depth whose path condition holds under the input and which concretizes to the concrete state.
// With slack > 0 (a run with merging whose merges may take in states one depth deeper than their
// own, engine/mergesearch/join.go), the covering state may be up to slack depths shallower.
func (c *unitChecker) exhaustive(check string, e *engine.Engine, byDepth map[int][]*engine.State, complete, n, slack int) {
	maxDepth := 0
	for d := range byDepth {
		if d > maxDepth {
			maxDepth = d
		}
	}
	if complete > maxDepth {
		complete = maxDepth
	}
	for _, v := range c.Inputs(n, byDepth) {
		c.Sum.ExhaustiveRuns++
		t := c.TraceTo(v, complete)
		if t.Err != nil {
			c.Report("reference", c.InputString(v), -1, "%v", t.Err)
			return
		}
		for k := 0; k < len(t.States) && k <= complete; k++ {
			r := t.States[k]
			covered := false
			for d := k; d >= max(0, k-slack) && !covered; d-- {
				for _, s := range byDepth[d] {
					if !s.PC.Formula().Eval(v) {
						continue
					}
					if ok, _ := c.Concretizes(s.Store, s.Prog.Stmt(), v, r); ok {
						covered = true
						break
					}
				}
			}
			if !covered {
				c.Report(check, c.InputString(v), k, "not exhaustive: the reference's state %s at step %d is covered by none of the %d symbolic states of depth %d (run %s)",
					checker.RefStateString(r, c.Names), k, len(byDepth[k]), k, e.Stopped())
				break
			}
		}
	}
}

// starvedRun is is_probably_exhaustive for a run whose solver is starved (rlimit 1, so it can
// decide nothing): unknown must never prune, so the run must still cover every concrete run.
func (c *unitChecker) starvedRun() {
	opts := c.EngineOptions()
	opts.MaxStates, opts.RLimit = c.Cfg.StarvedStates, 1
	start := time.Now()
	e := c.NewEngine(opts)
	byDepth := map[int][]*engine.State{}
	last, finished := 0, false
	sr := &streamRun{}
	reported := map[*syntax.Fail]bool{}
	complete := false
	for !c.Expired() {
		s, err := e.Next()
		if err != nil {
			c.Report("oracle/engine-replay", "", -1, "starved solver: the engine's own bug replay failed: %v", err)
			break
		}
		sr.observe(s, reported)
		if s.Kind == engine.Finished || s.Kind == engine.Stopped {
			finished, complete = s.Kind == engine.Finished, true
			break
		}
		st := s.State
		if s.Kind == engine.BugFound {
			c.bugReplay(s.Bug)
		}
		byDepth[st.Depth] = append(byDepth[st.Depth], st)
		last = st.Depth
	}
	if complete {
		c.checkVerdict("verdict-starved-solver", e, sr)
	}
	if complete && !finished {
		c.CheckStop("stop", e, opts, start)
	}
	depth := last - 1
	if finished {
		depth = 1 << 30
	}
	c.exhaustive("oracle/exhaustive-starved-solver", e, byDepth, depth, (c.Cfg.OracleInputs+1)/2, 0)
}
