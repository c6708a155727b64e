package main

import (
	"bytes"
	"strings"
	"testing"
)

// TestSummary feeds three runs of one benchmark and checks the median, quartiles, extremes and
// spread printed for each metric, and that the other lines pass through.
func TestSummary(t *testing.T) {
	in := `goos: linux
BenchmarkX/a=1-2   	       1	  100 ns/op	  3.0 s/run	 10 queries
BenchmarkX/a=1-2   	       1	  100 ns/op	  1.0 s/run	 10 queries
BenchmarkX/a=1-2   	       1	  100 ns/op	  2.0 s/run	 10 queries
PASS
`
	var out bytes.Buffer
	if err := run(strings.NewReader(in), &out); err != nil {
		t.Fatal(err)
	}
	got := out.String()
	for _, want := range []string{"PASS\n", "BenchmarkX/a=1", "s/run", "queries"} {
		if !strings.Contains(got, want) {
			t.Errorf("output lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "ns/op") || strings.Contains(got, "goos") {
		t.Errorf("output keeps ns/op or the header:\n%s", got)
	}
	fields := func(unit string) []string {
		for _, l := range strings.Split(got, "\n") {
			if f := strings.Fields(l); len(f) > 1 && (f[0] == unit || f[1] == unit) {
				if f[0] == unit {
					return f
				}
				return f[1:]
			}
		}
		t.Fatalf("no row for %s:\n%s", unit, got)
		return nil
	}
	// metric runs median q1 q3 min max IQR/median stddev
	if f := fields("s/run"); strings.Join(f, " ") != "s/run 3 2 1 3 1 3 100.0% 1" {
		t.Errorf("s/run row: %q", f)
	}
	if f := fields("queries"); strings.Join(f, " ") != "queries 3 10 10 10 10 10 0.0% 0" {
		t.Errorf("queries row: %q", f)
	}
}

// TestErrors: no result, and a FAIL line, are errors.
func TestErrors(t *testing.T) {
	var out bytes.Buffer
	if err := run(strings.NewReader("PASS\n"), &out); err == nil {
		t.Error("no benchmark result: no error")
	}
	if err := run(strings.NewReader("BenchmarkY-2 1 5 s/run\nFAIL\tcertsym/engine\n"), &out); err == nil {
		t.Error("FAIL line: no error")
	}
}
