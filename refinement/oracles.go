// The bug finder's oracles: every reported bug replays on the reference, the engine's states are
// precise (each concretizes to a reference state) and exhaustive (every concrete run is covered),
// also under a starved solver.

package refinement

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"certsym/engine"
	"certsym/pathcond"
	"certsym/spec/integer"
	"certsym/spec/syntax"
)

// precise is the precision check of one symbolic state: the model of its path condition, run on
// the reference for as many steps as the state's depth, reaches a concretization of the state.
// It returns false when there was nothing to check (unsatisfiable or undecided).
func (c *checker) precise(check string, st *engine.State) bool {
	v, ok := c.model(st.PC)
	if !ok {
		return false
	}
	c.sum.PrecisionReplays++
	t := c.traceTo(v, st.Depth)
	if t.err != nil {
		c.report("reference", c.inputString(v), st.Depth, "%v", t.err)
		return true
	}
	if len(t.states) <= st.Depth && t.end == cutRun {
		return true
	}
	if len(t.states) <= st.Depth {
		c.report(check, c.inputString(v), st.Depth, "imprecise: the model of the symbolic state %s ends (%s) after %d steps on the reference, before reaching depth %d",
			stateString(st, c.slots), t.end, len(t.states)-1, st.Depth)
		return true
	}
	r := t.states[st.Depth]
	if ok, why := c.concretizes(st.Store, st.Prog.Stmt(), v, r); !ok {
		c.report(check, c.inputString(v), st.Depth, "imprecise: the model of the symbolic state %s reaches %s on the reference: %s",
			stateString(st, c.slots), refStateString(r, c.names), why)
	}
	return true
}

// bugReplay checks the evidence of a reported bug on the reference: its input, run for as many
// steps as the bug's depth, reaches an error state that concretizes the symbolic error state.
func (c *checker) bugReplay(b *engine.Bug) {
	c.sum.BugsReplayed++
	st := b.State
	t := c.traceTo(b.Input, st.Depth)
	in := c.inputString(b.Input)
	if t.err != nil {
		c.report("reference", in, st.Depth, "%v", t.err)
		return
	}
	if len(t.states) <= st.Depth && t.end == cutRun {
		return
	}
	if len(t.states) <= st.Depth {
		c.report("oracle/bug-replay", in, st.Depth, "the reported bug's input ends (%s) after %d steps on the reference, the bug is at depth %d: %s",
			t.end, len(t.states)-1, st.Depth, stateString(st, c.slots))
		return
	}
	r := t.states[st.Depth]
	if ok, why := c.concretizes(st.Store, st.Prog.Stmt(), b.Input, r); !ok {
		c.report("oracle/bug-replay", in, st.Depth, "the reported bug %s does not replay on the reference: reached %s: %s", stateString(st, c.slots), refStateString(r, c.names), why)
		return
	}
	if !strings.HasPrefix(r.canon, "fail") {
		c.report("oracle/bug-replay", in, st.Depth, "the reported bug's input reaches %s on the reference, not an error state", refStateString(r, c.names))
	}
}

// inputs draws n inputs: random ones, and models of states the run reached (they go deep).
func (c *checker) inputs(n int, states map[int][]*engine.State) [][]integer.Int {
	var deep []*engine.State
	for _, ss := range states {
		for _, s := range ss {
			if s.PC.Status == pathcond.Sat && s.PC.Witness != nil {
				deep = append(deep, s)
			}
		}
	}
	sort.Slice(deep, func(i, j int) bool { return deep[i].Depth > deep[j].Depth })
	var out [][]integer.Int
	for i := 0; i < n; i++ {
		if i%2 == 1 && len(deep) > 0 {
			s := deep[c.rng.Intn((len(deep)+1)/2)]
			out = append(out, s.PC.Witness)
			continue
		}
		out = append(out, c.randomValuation())
	}
	return out
}

