// Package verifycheck holds the refinement layer's checks of certsym verify (verify.Verify,
// explicating symbolic execution on the bounded interpreter), run with the loop limit of the
// bounded checks, products exact and abstracted, and under a starved solver. A status is a claim about every concrete run, so concrete runs check it:
//
//   - verify/replay: Verify's own replay of its counterexamples never failed;
//   - verify/refuted: the counterexample of each REFUTED or FAULTY claim fails, in the bounded
//     semantics, at the claim's statement and falsifies the claim there (Claim.Falsified), and
//     the reference's run of it ends in an error;
//   - verify/bounded: a run that fails within the loop limit (spec.ExecBounded) falsifies some
//     claim of the failing statement, and no falsified claim is VERIFIED, VERIFIED?, UNCOVERED
//     or DEAD (the run was explored, so the failure must have been found or left undecided);
//   - verify/stopped: when the state, time, memory or integer bound stopped the exploration
//     (Report.Stopped), the paths it left unexplored may reach any claim (the layer does not
//     know where they were): no claim, and no primitive claim, is DEAD or VERIFIED, each has
//     CUTOFF in its summary (UNCOVERED, VERIFIED?, or a status its other results decide);
//   - verify/cutoff: a run that the loop limit or the quantifier bound cuts off and that goes on
//     (with a larger limit and quantifiers whole, spec.ExecBoundedVisit) to a statement with
//     claims shows that a cutoff reaches them: none of them is VERIFIED or DEAD; a run the
//     quantifier bound cuts off at a statement shows it for the statement's own claims too (the
//     runs that meet again, after the cut, a statement with claims they met before it, as the
//     next iteration of an outer loop does after an inner loop's cut, are counted: they check
//     the control-flow graph's back edges);
//   - verify/maybe: the counterexample of each FALSE? or UNDEFINED? result (a state flagged by an
//     assume whose quantifier ran out of the bound, xSymExe's flag g) either falsifies the claim
//     at its statement in the bounded semantics, or ends infeasible at one of the
//     over-approximating assumes the claim records: the over-approximation explains it;
//   - verify/unbounded: along a run without loop limit (spec.Step, itself checked against the
//     reference by concrete-step), no statement with a DEAD claim is executed and no VERIFIED
//     claim is falsified: VERIFIED and DEAD mean that no cutoff reaches the claim, so no run
//     beyond the limit does either.
//
// The inputs are the random valuations of the other checks and every input the claims' evidence
// names (counterexamples, including the possibly spurious ones of REFUTED? and FAULTY?).
//
// Beside them: verify/claims, the claim set (claims.go); verify/status and verify/overall, the
// layer's own status table (table.go); verify/checkclaim and verify/prim, the primitive claims
// (prims.go).
package verifycheck

import (
	"fmt"
	"strings"
	"time"

	"certsym/bounded"
	"certsym/internal/budget"
	"certsym/refinement/checker"
	"certsym/spec"
	"certsym/spec/integer"
	"certsym/spec/syntax"
	"certsym/verify"
)

// vchecker is the checker of a program, seen by the verify checks.
type vchecker struct{ *checker.Checker }

// Run runs the checks of certsym verify on the checker's current program.
func Run(c *checker.Checker) { vchecker{c}.verifyChecks() }

// verifySteps bounds the unbounded runs of verify/unbounded.
const verifySteps = 400

// verifyLongLimit is the loop limit of the runs verify/cutoff follows beyond the cut.
const verifyLongLimit = 12

