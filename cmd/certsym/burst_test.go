package main

import (
	"bytes"
	"strings"
	"testing"
)

// TestBurstFlag: run --burst K gives the answers of the run without it (the same bugs at the
// same lines with the same inputs and steps, on programs whose bug follows a concrete loop), a
// state bound ends a burst with its reason, and the combinations bursts refuse are usage errors.
func TestBurstFlag(t *testing.T) {
	for _, file := range []string{"../../testdata/loop_bounded_deep_bug.imp", "../../testdata/div_by_zero_constant.imp", "../../testdata/factorial_mutant_extra_iteration.imp"} {
		plain, c1, _ := runJSON(t, "run", file)
		bursty, c2, _ := runJSON(t, "run", file, "--burst", "100000")
		if c1 != c2 || plain.Verdict != bursty.Verdict || len(plain.Bugs) != len(bursty.Bugs) {
			t.Fatalf("%s: without --burst %+v (exit %d), with %+v (exit %d)", file, plain, c1, bursty, c2)
		}
		for i, b := range plain.Bugs {
			c := bursty.Bugs[i]
			if b.Line != c.Line || b.Kind != c.Kind || b.Steps != c.Steps || b.PathCondition != c.PathCondition {
				t.Errorf("%s: bug %d without --burst %+v, with %+v", file, i, b, c)
			}
		}
	}
	out, code, _ := runJSON(t, "run", "../../engine/testdata/long/phases_1-2.imp", "--burst", "100000", "--max-states", "3000000")
	if code != exitUnknown || out.States != 3_000_000 || out.Reason != "state bound reached (3000000 states expanded, 1 pending)" {
		t.Errorf("phases_1-2 --max-states 3000000: exit %d, %d states, reason %q", code, out.States, out.Reason)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--burst", "10", "--strategy", "coverage"}, "bfs and dfs strategies only"},
		{[]string{"--burst", "10", "--no-prune"}, "need pruning"},
		{[]string{"--burst", "10", "--shard", "0/2"}, "sharding"},
		{[]string{"--burst", "10", "--loop-bound", "3"}, "does not apply with --loop-bound"},
		{[]string{"--burst", "10", "--strategy", "generational"}, "does not apply to --strategy generational"},
		{[]string{"--burst", "-1"}, "burst"},
	} {
		var stdout, stderr bytes.Buffer
		code := run(append([]string{"run", "../../testdata/loop_bounded_deep_bug.imp", "--quiet"}, c.args...), &stdout, &stderr)
		if code != exitUsage || !strings.Contains(stderr.String(), c.want) {
			t.Errorf("run %v: exit %d, %q; want a usage error saying %q", c.args, code, stderr.String(), c.want)
		}
	}
}
