package refinement

import (
	"fmt"

	"certsym/bounded"
	"strings"
	"time"

	"certsym/internal/budget"
	"certsym/spec"
	"certsym/spec/integer"
	"certsym/spec/syntax"
	"certsym/verify"
)

// The checks of certsym verify (verify.Verify, explicating symbolic execution on the bounded
// interpreter), run with the loop limit of the bounded checks, products exact and abstracted. A
// status is a claim about every concrete run, so concrete runs check it:
//
//   - verify/replay: Verify's own replay of its counterexamples never failed;
//   - verify/refuted: the counterexample of each REFUTED or FAULTY claim fails, in the bounded
//     semantics, at the claim's statement and falsifies the claim there (Claim.Falsified), and
//     the reference's run of it ends in an error;
//   - verify/bounded: a run that fails within the loop limit (spec.ExecBounded) falsifies some
//     claim of the failing statement, and no falsified claim is VERIFIED, VERIFIED?, UNCOVERED
//     or DEAD (the run was explored, so the failure must have been found or left undecided);
//   - verify/cutoff: a run that the loop limit or the quantifier bound cuts off and that goes on
//     (with a larger limit and quantifiers whole, spec.ExecBoundedVisit) to a statement with
//     claims shows that a cutoff reaches them: none of them is VERIFIED or DEAD; a run the
//     quantifier bound cuts off at a statement shows it for the statement's own claims too;
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

// verifySteps bounds the unbounded runs of verify/unbounded.
const verifySteps = 400

// verifyLongLimit is the loop limit of the runs verify/cutoff follows beyond the cut.
const verifyLongLimit = 12

