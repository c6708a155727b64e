package bounded

import (
	"fmt"
	"sort"
	"strings"
	"sync"
	"sync/atomic"

	"certsym/internal/budget"
	"certsym/internal/concrete"
	"certsym/pathcond"
	"certsym/spec"
	"certsym/spec/syntax"
)

// Verdict is the bounded interpreter's answer about a program's errors (certsym run --loop-bound):
// pathcond.Verdict, which the bug finder shares.
type Verdict = pathcond.Verdict

// Safe: every path up to the loop bound was explored and none reaches an error. Bug: an error
// whose model replays on the bounded concrete semantics. Unknown: a budget, an undecided solver
// query or the loop bound left paths unexplored, before any bug was confirmed.
const (
	Safe    = pathcond.VerdictSafe
	Bug     = pathcond.VerdictBug
	Unknown = pathcond.VerdictUnknown
)

// An Error is a confirmed error of the bounded interpreter: a result state with behaviour Error
// whose path condition is satisfiable, with the model (Input) that replays it on the bounded
// concrete semantics (spec.ExecBounded).
type Error struct {
	Result Result
	Input  spec.Store
}

// Report is the outcome of Run: every result state, the errors confirmed (each Fail reported
// once, in the order of the results), and the verdict with its reason.
type Report struct {
	Results []Result
	Errors  []Error
	Verdict Verdict
	// Reason says why the verdict is unknown, or, for a bug, what stopped the run early ("" when
	// nothing did).
	Reason string
}

// ReplayError is an internal error: an error state whose model does not replay on the bounded
// concrete semantics. It means the interpreter and the semantics disagree: a defect of certsym.
type ReplayError struct {
	Input  spec.Store
	Names  []string
	Fail   *syntax.Fail
	Replay spec.BoundedResult
}

func (e *ReplayError) Error() string {
	return fmt.Sprintf("internal error: the input %s of the error at line %d does not replay: the bounded concrete execution ends %s",
		spec.InputString(e.Input, e.Names), e.Fail.Line(), e.Replay.Behaviour)
}

// Run is RunWorkers with one worker: everything on the calling goroutine.
func (b *Interp) Run() (*Report, error) { return b.RunWorkers(1) }

