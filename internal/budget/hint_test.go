package budget

import (
	"strings"
	"testing"
	"time"
)

// TestSolverHint: the hint comes when the undecided queries' time is at least HintMinUndecided
// and more than half the run's, and names the bounds that help.
func TestSolverHint(t *testing.T) {
	for _, c := range []struct {
		elapsed, undecided time.Duration
		want               bool
	}{
		{20 * time.Second, 9 * time.Second, false},  // under the minimum
		{30 * time.Second, 12 * time.Second, false}, // under half the run
		{20 * time.Second, 12 * time.Second, true},
		{12 * time.Minute, 12 * time.Minute, true},
	} {
		h := SolverHint(Snapshot{Elapsed: c.elapsed, Undecided: c.undecided, UndecidedQueries: 3}, 10*time.Second)
		if (h != "") != c.want {
			t.Errorf("%v undecided of %v: %q", c.undecided, c.elapsed, h)
		}
		if h == "" {
			continue
		}
		for _, w := range []string{"3 solver queries", "--query-timeout", "(now 10s)", "--solver-time", "--timeout"} {
			if !strings.Contains(h, w) {
				t.Errorf("hint %q: no %q", h, w)
			}
		}
	}
}

// TestTickHintsOnce: the progress reports carry the hint once, in the first report after the
// undecided queries' time passes the thresholds.
func TestTickHintsOnce(t *testing.T) {
	m := NewMonitor()
	m.SetLimits(Limits{QueryTimeout: 10 * time.Second})
	for i := 0; i < 2; i++ { // two queries that ended undecided after 10s each
		m.QueryStarted(time.Now())
		m.QueryUndecided()
		m.QueryDone(10 * time.Second)
	}
	m.QueryStarted(time.Now()) // one decided
	m.QueryDone(time.Second)
	if s := m.Snapshot(); s.UndecidedQueries != 2 || s.Undecided != 20*time.Second || s.SolverTime != 21*time.Second {
		t.Fatalf("snapshot %+v", s)
	}
	reports := make(chan Snapshot, 100)
	stop := m.Tick(5*time.Millisecond, func(s Snapshot) { reports <- s })
	time.Sleep(100 * time.Millisecond)
	stop()
	close(reports)
	hints, n := 0, 0
	for s := range reports {
		n++
		if s.Hint != "" {
			hints++
			if n != 1 {
				t.Errorf("hint in report %d", n)
			}
		}
	}
	if n < 2 || hints != 1 {
		t.Errorf("%d reports, %d with the hint: want one hint", n, hints)
	}
}