func (c vchecker) verifyChecks() {
	n := c.Cfg.BoundedN
	// Three runs: products exact, products abstracted, and a starved solver (rlimit 1: every
	// query Z3 would have to answer is unknown, so only the solver-free reasoning, itself
	// crosschecked, can decide; a status stronger than that reasoning allows is contradicted by
	// the concrete runs below).
	for run := 0; run < 3; run++ {
		if c.Expired() {
			return
		}
		abstract, rlimit, mode := run == 1, c.Cfg.EngineRLimit, "products exact"
		switch run {
		case 1:
			mode = "products abstracted"
		case 2:
			rlimit, mode = 1, "starved solver"
		}
		rep := verify.Verify(c.U.Prog, verify.Options{LoopBound: n, AbstractNonlinear: abstract, CrossCheck: c.XC,
			Limits: budget.Limits{MaxStates: checker.BoundedMaxStates, Timeout: c.Left(4 * time.Second), QueryTimeout: c.Cfg.EngineTimeout, RLimit: rlimit}})
		c.Sum.VerifyClaims += len(rep.Claims)
		c.checkClaimSet(rep, mode)
		c.checkStopped(rep, mode)
		c.checkStatusTable(rep, mode)
		c.checkClaimResults(rep, mode)
		for _, e := range rep.ReplayErrors {
			c.Report("verify/replay", "", -1, "%s: %s", mode, e)
		}
		inputs := c.Inputs(c.Cfg.OracleInputs, nil)
		for _, cl := range rep.Claims {
			for _, r := range []verify.Result{verify.ResFalse, verify.ResUndefined, verify.ResFalseQ, verify.ResUndefinedQ} {
				if w := cl.Witnesses[r]; w != nil { // in a fixed order: runs are reproducible
					inputs = append(inputs, w.Input)
				}
			}
			if cl.Status == verify.StatusRefuted || cl.Status == verify.StatusFaulty {
				if !c.verifyRefuted(rep, cl, mode) {
					return
				}
			}
			c.verifyMaybe(rep, cl, mode)
		}
		for _, v := range inputs {
			if c.Expired() {
				return
			}
			c.Sum.VerifyRuns++
			c.verifyBoundedRun(rep, v, mode)
			c.verifyCutoffRun(rep, v, mode)
			c.verifyUnboundedRun(rep, v, mode)
		}
	}
}

// claimName names a claim in reports.
func claimName(cl *verify.Claim) string {
	return fmt.Sprintf("the %s claim %s at line %d (%s, collected %v)", cl.Kind, cl.Describe(), cl.Line, cl.Status, cl.Summary)
}

// verifyRefuted checks a REFUTED or FAULTY claim's counterexample; it returns false when the
// reference failed (the checks of the program end).
func (c vchecker) verifyRefuted(rep *verify.Report, cl *verify.Claim, mode string) bool {
	w := cl.Counterexample()
	if w == nil {
		c.Report("verify/refuted", "", -1, "%s: %s has no counterexample", mode, claimName(cl))
		return true
	}
	in := c.InputString(w.Input)
	r := spec.ExecBounded(c.U.Prog, w.Input, c.Cfg.BoundedN)
	if r.Behaviour != spec.Error || !hasClaim(rep.ClaimsOfFail(r.Fail), cl) || !cl.Falsified(r.Store) {
		c.Report("verify/refuted", in, -1, "%s: the counterexample of %s ends %s in the bounded semantics (loop limit %d) with store %s, without falsifying the claim",
			mode, claimName(cl), r.Behaviour, c.Cfg.BoundedN, c.InputString(r.Store))
		return true
	}
	kind, last, ok, err := c.RefEnd(w.Input, checker.BoundedRefSteps)
	if err != nil {
		c.Report("reference", in, -1, "%v", err)
		return false
	}
	if ok && kind != "error" {
		c.Report("verify/refuted", in, -1, "%s: the counterexample of %s ends %s at %s on the reference", mode, claimName(cl), kind, checker.RefStateString(last, c.Names))
	}
	return true
}

func hasClaim(cs []*verify.Claim, cl *verify.Claim) bool {
	for _, x := range cs {
		if x == cl {
			return true
		}
	}
	return false
}

