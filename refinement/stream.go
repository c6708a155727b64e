package refinement

import (
	"fmt"
	"strings"

	"certsym/engine"
	"certsym/internal/budget"
	"certsym/spec"
	"certsym/sym"
)

// The whole-stream comparison (check "stream/..."): the Go engine's unpruned run (--no-prune,
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

// streamZ3Every is how often (in states) the path conditions are also compared by Z3.
const streamZ3Every = 97

// streamSizeLimit bounds the size of one state of the reference (expression nodes): its terms
// are trees, and a program that doubles a variable in a loop makes them grow exponentially.
const streamSizeLimit = 4000

// streamState is one state of the reference's stream.
type streamState struct {
	pc     spec.BExpr
	store  []spec.AExpr
	prog   spec.Stmt
	status string
}

// RunStart starts the reference's run stream of prog over vars.
func (r *Ref) RunStart(prog spec.Stmt, vars []string) error {
	p, err := EncodeStmt(prog)
	if err != nil {
		return err
	}
	var ans struct{}
	return r.call(runStart(vars, p), &ans)
}

// RunNext returns the next count states of the reference's stream; ended is true when the
// stream has ended (Finished) after them, tooBig when a state exceeded the size limit.
func (r *Ref) RunNext(count int, vars []string) (states []streamState, ended, tooBig bool, err error) {
	var ans runNextAnswer
	if err := r.call(runNextRequest{Op: "run_next", Count: count, Limit: streamSizeLimit}, &ans); err != nil {
		return nil, false, false, err
	}
	states, err = ans.states(vars)
	return states, ans.End, ans.TooBig, err
}

// states decodes the states of a run_next answer over the variables vars.
func (ans runNextAnswer) states(vars []string) ([]streamState, error) {
	d := newDecoder(vars)
	var states []streamState
	for i, s := range ans.States {
		pc, store, prog, err := d.decode(s, vars)
		if err != nil {
			return nil, fmt.Errorf("certsym-ref: state %d: %w", i, err)
		}
		states = append(states, streamState{pc: pc, store: store, prog: prog, status: s.Status})
	}
	return states, nil
}

// streamCompare compares the first max states of the engine's unpruned stream of the current
// program with the reference's. It returns the number of states compared.
func (c *checker) streamCompare(max int) int {
	if err := c.ref.RunStart(c.u.RefBody, c.names); err != nil {
		c.report("reference", "", -1, "run_start: %v", err)
		return 0
	}
	e := c.newEngine(engine.Options{NoPrune: true, AllBugs: true, Limits: budget.Limits{MaxStates: max,
		RLimit: c.cfg.EngineRLimit, QueryTimeout: c.cfg.EngineTimeout}})
	reported := map[*spec.Fail]bool{}
	var buf []streamState
	refEnded := false
	n := 0
	for n < max && !c.expired() {
		if len(buf) == 0 && !refEnded {
			chunk := 200
			if max-n < chunk {
				chunk = max - n
			}
			states, ended, tooBig, err := c.ref.RunNext(chunk, c.names)
			if err != nil {
				c.report("reference", "", n, "run_next: %v", err)
				return n
			}
			buf, refEnded = states, ended
			if tooBig && len(buf) == 0 {
				return n // the reference's terms outgrew the limit: compared so far
			}
		}
		s, err := e.Next()
		if err != nil {
			c.report("oracle/engine-replay", "", n, "unpruned stream: the engine's own bug replay failed: %v", err)
			return n
		}
		if s.Kind == engine.Stopped {
			return n
		}
		if s.Kind == engine.Finished {
			if len(buf) > 0 || !refEnded {
				c.report("stream/end", "", n, "the engine's stream is finished after %d states, the reference's goes on", n)
			}
			return n
		}
		if len(buf) == 0 {
			if refEnded {
				c.report("stream/end", "", n, "the reference's stream is finished after %d states, the engine's goes on with %s", n, stateString(s.State, c.names))
			}
			return n
		}
		r := buf[0]
		buf = buf[1:]
		if !c.streamState(n, s, r, reported) {
			return n
		}
		n++
		c.sum.StreamStates++
	}
	return n
}

// streamState compares the n-th states; false ends the comparison (the streams diverged).
func (c *checker) streamState(n int, s engine.Status, r streamState, reported map[*spec.Fail]bool) bool {
	st := s.State
	if a, b := Canon(st.Prog.Stmt()), Canon(r.prog); a != b {
		c.report("stream/program", "", n, "state %d of the unpruned stream: the engine is at %s, the reference at %s", n, a, b)
		return false
	}
	f := st.PC.Formula()
	vals := c.valuations(st.PC.Witness)
	if len(vals) > 4 {
		vals = vals[:4]
	}
	for _, v := range vals {
		for j, x := range c.names {
			if a, b := st.Store[j].Eval(v), EvalA(r.store[j], v); !a.Equal(b) {
				c.report("stream/store", c.inputString(v), n, "state %d: variable %s is %s = %s in the engine, %s = %s in the reference",
					n, x, st.Store[j].String(c.names), a, spec.PrintA(r.store[j]), b)
				return false
			}
		}
		if a, b := f.Eval(v), EvalB(r.pc, v); a != b {
			c.report("stream/pc", c.inputString(v), n, "state %d: the engine's path condition %s is %v, the reference's %s is %v",
				n, st.PC.String(c.names), a, spec.PrintB(r.pc), b)
			return false
		}
	}
	if n%streamZ3Every == streamZ3Every-1 {
		if verdict, m := c.prover.Equivalent(f.BExpr(c.names), r.pc, c.names); verdict == Invalid {
			c.report("stream/pc", c.inputString(m), n, "state %d: the path conditions are not equivalent:\n    engine:    %s\n    reference: %s",
				n, st.PC.String(c.names), spec.PrintB(r.pc))
			return false
		}
	}
	refErr := r.status == "bug"
	if refErr != strings.HasPrefix(Canon(r.prog), "fail") {
		c.report("reference", "", n, "state %d: status %s for program %s", n, r.status, Canon(r.prog))
		return false
	}
	switch {
	case s.Kind == engine.BugFound && !refErr:
		c.report("stream/status", "", n, "state %d: the engine reports a bug, the reference's state is not an error state", n)
		return false
	case s.Kind == engine.BugFound:
		reported[s.Bug.Fail] = true
	case refErr:
		f := st.ErrorOf()
		switch {
		case f != nil && reported[f]:
		case st.PC.Status == sym.Unknown:
		case st.PC.Status == sym.Unsat:
			if verdict, m := c.prover.Model(r.pc, c.names); verdict == Valid && EvalB(r.pc, m) {
				c.report("stream/status", c.inputString(m), n, "state %d: the engine finds the error state's path condition unsatisfiable, the reference's %s holds under %s",
					n, spec.PrintB(r.pc), c.inputString(m))
				return false
			}
		default:
			c.report("stream/status", c.inputString(st.PC.Witness), n, "state %d: an error state of status %s that the engine does not report (%s)", n, st.PC.Status, stateString(st, c.names))
			return false
		}
	}
	return true
}
