package engine

import (
	"fmt"
	"strings"
	"time"

	"certsym/engine/search"
	"certsym/internal/budget"
	"certsym/internal/concrete"
	"certsym/internal/fault"
	"certsym/pathcond"
	"certsym/spec"
	"certsym/spec/syntax"
)

// StatusKind is the kind of a bug finder status message (Fig. 8 of the WiSE paper).
type StatusKind uint8

// The status messages. Pending: a state was explored and was not a bug. BugFound: a confirmed bug.
// Finished: no state is pending, the exploration is complete. Stopped: a bound ended the run
// (not in the paper, whose stream is infinite; Engine.Stopped says which bound).
const (
	Pending StatusKind = iota
	BugFound
	Finished
	Stopped
)

func (k StatusKind) String() string {
	return [...]string{"Pending", "BugFound", "Finished", "Stopped"}[k]
}

// Status is one message of the bug finder's stream.
type Status struct {
	Kind  StatusKind
	State *State // the state explored (Pending, BugFound)
	Bug   *Bug   // BugFound
}

// A Bug is a confirmed bug: an error state with a satisfiable path condition whose model, run on
// the concrete semantics of package spec, reaches the same error at the same statement after the
// same number of steps.
type Bug struct {
	Fail  *syntax.Fail
	State *State
	// Input is the concrete input: a value for every program variable (indexed like Prog.Vars).
	Input spec.Store
	// Replay is the concrete run of Input that reached the error.
	Replay spec.Result
}

// Line is the source line reported for the bug (the macro call's line for an inlined statement).
func (b *Bug) Line() int { return b.Fail.Line() }

// Kind is "fail", "assert" or "division-by-zero".
func (b *Bug) Kind() string { return b.Fail.Kind.String() }

// ReplayError is an internal error: a bug whose concrete input does not reproduce it. It means
// the engine and the concrete semantics disagree, which certsym treats as a defect of its own.
type ReplayError struct {
	State  *State
	Input  spec.Store
	Replay spec.Result
	Names  []string
}

func (e *ReplayError) Error() string {
	got := fmt.Sprintf("%s after %d steps", e.Replay.Outcome, e.Replay.Steps)
	if e.Replay.Fail != nil {
		got += fmt.Sprintf(" (%s at line %d)", e.Replay.Fail.Kind, e.Replay.Fail.Line())
	}
	f := e.State.ErrorOf()
	if f == nil { // a state confirmed for an error it is not at (a partitioned run's wrong path)
		return fmt.Sprintf("internal error: the input %s was confirmed at a state that is at no error (depth %d, path condition %s)",
			spec.InputString(e.Input, e.Names), e.State.Depth, e.State.PC.String(e.Names))
	}
	return fmt.Sprintf("internal error: the input %s of the symbolic bug (%s at line %d after %d steps, path condition %s) does not replay: the concrete run ended %s",
		spec.InputString(e.Input, e.Names), f.Kind, f.Line(), e.State.Depth, e.State.PC.String(e.Names), got)
}

// Next is the next message of the bug finder's status stream (Figs. 8 and 9): it explores the next
// state of the run stream and classifies it. An error state is reported as BugFound only when its
// path condition is satisfiable and the model replays on the concrete semantics; one whose path
// condition the solver cannot decide is recorded (UnknownErrors) and reported as Pending. A
// replay that fails is returned as a *ReplayError.
//
// Coq: gclassify and gfind (Engine.v), with seen and errkey for --all-bugs. Covered by Theorems
// 3.5 (gfind_relative_soundness, gfind_bug_sat), 3.6 (gfind_relative_completeness,
// gfind_complete_first) and 3.7 (gfind_sound_termination) in Engineproof.v, by the per-error
// theorems gfind_every_error_reported and gfind_report_once there, and by Theorem 2.5
// (is_bug_iff, potential_bug_valid, Symbolicproof.v). The model replay (Confirm) is not modelled.
func (e *Engine) Next() (Status, error) {
	st, ok := e.NextState()
	if !ok {
		if e.stopped != "" {
			return Status{Kind: Stopped}, nil
		}
		return Status{Kind: Finished}, nil
	}
	f := st.ErrorOf()
	if f == nil {
		return Status{Kind: Pending, State: st}, nil
	}
	if e.shard != nil && !e.shard.reports(st) { // an error above the split: shard 0 reports it
		return Status{Kind: Pending, State: st}, nil
	}
	if e.reported[f] || (fault.Active == fault.AllBugsDedupByLine && e.reportedLine(f)) { // AllBugs: each error (Fail: statement and kind) is reported once
		return Status{Kind: Pending, State: st}, nil
	}
	switch e.solver.Check(st.PC) {
	case pathcond.Unsat: // reachable only with pruning off
		return Status{Kind: Pending, State: st}, nil
	case pathcond.Unknown:
		if e.mon.Interrupted() { // not the solver's failure: the run stops at the next state
			return Status{Kind: Pending, State: st}, nil
		}
		if fault.Active != fault.VerdictDropsUnknown {
			e.unknownErrors = append(e.unknownErrors, st)
		}
		return Status{Kind: Pending, State: st}, nil
	}
	bug, err := e.Confirm(st, f)
	if err != nil || bug == nil { // nil: a bound cut the replay short, and the run stops (stopped)
		return Status{Kind: Pending, State: st}, err
	}
	e.bugsSoFar++
	e.mon.SetBugs(e.bugsSoFar)
	if e.opts.AllBugs {
		e.reported[f] = true
	}
	return Status{Kind: BugFound, State: st, Bug: bug}, nil
}