// checkStopped is verify/stopped: after a stop, every claim and primitive claim has CUTOFF in its
// summary, so none is DEAD or VERIFIED (a stopped exploration has paths it did not follow, and
// the layer cannot rule out that one of them reaches the claim; the failures such paths hide are
// the business of verify/bounded, for which UNCOVERED and VERIFIED? are then right).
func (c vchecker) checkStopped(rep *verify.Report, mode string) {
	if rep.Stopped == "" {
		return
	}
	c.Sum.VerifyStopped++
	for _, cl := range rep.Claims {
		if !cl.Summary.Has(verify.ResCutoff) || cl.Status == verify.StatusDead || cl.Status == verify.StatusVerified {
			c.Report("verify/stopped", "", -1, "%s: the exploration was stopped (%s), and its unexplored paths may reach %s, but its summary has no CUTOFF",
				mode, rep.Stopped, claimName(cl))
			return
		}
		for _, p := range cl.Prims {
			if !p.Summary.Has(verify.ResCutoff) || p.Status == verify.StatusDead || p.Status == verify.StatusVerified {
				c.Report("verify/stopped", "", -1, "%s: the exploration was stopped (%s), and its unexplored paths may reach the primitive claim %s of %s, but its summary has no CUTOFF",
					mode, rep.Stopped, primName(p), claimName(cl))
				return
			}
		}
	}
}

// unexplained reports whether a claim falsified on a run within the loop limit has a status that
// denies it. When a bound stopped the exploration (stopped), the run may be one it never
// reached: UNCOVERED and VERIFIED? are then right for a failing claim, only VERIFIED and DEAD
// deny the failure (they claim that no cutoff reaches the claim).
func unexplained(s verify.Status, stopped bool) bool {
	switch s {
	case verify.StatusVerified, verify.StatusDead:
		return true
	case verify.StatusVerifiedQ, verify.StatusUncovered:
		return !stopped
	}
	return false
}

// verifyMaybe is verify/maybe for the claim cl.
func (c vchecker) verifyMaybe(rep *verify.Report, cl *verify.Claim, mode string) {
	for _, res := range []verify.Result{verify.ResFalseQ, verify.ResUndefinedQ} {
		w := cl.Witnesses[res]
		if w == nil {
			continue
		}
		c.Sum.VerifyMaybe++
		r := spec.ExecBounded(c.U.Prog, w.Input, c.Cfg.BoundedN)
		if r.Behaviour == spec.Error && hasClaim(rep.ClaimsOfFail(r.Fail), cl) && cl.Falsified(r.Store) {
			continue // a real counterexample: the claim fails
		}
		if a, ok := r.At.(*syntax.Assume); ok && r.Behaviour == spec.Infeasible && hasAssume(cl.OverApprox, a) {
			continue // the input violates an over-approximated assume: the alarm may be false
		}
		if r.Behaviour == spec.Error && failsAtAssume(cl.OverApprox, r.Fail) {
			continue // an instance of the over-approximated quantifier fails: the run ends there
		}
		c.Report("verify/maybe", c.InputString(w.Input), -1, "%s: the %s counterexample of %s ends %s in the bounded semantics (loop limit %d) at line %d: it neither falsifies the claim nor violates one of its over-approximating assumes %v",
			mode, res, claimName(cl), r.Behaviour, c.Cfg.BoundedN, resultLine(r), assumeLines(cl.OverApprox))
	}
}

func hasAssume(as []*syntax.Assume, a *syntax.Assume) bool {
	for _, x := range as {
		if x == a {
			return true
		}
	}
	return false
}

// failsAtAssume reports whether f is the failure (division by zero, index out of range) of one of
// the assumes as.
func failsAtAssume(as []*syntax.Assume, f *syntax.Fail) bool {
	for _, a := range as {
		if f != nil && (f == a.Err || f == a.IdxErr) {
			return true
		}
	}
	return false
}