// exhaustive is is_probably_exhaustive: the reference's concrete run of each input is covered,
// at every step up to the depth the engine's run explored completely, by a symbolic state of that
// depth whose path condition holds under the input and which concretizes to the concrete state.
func (c *checker) exhaustive(check string, e *engine.Engine, byDepth map[int][]*engine.State, complete, n int) {
	maxDepth := 0
	for d := range byDepth {
		if d > maxDepth {
			maxDepth = d
		}
	}
	if complete > maxDepth {
		complete = maxDepth
	}
	for _, v := range c.inputs(n, byDepth) {
		c.sum.ExhaustiveRuns++
		t := c.traceTo(v, complete)
		if t.err != nil {
			c.report("reference", c.inputString(v), -1, "%v", t.err)
			return
		}
		for k := 0; k < len(t.states) && k <= complete; k++ {
			r := t.states[k]
			covered := false
			for _, s := range byDepth[k] {
				if !s.PC.Formula().Eval(v) {
					continue
				}
				if ok, _ := c.concretizes(s.Store, s.Prog.Stmt(), v, r); ok {
					covered = true
					break
				}
			}
			if !covered {
				c.report(check, c.inputString(v), k, "not exhaustive: the reference's state %s at step %d is covered by none of the %d symbolic states of depth %d (run %s)",
					refStateString(r, c.names), k, len(byDepth[k]), k, e.Stopped())
				break
			}
		}
	}
}

// starvedRun is is_probably_exhaustive for a run whose solver is starved (rlimit 1, so it can
// decide nothing): unknown must never prune, so the run must still cover every concrete run.
func (c *checker) starvedRun() {
	opts := c.engineOptions()
	opts.MaxStates, opts.RLimit = c.cfg.StarvedStates, 1
	start := time.Now()
	e := c.newEngine(opts)
	byDepth := map[int][]*engine.State{}
	last, finished := 0, false
	sr := &streamRun{}
	reported := map[*syntax.Fail]bool{}
	complete := false
	for !c.expired() {
		s, err := e.Next()
		if err != nil {
			c.report("oracle/engine-replay", "", -1, "starved solver: the engine's own bug replay failed: %v", err)
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
		c.checkStop("stop", e, opts, start)
	}
	depth := last - 1
	if finished {
		depth = 1 << 30
	}
	c.exhaustive("oracle/exhaustive-starved-solver", e, byDepth, depth, (c.cfg.OracleInputs+1)/2)
}

// checkStop is the check "stop": a run the engine stops before Finished names a bound that the
// layer gave it (opts) and that the run reached by the layer's own count and clock (the run began
// at start): the state bound once MaxStates states are expanded, the time bound once Timeout has
// passed; the layer sets no memory bound and interrupts nothing. The integer bound (a value of
// more than step.MaxIntBits bits at an assignment) is taken on trust beyond its position naming
// an assignment of the program. An engine that stops early would otherwise pass every other
// check: a stopped run is a prefix of the stream.
func (c *checker) checkStop(check string, e *engine.Engine, opts engine.Options, start time.Time) {
	r := e.Stopped()
	var ok bool
	switch {
	case r == "":
		return
	case strings.HasPrefix(r, "state bound reached"):
		ok = opts.MaxStates > 0 && e.Stats.Expanded >= opts.MaxStates
	case strings.HasPrefix(r, "time bound reached"):
		ok = opts.Timeout > 0 && time.Since(start) >= opts.Timeout
	case strings.HasPrefix(r, "memory bound reached"):
		ok = opts.MaxMemory > 0
	case strings.HasPrefix(r, "integer bound reached"):
		ok = c.assignmentAt(r)
	}
	if !ok {
		c.report(check, "", -1, "the engine stopped the run after %d states and %v (%s), but the layer gave it a state bound of %d, a time bound of %v, no memory bound and no interrupt",
			e.Stats.Expanded, time.Since(start).Round(time.Millisecond), r, opts.MaxStates, opts.Timeout)
	}
}

// assignmentAt reports whether the integer bound's reason ("... assigned at L:C)") names the
// position of an assignment of the program.
func (c *checker) assignmentAt(reason string) bool {
	i := strings.LastIndex(reason, " at ")
	if i < 0 {
		return false
	}
	var line, col int
	if _, err := fmt.Sscanf(reason[i+len(" at "):], "%d:%d)", &line, &col); err != nil {
		return false
	}
	found := false
	syntax.Inspect(c.u.Prog.Body, func(n syntax.Node) bool {
		if a, ok := n.(*syntax.Assign); ok {
			if p := a.Pos(); p.Line == line && p.Col == col {
				found = true
			}
		}
		return !found
	})
	return found
}
