package main

import (
	"bytes"
	"strings"
	"testing"
)

// TestMergeFlag: run --merge finds the bugs of the run without it (the same places and kinds,
// each with an input that replays, on a program whose 256 paths merge after each if), prints its
// counters after the run's, and the combinations it refuses are usage errors.
func TestMergeFlag(t *testing.T) {
	for _, file := range []string{"../../testdata/many_paths_one_bug.imp", "../../testdata/all_bugs_three_kinds_in_order.imp"} {
		plain, c1, _ := runJSON(t, "run", file, "--all-bugs")
		merged, c2, _ := runJSON(t, "run", file, "--all-bugs", "--merge")
		if c1 != c2 || plain.Verdict != merged.Verdict || len(plain.Bugs) != len(merged.Bugs) {
			t.Fatalf("%s: without --merge %+v (exit %d), with %+v (exit %d)", file, plain, c1, merged, c2)
		}
		for i, b := range plain.Bugs {
			m := merged.Bugs[i]
			if b.Line != m.Line || b.Kind != m.Kind || b.Steps != m.Steps {
				t.Errorf("%s: bug %d without --merge %+v, with %+v", file, i, b, m)
			}
			var out, errOut bytes.Buffer
			if code := run(append([]string{"exec", file, "--input"}, m.Reproduce[strings.Index(m.Reproduce, "--input ")+len("--input "):]), &out, &errOut); code != exitBug {
				t.Errorf("%s: the input of bug %d with --merge does not reach an error: %s%s", file, i, out.String(), errOut.String())
			}
		}
	}
	for _, extra := range [][]string{nil, {"--workers", "2"}} { // --workers leaves a merged run to one goroutine
		var stdout, stderr bytes.Buffer
		if code := run(append([]string{"run", "../../testdata/many_paths_safe.imp", "--quiet", "--merge"}, extra...), &stdout, &stderr); code != exitSafe ||
			!strings.Contains(stdout.String(), "merging: 8 merges of 16 states") {
			t.Errorf("run --merge %v many_paths_safe.imp: exit %d\n%s%s", extra, code, stdout.String(), stderr.String())
		}
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--merge", "--strategy", "dfs"}, "--strategy bfs only"},
		{[]string{"--merge", "--strategy", "generational"}, "--strategy bfs only"},
		{[]string{"--merge", "--loop-bound", "3"}, "--loop-bound"},
		{[]string{"--merge", "--burst", "10"}, "--burst"},
		{[]string{"--merge", "--shard", "0/2"}, "--shard"},
		{[]string{"--merge", "--tests", t.TempDir()}, "--tests"},
		{[]string{"--merge", "--dot", t.TempDir() + "/t.dot"}, "--dot"},
		{[]string{"--merge", "--distributed", "nats://127.0.0.1:1"}, "--merge does not apply with --distributed"},
	} {
		var stdout, stderr bytes.Buffer
		code := run(append([]string{"run", "../../testdata/many_paths_safe.imp", "--quiet"}, c.args...), &stdout, &stderr)
		if code != exitUsage || !strings.Contains(stderr.String(), c.want) {
			t.Errorf("run %v: exit %d, %q; want a usage error saying %q", c.args, code, stderr.String(), c.want)
		}
	}
}
