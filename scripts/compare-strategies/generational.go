package main

import (
	"time"

	"certsym/concolic"
	"certsym/internal/budget"
	"certsym/spec/syntax"
)

// generational runs the concolic generational search (package concolic) to the first bug, from
// the seed input where every variable is 0; its states are the concrete steps it executed over
// all its runs (Report.Stats.Expanded), under the same state and time bounds.
func generational(p *syntax.Program, lim budget.Limits) result {
	start := time.Now()
	rep, err := concolic.Generational(p, concolic.GenOptions{Limits: lim})
	return resultOf(rep, err, start)
}