// Confirm replays the witness of an error state on the concrete semantics: spec.RunFast, whose
// results are spec.Run's (spec's runfast_test.go checks it against Run) and which shares nothing
// with the engine's symbolic steps or its concrete burst machine (burst.go), so that a bug is
// reported only when the reference semantics, run on its own, reaches the same error in the same
// number of steps. The replay is bounded as exec's run is (the integer bound, ReplayInstances
// quantifier instances, the monitor and the time bound, concrete.Limits): a bound that cuts it
// short leaves the error unconfirmed and stops the run, saying why (bug nil).
//
// Coq: not modelled (gclassify trusts the oracle's "satisfiable"); the fact it checks on one
// input is Theorem 2.6, BadInput_correct and bug_input_iff (Symbolicproof.v).
//
// Package steal, which classifies the states of its partitioned runs itself, confirms its bugs
// with it too.
func (e *Engine) Confirm(st *State, f *syntax.Fail) (b *Bug, err error) {
	input := spec.Store(st.PC.Witness)
	if fault.Active == fault.ConfirmWithoutReplay && st.PC.Parent != nil && st.PC.Parent.Status == pathcond.Sat {
		stale := spec.Store(st.PC.Parent.Witness)
		return &Bug{Fail: f, State: st, Input: stale, Replay: spec.Result{Outcome: spec.Failed, Steps: st.Depth, Fail: f}}, nil
	}
	if m, ok := e.searcher.(search.Unmerger[*State, spec.Store]); ok {
		if st, err = m.Unmerge(st, input); err != nil { // the input's own path (engine/mergesearch)
			return nil, fmt.Errorf("internal error: the %s at line %d, found in a merged state: %w", f.Kind, f.Line(), err)
		}
	}
	stop := func() bool { return e.mon.Stop() != "" || e.meter.TimeUp(time.Now()) }
	r := spec.RunFastLimited(e.Prog, input, concrete.Limits(st.Depth, concrete.ReplayInstances, stop))
	if r.Cut != budget.NotCut && r.Cut != budget.CutSteps {
		e.stopped = concrete.ReplayCut(f, r, concrete.ReplayInstances, e.mon.Stop(), e.opts.Timeout)
		return nil, nil
	}
	if r.Outcome != spec.Failed || r.Fail != f || r.Steps != st.Depth {
		return nil, &ReplayError{State: st, Input: input, Replay: r, Names: e.Names()}
	}
	return &Bug{Fail: f, State: st, Input: input, Replay: r}, nil
}

// Verdict is the bug finder's answer (Fig. 10, extended with unknown): pathcond.Verdict, which
// the bounded interpreter shares.
type Verdict = pathcond.Verdict

// Bug: a confirmed bug. Safe: the exploration finished, no error state is reachable. Unknown: a
// bound stopped the run, or the solver could not decide an error state, before any bug was found.
const (
	VerdictSafe    = pathcond.VerdictSafe
	VerdictBug     = pathcond.VerdictBug
	VerdictUnknown = pathcond.VerdictUnknown
)

// Report is the result of FindBugs.
type Report struct {
	Verdict Verdict
	Bugs    []*Bug
	// Reason says why the verdict is unknown.
	Reason string
	Stats  Stats
}

