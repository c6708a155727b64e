package verifycheck

import (
	"fmt"

	"certsym/spec"
	"certsym/verify"
)

// The checks of certsym verify's primitive claims (xSymExe, Section IV):
//
//   - verify/checkclaim: each developer claim's results are CHECKCLAIM of its primitive claims'
//     results path by path (Section IV-C, first match): on every path where a supporting claim
//     collected FALSE the claim collected UNDEFINED; where one collected FALSE? (and none FALSE),
//     UNDEFINED?; where one collected DONTKNOW (and none FALSE or FALSE?), DONTKNOW; and every
//     result of the claim on a path is one of these or the defining claim's result there. The
//     evidence of each result lists its paths (Evidence.Paths), which is what is compared.
//   - verify/prim: along the concrete runs of verify/unbounded, a primitive claim that is
//     VERIFIED is never false where it is evaluated: at a statement with the claim, when every
//     supporting claim before it holds (a check is only made when the evaluation before it is
//     defined), its condition is not false. A quantified check is read as its condition over the
//     whole range, which the concrete run evaluates whole, so only a defined false counts.

// checkClaimResults is verify/checkclaim for every claim of rep.
func (c vchecker) checkClaimResults(rep *verify.Report, mode string) {
	for _, cl := range rep.Claims {
		if len(cl.Prims) == 0 {
			continue
		}
		paths := func(o *verify.Outcome, r verify.Result) map[int]bool {
			out := map[int]bool{}
			if e := o.Evidence[r]; e != nil {
				for _, p := range e.Paths {
					out[p] = true
				}
			}
			return out
		}
		sup := cl.Supporting()
		def := cl.Defining()
		// what the supporting claims make of a path, in CHECKCLAIM's order of precedence
		rules := []struct{ sup, claim verify.Result }{
			{verify.ResFalse, verify.ResUndefined}, {verify.ResFalseQ, verify.ResUndefinedQ}, {verify.ResDontKnow, verify.ResDontKnow}}
		decided := map[int]verify.Result{} // path -> the claim's result the supporting claims force
		for _, rule := range rules {
			for _, p := range sup {
				for path := range paths(&p.Outcome, rule.sup) {
					if _, ok := decided[path]; !ok {
						decided[path] = rule.claim
					}
				}
			}
		}
		for path, want := range decided {
			if !paths(&cl.Outcome, want)[path] {
				c.Report("verify/checkclaim", "", -1, "%s: on path %d a supporting claim of %s makes it %s (CHECKCLAIM, first match), but the claim did not collect %s there (collected %v)",
					mode, path, claimName(cl), want, want, cl.Summary)
				return
			}
		}
		for r := verify.Result(0); r < verify.ResCutoff; r++ {
			for path := range paths(&cl.Outcome, r) {
				if want, ok := decided[path]; ok && want == r {
					continue
				}
				if paths(&def.Outcome, r)[path] {
					continue
				}
				if _, ok := decided[path]; ok {
					continue // a path met more than once (a claim in a loop): another visit decided it
				}
				c.Report("verify/checkclaim", "", -1, "%s: %s collected %s on path %d, which neither a supporting claim nor the defining claim %s gives there",
					mode, claimName(cl), r, path, def.Name())
				return
			}
		}
	}
}

// checkPrimsAt is verify/prim at one state of a concrete run: the claims of the statement at the
// head, in store s.
func (c vchecker) checkPrimsAt(rep *verify.Report, cls []*verify.Claim, s spec.Store, step int, mode string) bool {
	for _, cl := range cls {
		for _, p := range cl.Prims {
			val, _, ok := spec.EvalBKind(p.Expr, s, nil)
			if !ok {
				break // undefined here: the later checks are not made
			}
			if !val && p.Status == verify.StatusVerified {
				c.Report("verify/prim", c.InputString(s), step, "%s: the primitive claim %s of %s is false in store %s",
					mode, primName(p), claimName(cl), c.InputString(s))
				return false
			}
			if !val {
				break
			}
		}
	}
	return true
}

// primName names a primitive claim with its status in reports.
func primName(p *verify.Prim) string {
	return fmt.Sprintf("%s %s (%s, collected %v)", p.Name(), p.Text, p.Status, p.Summary)
}
