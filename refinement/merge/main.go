// Command merge combines the JSON summaries of the shards of one refinement soak
// (make check-refinement SHARD=I/N SUMMARY=FILE, refinement/run.sh):
//
//	go run ./refinement/merge [--json] FILE...
//
// It checks that the summaries are the N shards of one soak (the same seed and number of random
// programs, each shard once), sums their counts (every number of the engine's Summary, by
// check and by rule too), concatenates their mismatches, and takes the mutation check's faults
// from the shard that ran it (shard 0). It prints the merged summary (--json: as JSON) and exits
// 0 when every shard passed, no mismatch was found and every fault was detected, 1 otherwise,
// 2 when the files are not the shards of one soak.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
)

// shardSummary is what run.sh writes; Normal is the refinement layer's Summary, kept generic
// so that counts added to it later are summed too.
type shardSummary struct {
	Seed           int64   `json:"seed"`
	RandomPrograms int     `json:"random_programs"`
	Shard          string  `json:"shard"`
	Status         string  `json:"status"`
	NormalStatus   int     `json:"normal_status"`
	UnitStatus     int     `json:"unit_status"`
	MutationStatus int     `json:"mutation_status"`
	FaultsDetected string  `json:"faults_detected"`
	WallSeconds    float64 `json:"wall_seconds"`
	// Normal is what the normal run's test wrote: {"summary": the Summary, "mismatch_details"}.
	Normal map[string]any `json:"normal"`
}

// Merged is the combined summary.
type Merged struct {
	Seed           int64          `json:"seed"`
	RandomPrograms int            `json:"random_programs"`
	Shards         int            `json:"shards"`
	Status         string         `json:"status"`
	Failed         []string       `json:"failed_shards,omitempty"`
	FaultsDetected string         `json:"faults_detected"`
	WallSeconds    float64        `json:"max_wall_seconds"`
	Summary        map[string]any `json:"summary"`
	Mismatches     []string       `json:"mismatch_details"`
}

// add merges b into a: numbers are summed, objects merged key by key, lists concatenated; other
// values keep a's.
func add(a, b any) any {
	switch bv := b.(type) {
	case float64:
		if av, ok := a.(float64); ok {
			return av + bv
		}
	case map[string]any:
		am, ok := a.(map[string]any)
		if !ok {
			am = map[string]any{}
		}
		for k, v := range bv {
			am[k] = add(am[k], v)
		}
		return am
	case []any:
		av, _ := a.([]any)
		return append(av, bv...)
	}
	if a == nil {
		return b
	}
	return a
}

func merge(files []string) (*Merged, error) {
	var shards []*shardSummary
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		var s shardSummary
		if err := json.Unmarshal(data, &s); err != nil {
			return nil, fmt.Errorf("%s: not a summary of refinement/run.sh: %v", f, err)
		}
		shards = append(shards, &s)
	}
	if len(shards) == 0 {
		return nil, fmt.Errorf("no summary given")
	}
	var i0, n int
	if _, err := fmt.Sscanf(shards[0].Shard, "%d/%d", &i0, &n); err != nil || n < 1 {
		return nil, fmt.Errorf("%s: shard %q: want I/N", files[0], shards[0].Shard)
	}
	m := &Merged{Seed: shards[0].Seed, RandomPrograms: shards[0].RandomPrograms, Shards: n, Summary: map[string]any{}}
	seen := make([]string, n)
	for k, s := range shards {
		var i, c int
		if _, err := fmt.Sscanf(s.Shard, "%d/%d", &i, &c); err != nil || c != n || i < 0 || i >= n {
			return nil, fmt.Errorf("%s is shard %q, %s shard %s: not shards of one soak", files[k], s.Shard, files[0], shards[0].Shard)
		}
		if s.Seed != m.Seed || s.RandomPrograms != m.RandomPrograms {
			return nil, fmt.Errorf("%s (seed %d, %d random programs) and %s (seed %d, %d random programs) are not shards of one soak",
				files[k], s.Seed, s.RandomPrograms, files[0], m.Seed, m.RandomPrograms)
		}
		if seen[i] != "" {
			return nil, fmt.Errorf("shard %d/%d is given twice: %s and %s", i, n, seen[i], files[k])
		}
		seen[i] = files[k]
		if sum, ok := s.Normal["summary"].(map[string]any); ok {
			m.Summary = add(m.Summary, sum).(map[string]any)
		}
		if ds, ok := s.Normal["mismatch_details"].([]any); ok {
			for _, d := range ds {
				m.Mismatches = append(m.Mismatches, fmt.Sprint(d))
			}
		}
		if s.Status != "OK" {
			m.Failed = append(m.Failed, fmt.Sprintf("%s (normal run status %d, unit checks %d, mutation check %d)", s.Shard, s.NormalStatus, s.UnitStatus, s.MutationStatus))
		}
		if s.FaultsDetected != "" {
			m.FaultsDetected = s.FaultsDetected
		}
		if s.WallSeconds > m.WallSeconds {
			m.WallSeconds = s.WallSeconds
		}
	}
	var missing []string
	for i, f := range seen {
		if f == "" {
			missing = append(missing, fmt.Sprintf("%d/%d", i, n))
		}
	}
	if len(missing) > 0 {
		return nil, fmt.Errorf("summary missing for shard %s (a merge needs all %d)", strings.Join(missing, ", "), n)
	}
	m.Status = "OK"
	if len(m.Failed) > 0 || count(m.Summary, "Mismatches") > 0 || !allDetected(m.FaultsDetected) {
		m.Status = "FAILED"
	}
	return m, nil
}

func count(m map[string]any, k string) float64 {
	v, _ := m[k].(float64)
	return v
}

// allDetected reports whether "k/n" has k == n (the mutation check found every fault).
func allDetected(s string) bool {
	var k, n int
	_, err := fmt.Sscanf(s, "%d/%d", &k, &n)
	return err == nil && k == n && n > 0
}

func (m *Merged) text(w io.Writer) {
	fmt.Fprintf(w, "refinement: merged %d shards of seed %d (%d random programs)\n", m.Shards, m.Seed, m.RandomPrograms)
	keys := make([]string, 0, len(m.Summary))
	for k, v := range m.Summary {
		if _, ok := v.(float64); ok {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	for _, k := range keys {
		fmt.Fprintf(w, "refinement:   %-22s %.0f\n", k, m.Summary[k])
	}
	fmt.Fprintf(w, "refinement: faults detected      %s (mutation check, shard 0)\n", orQ(m.FaultsDetected))
	fmt.Fprintf(w, "refinement: longest shard        %.0fs\n", m.WallSeconds)
	for _, d := range m.Mismatches {
		fmt.Fprintf(w, "refinement:   %s\n", d)
	}
	for _, f := range m.Failed {
		fmt.Fprintf(w, "refinement: shard failed: %s\n", f)
	}
	fmt.Fprintf(w, "refinement: %s\n", m.Status)
}

func orQ(s string) string {
	if s == "" {
		return "?"
	}
	return s
}

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("merge", flag.ContinueOnError)
	fs.SetOutput(stderr)
	asJSON := fs.Bool("json", false, "print the merged summary as JSON")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	m, err := merge(fs.Args())
	if err != nil {
		fmt.Fprintf(stderr, "refinement/merge: %v\n", err)
		return 2
	}
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(m); err != nil {
			fmt.Fprintf(stderr, "refinement/merge: %v\n", err)
			return 2
		}
	} else {
		m.text(stdout)
	}
	if m.Status != "OK" {
		return 1
	}
	return 0
}