// FindBugs runs the status stream until the verdict is known: the first confirmed bug (or, with
// AllBugs, the end of the run, each error reported once: later error states at a Fail already
// reported are Pending), the end of the exploration,
// or a bound.
//
// Coq: the stream gfind read until its verdict gverdict (Engine.v); Fig. 10's has_bug is fig10.
// Covered by Theorem 3.8 (gverdict_T_sound_complete, gfind_T_sound_complete, Engineproof.v), by
// Theorem 2.4 (HasBug_correct, has_bug_iff, Symbolicproof.v) and, with AllBugs, by
// gfind_every_bug_error_reported (Engineproof.v).
func (e *Engine) FindBugs(onBug func(*Bug)) (*Report, error) {
	rep := &Report{}
	for {
		s, err := e.Next()
		if err != nil {
			return nil, err
		}
		switch s.Kind {
		case BugFound:
			rep.Bugs = append(rep.Bugs, s.Bug)
			if onBug != nil {
				onBug(s.Bug)
			}
			if !e.opts.AllBugs {
				return e.finish(rep), nil
			}
		case Finished, Stopped:
			return e.finish(rep), nil
		}
	}
}

// finish computes the verdict of the prefix of the stream run so far: bug if a bug was reported,
// unknown if an error state was left undecided or a bound stopped the run, safe otherwise.
//
// Coq: gverdict (Engine.v). Covered by gverdict_bug, gverdict_safe, gverdict_safe_complete,
// gverdict_unknown_decides and gfind_unknown_valid (Engineproof.v).
func (e *Engine) finish(rep *Report) *Report {
	e.Stats.Solver = e.solver.Stats
	rep.Stats = e.Stats
	return Conclude(rep, e.unknownErrors, e.stopped, e.opts.AllBugs)
}

// Conclude sets the verdict and reason of rep, whose Bugs are the bugs of a prefix of the status
// stream, from the error states of that prefix the solver left undecided (in stream order) and
// the reason a bound stopped it ("" when the stream ended), as FindBugs does (finish); package
// steal concludes its partitioned runs with it.
func Conclude(rep *Report, unknownErrors []*State, stopped string, allBugs bool) *Report {
	switch {
	case len(rep.Bugs) > 0:
		rep.Verdict = VerdictBug
		if allBugs {
			// The bugs are confirmed, but the list may be incomplete: say why (error states the
			// solver could not decide, a bound).
			var notes []string
			if len(unknownErrors) > 0 {
				st := unknownErrors[0]
				notes = append(notes, MayMiss(st.ErrorOf().Kind.String(), st.ErrorOf().Line(), st.PC.Reason, len(unknownErrors)-1))
			}
			if stopped != "" {
				notes = append(notes, stopped)
			}
			rep.Reason = strings.Join(notes, "; ")
		}
	case len(unknownErrors) > 0:
		st := unknownErrors[0]
		rep.Verdict = VerdictUnknown
		rep.Reason = Undecided(st.ErrorOf().Kind.String(), st.ErrorOf().Line(), st.PC.Reason, len(unknownErrors)-1)
		if stopped != "" {
			rep.Reason += "; " + stopped
		}
	case stopped != "":
		rep.Verdict = VerdictUnknown
		rep.Reason = stopped
	default:
		rep.Verdict = VerdictSafe
	}
	return rep
}

// Undecided says that the solver could not decide whether the error of the given kind at line
// is reachable (reason, the solver's), and how many more error states it could not decide.
func Undecided(kind string, line int, reason string, more int) string {
	s := fmt.Sprintf("the solver could not decide whether the %s at line %d is reachable (%s)", kind, line, reason)
	if more > 0 {
		s += fmt.Sprintf(", and %d more error states", more)
	}
	return s
}

// MayMiss is the reason of an --all-bugs list that may miss errors: Undecided's.
func MayMiss(kind string, line int, reason string, more int) string {
	return "the list may miss errors: " + Undecided(kind, line, reason, more)
}

// Verdict is the bug finder's report for the run so far of an engine whose stream the caller
// consumed itself through Next (the refinement layer): bugs are the bugs Next reported, and the
// verdict is computed as FindBugs computes it when the stream ends.
func (e *Engine) Verdict(bugs []*Bug) *Report { return e.finish(&Report{Bugs: bugs}) }

// reportedLine reports whether an error on f's line was reported (fault AllBugsDedupByLine only).
func (e *Engine) reportedLine(f *syntax.Fail) bool {
	for g := range e.reported {
		if g.Line() == f.Line() {
			return true
		}
	}
	return false
}
