package verifycheck

import (
	"certsym/verify"
)

// The layer's own transcription of the symbolic interpretation of a claim, INTERPCLAIM^S, of
// Section III-B5 of the xSymExe paper (Hatcliff, Robby, Chalin, Belt, ICSE 2013;
// ../shared/seeds/002_282b7f05f0e9a371.txt), written from the paper and not from
// verify/status.go. S is the collecting summary of the claim: the results of all its
// evaluations on the explored paths, and CUTOFF when a cutoff path can reach it. The cases are
// tried in the paper's order and "the first case is taken as defining":
//
//	DEAD          S = ∅
//	VERIFIED      S = {TRUE}
//	REFUTED       FALSE ∈ S
//	FAULTY        UNDEFINED ∈ S
//	REFUTED?      FALSE? ∈ S
//	FAULTY?       UNDEFINED? ∈ S
//	UNCOVERED     S = {CUTOFF}
//	VERIFIED?     S = {TRUE, CUTOFF}
//	INDETERMINATE otherwise (DONTKNOW, alone or with TRUE and CUTOFF)
//
// Where a summary matches more than one case (FALSE with FALSE?, UNDEFINED with FALSE?, DONTKNOW
// with FALSE, ...), the order of the cases decides its status; the summary counts, for each such
// pair of cases, how many claims had a summary it decided (Summary.VerifyOrder), and the
// generator's verify snippets (gen/verify.go) are there to reach them.
//
// Check verify/status: every claim's status is the table's status of its summary. Check
// verify/overall: the overall status is, as certsym's README defines it, the first of REFUTED,
// FAULTY, REFUTED?, FAULTY?, INDETERMINATE, UNCOVERED, VERIFIED? that some claim has, and
// VERIFIED otherwise (every claim VERIFIED or DEAD, or no claim).

// paperRow is one case of INTERPCLAIM^S: its status and its condition on S.
type paperRow struct {
	status verify.Status
	match  func(s verify.Summary) bool
}

// paperTable is INTERPCLAIM^S, its cases in the paper's order. INDETERMINATE's "otherwise" is
// written DONTKNOW ∈ S, which is what the summaries the earlier cases leave have in common, so
// that the order of the cases is what decides a summary of DONTKNOW and FALSE.
var paperTable = func() []paperRow {
	all := []verify.Result{verify.ResTrue, verify.ResFalse, verify.ResUndefined, verify.ResDontKnow,
		verify.ResFalseQ, verify.ResUndefinedQ, verify.ResCutoff}
	only := func(rs ...verify.Result) func(verify.Summary) bool { // S = rs exactly
		want := map[verify.Result]bool{}
		for _, r := range rs {
			want[r] = true
		}
		return func(s verify.Summary) bool {
			for _, r := range all {
				if s.Has(r) != want[r] {
					return false
				}
			}
			return true
		}
	}
	in := func(r verify.Result) func(verify.Summary) bool {
		return func(s verify.Summary) bool { return s.Has(r) }
	}
	return []paperRow{
		{verify.StatusDead, only()},
		{verify.StatusVerified, only(verify.ResTrue)},
		{verify.StatusRefuted, in(verify.ResFalse)},
		{verify.StatusFaulty, in(verify.ResUndefined)},
		{verify.StatusRefutedQ, in(verify.ResFalseQ)},
		{verify.StatusFaultyQ, in(verify.ResUndefinedQ)},
		{verify.StatusUncovered, only(verify.ResCutoff)},
		{verify.StatusVerifiedQ, only(verify.ResTrue, verify.ResCutoff)},
		{verify.StatusIndeterminate, in(verify.ResDontKnow)},
	}
}()

// paperStatus is INTERPCLAIM^S of the summary s: the first case that matches.
func paperStatus(s verify.Summary) verify.Status {
	for _, r := range paperTable {
		if r.match(s) {
			return r.status
		}
	}
	panic("verifycheck: no case of the status table matches " + s.String())
}

// orderDecided names the pairs of cases of the table that both match s, the first one (which
// gives s its status) over each later one: "REFUTED over REFUTED?" for {FALSE, FALSE?}. A table
// whose rows are in another order gives s the later one's status, so these are the summaries
// that check the order.
func orderDecided(s verify.Summary) []string {
	var out []string
	first := ""
	for _, r := range paperTable {
		if !r.match(s) {
			continue
		}
		if first == "" {
			first = r.status.String()
			continue
		}
		out = append(out, first+" over "+r.status.String())
	}
	return out
}

// paperOverall is the overall status of claims with the given statuses, of an exploration
// stopped early for the reason stopped ("" when it was not): without claims, a stopped
// exploration is VERIFIED?, as it would be for a claim TRUE wherever reached (the stop is a
// cutoff that reaches every claim).
func paperOverall(ss []verify.Status, stopped string) verify.Status {
	if len(ss) == 0 && stopped != "" {
		return verify.StatusVerifiedQ
	}
	for _, want := range []verify.Status{verify.StatusRefuted, verify.StatusFaulty, verify.StatusRefutedQ,
		verify.StatusFaultyQ, verify.StatusIndeterminate, verify.StatusUncovered, verify.StatusVerifiedQ} {
		for _, s := range ss {
			if s == want {
				return want
			}
		}
	}
	return verify.StatusVerified
}

// checkStatusTable is verify/status and verify/overall for one report.
func (c vchecker) checkStatusTable(rep *verify.Report, mode string) {
	var ss []verify.Status
	for _, cl := range rep.Claims {
		ss = append(ss, cl.Status)
		for _, k := range orderDecided(cl.Summary) {
			if c.Sum.VerifyOrder == nil {
				c.Sum.VerifyOrder = map[string]int{}
			}
			c.Sum.VerifyOrder[k]++
		}
		if want := paperStatus(cl.Summary); cl.Status != want {
			c.Report("verify/status", "", -1, "%s: %s: the summary %v interprets as %s (Section III-B5), verify says %s",
				mode, claimName(cl), cl.Summary, want, cl.Status)
		}
		// A result is in the summary exactly when it was collected (Counts) or, for CUTOFF,
		// when a cutoff reaches the claim (Cutoffs).
		for r := verify.ResTrue; r < verify.ResCutoff; r++ {
			if cl.Summary.Has(r) != (cl.Counts[r] > 0) {
				c.Report("verify/status", "", -1, "%s: %s: result %s counted %d times, in the summary %v", mode, claimName(cl), r, cl.Counts[r], cl.Summary.Has(r))
			}
		}
	}
	if want := paperOverall(ss, rep.Stopped); rep.Overall != want {
		c.Report("verify/overall", "", -1, "%s: the claims' statuses %v give the overall status %s, verify says %s", mode, ss, want, rep.Overall)
	}
}
