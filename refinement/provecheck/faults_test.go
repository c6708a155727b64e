//go:build faults

package provecheck

import (
	"path/filepath"
	"strings"
	"testing"

	"certsym/internal/fault"
)

// TestProveFaults switches on each fault of the proof mode in turn and requires the oracles
// alone to catch it, by the check that catches that fault, on the programs of TestProveOracles
// (taken in name order until the first mismatch).
func TestProveFaults(t *testing.T) {
	defer func() { fault.Active = fault.None }()
	files := programs(t)
	for _, tc := range []struct {
		f     fault.Fault
		check string
	}{
		{fault.ModifiesMissesArrayWrite, "prove/exhaustive"},
		{fault.InvNotAssumedAfterLoop, "prove/exit-invariant"},
		{fault.PreservationBeforeBody, "prove/proved-safe"},
	} {
		fault.Active = tc.f
		caught, after := "", 0
		for _, f := range files {
			after++
			if _, ms := runOracle(t, f, 1); len(ms) > 0 {
				caught = filepath.Base(f) + ": " + ms[0].check + ": " + ms[0].detail
				break
			}
		}
		fault.Active = fault.None
		switch {
		case caught == "":
			t.Errorf("fault %s missed on %d programs", tc.f, len(files))
		case !strings.Contains(caught, " "+tc.check):
			t.Errorf("fault %s caught by another check than %s: %s", tc.f, tc.check, caught)
		default:
			t.Logf("fault %s caught after %d programs: %s", tc.f, after, caught)
		}
	}
}
