package refinement

import (
	"fmt"
	"sort"
	"strings"

	"certsym/engine"
	"certsym/pathcond"
	"certsym/refinement/checker"
	"certsym/refinement/refclient"
	"certsym/spec"
	"certsym/spec/integer"
	"certsym/spec/syntax"
)

// The checks of what the bug finder concludes from its stream:
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
func (c *unitChecker) checkVerdict(check string, e *engine.Engine, r *streamRun) {
	rep := e.Verdict(r.bugs)
	want := engine.VerdictUnknown
	switch {
	case len(r.bugs) > 0:
		want = engine.VerdictBug
	case r.finished && !r.errorSeen:
		want = engine.VerdictSafe
	}
	if rep.Verdict != want {
		c.Report(check, "", -1, "the engine's verdict is %s (%s), the stream it produced implies %s (finished %v, error states in the stream %v, bugs %d)",
			rep.Verdict, rep.Reason, want, r.finished, r.errorSeen, len(r.bugs))
	}
	for _, st := range r.unreported {
		c.Report(check, c.InputString(st.PC.Witness), st.Depth, "the error state %s has a satisfiable path condition (witness %s) and its error was never reported",
			checker.StateString(st, c.Slots), c.InputString(st.PC.Witness))
		break
	}
}

// failKey names an error by statement and kind.
func failKey(f *syntax.Fail) string {
	return fmt.Sprintf("%s at line %d (%p)", f.Kind, f.Line(), f)
}

// checkAllBugs is the all-bugs check (named check), after the other checks of the program have
// followed their concrete runs on the reference.
func (c *unitChecker) checkAllBugs(check string, r *streamRun) {
	seen := map[*syntax.Fail]bool{}
	for _, b := range r.bugs {
		if seen[b.Fail] {
			c.Report(check, c.InputString(b.Input), b.State.Depth, "the error %s is reported twice", failKey(b.Fail))
		}
		seen[b.Fail] = true
	}
	if !r.finished {
		return
	}
	var keys []string
	for k := range c.Traces {
		keys = append(keys, k)
	}
	sort.Strings(keys) // a fixed order: reports are reproducible
	for _, k := range keys {
		t := c.Traces[k]
		if t.Err != nil || t.End != "error" || len(t.States) == 0 {
			continue
		}
		in := t.States[0].Store
		v := make([]integer.Int, c.U.Prog.Slots())
		for i, x := range c.Names {
			v[i] = in[x]
		}
		for _, a := range c.U.Prog.Arrays {
			copy(v[a.Offset:a.Offset+a.Size()], t.States[0].Arrays[a.Name])
		}
		res := spec.Run(c.U.Prog, v, len(t.States))
		if res.Outcome != spec.Failed || res.Fail == nil {
			c.Report(check, k, len(t.States)-1, "the reference's run ends in an error after %d steps, spec.Run ends %s after %d", len(t.States)-1, res.Outcome, res.Steps)
			continue
		}
		if !seen[res.Fail] && !r.undecided[res.Fail] {
			c.Report(check, k, res.Steps, "the run of this input reaches the error %s, which the finished --all-bugs run does not report (it reports %d bugs)",
				failKey(res.Fail), len(r.bugs))
			return
		}
	}
}
