//go:build faults

package mergecheck

import (
	"sort"
	"strings"
	"testing"

	"certsym/internal/fault"
)

// TestMergeFaults switches on each fault of the merge in turn and requires the oracles alone to
// catch it, by the check that catches that fault, on the programs of TestMergeOracles (taken in
// name order until the first mismatch).
func TestMergeFaults(t *testing.T) {
	defer func() { fault.Active = fault.None }()
	progs := programs(t, 150)
	names := make([]string, 0, len(progs))
	for n := range progs {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, tc := range []struct {
		f     fault.Fault
		check string
	}{
		{fault.MergeIteSwapped, "merge/exhaustive-store"},
		{fault.MergeDropDisjunct, "merge/exhaustive"},
		{fault.MergeDifferentContinuations, "merge/continuation"},
		{fault.MergeWrongModel, "merge/precise"},
	} {
		fault.Active = tc.f
		caught, after := "", 0
		for _, n := range names {
			after++
			if _, ms := runOracle(t, progs[n], 1); len(ms) > 0 {
				caught = ms[0].check + ": " + ms[0].detail
				break
			}
		}
		fault.Active = fault.None
		switch {
		case caught == "":
			t.Errorf("fault %s missed on %d programs", tc.f, len(names))
		case !strings.HasPrefix(caught, tc.check+":"):
			t.Errorf("fault %s caught by another check than %s: %s", tc.f, tc.check, caught)
		default:
			t.Logf("fault %s caught after %d programs: %s", tc.f, after, caught)
		}
	}
}