func (c *checker) verifyChecks() {
	n := c.cfg.BoundedN
	// Three runs: products exact, products abstracted, and a starved solver (rlimit 1: every
	// query Z3 would have to answer is unknown, so only the solver-free reasoning, itself
	// crosschecked, can decide; a status stronger than that reasoning allows is contradicted by
	// the concrete runs below).
	for run := 0; run < 3; run++ {
		if c.expired() {
			return
		}
		abstract, rlimit, mode := run == 1, c.cfg.EngineRLimit, "products exact"
		switch run {
		case 1:
			mode = "products abstracted"
		case 2:
			rlimit, mode = 1, "starved solver"
		}
		rep := verify.Verify(c.u.Prog, verify.Options{LoopBound: n, AbstractNonlinear: abstract,
			Limits: budget.Limits{MaxStates: boundedMaxStates, Timeout: c.left(4 * time.Second), QueryTimeout: c.cfg.EngineTimeout, RLimit: rlimit}})
		c.sum.VerifyClaims += len(rep.Claims)
		c.checkClaimSet(rep, mode)
		c.checkStatusTable(rep, mode)
		c.checkClaimResults(rep, mode)
		for _, e := range rep.ReplayErrors {
			c.report("verify/replay", "", -1, "%s: %s", mode, e)
		}
		inputs := c.inputs(c.cfg.OracleInputs, nil)
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
			if c.expired() {
				return
			}
			c.sum.VerifyRuns++
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
func (c *checker) verifyRefuted(rep *verify.Report, cl *verify.Claim, mode string) bool {
	w := cl.Counterexample()
	if w == nil {
		c.report("verify/refuted", "", -1, "%s: %s has no counterexample", mode, claimName(cl))
		return true
	}
	in := c.inputString(w.Input)
	r := spec.ExecBounded(c.u.Prog, w.Input, c.cfg.BoundedN)
	if r.Behaviour != spec.Error || !hasClaim(rep.ClaimsOfFail(r.Fail), cl) || !cl.Falsified(r.Store) {
		c.report("verify/refuted", in, -1, "%s: the counterexample of %s ends %s in the bounded semantics (loop limit %d) with store %s, without falsifying the claim",
			mode, claimName(cl), r.Behaviour, c.cfg.BoundedN, c.inputString(r.Store))
		return true
	}
	kind, last, ok, err := c.refEnd(w.Input, boundedRefSteps)
	if err != nil {
		c.report("reference", in, -1, "%v", err)
		return false
	}
	if ok && kind != "error" {
		c.report("verify/refuted", in, -1, "%s: the counterexample of %s ends %s at %s on the reference", mode, claimName(cl), kind, refStateString(last, c.names))
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
func (c *checker) verifyMaybe(rep *verify.Report, cl *verify.Claim, mode string) {
	for _, res := range []verify.Result{verify.ResFalseQ, verify.ResUndefinedQ} {
		w := cl.Witnesses[res]
		if w == nil {
			continue
		}
		c.sum.VerifyMaybe++
		r := spec.ExecBounded(c.u.Prog, w.Input, c.cfg.BoundedN)
		if r.Behaviour == spec.Error && hasClaim(rep.ClaimsOfFail(r.Fail), cl) && cl.Falsified(r.Store) {
			continue // a real counterexample: the claim fails
		}
		if a, ok := r.At.(*syntax.Assume); ok && r.Behaviour == spec.Infeasible && hasAssume(cl.OverApprox, a) {
			continue // the input violates an over-approximated assume: the alarm may be false
		}
		if r.Behaviour == spec.Error && failsAtAssume(cl.OverApprox, r.Fail) {
			continue // an instance of the over-approximated quantifier fails: the run ends there
		}
		c.report("verify/maybe", c.inputString(w.Input), -1, "%s: the %s counterexample of %s ends %s in the bounded semantics (loop limit %d) at line %d: it neither falsifies the claim nor violates one of its over-approximating assumes %v",
			mode, res, claimName(cl), r.Behaviour, c.cfg.BoundedN, resultLine(r), assumeLines(cl.OverApprox))
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
func (c *checker) quantBound() func(syntax.Stmt, syntax.BExpr, spec.Store) bool {
	return func(_ syntax.Stmt, cond syntax.BExpr, s spec.Store) bool {
		return bounded.Exhausts(cond, s, c.cfg.BoundedN)
	}
}

// verifyBoundedRun is verify/bounded for the input v.
func (c *checker) verifyBoundedRun(rep *verify.Report, v []integer.Int, mode string) {
	r := spec.ExecBoundedCut(c.u.Prog, v, c.cfg.BoundedN, nil, c.quantBound())
	if r.Behaviour != spec.Error {
		return
	}
	in := c.inputString(v)
	var falsified []string
	for _, cl := range rep.ClaimsOfFail(r.Fail) {
		if !cl.Falsified(r.Store) {
			continue
		}
		falsified = append(falsified, claimName(cl))
		if unexplained(cl.Status, rep.Stopped != "") {
			c.report("verify/bounded", in, -1, "%s: the run fails at line %d within the loop limit %d and falsifies %s",
				mode, r.Fail.Line(), c.cfg.BoundedN, claimName(cl))
		}
	}
	if len(falsified) == 0 && r.Fail.Kind == syntax.FailIndex && stmtReadsBoundIndex(r.Fail, c.u.Prog.Body) {
		// verify makes no index claim of a read at a quantifier's bound variable (verify.go,
		// index claims): a known gap, counted and reported in the summary, not a mismatch.
		c.sum.UnclaimedIndex++
		if c.sum.UnclaimedExample == "" {
			c.sum.UnclaimedExample = fmt.Sprintf("%s input %s fails at line %d", c.u.Name, in, r.Fail.Line())
		}
		return
	}
	if len(falsified) == 0 {
		c.report("verify/bounded", in, -1, "%s: the run fails at line %d (%s) within the loop limit %d, but falsifies none of the statement's claims %v",
			mode, r.Fail.Line(), r.Fail.Kind, c.cfg.BoundedN, claimNames(rep.ClaimsOfFail(r.Fail)))
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
func (c *checker) verifyCutoffRun(rep *verify.Report, v []integer.Int, mode string) {
	if rep.Stopped != "" {
		return // every claim has the stopped exploration's cutoff
	}
	var short, long []syntax.Stmt
	r := spec.ExecBoundedCut(c.u.Prog, v, c.cfg.BoundedN, func(s syntax.Stmt) { short = append(short, s) }, c.quantBound())
	if r.Behaviour != spec.Incomplete {
		return
	}
	c.sum.VerifyCutRuns++
	spec.ExecBoundedVisit(c.u.Prog, v, verifyLongLimit, func(s syntax.Stmt) { long = append(long, s) })
	from := len(short)
	if r.Quant {
		// the statement cut off evaluated only part of its condition: its claims are impacted too
		from--
	}
	for _, s := range long[from:] {
		for _, cl := range rep.ClaimsAt(s) {
			if cl.Status == verify.StatusVerified || cl.Status == verify.StatusDead {
				bound := "loop limit"
				if r.Quant {
					bound = "quantifier bound"
				}
				c.report("verify/cutoff", c.inputString(v), -1, "%s: the %s %d cuts the run off at line %d, and the run goes on to %s",
					mode, bound, c.cfg.BoundedN, r.At.Pos().Line, claimName(cl))
				return
			}
		}
	}
}

// verifyUnboundedRun is verify/unbounded for the input v.
func (c *checker) verifyUnboundedRun(rep *verify.Report, v []integer.Int, mode string) {
	st := spec.State{Store: v, Prog: c.u.Prog.Body}
	for step := 0; step < verifySteps; step++ {
		if !c.checkPrimsAt(rep, rep.ClaimsAt(spec.Head(st.Prog)), st.Store, step, mode) {
			return
		}
		for _, cl := range rep.ClaimsAt(spec.Head(st.Prog)) {
			switch {
			case cl.Status == verify.StatusDead:
				c.report("verify/unbounded", c.inputString(v), step, "%s: the run executes line %d with store %s, but %s",
					mode, cl.Line, c.inputString(st.Store), claimName(cl))
				return
			case cl.Status == verify.StatusVerified && cl.Falsified(st.Store):
				c.report("verify/unbounded", c.inputString(v), step, "%s: the run falsifies %s with store %s",
					mode, claimName(cl), c.inputString(st.Store))
				return
			}
		}
		next, out := spec.Step(st)
		if out != spec.Stepped || tooBigStore(next.Store) {
			return
		}
		st = next
	}
}

// tooBigStore is tooBig for a store of the Go semantics.
func tooBigStore(s spec.Store) bool {
	for _, v := range s {
		if tooBigInt(v) {
			return true
		}
	}
	return false
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
