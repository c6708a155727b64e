package main

import (
	"certsym/internal/budget"
	"certsym/spec"
)

// generational runs the concolic generational search (package concolic, branch h-conc) to the
// first bug; its states are the concrete steps it executed (Report.Stats.Expanded). Until that
// package is merged the column reads n/a.
func generational(p *spec.Program, lim budget.Limits) result {
	_, _ = p, lim
	return result{note: "n/a"}
}
