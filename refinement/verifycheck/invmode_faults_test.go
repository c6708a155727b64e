//go:build faults

package verifycheck

import (
	"path/filepath"
	"strings"
	"testing"

	"certsym/internal/fault"
)

// TestInvariantModeFault switches on the fault of verify's invariant mode (inv-havoc-keeps-vars:
// the transition havocs no scalar variable, so the states after it keep the values from before
// the loop) and requires the soundness oracle alone to catch it on the programs of
// TestInvariantModeSound, taken in name order until the first mismatch.
func TestInvariantModeFault(t *testing.T) {
	defer func() { fault.Active = fault.None }()
	fault.Active = fault.InvHavocKeepsVars
	caught, after := "", 0
	for _, f := range invModePrograms(t) {
		after++
		if _, ms := runInvMode(t, f, 1); len(ms) > 0 {
			caught = filepath.Base(f) + ": " + ms[0].check + ": " + ms[0].detail
			break
		}
	}
	fault.Active = fault.None
	switch {
	case caught == "":
		t.Errorf("fault %s missed", fault.InvHavocKeepsVars)
	case !strings.Contains(caught, " verify/invariant-sound"):
		t.Errorf("fault %s caught by another check than verify/invariant-sound: %s", fault.InvHavocKeepsVars, caught)
	default:
		t.Logf("fault %s caught after %d programs: %s", fault.InvHavocKeepsVars, after, caught)
	}
}
