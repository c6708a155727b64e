//go:build faults

package stealcheck

import (
	"strings"
	"testing"

	"certsym/engine"
	"certsym/internal/fault"
)

// TestStealFaults switches on each fault of the partitioned runs in turn and requires Compare
// alone to catch it, by the check that catches that fault, on the programs of TestCompare, every seed (taken
// in order until the first mismatch).
func TestStealFaults(t *testing.T) {
	defer func() { fault.Active = fault.None }()
	progs := programs(t, false)
	for _, tc := range []struct {
		f      fault.Fault
		checks []string
	}{
		// A thief replays the sibling of its job: it explores another subtree, twice, and
		// leaves its own out (or its path names no state).
		{fault.StealWrongPrefix, []string{"steal/single", "steal/error"}},
		// A bug is taken before every worker has passed its depth: another bug, or the counters
		// of fewer states.
		{fault.FirstBugEarly, []string{"steal/single", "steal/output"}},
	} {
		fault.Active = tc.f
		caught, after := "", 0
		for _, p := range progs {
			after++
			ms, _, err := Compare(p, engine.Options{Limits: limits(300)}, nil)
			if err != nil {
				t.Fatal(err)
			}
			if len(ms) > 0 {
				caught = ms[0].String()
				break
			}
		}
		fault.Active = fault.None
		ok := false
		for _, c := range tc.checks {
			ok = ok || strings.HasPrefix(caught, c+" ")
		}
		switch {
		case caught == "":
			t.Errorf("fault %s missed on %d programs", tc.f, len(progs))
		case !ok:
			t.Errorf("fault %s caught by another check than %v: %s", tc.f, tc.checks, caught)
		default:
			t.Logf("fault %s caught after %d programs: %s", tc.f, after, caught)
		}
	}
}
