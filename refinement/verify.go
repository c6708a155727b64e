package refinement

import (
	"fmt"
	"strings"
	"time"

	"certsym/bounded"
	"certsym/internal/budget"
	"certsym/spec"
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
//   - verify/cutoff: a run that the loop limit cuts off and that goes on (with a larger limit,
//     spec.ExecBoundedVisit) to a statement with claims shows that a cutoff reaches them: none
//     of them is VERIFIED or DEAD;
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

// verifyBoundedRun is verify/bounded for the input v.
func (c *checker) verifyBoundedRun(rep *verify.Report, v []spec.Int, mode string) {
	r := spec.ExecBounded(c.u.Prog, v, c.cfg.BoundedN)
	if r.Behaviour != spec.Error || c.quantCut(v, nil) {
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
	if len(falsified) == 0 && r.Fail.Kind == spec.FailIndex && stmtReadsBoundIndex(r.Fail, c.u.Prog.Body) {
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

// quantCut reports whether the run from v, before it ends, reaches an if, assert or while whose
// quantifier has more instances than the loop limit (bounded.Exhausts): verify executes
// quantifiers as loops under the loop limit (bounded.Interp.QuantLoop) and cuts such a path
// there, so the run is beyond its bounds as a run past the loop limit is. With after, the walk
// goes on from that statement, calling after on each statement the run executes, while it
// answers true.
func (c *checker) quantCut(v []spec.Int, after func(spec.Stmt) bool) bool {
	st, cut := spec.State{Store: v, Prog: c.u.Prog.Body}, false
	for step := 0; step < 10*verifySteps; step++ {
		var cond spec.BExpr
		switch s := spec.Head(st.Prog).(type) {
		case *spec.If:
			cond = s.Cond
		case *spec.Assert:
			cond = s.Cond
		case *spec.While:
			cond = s.Cond
		}
		if !cut && cond != nil && bounded.Exhausts(cond, st.Store, c.cfg.BoundedN) {
			if cut = true; after == nil {
				return true
			}
		}
		if cut && !after(spec.Head(st.Prog)) {
			return true
		}
		next, out := spec.Step(st)
		if out != spec.Stepped || tooBigStore(next.Store) {
			return cut
		}
		st = next
	}
	return true // not known to stay within the bounds: no conclusion
}

func claimNames(cs []*verify.Claim) string {
	var out []string
	for _, cl := range cs {
		out = append(out, claimName(cl))
	}
	return "[" + strings.Join(out, "; ") + "]"
}

// verifyCutoffRun is verify/cutoff for the input v.
func (c *checker) verifyCutoffRun(rep *verify.Report, v []spec.Int, mode string) {
	if rep.Stopped != "" {
		return // every claim has the stopped exploration's cutoff
	}
	c.quantCut(v, func(s spec.Stmt) bool { // the cuts of QuantLoop reach what the run executes next
		for _, cl := range rep.ClaimsAt(s) {
			if cl.Status == verify.StatusVerified || cl.Status == verify.StatusDead {
				c.report("verify/cutoff", c.inputString(v), -1, "%s: a quantifier with more than %d instances cuts the run off, and the run goes on to %s",
					mode, c.cfg.BoundedN, claimName(cl))
				return false
			}
		}
		return true
	})
	var short, long []spec.Stmt
	r := spec.ExecBoundedVisit(c.u.Prog, v, c.cfg.BoundedN, func(s spec.Stmt) { short = append(short, s) })
	if r.Behaviour != spec.Incomplete {
		return
	}
	c.sum.VerifyCutRuns++
	spec.ExecBoundedVisit(c.u.Prog, v, verifyLongLimit, func(s spec.Stmt) { long = append(long, s) })
	for _, s := range long[len(short):] {
		for _, cl := range rep.ClaimsAt(s) {
			if cl.Status == verify.StatusVerified || cl.Status == verify.StatusDead {
				c.report("verify/cutoff", c.inputString(v), -1, "%s: the loop limit %d cuts the run off at line %d, and the run goes on to %s",
					mode, c.cfg.BoundedN, spec.LineOf(r.At), claimName(cl))
				return
			}
		}
	}
}

// verifyUnboundedRun is verify/unbounded for the input v.
func (c *checker) verifyUnboundedRun(rep *verify.Report, v []spec.Int, mode string) {
	st := spec.State{Store: v, Prog: c.u.Prog.Body}
	for step := 0; step < verifySteps; step++ {
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
func stmtReadsBoundIndex(f *spec.Fail, body spec.Stmt) bool {
	var st spec.Node
	spec.Inspect(body, func(n spec.Node) bool {
		switch s := n.(type) {
		case *spec.Assign:
			if s.IdxErr == f {
				st = s
			}
		case *spec.If:
			if s.IdxErr == f {
				st = s
			}
		case *spec.While:
			if s.Unfold != nil && s.Unfold.IdxErr == f {
				st = s.Unfold.Cond
			}
		case *spec.Assume:
			if s.IdxErr == f {
				st = s
			}
		case *spec.Assert:
			if s.IdxErr == f {
				st = s
			}
		case *spec.ArrAssign:
			if s.IdxErr == f {
				st = s
			}
		}
		return st == nil
	})
	if st == nil {
		return false
	}
	found := false
	spec.Inspect(st, func(n spec.Node) bool {
		if e, ok := n.(*spec.Elem); ok && readsBound(e.I) {
			found = true
		}
		return !found
	})
	return found
}
