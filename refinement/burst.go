// The concrete fast path (engine/burst.go): a burst takes many steps in one pick and
// returns none of them, so the step replay, which replays the states the stream returns, cannot
// see them. The layer's runs keep bursts off (engine.Options.Burst is 0 in all of them), and
// this check compares a run with bursts against the same run without: when both explore the
// whole tree (every state of a finished run is expanded once, whatever the order), the verdict,
// the errors reported (statement and kind) and the counters (states expanded, successors
// produced and pruned, depth) must be equal. The depth at which an error is reported need not
// be: each error is reported once, on the first path that reaches it, and the burst schedule is
// not breadth-first, so it may meet the error first on a deeper path (a random program where
// the division by zero is reached after 9 steps on one branch and 11 on another showed it);
// breadth-first search reports the shallowest, so the burst run's depth is never smaller. The machine itself is compared step for step with
// Expand, which the step replay checks against the reference, by the engine's tests
// (TestBurstMachineMatchesExpand).

package refinement

import (
	"fmt"
	"sort"
	"strings"

	"certsym/engine"
	"certsym/solver"
	"certsym/spec/syntax/parser"
)

// burstStates bounds each of the two runs of burstCompare.
const burstStates = 2000

// burstCompare is the check "burst": the run with bursts against the run without.
func (c *unitChecker) burstCompare() {
	type result struct {
		rep   *engine.Report
		bugs  string
		depth map[string]int // each error's depth, by "kind at line"
	}
	run := func(burst int) (result, bool) {
		opts := c.EngineOptions()
		opts.MaxStates, opts.Burst = burstStates, burst
		rep, err := c.NewEngine(opts).FindBugs(nil)
		if err != nil {
			c.Report("burst/replay", "", -1, "with --burst %d: the engine's own bug replay failed: %v", burst, err)
			return result{}, false
		}
		var bugs []string
		depth := map[string]int{}
		for _, b := range rep.Bugs {
			k := fmt.Sprintf("%s at line %d", b.Kind(), b.Line())
			bugs = append(bugs, k)
			depth[k] = b.State.Depth
		}
		sort.Strings(bugs)
		return result{rep, strings.Join(bugs, "; "), depth}, true
	}
	plain, ok1 := run(0)
	if !ok1 || c.Expired() {
		return
	}
	bursty, ok2 := run(engine.DefaultBurst)
	if !ok2 || c.Expired() {
		return
	}
	c.Sum.BurstRuns++
	// A run cut by a bound explores a prefix of its own order, and a query the solver could not
	// decide (its time bound) may be decided in the other run: only the bound is comparable.
	if plain.rep.Reason != "" || bursty.rep.Reason != "" ||
		plain.rep.Verdict == engine.VerdictUnknown || bursty.rep.Verdict == engine.VerdictUnknown ||
		plain.rep.Stats.Solver.Unknown+bursty.rep.Stats.Solver.Unknown > 0 {
		if bursty.rep.Stats.Expanded > burstStates {
			c.Report("burst/bound", "", -1, "with bursts the run expanded %d states, past the bound %d", bursty.rep.Stats.Expanded, burstStates)
		}
		return
	}
	if plain.rep.Verdict != bursty.rep.Verdict || plain.bugs != bursty.bugs {
		c.Report("burst/answer", "", -1, "without bursts %s [%s], with bursts %s [%s]", plain.rep.Verdict, plain.bugs, bursty.rep.Verdict, bursty.bugs)
		return
	}
	for k, d := range plain.depth {
		if bursty.depth[k] < d {
			c.Report("burst/answer", "", -1, "%s: after %d steps with bursts, but breadth-first search, which reports the shallowest, found it after %d", k, bursty.depth[k], d)
			return
		}
	}
	p, b := plain.rep.Stats, bursty.rep.Stats
	p.Solver, b.Solver = solver.Stats{}, solver.Stats{}
	if p != b {
		c.Report("burst/counters", "", -1, "without bursts %+v, with bursts %+v", p, b)
	}
}

// burstTargets are programs whose errors follow concrete loops and concrete steps beside a
// symbolic input: the check above compares their runs with and without bursts.
var burstTargets = []string{
	"x = 0;\nwhile x < 40 do x = x + 1 od;\ny = 10 / (x - 40)\n",
	"assume y >= 0 and y <= 3;\ni = 0;\nwhile i < 25 do i = i + 1 od;\nz = i / (y - 2);\nassert i % 2 == 0\n",
	"k = 7;\nwhile k > 0 do k = k - 1; if k == 3 then q = 5 / (k - 3) fi od\n",
}

// BurstTargetUnits parses the programs of the burst check.
func BurstTargetUnits() ([]*Unit, error) {
	var out []*Unit
	for i, src := range burstTargets {
		name := fmt.Sprintf("burst-target-%d", i)
		p, err := parser.Parse(name, []byte(src))
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		out = append(out, &Unit{Name: name, Seed: -1, Prog: p, RefBody: p.Body, Text: src})
	}
	return out, nil
}
