package refinement

import (
	"fmt"
	"strings"
	"sync"
	"testing"
)

// TestMemoryCeilingCutsPrograms runs the layer with a ceiling every process exceeds: the program
// is cut in its first check, counted, logged, and the run ends without a mismatch.
func TestMemoryCeilingCutsPrograms(t *testing.T) {
	needRef(t)
	t.Setenv("REFINEMENT_MAX_RSS_MB", "1")
	units, err := LoadFiles("../engine/testdata/gcd.imp")
	if err != nil {
		t.Fatal(err)
	}
	cfg := DefaultConfig()
	cfg.Workers = 1
	var logs []string
	var mu sync.Mutex
	cfg.Log = func(f string, a ...any) { mu.Lock(); logs = append(logs, fmt.Sprintf(f, a...)); mu.Unlock() }
	sum, err := Run(cfg, units)
	if err != nil {
		t.Fatal(err)
	}
	if sum.MemoryCut != 1 || sum.OverBudget != 0 || sum.Mismatches != 0 {
		t.Fatalf("memory cuts %d, over budget %d, mismatches %d: want 1, 0, 0", sum.MemoryCut, sum.OverBudget, sum.Mismatches)
	}
	mu.Lock()
	defer mu.Unlock()
	for _, l := range logs {
		if strings.Contains(l, "memory ceiling: resident") && strings.Contains(l, "gcd.imp cut in check") {
			return
		}
	}
	t.Fatalf("no log line names the cut program: %q", logs)
}
