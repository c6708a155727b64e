package refinement

import (
	"fmt"
	"sort"
	"strings"

	"certsym/engine"
	"certsym/pathcond"
	"certsym/refinement/refclient"
	"certsym/spec"
	"certsym/spec/integer"
	"certsym/spec/syntax"
	"certsym/verify"
)

// The checks of what the bug finder concludes from its stream, and of verify's claim set:
//
//   - verdict: the verdict of every run the layer replays (engine.Engine.Verdict, computed as
//     FindBugs computes it) is the one the layer derives from the stream it saw: "bug" when a
//     bug was reported; otherwise "safe" only when the stream ended with Finished and no error
//     state was left in it (with pruning on, an error state that reaches the stream has a path
//     condition the solver did not refute: it is a bug or undecided); "unknown" otherwise. An
//     error state of the stream whose path condition the engine found satisfiable must have been
//     reported (or its (statement, kind) reported before, with --all-bugs).
//   - all-bugs: on a finished run with --all-bugs, every (statement, kind) error that a concrete
//     run of the reference reaches (but those of error states the solver left undecided) (every run the layer followed for the program: ghost,
//     exhaustiveness and precision inputs) is among the reported bugs, and no (statement, kind)
//     is reported twice.
//   - verify/claims: the claims of certsym verify are exactly those of the program, found by the
//     layer's own walk of the syntax tree: one assert claim per assert and per explicit fail,
//     one division claim per division or remainder in each statement's own expressions.

// streamRun is what the layer saw of one bug-finder run.
type streamRun struct {
	bugs       []*engine.Bug
	finished   bool // the stream ended with Finished
	errorSeen  bool // an error state reached the stream
	unreported []*engine.State
	undecided  map[*syntax.Fail]bool // errors of error states the solver left undecided
}

// observe records one status of the stream.
func (r *streamRun) observe(s engine.Status, reported map[*syntax.Fail]bool) {
	switch s.Kind {
	case engine.Finished:
		r.finished = true
		return
	case engine.Stopped:
		return
	case engine.BugFound:
		r.bugs = append(r.bugs, s.Bug)
		reported[s.Bug.Fail] = true
	}
	st := s.State
	if st == nil || !strings.HasPrefix(refclient.Canon(st.Prog.Stmt()), "fail") {
		return
	}
	r.errorSeen = true
	if st.PC.Status == pathcond.Unknown {
		if r.undecided == nil {
			r.undecided = map[*syntax.Fail]bool{}
		}
		r.undecided[st.ErrorOf()] = true
	}
	if s.Kind != engine.BugFound && st.PC.Status == pathcond.Sat && !reported[st.ErrorOf()] {
		r.unreported = append(r.unreported, st)
	}
}

// checkVerdict compares the engine's verdict with the one the stream implies.
func (c *checker) checkVerdict(check string, e *engine.Engine, r *streamRun) {
	rep := e.Verdict(r.bugs)
	want := engine.VerdictUnknown
	switch {
	case len(r.bugs) > 0:
		want = engine.VerdictBug
	case r.finished && !r.errorSeen:
		want = engine.VerdictSafe
	}
	if rep.Verdict != want {
		c.report(check, "", -1, "the engine's verdict is %s (%s), the stream it produced implies %s (finished %v, error states in the stream %v, bugs %d)",
			rep.Verdict, rep.Reason, want, r.finished, r.errorSeen, len(r.bugs))
	}
	for _, st := range r.unreported {
		c.report(check, c.inputString(st.PC.Witness), st.Depth, "the error state %s has a satisfiable path condition (witness %s) and its error was never reported",
			stateString(st, c.slots), c.inputString(st.PC.Witness))
		break
	}
}

// failKey names an error by statement and kind.
func failKey(f *syntax.Fail) string {
	return fmt.Sprintf("%s at line %d (%p)", f.Kind, f.Line(), f)
}

// checkAllBugs is the all-bugs check, after the other checks of the program have followed their
// concrete runs on the reference.
func (c *checker) checkAllBugs(r *streamRun) {
	seen := map[*syntax.Fail]bool{}
	for _, b := range r.bugs {
		if seen[b.Fail] {
			c.report("all-bugs", c.inputString(b.Input), b.State.Depth, "the error %s is reported twice", failKey(b.Fail))
		}
		seen[b.Fail] = true
	}
	if !r.finished {
		return
	}
	var keys []string
	for k := range c.traces {
		keys = append(keys, k)
	}
	sort.Strings(keys) // a fixed order: reports are reproducible
	for _, k := range keys {
		t := c.traces[k]
		if t.err != nil || t.end != "error" || len(t.states) == 0 {
			continue
		}
		in := t.states[0].store
		v := make([]integer.Int, c.u.Prog.Slots())
		for i, x := range c.names {
			v[i] = in[x]
		}
		for _, a := range c.u.Prog.Arrays {
			copy(v[a.Offset:a.Offset+a.Size()], t.states[0].arrays[a.Name])
		}
		res := spec.Run(c.u.Prog, v, len(t.states))
		if res.Outcome != spec.Failed || res.Fail == nil {
			c.report("all-bugs", k, len(t.states)-1, "the reference's run ends in an error after %d steps, spec.Run ends %s after %d", len(t.states)-1, res.Outcome, res.Steps)
			continue
		}
		if !seen[res.Fail] && !r.undecided[res.Fail] {
			c.report("all-bugs", k, res.Steps, "the run of this input reaches the error %s, which the finished --all-bugs run does not report (it reports %d bugs)",
				failKey(res.Fail), len(r.bugs))
			return
		}
	}
}

