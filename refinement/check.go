// Package refinement is certsym's refinement layer: it replays the Go engine against certsym-ref,
// the IMP semantics extracted from the Coq development (proofs/ref), and checks the engine's runs
// against concrete runs of the reference. See README.md in this folder for what is checked and
// what a green run guarantees.
//
// The checks, each named in mismatch reports:
//
//   - step-replay: every state the engine expands is sent to certsym-ref expand; the successor
//     lists must correspond one to one with the same remaining program, equivalent path
//     conditions and equal stores (Z3 validity in the layer's own context, and random
//     valuations evaluated independently of Z3);
//   - concrete-step: spec.Step against certsym-ref step on the states of concrete runs;
//   - ghost: along the concrete run of a random input (computed by the reference), exactly one
//     symbolic successor holds under the input and concretizes to the reference's successor
//     (exhaustiveness), and every other satisfiable successor's model replays on the reference
//     to a concretization of it (precision);
//   - oracle: the whole-run oracles is_probably_exhaustive and is_probably_precise of the
//     correctness chapter of the Symbolic Execution Book, and the replay of every bug the
//     engine reports;
//   - stop: a run the engine stops early names a bound the layer gave and the run reached
//     (refinement/checker, CheckStop; on runs with and without a time bound);
//   - the oracles again on runs of the fair strategies, whose picks sched/fair checks against
//     the layer's model of the K-interleaved scheduler (fair.go, refinement/sched);
//   - bounded: the same oracles, and the ghost mode, for the bounded interpreter
//     (refinement/boundedcheck);
//   - verify: the statuses of certsym verify against concrete runs (refinement/verifycheck);
//   - crosscheck: the engine's solver-free decisions and the solver caching's answers asked
//     again to the layer's own Z3 (refinement/crosscheck);
//   - stream: the engine's unpruned stream against the reference's extracted run stream
//     (refinement/streamcheck);
//   - merge: the merges of the states of one breadth-first level that have the same remaining
//     program, exhaustive and precise against their constituents (refinement/mergecheck), and
//     the whole-run oracles on the run with state merging (run --merge, mergerun.go);
//   - steal: the partitioned runs of run --workers, for several numbers of workers and
//     interleavings, against each other and the single run (refinement/stealcheck);
//   - dist: the distributed run of run --distributed, its job tree explored in the layer's
//     process and assembled as the coordinator assembles it, against the single run, its bugs
//     replayed and its --all-bugs report through the all-bugs oracle (refinement/distcheck).
//
// What the checks share (the configuration, the program, the checker with its reference client
// and prover, the reports and the summary) is package refinement/checker; the conversions
// between the engine's states and the reference's are package refinement/conv.
package refinement

import (
	"runtime/debug"
	"strings"
	"time"

	"certsym/engine"
	"certsym/refinement/boundedcheck"
	"certsym/refinement/checker"
	"certsym/refinement/crosscheck"
	"certsym/refinement/distcheck"
	"certsym/refinement/infercheck"
	"certsym/refinement/memory"
	"certsym/refinement/mergecheck"
	"certsym/refinement/provecheck"
	"certsym/refinement/stealcheck"
	"certsym/refinement/streamcheck"
	"certsym/refinement/verifycheck"
)

// The checker's types, under the names the layer's callers know.
type (
	Config   = checker.Config
	Unit     = checker.Unit
	Summary  = checker.Summary
	Mismatch = checker.Mismatch
)

// DefaultConfig is the configuration of the default run.
func DefaultConfig() Config { return checker.DefaultConfig() }

// unitChecker is one worker of a run: the checker, its crosscheck (nil: off), and what the layer
// saw of the current program's bug-finder run.
type unitChecker struct {
	*checker.Checker
	xc *crosscheck.Worker
	// stream is what the layer saw of the program's bug-finder run (nil: cut short by the layer).
	stream *streamRun
	// slot is the worker as the memory guard sees it (refinement/memory).
	slot *memory.Slot
}

// CheckUnit runs every check on one program. A panic anywhere (engine or layer) is reported as
// a mismatch of check "panic", never propagated.
func (c *unitChecker) CheckUnit(u *Unit) {
	c.Start(u)
	if u.ParseMismatch != "" {
		c.Report("parser", "", -1, "%s", u.ParseMismatch)
		return
	}
	c.stream = nil
	if c.xc != nil {
		c.xc.Start()
	}
	defer func() {
		if r := recover(); r != nil {
			c.Report("panic", "", -1, "panic: %v\n%s", r, panicSite(debug.Stack()))
		}
		c.slot.Flight.Store(nil)
		if c.Cut.Load() {
			c.Sum.MemoryCut++
		} else if c.Expired() {
			c.Sum.OverBudget++
		}
		if c.xc != nil {
			c.xc.Stop()
		}
	}()
	if c.Cfg.StreamOnly {
		c.step("stream", func() { streamcheck.Compare(c.Checker, c.StreamBudget()) })
		return
	}
	c.step("engine run", c.engineRun)
	c.step("ghost runs", c.ghostRuns)
	if !c.Expired() {
		c.step("merge run", c.mergeRun)
	}
	if c.Cfg.StarvedStates > 0 && !c.Expired() {
		c.step("starved run", c.starvedRun)
	}
	if c.Cfg.BoundedN > 0 && !c.Expired() {
		c.step("bounded", func() { boundedcheck.Run(c.Checker) })
	}
	if c.Cfg.BoundedN > 0 && !c.Expired() {
		c.step("verify", func() { verifycheck.Run(c.Checker) })
	}
	for _, s := range []engine.Strategy{engine.Coverage, engine.RandomPath} {
		if !c.Expired() {
			c.step("fair run "+s.String(), func() { c.fairRun(s) })
		}
	}
	if c.stream != nil {
		c.step("all bugs", func() { c.checkAllBugs("all-bugs", c.stream) })
	}
	if !c.Expired() {
		c.step("burst", c.burstCompare)
	}
	if !c.Expired() {
		c.step("merge", func() { mergecheck.Run(c.Checker) })
	}
	if !c.Expired() {
		c.step("prove", func() { provecheck.Run(c.Checker) })
	}
	if !c.Expired() {
		c.step("infer", func() { infercheck.Run(c.Checker) })
	}
	if !c.Expired() {
		c.step("steal", func() { stealcheck.Run(c.Checker) })
	}
	if n := c.StreamBudget(); n > 0 && !c.Expired() {
		c.step("stream", func() { streamcheck.Compare(c.Checker, n) })
	}
	if !c.Expired() { // last: it takes what is left of the program's budget
		c.step("dist", func() {
			distcheck.Run(c.Checker, distcheck.Hooks{BugReplay: c.bugReplayAs, AllBugs: func(check string, bugs []*engine.Bug, finished bool) {
				c.checkAllBugs(check, &streamRun{bugs: bugs, finished: finished})
			}})
		})
	}
}

// step runs one check of the current program, telling the memory guard which.
func (c *unitChecker) step(check string, run func()) {
	c.slot.Flight.Store(&memory.Flight{Prog: c.U.Name, Check: check, Start: time.Now(), Deadline: c.Deadline})
	run()
}

// panicSite is the part of a panic's stack that names the engine's or the layer's functions.
func panicSite(stack []byte) string {
	var out []string
	for _, l := range strings.Split(string(stack), "\n") {
		if strings.Contains(l, "/work/") || strings.Contains(l, "certsym/") {
			out = append(out, strings.TrimSpace(l))
		}
		if len(out) >= 12 {
			break
		}
	}
	return strings.Join(out, "\n    ")
}
