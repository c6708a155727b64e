package budget

import (
	"fmt"
	"time"
)

// The solver hint. A run whose solver queries keep ending undecided at their time bound spends
// its time waiting for Z3 while the search stands still: 73 queries of 10 s are 12 minutes for a
// few hundred states, and --max-states, which counts states, does nothing against it. The
// progress reports say so once, naming the bounds that do help.

// Hint thresholds: the time in undecided queries must be at least HintMinUndecided and more than
// HintShare of the run's time so far.
const (
	HintMinUndecided = 10 * time.Second
	HintShare        = 0.5
)

// SolverHint returns the advice for a run in the state s (queryTimeout: the bound of each query,
// 0 for none), or "" while the undecided queries' time is under the thresholds.
func SolverHint(s Snapshot, queryTimeout time.Duration) string {
	if s.Undecided < HintMinUndecided || s.Elapsed <= 0 || s.Undecided.Seconds() <= HintShare*s.Elapsed.Seconds() {
		return ""
	}
	bound := "no bound"
	if queryTimeout > 0 {
		bound = queryTimeout.String()
	}
	return fmt.Sprintf("certsym: hint: %d solver queries ended undecided after %s in all (%.0f%% of the run so far); "+
		"--query-timeout bounds each query (now %s), --solver-time the solver's total time, --timeout the run's",
		s.UndecidedQueries, s.Undecided.Round(time.Second), 100*s.Undecided.Seconds()/s.Elapsed.Seconds(), bound)
}
