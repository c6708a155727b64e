package report

import (
	"fmt"
	"strings"

	"certsym/internal/budget"
)

// Progress is one line of a command's progress reports: what the search did so far and what the
// solver is doing. search says whether States counts expanded states (run) or branch states
// (bounded modes).
func Progress(p budget.Snapshot, search bool) string {
	var b strings.Builder
	fmt.Fprintf(&b, "certsym: %.0fs: ", p.Elapsed.Seconds())
	if search {
		fmt.Fprintf(&b, "%s, %d pending, depth %d, ", Plural(p.States, "state")+" expanded", p.Pending, p.Depth)
	} else {
		fmt.Fprintf(&b, "%s, ", Plural(p.States, "branch state"))
	}
	fmt.Fprintf(&b, "%s", Plural(p.Queries, "solver query"))
	if p.Elapsed > 0 {
		fmt.Fprintf(&b, " (%.0f%% of the time in the solver)", 100*p.SolverTime.Seconds()/p.Elapsed.Seconds())
	}
	if p.InQuery > 0 {
		fmt.Fprintf(&b, ", in a query for %.1fs", p.InQuery.Seconds())
	}
	if search {
		fmt.Fprintf(&b, ", %s", Plural(p.Bugs, "bug"))
	}
	if p.Hint != "" {
		b.WriteString("\n" + p.Hint)
	}
	return b.String()
}
