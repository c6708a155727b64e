package refinement

import (
	"time"

	"certsym/engine"
	"certsym/refinement/checker"
	"certsym/refinement/sched"
	"certsym/spec/syntax"
)

// fairRun runs the whole-run oracles on a run of a fair strategy (seeded by the program): bug
// replay, verdict, stop, is_probably_exhaustive below the least pending depth (whatever the
// order, every state above it was expanded), and the model of the scheduler (sched/fair).
func (c *unitChecker) fairRun(s engine.Strategy) {
	opts := c.EngineOptions()
	m := sched.New(engine.FairnessPeriod)
	opts.Strategy, opts.Seed, opts.Observer = s, checker.UnitSeed(c.U), m
	start := time.Now()
	e := c.NewEngine(opts)
	byDepth := map[int][]*engine.State{}
	sr, reported := &streamRun{}, map[*syntax.Fail]bool{}
	end := engine.Pending
	for end == engine.Pending && !c.Expired() {
		st, err := e.Next()
		if err != nil {
			c.Report("oracle/engine-replay", "", -1, "%v: the engine's own bug replay failed: %v", s, err)
			return
		}
		sr.observe(st, reported)
		switch st.Kind {
		case engine.Finished, engine.Stopped:
			end = st.Kind
			continue
		case engine.BugFound:
			c.bugReplay(st.Bug)
		}
		byDepth[st.State.Depth] = append(byDepth[st.State.Depth], st.State)
	}
	m.End(end == engine.Finished)
	if end != engine.Pending {
		c.checkVerdict("verdict-"+s.String(), e, sr)
		c.CheckStop("stop", e, opts, start)
	}
	if m.Violation != "" {
		c.Report("sched/fair", "", -1, "%v (seed %d): %s", s, opts.Seed, m.Violation)
	}
	c.exhaustive("oracle/exhaustive-"+s.String(), e, byDepth, e.ExploredDepth(), (c.Cfg.OracleInputs+1)/2, 0)
}
