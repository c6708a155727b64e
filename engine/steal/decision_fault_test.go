//go:build faults

package steal

import (
	"testing"

	"certsym/internal/fault"
	"certsym/pathcond"
)

// TestStealRedecideFault switches on the fault by which a thief asks its own solver again on a
// stolen job's path condition, and requires the replay of TestStolenJobKeepsTheDecision to show
// it: the stolen state is then classified under the thief's unknown, not its owner's sat.
func TestStealRedecideFault(t *testing.T) {
	fault.Active = fault.StealRedecide
	defer func() { fault.Active = fault.None }()
	got, _, _ := stolenReplay(t)
	if got.PC.Status == pathcond.Sat {
		t.Fatal("the fault went unseen: the stolen state kept its owner's decision")
	}
}
