// Package streamcheck is the refinement layer's whole-stream comparison (check "stream/..."): the Go engine's unpruned run (--no-prune,
// engine.Options.NoPrune, with its bug finder's status stream, --all-bugs) against the stream of
// the extracted reference (certsym-ref run_start / run_next: the extracted run and classify of
// Run.v and Bugfinder.v), state by state, beyond the step replay's 150 states per program:
//
//   - stream/program: the n-th states have the same remaining program (canonical text);
//   - stream/store, stream/pc: their stores and path conditions agree under the engine's witness
//     (when it has one) and random valuations, evaluated by the layer (the reference's JSON with
//     total division); every streamZ3Every-th state, the path conditions are also compared by Z3;
//   - stream/status: a BugFound of the engine is an error state of the reference; an error state
//     of the reference that the engine does not report has a path condition the engine found
//     unsatisfiable (and the layer's Z3 finds no model of it), undecided, or an error
//     (statement, kind) reported before;
//   - stream/end: both streams end (Finished) at the same state, or neither before the budget.
//
// The frontier, the order of the queue and the status stream are thus checked state by state,
// as far as the budget goes (the frontier reclaims its consumed prefix only after 1024 states).

package streamcheck

import (
	"strings"
	"time"

	"certsym/engine"
	"certsym/internal/budget"
	"certsym/pathcond"
	"certsym/refinement/checker"
	"certsym/refinement/prover"
	"certsym/refinement/refclient"
	"certsym/spec/syntax"
)

// streamZ3Every is how often (in states) the path conditions are also compared by Z3.
const streamZ3Every = 97

// schecker is the checker of a program, seen by the stream comparison.
type schecker struct{ *checker.Checker }

// Compare compares the first max states of the engine's unpruned stream of the checker's current
// program with the reference's. It returns the number of states compared.
func Compare(c *checker.Checker, max int) int { return schecker{c}.compare(max) }

func (c schecker) compare(max int) int {
	if err := c.Ref.RunStart(c.U.RefBody, c.Names); err != nil {
		c.Report("reference", "", -1, "run_start: %v", err)
		return 0
	}
	opts := engine.Options{NoPrune: true, AllBugs: true, Limits: budget.Limits{MaxStates: max,
		RLimit: c.Cfg.EngineRLimit, QueryTimeout: c.Cfg.EngineTimeout}}
	start := time.Now()
	e := c.NewEngine(opts)
	reported := map[*syntax.Fail]bool{}
	var buf []refclient.StreamState
	refEnded := false
	n := 0
	for n < max && !c.Expired() {
		if len(buf) == 0 && !refEnded {
			chunk := 200
			if max-n < chunk {
				chunk = max - n
			}
			states, ended, tooBig, err := c.Ref.RunNext(chunk, c.Names)
			if err != nil {
				c.Report("reference", "", n, "run_next: %v", err)
				return n
			}
			buf, refEnded = states, ended
			if tooBig && len(buf) == 0 {
				return n // the reference's terms outgrew the limit: compared so far
			}
		}
		s, err := e.Next()
		if err != nil {
			c.Report("oracle/engine-replay", "", n, "unpruned stream: the engine's own bug replay failed: %v", err)
			return n
		}
		if s.Kind == engine.Stopped {
			c.CheckStop("stop", e, opts, start)
			return n
		}
		if s.Kind == engine.Finished {
			if len(buf) > 0 || !refEnded {
				c.Report("stream/end", "", n, "the engine's stream is finished after %d states, the reference's goes on", n)
			}
			return n
		}
		if len(buf) == 0 {
			if refEnded {
				c.Report("stream/end", "", n, "the reference's stream is finished after %d states, the engine's goes on with %s", n, checker.StateString(s.State, c.Slots))
			}
			return n
		}
		r := buf[0]
		buf = buf[1:]
		if !c.compareStates(n, s, r, reported) {
			return n
		}
		n++
		c.Sum.StreamStates++
	}
	return n
}

// compareStates compares the n-th states; false ends the comparison (the streams diverged).
func (c schecker) compareStates(n int, s engine.Status, r refclient.StreamState, reported map[*syntax.Fail]bool) bool {
	st := s.State
	if a, b := refclient.Canon(st.Prog.Stmt()), refclient.Canon(r.Prog); a != b {
		c.Report("stream/program", "", n, "state %d of the unpruned stream: the engine is at %s, the reference at %s", n, a, b)
		return false
	}
	f := st.PC.Formula()
	vals := c.Valuations(st.PC.Witness)
	if len(vals) > 4 {
		vals = vals[:4]
	}
	for _, v := range vals {
		for j, x := range c.Names {
			if a, b := st.Store[j].Eval(v), refclient.EvalA(r.Store[j], v); !a.Equal(b) {
				c.Report("stream/store", c.InputString(v), n, "state %d: variable %s is %s = %s in the engine, %s = %s in the reference",
					n, x, st.Store[j].String(c.Slots), a, syntax.PrintA(r.Store[j]), b)
				return false
			}
		}
		if a, b := f.Eval(v), refclient.EvalB(r.PC, v); a != b {
			c.Report("stream/pc", c.InputString(v), n, "state %d: the engine's path condition %s is %v, the reference's %s is %v",
				n, st.PC.String(c.Slots), a, syntax.PrintB(r.PC), b)
			return false
		}
	}
	if n%streamZ3Every == streamZ3Every-1 {
		// a formula over conditional terms with too many cases to write in IMP is not compared
		if g, err := c.FormulaB(f); err == nil {
			if verdict, m := c.Prover.Equivalent(g, r.PC, c.Names); verdict == prover.Invalid {
				c.Report("stream/pc", c.InputString(m), n, "state %d: the path conditions are not equivalent:\n    engine:    %s\n    reference: %s",
					n, st.PC.String(c.Slots), syntax.PrintB(r.PC))
				return false
			}
		}
	}
	refErr := r.Status == "bug"
	if refErr != strings.HasPrefix(refclient.Canon(r.Prog), "fail") {
		c.Report("reference", "", n, "state %d: status %s for program %s", n, r.Status, refclient.Canon(r.Prog))
		return false
	}
	switch {
	case s.Kind == engine.BugFound && !refErr:
		c.Report("stream/status", "", n, "state %d: the engine reports a bug, the reference's state is not an error state", n)
		return false
	case s.Kind == engine.BugFound:
		reported[s.Bug.Fail] = true
	case refErr:
		f := st.ErrorOf()
		switch {
		case f != nil && reported[f]:
		case st.PC.Status == pathcond.Unknown:
		case st.PC.Status == pathcond.Unsat:
			if verdict, m := c.Prover.Model(r.PC, c.Names); verdict == prover.Valid && refclient.EvalB(r.PC, m) {
				c.Report("stream/status", c.InputString(m), n, "state %d: the engine finds the error state's path condition unsatisfiable, the reference's %s holds under %s",
					n, syntax.PrintB(r.PC), c.InputString(m))
				return false
			}
		default:
			c.Report("stream/status", c.InputString(st.PC.Witness), n, "state %d: an error state of status %s that the engine does not report (%s)", n, st.PC.Status, checker.StateString(st, c.Slots))
			return false
		}
	}
	return true
}
