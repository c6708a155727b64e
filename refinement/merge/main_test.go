package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func write(t *testing.T, dir, name string, v any) string {
	t.Helper()
	data, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func summary(shard string, programs, mismatches int, faults string, details ...string) map[string]any {
	return map[string]any{"seed": 7, "random_programs": 10, "shard": shard, "status": map[bool]string{true: "OK", false: "FAILED"}[mismatches == 0],
		"normal_status": 0, "unit_status": 0, "mutation_status": 0, "faults_detected": faults, "wall_seconds": 3,
		"normal": map[string]any{"summary": map[string]any{"Programs": programs, "Mismatches": mismatches,
			"ByCheck": map[string]any{"replay": mismatches}, "Rules": map[string]any{"r1": map[string]any{"Fired": 2}}},
			"mismatch_details": details}}
}

// TestMerge checks the sums, the mismatches' union, the faults of shard 0 and the refusals.
func TestMerge(t *testing.T) {
	dir := t.TempDir()
	s0 := write(t, dir, "0.json", summary("0/3", 4, 0, "26/26"))
	s1 := write(t, dir, "1.json", summary("1/3", 3, 1, "", "MISMATCH [replay] gen-8"))
	s2 := write(t, dir, "2.json", summary("2/3", 3, 0, ""))
	m, err := merge([]string{s2, s0, s1})
	if err != nil {
		t.Fatal(err)
	}
	if m.Summary["Programs"] != 10.0 || m.Summary["Mismatches"] != 1.0 || m.FaultsDetected != "26/26" || m.Status != "FAILED" ||
		len(m.Mismatches) != 1 || m.Summary["Rules"].(map[string]any)["r1"].(map[string]any)["Fired"] != 6.0 {
		t.Errorf("merged %+v", m)
	}
	ok1 := write(t, dir, "1ok.json", summary("1/3", 3, 0, ""))
	var out bytes.Buffer
	if code := run([]string{s0, ok1, s2}, &out, &out); code != 0 || !strings.Contains(out.String(), "refinement: OK") {
		t.Errorf("exit %d: %s", code, out.String())
	}
	other := summary("1/3", 3, 0, "")
	other["seed"] = 8
	for _, c := range []struct {
		files []string
		want  string
	}{
		{[]string{s0, s1}, "summary missing for shard 2/3"},
		{[]string{s0, s0, s1, s2}, "given twice"},
		{[]string{s0, write(t, dir, "o.json", other), s2}, "not shards of one soak"},
		{[]string{s0, write(t, dir, "four.json", summary("1/4", 3, 0, ""))}, "not shards of one soak"},
	} {
		var out bytes.Buffer
		if code := run(c.files, &out, &out); code != 2 || !strings.Contains(out.String(), c.want) {
			t.Errorf("%v: exit %d, %s; want 2 and %q", c.files, code, out.String(), c.want)
		}
	}
}