func assumeLines(as []*syntax.Assume) []int {
	var out []int
	for _, a := range as {
		out = append(out, a.Line())
	}
	return out
}

// resultLine is the line where a bounded run ended (0 when it ended normally).
func resultLine(r spec.BoundedResult) int {
	if r.Fail != nil {
		return r.Fail.Line()
	}
	if r.At != nil {
		return r.At.Pos().Line
	}
	return 0
}

// quantBound is the cut of verify's quantifier bound (bounded.Interp.QuantLoop with the loop
// limit) for spec.ExecBoundedCut: the bounded interpreter's own rule, bounded.Exhausts.
func (c vchecker) quantBound() func(syntax.Stmt, syntax.BExpr, spec.Store) bool {
	return quantCut(c.Cfg.BoundedN)
}

// quantCut is the cut of verify's quantifier bound with loop limit n.
func quantCut(n int) func(syntax.Stmt, syntax.BExpr, spec.Store) bool {
	return func(_ syntax.Stmt, cond syntax.BExpr, s spec.Store) bool { return bounded.Exhausts(cond, s, n) }
}

// afterCut runs the input v of prog with loop limit n, cut by the loop limit and verify's
// quantifier bound. When the run is cut off (r.Behaviour is Incomplete), it follows the run
// beyond the cut with loop limit verifyLongLimit and quantifiers whole, and returns the
// statements it visits from the cut on (from the statement cut off itself for a quantifier cut,
// whose claims were evaluated on part of the instances only), and whether one of them that has
// claims in rep was visited before the cut too (the run meets it again through a loop's back
// edge).
func afterCut(prog *syntax.Program, rep *verify.Report, v []integer.Int, n int) (r spec.BoundedResult, after []syntax.Stmt, again bool) {
	var short, long []syntax.Stmt
	r = spec.ExecBoundedCut(prog, v, n, func(s syntax.Stmt) { short = append(short, s) }, quantCut(n))
	if r.Behaviour != spec.Incomplete {
		return r, nil, false
	}
	spec.ExecBoundedVisit(prog, v, verifyLongLimit, func(s syntax.Stmt) { long = append(long, s) })
	from := len(short)
	if r.Quant {
		from--
	}
	if from > len(long) {
		from = len(long)
	}
	before := map[syntax.Stmt]bool{}
	for _, s := range short[:from] {
		before[s] = true
	}
	for _, s := range long[from:] {
		if before[s] && len(rep.ClaimsAt(s)) > 0 {
			again = true
			break
		}
	}
	return r, long[from:], again
}

// verifyBoundedRun is verify/bounded for the input v.
func (c vchecker) verifyBoundedRun(rep *verify.Report, v []integer.Int, mode string) {
	r := spec.ExecBoundedCut(c.U.Prog, v, c.Cfg.BoundedN, nil, c.quantBound())
	if r.Behaviour != spec.Error {
		return
	}
	in := c.InputString(v)
	var falsified []string
	for _, cl := range rep.ClaimsOfFail(r.Fail) {
		if !cl.Falsified(r.Store) {
			continue
		}
		falsified = append(falsified, claimName(cl))
		if unexplained(cl.Status, rep.Stopped != "") {
			c.Report("verify/bounded", in, -1, "%s: the run fails at line %d within the loop limit %d and falsifies %s",
				mode, r.Fail.Line(), c.Cfg.BoundedN, claimName(cl))
		}
	}
	if len(falsified) == 0 && r.Fail.Kind == syntax.FailIndex && stmtReadsBoundIndex(r.Fail, c.U.Prog.Body) {
		// verify makes no index claim of a read at a quantifier's bound variable (verify.go,
		// index claims): a known gap, counted and reported in the summary, not a mismatch.
		c.Sum.UnclaimedIndex++
		if c.Sum.UnclaimedExample == "" {
			c.Sum.UnclaimedExample = fmt.Sprintf("%s input %s fails at line %d", c.U.Name, in, r.Fail.Line())
		}
		return
	}
	if len(falsified) == 0 {
		c.Report("verify/bounded", in, -1, "%s: the run fails at line %d (%s) within the loop limit %d, but falsifies none of the statement's claims %v",
			mode, r.Fail.Line(), r.Fail.Kind, c.Cfg.BoundedN, claimNames(rep.ClaimsOfFail(r.Fail)))
	}
}

