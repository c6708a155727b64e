package refinement

import (
	"certsym/engine"
)

// The layer's own transcription of the symbolic interpretation of a claim, INTERPCLAIM^S, of
// Section III-B5 of the xSymExe paper (Hatcliff, Robby, Chalin, Belt, ICSE 2013;
// ../shared/seeds/002_282b7f05f0e9a371.txt), written from the paper and not from
// engine/verify_status.go. S is the collecting summary of the claim: the results of all its
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
func paperStatus(s engine.Summary) engine.ClaimStatus {
	in := func(r engine.Result) bool { return s.Has(r) }
	all := []engine.Result{engine.ResTrue, engine.ResFalse, engine.ResUndefined, engine.ResDontKnow,
		engine.ResFalseQ, engine.ResUndefinedQ, engine.ResCutoff}
	only := func(rs ...engine.Result) bool { // S = rs exactly
		want := map[engine.Result]bool{}
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
		return engine.StatusDead
	case only(engine.ResTrue):
		return engine.StatusVerified
	case in(engine.ResFalse):
		return engine.StatusRefuted
	case in(engine.ResUndefined):
		return engine.StatusFaulty
	case in(engine.ResFalseQ):
		return engine.StatusRefutedQ
	case in(engine.ResUndefinedQ):
		return engine.StatusFaultyQ
	case only(engine.ResCutoff):
		return engine.StatusUncovered
	case only(engine.ResTrue, engine.ResCutoff):
		return engine.StatusVerifiedQ
	}
	return engine.StatusIndeterminate
}

// paperOverall is the overall status of claims with the given statuses.
func paperOverall(ss []engine.ClaimStatus) engine.ClaimStatus {
	for _, want := range []engine.ClaimStatus{engine.StatusRefuted, engine.StatusFaulty, engine.StatusRefutedQ,
		engine.StatusFaultyQ, engine.StatusIndeterminate, engine.StatusUncovered, engine.StatusVerifiedQ} {
		for _, s := range ss {
			if s == want {
				return want
			}
		}
	}
	return engine.StatusVerified
}

// checkStatusTable is verify/status and verify/overall for one report.
func (c *checker) checkStatusTable(rep *engine.VerifyReport, mode string) {
	var ss []engine.ClaimStatus
	for _, cl := range rep.Claims {
		ss = append(ss, cl.Status)
		if want := paperStatus(cl.Summary); cl.Status != want {
			c.report("verify/status", "", -1, "%s: %s: the summary %v interprets as %s (Section III-B5), verify says %s",
				mode, claimName(cl), cl.Summary, want, cl.Status)
		}
		// A result is in the summary exactly when it was collected (Counts) or, for CUTOFF,
		// when a cutoff reaches the claim (Cutoffs).
		for r := engine.ResTrue; r < engine.ResCutoff; r++ {
			if cl.Summary.Has(r) != (cl.Counts[r] > 0) {
				c.report("verify/status", "", -1, "%s: %s: result %s counted %d times, in the summary %v", mode, claimName(cl), r, cl.Counts[r], cl.Summary.Has(r))
			}
		}
	}
	if want := paperOverall(ss); rep.Overall != want {
		c.report("verify/overall", "", -1, "%s: the claims' statuses %v give the overall status %s, verify says %s", mode, ss, want, rep.Overall)
	}
}
