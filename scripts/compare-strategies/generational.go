package main

import (
	"strings"
	"time"

	"certsym/concolic"
	"certsym/engine"
	"certsym/internal/budget"
	"certsym/spec"
)

// generational runs the concolic generational search (package concolic) to the first bug, from
// the seed input where every variable is 0; its states are the concrete steps it executed over
// all its runs (Report.Stats.Expanded), under the same state and time bounds.
func generational(p *spec.Program, lim budget.Limits) result {
	start := time.Now()
	rep, err := concolic.Generational(p, concolic.GenOptions{Limits: lim})
	if err != nil {
		return result{note: "error: " + err.Error()}
	}
	r := result{states: rep.Stats.Expanded, took: time.Since(start), found: rep.Verdict == engine.VerdictBug,
		timedOut: strings.HasPrefix(rep.Reason, "time bound")}
	if r.found {
		r.depth = rep.Bugs[0].State.Depth
	}
	return r
}
