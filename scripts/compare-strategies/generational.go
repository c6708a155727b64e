package main

import (
	"time"

	"certsym/concolic"
	"certsym/engine"
	"certsym/internal/budget"
	"certsym/spec"
)

// generational runs the concolic generational search (package concolic) to the first bug from
// the all-zero seed input; its states are the concrete steps it executed in all its runs
// (Report.Stats.Expanded), the depth of a bug the steps of its run.
func generational(p *spec.Program, lim budget.Limits) result {
	start := time.Now()
	rep, err := concolic.Generational(p, concolic.GenOptions{Limits: lim})
	if err != nil {
		return result{note: "error: " + err.Error()}
	}
	r := result{states: rep.Stats.Expanded, took: time.Since(start), found: rep.Verdict == engine.VerdictBug}
	if r.found {
		r.depth = rep.Bugs[0].State.Depth
	}
	return r
}
