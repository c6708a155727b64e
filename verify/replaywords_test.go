package verify

import (
	"strings"
	"testing"
)

// TestReplayErrorWords: a replay that fails is said as what it replays: a passing test (a TRUE
// result's) is "a passing test", never "a counterexample"; a FALSE result's input is "a
// counterexample". Both are hand-made paths the concrete run does not follow (the run is blocked
// by the first assume), which no exploration produces.
func TestReplayErrorWords(t *testing.T) {
	const src = "assume x < 0;\nassert x > 5;\nassume x == 7;\nassume x <= 0"
	// Path condition x == 7: the claim is TRUE there; its test x = 7 is blocked at line 1.
	v, st, ss := handState(t, src, Options{LoopBound: 1}, []int{2})
	v.evalClaim(st, v.claims[ss[1]][0])
	// (The claim's TRUE evidence and its defining primitive claim's each have the test.)
	if len(v.rep.ReplayErrors) == 0 {
		t.Error("TRUE: no replay error")
	}
	for _, e := range v.rep.ReplayErrors {
		if !strings.HasPrefix(e, "a passing test of the assert claim at line 2 (ASSERT@2), input x=7, did not replay: ") || strings.Contains(e, "counterexample") {
			t.Errorf("TRUE: replay error %q", e)
		}
	}
	// Path condition x <= 0: the claim is FALSE there; its counterexample is blocked at line 1.
	v, st, ss = handState(t, src, Options{LoopBound: 1}, []int{3})
	v.evalClaim(st, v.claims[ss[1]][0])
	if len(v.rep.ReplayErrors) != 1 || !strings.HasPrefix(v.rep.ReplayErrors[0], "a counterexample of the assert claim at line 2 (ASSERT@2), input x=") {
		t.Errorf("FALSE: replay errors %q", v.rep.ReplayErrors)
	}
}
