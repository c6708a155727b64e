package main

import (
	"encoding/json"
	"strings"
	"testing"
	"time"
)

// The concrete runs beside the symbolic ones (verify's replays of its tests, concolic's run, the
// bounded interpreter's and the bug finder's replays of an error's input) honour the bounds of a
// concrete run as exec does: the quantifier instances, the integer bound, and the monitor (the
// time bound, an interrupt), each ending with its reason.

// hugeRangeSrc asserts a quantifier of n · 10^12 instances: evaluated whole, it runs for hours.
const hugeRangeSrc = "assume n > 0;\nassert forall k in 0..n * 1000000000000: k * k >= 0\n"

// slowRangeSrc is hugeRangeSrc with an instance that multiplies big integers: the bound on
// quantifier instances is reached only after about a minute, so a time bound of one second is
// what cuts the replay, on a fast machine as on a loaded one.
var slowRangeSrc = "assume n > 0;\nassert forall k in 0..n * 1000000000000: k" + strings.Repeat(" * k", 15) + " >= 0\n"

// squaringsSrc squares an input sixty times before a reachable fail: the replay of the bug's
// input (x = 2) would compute 2^(2^60).
var squaringsSrc = "assume x > 1;\n" + strings.Repeat("x = x * x;\n", 60) + "if y > 0 then fail else skip fi\n"

// TestVerifyReplayQuantifierBounds: verify's replay of a path's test stops in a quantifier over a
// huge range: at the time bound, with the partial report (JSON) within a second of it and the
// replay phase named as cut; without one, at the bound on quantifier instances, the path's test
// saying so.
func TestVerifyReplayQuantifierBounds(t *testing.T) {
	if testing.Short() {
		t.Skip("starts processes that run for a second")
	}
	r := runLimited(t, 30*time.Second, "verify", writeProg(t, slowRangeSrc), "--json", "--timeout", "1s", "--quiet")
	var out struct {
		Cut   []string `json:"cut"`
		Paths []struct {
			Ends string `json:"ends"`
		} `json:"paths"`
	}
	err := json.Unmarshal([]byte(r.stdout), &out)
	if r.killed || r.code != exitUnknown || err != nil || r.elapsed > 2500*time.Millisecond || len(out.Cut) != 1 ||
		!strings.HasPrefix(out.Cut[0], "time bound reached (1s): the replay of the tests: 1 of 1 paths not replayed") {
		t.Errorf("--timeout 1s: want the partial JSON report, the replay cut, exit 3, within a second of the deadline (%v)\n%s", err, r)
	}
	r = runLimited(t, 60*time.Second, "verify", writeProg(t, hugeRangeSrc), "--quiet")
	if r.killed || r.code != exitUnknown ||
		!strings.Contains(r.stdout, "no test: its replay was cut short (quantifier instance bound reached (more than 10000000 instances evaluated, at 2:1))") {
		t.Errorf("no time bound: want the path's test cut at the bound on quantifier instances\n%s", r)
	}
}

// TestConcolicQuantifierBounds: concolic's concrete run bounds the quantifier instances by
// --max-steps, as exec does, and polls the monitor inside a quantifier: it ends at the step bound
// or the time bound with the reason, exit 3, where it evaluated 10^12 instances.
func TestConcolicQuantifierBounds(t *testing.T) {
	if testing.Short() {
		t.Skip("starts processes")
	}
	f := writeProg(t, "assert forall k in 0..1000000000000: k * k >= 0\n")
	for _, c := range []struct {
		args            []string
		outcome, reason string
	}{
		{[]string{"--max-steps", "100"}, "step-bound", "quantifier instance bound reached (more than 100 instances evaluated, at 1:1)"},
		{[]string{"--max-steps", "1000000000000000", "--timeout", "1s"}, "stopped", "time bound reached (1s)"},
	} {
		r := runLimited(t, 30*time.Second, append([]string{"concolic", f, "--input", "", "--json"}, c.args...)...)
		var out struct {
			Outcome string `json:"outcome"`
			Reason  string `json:"reason"`
		}
		err := json.Unmarshal([]byte(r.stdout), &out)
		if r.killed || r.code != exitUnknown || err != nil || out.Outcome != c.outcome || out.Reason != c.reason || r.elapsed > 10*time.Second {
			t.Errorf("%v: want outcome %s, reason %q, exit 3 (%v)\n%s", c.args, c.outcome, c.reason, err, r)
		}
	}
}

// TestErrorReplayIntegerBound: the bug finder's confirmation of an error (in the single run and in
// the partitioned run of --workers) and the bounded interpreter's replay of its model stop at the
// integer bound, where the error's input makes a value of 2^60 bits: the error is left
// unconfirmed and the verdict is unknown, saying why, with exit 3.
func TestErrorReplayIntegerBound(t *testing.T) {
	if testing.Short() {
		t.Skip("starts processes")
	}
	f := writeProg(t, squaringsSrc)
	const why = "the replay of the input that reaches the fail at "
	const bound = " was cut short: integer bound reached (a value of more than 1048576 bits assigned at 21:1)"
	for _, c := range []struct {
		args []string
		fail string
	}{
		{[]string{"run", f, "--json"}, "line 62"},
		{[]string{"run", f, "--workers", "2", "--json"}, "line 62"}, // the partitioned run (engine/steal)
		{[]string{"run", f, "--loop-bound", "2", "--json"}, "62:15"},
	} {
		r := runLimited(t, 30*time.Second, c.args...)
		var out struct {
			Verdict string `json:"verdict"`
			Reason  string `json:"reason"`
		}
		err := json.Unmarshal([]byte(r.stdout), &out)
		if r.killed || r.code != exitUnknown || err != nil || out.Verdict != "unknown" || out.Reason != why+c.fail+bound {
			t.Errorf("%v: want verdict unknown, reason %q, exit 3 (%v)\n%s", c.args, why+c.fail+bound, err, r)
		}
	}
}
