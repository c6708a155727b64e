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
// Check verify/status: every claim's status is the table's status of its summary. Check
// verify/overall: the overall status is, as certsym's README defines it, the first of REFUTED,
// FAULTY, REFUTED?, FAULTY?, INDETERMINATE, UNCOVERED, VERIFIED? that some claim has, and
// VERIFIED otherwise (every claim VERIFIED or DEAD, or no claim).

// paperStatus is INTERPCLAIM^S of the summary s.
func paperStatus(s verify.Summary) verify.Status {
	in := func(r verify.Result) bool { return s.Has(r) }
	all := []verify.Result{verify.ResTrue, verify.ResFalse, verify.ResUndefined, verify.ResDontKnow,
		verify.ResFalseQ, verify.ResUndefinedQ, verify.ResCutoff}
	only := func(rs ...verify.Result) bool { // S = rs exactly
		want := map[verify.Result]bool{}
		for _, r := range rs {
			want[r] = true
		}
		for _, r := range all {
			if in(r) != want[r] {
				return false
			}
		}
		return true
	}
	switch {
	case only():
		return verify.StatusDead
	case only(verify.ResTrue):
		return verify.StatusVerified
	case in(verify.ResFalse):
		return verify.StatusRefuted
	case in(verify.ResUndefined):
		return verify.StatusFaulty
	case in(verify.ResFalseQ):
		return verify.StatusRefutedQ
	case in(verify.ResUndefinedQ):
		return verify.StatusFaultyQ
	case only(verify.ResCutoff):
		return verify.StatusUncovered
	case only(verify.ResTrue, verify.ResCutoff):
		return verify.StatusVerifiedQ
	}
	return verify.StatusIndeterminate
}

// paperOverall is the overall status of claims with the given statuses.
func paperOverall(ss []verify.Status) verify.Status {
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
	if want := paperOverall(ss); rep.Overall != want {
		c.Report("verify/overall", "", -1, "%s: the claims' statuses %v give the overall status %s, verify says %s", mode, ss, want, rep.Overall)
	}
}
