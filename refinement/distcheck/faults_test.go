//go:build faults

package distcheck

import (
	"strings"
	"testing"

	"certsym/internal/fault"
)

// TestDistFaults switches on the fault of the coordinator's assembly and requires Compare alone
// to catch it, by dist/answer, on the programs of TestCompare (seeds 1 to 20, not sampled), first bug and --all-bugs (taken in
// order until the first mismatch).
func TestDistFaults(t *testing.T) {
	defer func() { fault.Active = fault.None }()
	progs := programs(t, 20, false)
	for _, tc := range []struct {
		f     fault.Fault
		check string
	}{
		// The error states of different jobs ordered by job: a deeper bug of an earlier job
		// before a shallower bug of a later one (another first bug, or another order).
		{fault.AssembleByJob, "dist/answer"},
		// The coordinator's engine confirms a sibling of a bug's state: another path condition,
		// or a model whose run does not reach the bug.
		{fault.ConfirmWrongChoice, "dist/"},
	} {
		fault.Active = tc.f
		caught, after := "", 0
	programs:
		for _, p := range progs {
			after++
			for _, all := range []bool{false, true} {
				out, err := Compare(p, Options{AllBugs: all, MaxStates: 300, Limits: limits}, nil)
				if err != nil {
					t.Fatal(err)
				}
				if len(out.Mismatches) > 0 {
					caught = out.Mismatches[0].String()
					break programs
				}
			}
		}
		fault.Active = fault.None
		switch {
		case caught == "":
			t.Errorf("fault %s missed on %d programs", tc.f, len(progs))
		case !strings.HasPrefix(caught, tc.check):
			t.Errorf("fault %s caught by another check than %s: %s", tc.f, tc.check, caught)
		default:
			t.Logf("fault %s caught after %d programs: %s", tc.f, after, caught)
		}
	}
}