// expectedClaims is the layer's own list of the program's claims: kind, statement and (for a
// division claim) the division, as keys.
func expectedClaims(s syntax.Stmt, out map[string]int) {
	key := func(kind string, st syntax.Stmt, d *syntax.BinA) string { return fmt.Sprintf("%s %p %p", kind, st, d) }
	ikey := func(st syntax.Stmt, i syntax.AExpr) string { return fmt.Sprintf("index %p %p", st, i) }
	var divsA func(a syntax.AExpr, st syntax.Stmt)
	var divsB func(b syntax.BExpr, st syntax.Stmt)
	divsA = func(a syntax.AExpr, st syntax.Stmt) {
		switch a := a.(type) {
		case *syntax.Elem: // an element read: its index claim (issue 13), unless the index reads a
			// quantifier's bound variable (verify makes no claim of those: the claim would not be
			// a condition on the statement's store)
			divsA(a.I, st)
			if !syntax.UsesBound(a.I) && !spec.ConstInRange(a.Arr, a.I) { // a constant index in range cannot fail: no claim
				out[ikey(st, a.I)]++
			}
		case *syntax.Neg:
			divsA(a.X, st)
		case *syntax.BinA:
			divsA(a.L, st)
			divsA(a.R, st)
			// verify makes no claim of a divisor reading a bound variable, nor of a constant
			// non-zero divisor (it cannot fail)
			if (a.Op == syntax.Div || a.Op == syntax.Mod) && !syntax.UsesBound(a.R) && !spec.ConstNonZero(a.R) {
				out[key("division", st, a)]++
			}
		}
	}
	divsB = func(b syntax.BExpr, st syntax.Stmt) {
		switch b := b.(type) {
		case *syntax.Quant:
			divsA(b.Lo, st)
			divsA(b.Hi, st)
			divsB(b.Body, st)
		case *syntax.Cmp:
			divsA(b.L, st)
			divsA(b.R, st)
		case *syntax.Not:
			divsB(b.X, st)
		case *syntax.BinB:
			divsB(b.L, st)
			divsB(b.R, st)
		}
	}
	switch s := s.(type) {
	case *syntax.Seq:
		expectedClaims(s.First, out)
		expectedClaims(s.Second, out)
	case *syntax.Assign:
		divsA(s.A, s)
	case *syntax.ArrAssign:
		divsA(s.I, s)
		divsA(s.A, s)
		if !spec.ConstInRange(s.Arr, s.I) {
			out[ikey(s, s.I)]++
		}
	case *syntax.If:
		divsB(s.Cond, s)
		expectedClaims(s.Then, out)
		expectedClaims(s.Else, out)
	case *syntax.While:
		divsB(s.Cond, s)
		expectedClaims(s.Body, out)
	case *syntax.Assume:
		divsB(s.Cond, s)
	case *syntax.Assert:
		// its divisions and element reads are supporting primitive claims of the assert
		// (xSymExe, Section IV-A), not claims of their own
		out[key("assert", s, nil)]++
	case *syntax.Fail:
		out[key("assert", s, nil)]++
	}
}

// checkClaimSet is verify/claims.
func (c *checker) checkClaimSet(rep *verify.Report, mode string) {
	want := map[string]int{}
	expectedClaims(c.u.Prog.Body, want)
	got := map[string]int{}
	for _, cl := range rep.Claims {
		kind, d := "assert", (*syntax.BinA)(nil)
		if cl.Kind == verify.ClaimDivision {
			kind, d = "division", cl.Div
		}
		if cl.Kind == verify.ClaimIndex {
			got[fmt.Sprintf("index %p %p", cl.Stmt, cl.Index)]++
			continue
		}
		got[fmt.Sprintf("%s %p %p", kind, cl.Stmt, d)]++
	}
	if len(got) == len(want) {
		same := true
		for k, n := range want {
			if got[k] != n {
				same = false
				break
			}
		}
		if same {
			return
		}
	}
	nw, ng := 0, 0
	for _, n := range want {
		nw += n
	}
	for _, n := range got {
		ng += n
	}
	c.report("verify/claims", "", -1, "%s: verify has %d claims %s, the program has %d (its asserts, explicit fails, divisions and remainders)",
		mode, ng, claimNames(rep.Claims), nw)
}
