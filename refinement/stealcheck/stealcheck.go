// Package stealcheck is the refinement layer's check of the partitioned runs of certsym run
// --workers (package engine/steal): on one program, the partitioned run with several numbers of
// workers, each on goroutines of its own and in several seeded interleavings on one goroutine,
// must give
//
//   - steal/output: the same report, byte for byte as the command prints it (the verdict and its
//     reason, each bug's place, kind, depth, path condition, input, store and steps, and the
//     counters), as the run with one worker on one goroutine;
//   - steal/single: the single run's verdict, reason, bugs (place, kind and depth, in order) and
//     counters of states (expanded, produced, pruned, depth), the engine's own FindBugs being the
//     single run (the inputs and the solver queries the single run reports depend on its solver's
//     history, which a partitioned run does not share: package steal counts the queries as a
//     function of the tree);
//   - steal/error: no error (an internal error is a job whose path names no state).
//
// Programs whose single run, or one of the partitioned runs, meets an answer unknown of the solver
// are left out: which queries a time or resource bound cuts short depends on the solver's
// history, and so do the trees below.
package stealcheck

import (
	"fmt"
	"strings"

	"certsym/engine"
	"certsym/engine/steal"
	"certsym/refinement/checker"
	"certsym/spec"
	"certsym/spec/syntax"
	"certsym/sym"
)

// Workers and Interleavings are the schedules Run checks: each number of workers on goroutines,
// and each seed's interleaving with each number of workers but one.
var (
	Workers       = []int{1, 2, 3, 4}
	Interleavings = []int64{1, 2, 3}
)

// Output is what a report says that the command prints: the verdict and its reason, each bug
// (place, kind, depth, path condition, input, store, steps) and the counters.
func Output(prog *syntax.Program, rep *engine.Report) string {
	names := sym.SlotNames(prog)
	var b strings.Builder
	fmt.Fprintf(&b, "%v (%s)\n", rep.Verdict, rep.Reason)
	for _, g := range rep.Bugs {
		fmt.Fprintf(&b, "bug %s at %v depth %d\n  pc %s\n  input %s\n  store %s\n  steps %d\n", g.Kind(), g.Fail.Pos(), g.State.Depth,
			g.State.PC.String(names), spec.InputString(g.Input, names), sym.StoreString(g.State.Store, names), g.Replay.Steps)
	}
	s := rep.Stats
	fmt.Fprintf(&b, "%d states expanded (%d produced, %d pruned), depth %d, %d solver queries (%d sat, %d unsat, %d unknown)\n",
		s.Expanded, s.Produced, s.Pruned, s.MaxDepth, s.Solver.Queries, s.Solver.Sat, s.Solver.Unsat, s.Solver.Unknown)
	return b.String()
}

// Tree is what a report says that does not depend on the solver's history: the verdict and its
// reason, each bug's place, kind and depth, and the counters of the states.
func Tree(rep *engine.Report) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%v (%s)\n", rep.Verdict, rep.Reason)
	for _, g := range rep.Bugs {
		fmt.Fprintf(&b, "bug %s at %v depth %d\n", g.Kind(), g.Fail.Pos(), g.State.Depth)
	}
	s := rep.Stats
	fmt.Fprintf(&b, "%d states expanded (%d produced, %d pruned), depth %d\n", s.Expanded, s.Produced, s.Pruned, s.MaxDepth)
	return b.String()
}

// A Mismatch is one failed comparison: the check, the schedule and what differs.
type Mismatch struct {
	Check, Schedule, Detail string
}

func (m Mismatch) String() string { return fmt.Sprintf("%s (%s): %s", m.Check, m.Schedule, m.Detail) }

// Compare runs prog with opts (breadth-first, steal.Applies) as the single run and as partitioned
// runs with the schedules of Workers and Interleavings, and returns the mismatches; skipped is
// true when the single run met an unknown answer (nothing compared). stop, when it answers
// true, ends the comparison early (a time budget).
func Compare(prog *syntax.Program, opts engine.Options, stop func() bool) (ms []Mismatch, skipped bool, err error) {
	e := engine.New(prog, opts)
	want, err := e.FindBugs(nil)
	e.Close()
	if err != nil {
		return nil, false, err
	}
	if want.Stats.Solver.Unknown > 0 || len(want.Reason) > 0 && strings.Contains(want.Reason, "could not decide") {
		return nil, true, nil
	}
	type schedule struct {
		workers    int
		interleave int64
	}
	var scheds []schedule
	for _, n := range Workers {
		scheds = append(scheds, schedule{n, 0})
	}
	for i, seed := range Interleavings {
		scheds = append(scheds, schedule{Workers[1+i%(len(Workers)-1)], seed})
	}
	first := ""
	for _, s := range scheds {
		if stop != nil && stop() {
			break
		}
		name := fmt.Sprintf("%d workers", s.workers)
		if s.interleave != 0 {
			name += fmt.Sprintf(", interleaving %d", s.interleave)
		}
		o := opts
		o.Workers = s.workers
		res, err := steal.Run(prog, steal.Options{Options: o, Interleave: s.interleave}, nil)
		if err != nil {
			ms = append(ms, Mismatch{"steal/error", name, err.Error()})
			continue
		}
		if res.Stats.Solver.Unknown > 0 {
			return nil, true, nil // a bound cut a query short that the single run's solver answered
		}
		if got, w := Tree(res.Report), Tree(want); got != w {
			ms = append(ms, Mismatch{"steal/single", name, fmt.Sprintf("the partitioned run says\n%sthe single run\n%s", got, w)})
		}
		out := Output(prog, res.Report)
		switch {
		case first == "":
			first = out
		case out != first:
			ms = append(ms, Mismatch{"steal/output", name, fmt.Sprintf("the output is\n%sand with one worker\n%s", out, first)})
		}
	}
	return ms, false, nil
}

// Run is the check of the unit's program in the refinement layer: first bug and --all-bugs, with
// the layer's engine options without the time bound (which would cut the runs at different
// places), each comparison within the program's budget.
func Run(c *checker.Checker) {
	for _, all := range []bool{false, true} {
		if c.Expired() {
			return
		}
		opts := c.EngineOptions()
		opts.Timeout, opts.AllBugs = 0, all
		ms, _, err := Compare(c.U.Prog, opts, c.Expired)
		if err != nil {
			c.Report("steal/error", "", -1, "all bugs %v: the single run: %v", all, err)
			return
		}
		for _, m := range ms {
			c.Report(m.Check, "", -1, "all bugs %v, %s: %s", all, m.Schedule, m.Detail)
		}
		if len(ms) > 0 {
			return
		}
	}
}
