package steal

import (
	"testing"
	"time"

	"certsym/engine"
	"certsym/internal/budget"
	"certsym/internal/testprog"
)

// TestConfirmClockStartsWithTheRun runs a program whose bug is found some time after the run
// started (the run is held back before its workers start) and requires the time bound of the
// bug's replay and of the confirmer's queries (its solver's deadline) to be the run's: counted
// from the start of the run, not from the first bug.
func TestConfirmClockStartsWithTheRun(t *testing.T) {
	prog := testprog.Parse(t, "assume x > 3; y = 10 / (x - 5)\n")
	for _, n := range []int{1, 2} {
		opts := engine.Options{Limits: budget.Limits{Timeout: time.Hour}, Workers: n}
		r, m := newRun(prog, Options{Options: opts}, nil)
		time.Sleep(300 * time.Millisecond)
		r.execute(m)
		if len(m.bugs) != 1 {
			t.Fatalf("%d workers: %d bugs, want 1", n, len(m.bugs))
		}
		conf, run := r.confirmer.chain.Deadline(), m.meter.Deadline()
		if _, err := r.finish(m); err != nil {
			t.Fatal(err)
		}
		if conf.After(run) {
			t.Errorf("%d workers: the replays' time bound ends %v after the run's: it was counted from the first bug", n, conf.Sub(run))
		}
	}
}
