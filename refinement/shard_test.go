package refinement

import (
	"encoding/json"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
)

// shardUnits keeps the units of shard I of N when REFINEMENT_SHARD is I/N (make
// check-refinement SHARD=I/N): the k-th corpus program and the k-th random program (its
// generator seed SEED+k) belong to shard k mod N, so the N shards of one SEED and N check every
// program exactly once. Without REFINEMENT_SHARD it returns the units unchanged.
func shardUnits(t *testing.T, corpus, generated []*Unit) []*Unit {
	i, n, ok := refinementShard(t)
	if !ok {
		return append(corpus, generated...)
	}
	var out []*Unit
	for _, us := range [][]*Unit{corpus, generated} {
		for k, u := range us {
			if k%n == i {
				out = append(out, u)
			}
		}
	}
	t.Logf("refinement: shard %d/%d: %d of %d corpus programs, %d of %d random programs", i, n,
		(len(corpus)+n-1-i)/n, len(corpus), (len(generated)+n-1-i)/n, len(generated))
	return out
}

// refinementShard reads REFINEMENT_SHARD (I/N, 0 <= I < N).
func refinementShard(t *testing.T) (i, n int, ok bool) {
	s := os.Getenv("REFINEMENT_SHARD")
	if s == "" {
		return 0, 1, false
	}
	a, b, cut := strings.Cut(s, "/")
	i, err1 := strconv.Atoi(a)
	n, err2 := strconv.Atoi(b)
	if !cut || err1 != nil || err2 != nil || n < 1 || i < 0 || i >= n {
		t.Fatalf("REFINEMENT_SHARD=%q: want I/N with 0 <= I < N", s)
	}
	return i, n, true
}

// writeSummary writes the summary as JSON to REFINEMENT_SUMMARY when it is set (refinement/run.sh
// puts it in its own JSON summary, which refinement/merge combines across shards).
func writeSummary(t *testing.T, seed int64, n int, sum *Summary) {
	path := os.Getenv("REFINEMENT_SUMMARY")
	if path == "" {
		return
	}
	i, count, _ := refinementShard(t)
	var details []string
	for _, m := range sum.Details {
		details = append(details, m.String())
	}
	out := map[string]any{"seed": seed, "random_programs": n, "shard": fmt.Sprintf("%d/%d", i, count), "summary": sum, "mismatch_details": details}
	data, err := json.MarshalIndent(out, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, append(data, '\n'), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestShardUnits checks that the shards of the programs partition them.
func TestShardUnits(t *testing.T) {
	mk := func(n int) []*Unit {
		var us []*Unit
		for k := 0; k < n; k++ {
			us = append(us, &Unit{Name: fmt.Sprint(k)})
		}
		return us
	}
	corpus, generated := mk(7), mk(10)
	for _, n := range []int{1, 2, 3, 4} {
		seen := map[*Unit]int{}
		for i := 0; i < n; i++ {
			t.Setenv("REFINEMENT_SHARD", fmt.Sprintf("%d/%d", i, n))
			for _, u := range shardUnits(t, corpus, generated) {
				seen[u]++
			}
		}
		if len(seen) != 17 {
			t.Errorf("%d shards check %d of the 17 programs", n, len(seen))
		}
		for u, c := range seen {
			if c != 1 {
				t.Errorf("%d shards: program %s checked %d times", n, u.Name, c)
			}
		}
	}
}
