package report

import (
	"fmt"
	"io"
)

// Summary is what run's text report prints after the bugs of a symbolic run: the verdict and the
// counters of the exploration.
type Summary struct {
	Verdict string // bug, safe or unknown
	Reason  string
	Bugs    int
	// Expanded, Pruned and Depth count the states; Queries, Sat, Unsat and Unknown the solver's
	// queries and answers; Seconds is the run's time.
	Expanded, Pruned, Depth      int
	Queries, Sat, Unsat, Unknown int
	Seconds                      float64
}

// WriteText prints the verdict line and the counters line.
func (s Summary) WriteText(w io.Writer) {
	s.WriteVerdict(w)
	fmt.Fprintf(w, "\n%s expanded, %d pruned, depth %d, %s (%d sat, %d unsat, %d unknown), %.2fs\n",
		Plural(s.Expanded, "state"), s.Pruned, s.Depth, Plural(s.Queries, "solver query"), s.Sat, s.Unsat, s.Unknown, s.Seconds)
}

// WriteVerdict prints the verdict line without its line break.
func (s Summary) WriteVerdict(w io.Writer) {
	fmt.Fprintf(w, "verdict: %s", s.Verdict)
	switch {
	case s.Verdict == "safe":
		fmt.Fprint(w, " (the exploration finished: no error state is reachable)")
	case s.Verdict == "bug" && s.Reason != "":
		fmt.Fprintf(w, " (%s; the list of bugs may be incomplete: %s)", Plural(s.Bugs, "bug"), s.Reason)
	case s.Reason != "":
		fmt.Fprintf(w, " (%s)", s.Reason)
	}
}
