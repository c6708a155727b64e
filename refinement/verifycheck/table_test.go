package verifycheck

import (
	"slices"
	"testing"

	"certsym/verify"
)

// TestPaperTableAgrees: on every summary (every set of the seven results), verify's status table
// (verify.Interpret) and the layer's own transcription of Section III-B5 give the same status.
func TestPaperTableAgrees(t *testing.T) {
	for s := verify.Summary(0); s < 1<<7; s++ {
		if got, want := verify.Interpret(s), paperStatus(s); got != want {
			t.Errorf("summary %v: verify says %s, the paper's table %s", s, got, want)
		}
	}
}

// TestOrderDecided: the summaries that match two cases of the table name the pair, the first
// case over the later one; a summary that matches one case names none.
func TestOrderDecided(t *testing.T) {
	S := verify.SummaryOf
	for _, c := range []struct {
		s    verify.Summary
		want string
	}{
		{S(verify.ResFalse, verify.ResFalseQ), "REFUTED over REFUTED?"},
		{S(verify.ResUndefined, verify.ResFalseQ), "FAULTY over REFUTED?"},
		{S(verify.ResDontKnow, verify.ResFalse), "REFUTED over INDETERMINATE"},
		{S(verify.ResFalse, verify.ResUndefined), "REFUTED over FAULTY"},
		{S(verify.ResFalseQ, verify.ResUndefinedQ, verify.ResCutoff), "REFUTED? over FAULTY?"},
	} {
		if got := orderDecided(c.s); !slices.Contains(got, c.want) {
			t.Errorf("summary %v: the pairs %q miss %q", c.s, got, c.want)
		}
	}
	for _, s := range []verify.Summary{0, S(verify.ResFalse), S(verify.ResCutoff), S(verify.ResTrue, verify.ResCutoff), S(verify.ResDontKnow)} {
		if got := orderDecided(s); len(got) != 0 {
			t.Errorf("summary %v matches one case, but the pairs are %q", s, got)
		}
	}
}