// RunWorkers is certsym run --loop-bound: SymInterp from the initial state, then the verdict.
// Each error result is decided by the solver; a satisfiable one is confirmed by running its model
// on the bounded concrete semantics (a model that does not replay is a *ReplayError), an
// undecided one, or one whose replay a bound cut short, makes the verdict unknown. The verdict is bug when an error is confirmed (Reason
// then says what stopped the run early, if anything), else unknown when a budget stopped the run,
// a query was undecided or the loop bound cut paths off, else safe.
//
// Workers: the interpretation and the solver's queries stay on the calling goroutine
// (their answers depend on the solver's history, and the state bound cuts the tree in the order
// of the search); the concrete replays of the errors' models, functions of the model alone, run
// on up to workers goroutines (1 or less: none), each result kept by its index, so the report is
// the same for every number of workers. The first error in the order of the results that does
// not replay is the *ReplayError, as with one worker.
//
// Why3: sym_interp (interp.mlw) for the results; the verdict and the replay are not modelled (the
// replay checks on one input what sym_interp's postcondition under states for all).
func (b *Interp) RunWorkers(workers int) (*Report, error) {
	rs, err := b.SymInterp(nil)
	if err != nil {
		return nil, err
	}
	rep := &Report{Results: rs}
	var unknown, cut []string // the errors the solver could not decide; those whose replay a bound cut short
	incomplete := map[int]int{}
	// The queries first, in the order of the results: the errors whose path condition is
	// satisfiable get their model replayed, on the workers.
	var sat []int
	for i, r := range rs {
		switch {
		case r.Cut != CutNone:
			// a path a budget stopped: Stopped gives the reason, not the loop bound
		case r.Behaviour == spec.Incomplete:
			incomplete[r.At.Pos().Line]++
		case r.Behaviour == spec.Error:
			if b.solver.Check(r.State.PC) != pathcond.Sat {
				p := r.Fail.Pos() // the macro call's position for an inlined statement
				unknown = append(unknown, fmt.Sprintf("the %s at %d:%d (%s)", r.Fail.Kind, p.Line, p.Col, r.State.PC.Reason))
				continue
			}
			sat = append(sat, i)
		}
	}
	// The replays are bounded as exec's run is (concrete.Limits: the integer bound,
	// ReplayInstances quantifier instances) and poll the monitor: once the partial report is due
	// (an interrupt, the time or memory bound: budget.Monitor.Due), a replay stops. An error whose
	// replay a bound cut short is left unconfirmed.
	replays := make([]spec.BoundedResult, len(sat))
	Each(len(sat), workers, func(k int) {
		lim := concrete.Limits(-1, concrete.ReplayInstances, b.mon.Due)
		replays[k] = spec.ExecBoundedLimited(b.Prog, spec.Store(rs[sat[k]].State.PC.Witness), b.N, lim, nil, nil)
	})
	reported := map[*syntax.Fail]bool{}
	for k, i := range sat {
		r, replay := rs[i], replays[k]
		input := spec.Store(r.State.PC.Witness)
		if replay.Cut != budget.NotCut {
			p := r.Fail.Pos()
			why := concrete.Reason(replay.Cut, replay.At, concrete.ReplayInstances, b.mon.Stop())
			cut = append(cut, fmt.Sprintf("the replay of the input that reaches the %s at %d:%d was cut short: %s", r.Fail.Kind, p.Line, p.Col, why))
			continue
		}
		if replay.Behaviour != spec.Error || replay.Fail != r.Fail {
			return nil, &ReplayError{Input: input, Names: b.terms.Names(), Fail: r.Fail, Replay: replay}
		}
		if reported[r.Fail] {
			continue
		}
		reported[r.Fail] = true
		rep.Errors = append(rep.Errors, Error{Result: r, Input: input})
	}
	switch {
	case len(rep.Errors) > 0:
		rep.Verdict, rep.Reason = Bug, b.Stopped() // a bound or an interrupt may have left errors unexplored
	case b.Stopped() != "":
		rep.Verdict, rep.Reason = Unknown, b.Stopped()
	case len(unknown) > 0 || len(cut) > 0:
		if len(unknown) > 0 {
			cut = append([]string{"the solver could not decide " + strings.Join(unknown, ", ")}, cut...)
		}
		rep.Verdict, rep.Reason = Unknown, strings.Join(cut, "; ")
	case len(incomplete) > 0:
		lines := make([]int, 0, len(incomplete))
		for l := range incomplete {
			lines = append(lines, l)
		}
		sort.Ints(lines)
		var parts []string
		for _, l := range lines {
			paths := "paths"
			if incomplete[l] == 1 {
				paths = "path"
			}
			parts = append(parts, fmt.Sprintf("line %d (%d %s)", l, incomplete[l], paths))
		}
		rep.Verdict, rep.Reason = Unknown, fmt.Sprintf("loop bound %d cut off loops at %s", b.N, strings.Join(parts, ", "))
	}
	return rep, nil
}

// Each calls f(i) for every i in [0, n), on up to workers goroutines (1 or less: on the calling
// goroutine, in order). The calls must be independent of each other (each writes only what is
// indexed by its i), so that what they compute does not depend on the number of workers. The
// indices are handed out in chunks, in increasing order; Each returns when every call returned.
func Each(n, workers int, f func(i int)) {
	if workers > n {
		workers = n
	}
	if workers <= 1 {
		for i := range n {
			f(i)
		}
		return
	}
	const chunk = 16
	var next atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for {
				lo := int(next.Add(chunk)) - chunk
				if lo >= n {
					return
				}
				for i := lo; i < min(lo+chunk, n); i++ {
					f(i)
				}
			}
		})
	}
	wg.Wait()
}
