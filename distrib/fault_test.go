//go:build faults

package distrib_test

import (
	"testing"

	"certsym/internal/fault"
)

// TestMutationAckBeforeStore runs the kill test's loop with workers built with the fault
// ack-before-store switched on (certsym worker reads CERTSYM_FAULT in a faults build): a worker
// acknowledges each job before it stores the job's result and split-off jobs, so one killed in
// between loses them. The loop must catch it: some run's output or job count differs from the
// undisturbed run's (the coordinator waits for the lost job until its time bound).
func TestMutationAckBeforeStore(t *testing.T) {
	url := startNATS(t)
	bin := certsym(t, "faults")
	w := newPool(t, bin, url, "CERTSYM_FAULT="+fault.AckBeforeStore.String())
	w.start(2)
	cases := killCases(t, bin, url, w)
	msg, n := killLoop(t, bin, url, w, cases, 4*killRuns(), 2)
	if msg == "" {
		t.Fatalf("fault %s missed: %d runs with a worker killed, all identical", fault.AckBeforeStore, n)
	}
	t.Logf("fault %s caught after %d runs: %s", fault.AckBeforeStore, n, firstLine(msg))
}

func firstLine(s string) string {
	for i, c := range s {
		if c == '\n' {
			return s[:i]
		}
	}
	return s
}