func claimNames(cs []*verify.Claim) string {
	var out []string
	for _, cl := range cs {
		out = append(out, claimName(cl))
	}
	return "[" + strings.Join(out, "; ") + "]"
}

// verifyCutoffRun is verify/cutoff for the input v.
func (c vchecker) verifyCutoffRun(rep *verify.Report, v []integer.Int, mode string) {
	if rep.Stopped != "" {
		return // every claim has the stopped exploration's cutoff
	}
	r, after, again := afterCut(c.U.Prog, rep, v, c.Cfg.BoundedN)
	if r.Behaviour != spec.Incomplete {
		return
	}
	c.Sum.VerifyCutRuns++
	if again {
		c.Sum.VerifyBackEdgeRuns++
	}
	for _, s := range after {
		for _, cl := range rep.ClaimsAt(s) {
			if cl.Status == verify.StatusVerified || cl.Status == verify.StatusDead {
				bound := "loop limit"
				if r.Quant {
					bound = "quantifier bound"
				}
				c.Report("verify/cutoff", c.InputString(v), -1, "%s: the %s %d cuts the run off at line %d, and the run goes on to %s",
					mode, bound, c.Cfg.BoundedN, r.At.Pos().Line, claimName(cl))
				return
			}
		}
	}
}

// verifyUnboundedRun is verify/unbounded for the input v.
func (c vchecker) verifyUnboundedRun(rep *verify.Report, v []integer.Int, mode string) {
	st := spec.State{Store: v, Prog: c.U.Prog.Body}
	for step := 0; step < verifySteps; step++ {
		if !c.checkPrimsAt(rep, rep.ClaimsAt(spec.Head(st.Prog)), st.Store, step, mode) {
			return
		}
		for _, cl := range rep.ClaimsAt(spec.Head(st.Prog)) {
			switch {
			case cl.Status == verify.StatusDead:
				c.Report("verify/unbounded", c.InputString(v), step, "%s: the run executes line %d with store %s, but %s",
					mode, cl.Line, c.InputString(st.Store), claimName(cl))
				return
			case cl.Status == verify.StatusVerified && cl.Falsified(st.Store):
				c.Report("verify/unbounded", c.InputString(v), step, "%s: the run falsifies %s with store %s",
					mode, claimName(cl), c.InputString(st.Store))
				return
			}
		}
		next, out := spec.Step(st)
		if out != spec.Stepped || checker.TooBigStore(next.Store) {
			return
		}
		st = next
	}
}

// stmtReadsBoundIndex reports whether the statement whose index failure is f reads an element at
// an index that reads a quantifier's bound variable (verify makes no claim of those).
func stmtReadsBoundIndex(f *syntax.Fail, body syntax.Stmt) bool {
	var st syntax.Node
	syntax.Inspect(body, func(n syntax.Node) bool {
		switch s := n.(type) {
		case *syntax.While: // the loop's condition is checked by its unfolding
			if s.Unfold != nil && s.Unfold.IdxErr == f {
				st = s.Unfold.Cond
			}
		case syntax.Stmt:
			if _, idx := syntax.Fails(s); idx != nil && idx == f {
				st = s
			}
		}
		return st == nil
	})
	if st == nil {
		return false
	}
	found := false
	syntax.Inspect(st, func(n syntax.Node) bool {
		if e, ok := n.(*syntax.Elem); ok && syntax.UsesBound(e.I) {
			found = true
		}
		return !found
	})
	return found
}
