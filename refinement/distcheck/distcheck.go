// Package distcheck is the refinement layer's check of the distributed runs of certsym run
// --distributed (package distrib): on one program, the job tree a distributed run explores is
// explored in this process (distrib.Explore per job, jobs of a few states so that even a small
// program makes several, taken in breadth-first order of their roots as the coordinator hands
// them out, without a broker), the results are assembled as the coordinator assembles them
// (distrib.Assemble), and the assembled report, first bug and --all-bugs, must give
//
//   - dist/answer: the single run's verdict, reason and bugs (place, kind, depth and path
//     condition, in breadth-first order; with --all-bugs each error once), engine.FindBugs being
//     the single run;
//   - dist/counters: the single run's counters of states expanded, successors pruned and depth
//     (not the solver's counts, which depend on the models a process found before);
//   - dist/bug-replay: each bug's input, as the coordinator's engine confirms it again
//     (distrib.Confirmer, walking the bug's path from the initial state), replays on the
//     reference to the bug's error (the layer's bug replay, Hooks.BugReplay);
//   - dist/all-bugs: with --all-bugs, every error a concrete run of the layer reaches is among
//     the assembled bugs, each once (the layer's all-bugs oracle, Hooks.AllBugs);
//   - dist/error: no job fails and the assembly succeeds.
//
// Programs whose single run its state bound stops are left out (the distributed run has no
// state bound: it would explore another tree), and so are those whose single run or jobs meet
// an answer unknown of the solver (which queries a bound cuts short depends on the solver's
// history).
package distcheck

import (
	"encoding/json"
	"fmt"
	"hash/fnv"
	"slices"
	"sort"
	"strings"
	"time"

	"certsym/distrib"
	"certsym/engine"
	"certsym/engine/job"
	"certsym/internal/budget"
	"certsym/refinement/checker"
	"certsym/spec/syntax"
	"certsym/sym"
)

// Budgets are the numbers of states a job explores before it splits; Budget picks one per
// program.
var Budgets = []int{1, 2, 3, 5, 8}

// Budget is the job size for the program named name: one of Budgets, by a hash of the name.
func Budget(name string) int {
	h := fnv.New32a()
	h.Write([]byte(name))
	return Budgets[h.Sum32()%uint32(len(Budgets))]
}

// JobsPerScale keeps the job trees of large runs to about JobsPerScale/Budget jobs: the job size
// Compare takes by default is Budget's times the single run's states over JobsPerScale (at least
// once), since every job replays its root from the program's start.
const JobsPerScale = 100

// MaxJobs bounds the jobs of one run: a tree that splits into more is not compared (Outcome.Skip).
const MaxJobs = 5000

// A Mismatch is one failed comparison: the check and what differs.
type Mismatch struct {
	Check, Detail string
}

func (m Mismatch) String() string { return m.Check + ": " + m.Detail }

// Outcome is what Compare found on one program with one setting of --all-bugs.
type Outcome struct {
	Mismatches []Mismatch
	// Skip says why nothing was compared ("" when the reports were compared): "stopped" (the
	// single run's state bound), "unknown" (an answer unknown of the solver), "jobs" (more than
	// MaxJobs jobs) or "time" (stop answered true).
	Skip string
	// Bugs are the assembled report's bugs, in its order, as the jobs found them; Finished is
	// true when the single run explored its whole tree (no bug cut it short).
	Bugs     []*engine.Bug
	Finished bool
	// Jobs is the number of jobs explored.
	Jobs int
}

// Options are the single run's options the distributed run shares: --all-bugs, the solver's
// bounds, and the single run's state bound (the distributed run has none).
type Options struct {
	AllBugs   bool
	MaxStates int
	Limits    budget.Limits // QueryTimeout and RLimit are used
	Budget    int           // the job size (0: Budget of the program's file name)
}

// bugText is what the comparison says of a bug: its place, kind, depth and path condition.
func bugText(prog *syntax.Program, b *engine.Bug) string {
	p := b.Fail.Pos()
	return fmt.Sprintf("%d:%d %s depth %d pc %s", p.Line, p.Col, b.Kind(), b.State.Depth, b.State.PC.String(sym.SlotNames(prog)))
}

// record is a bug as the in-process renderer renders it: its number among the bugs the jobs
// found, and its text.
type record struct {
	N    int    `json:"n"`
	Text string `json:"text"`
}

// Compare runs prog as the single run (engine.FindBugs, breadth-first) and as a distributed run
// explored in this process, assembles the latter and compares the reports. stop, when it answers
// true, ends the comparison early (a time budget).
func Compare(prog *syntax.Program, o Options, stop func() bool) (*Outcome, error) {
	out := &Outcome{}
	opts := engine.Options{Strategy: engine.BFS, AllBugs: o.AllBugs,
		Limits: budget.Limits{MaxStates: o.MaxStates, QueryTimeout: o.Limits.QueryTimeout, RLimit: o.Limits.RLimit}}
	e := engine.New(prog, opts)
	var want []string
	rep, err := e.FindBugs(func(b *engine.Bug) { want = append(want, bugText(prog, b)) })
	stopped := e.Stopped()
	e.Close()
	if err != nil {
		return nil, err
	}
	switch {
	case stopped != "":
		out.Skip = "stopped"
		return out, nil
	case rep.Stats.Solver.Unknown > 0:
		out.Skip = "unknown"
		return out, nil
	}
	size := o.Budget
	if size <= 0 {
		size = Budget(prog.File) * max(1, rep.Stats.Expanded/JobsPerScale)
	}
	spec := &distrib.Spec{Run: "refinement", File: prog.File, AllBugs: o.AllBugs, QueryTimeout: o.Limits.QueryTimeout, RLimit: o.Limits.RLimit, Budget: size}
	var found []*engine.Bug
	render := func(_ *engine.Engine, b *engine.Bug) (json.RawMessage, error) {
		found = append(found, b)
		return json.Marshal(record{len(found) - 1, bugText(prog, b)})
	}
	results, skip, err := exploreAll(prog, spec, render, stop)
	out.Jobs = len(results)
	if err != nil {
		out.Mismatches = append(out.Mismatches, Mismatch{"dist/error", err.Error()})
		return out, nil
	}
	if skip != "" {
		out.Skip = skip
		return out, nil
	}
	got, err := distrib.Assemble(results, o.AllBugs)
	if err != nil {
		out.Mismatches = append(out.Mismatches, Mismatch{"dist/error", "the assembly: " + err.Error()})
		return out, nil
	}
	if got.Totals.Unknown > 0 {
		out.Skip = "unknown" // a bound cut a query short that the single run's solver answered
		return out, nil
	}
	// The coordinator's engine confirms the bugs again, walking their paths (the inputs printed)
	conf := distrib.NewConfirmer(prog, spec, nil, 0, render)
	err = conf.Confirm(got)
	conf.Close()
	if err != nil {
		out.Mismatches = append(out.Mismatches, Mismatch{"dist/error", "confirming the bugs: " + err.Error()})
		return out, nil
	}
	var gotBugs []string
	for _, raw := range got.Bugs {
		var r record
		if err := json.Unmarshal(raw, &r); err != nil || r.N < 0 || r.N >= len(found) {
			out.Mismatches = append(out.Mismatches, Mismatch{"dist/error", fmt.Sprintf("the assembled report has a bug that no job rendered: %s", raw)})
			return out, nil
		}
		gotBugs = append(gotBugs, r.Text)
		out.Bugs = append(out.Bugs, found[r.N])
	}
	if got.Verdict != rep.Verdict.String() || got.Reason != rep.Reason || !slices.Equal(gotBugs, want) {
		out.Mismatches = append(out.Mismatches, Mismatch{"dist/answer", fmt.Sprintf("jobs of %d states (%d jobs): the assembled report says %s (%s), bugs\n    %s\nthe single run %s (%s), bugs\n    %s",
			size, len(results), got.Verdict, got.Reason, strings.Join(gotBugs, "\n    "), rep.Verdict, rep.Reason, strings.Join(want, "\n    "))})
	}
	s := rep.Stats
	// The solver's counts are left out: whether a state needs a query depends on the models its
	// process found before (a parent's model that satisfies the branch answers it), and a job
	// starts in a fresh engine (docs/distributed.md).
	wantTotals := distrib.Level{States: s.Expanded, Pruned: s.Pruned}
	gotTotals := distrib.Level{States: got.Totals.States, Pruned: got.Totals.Pruned}
	if gotTotals != wantTotals || got.MaxDepth != s.MaxDepth {
		out.Mismatches = append(out.Mismatches, Mismatch{"dist/counters", fmt.Sprintf("jobs of %d states (%d jobs): the assembled counters are %+v, depth %d; the single run's %+v, depth %d",
			size, len(results), gotTotals, got.MaxDepth, wantTotals, s.MaxDepth)})
	}
	out.Finished = o.AllBugs || len(rep.Bugs) == 0
	return out, nil
}

// exploreAll explores the job tree of spec's program in this process, as the workers and the
// coordinator do: jobs taken in breadth-first order of their roots, and, without --all-bugs,
// none whose root comes after the first bug or stop found so far (the coordinator does not wait
// for them). skip is "jobs" when the tree has more than MaxJobs jobs, "time" when stop answered
// true; err a job that failed.
func exploreAll(prog *syntax.Program, spec *distrib.Spec, render distrib.Renderer, stop func() bool) (results map[string]*distrib.Result, skip string, err error) {
	results = map[string]*distrib.Result{}
	queue := []distrib.Pending{{Job: job.Root}}
	var best *job.Job
	for len(queue) > 0 {
		if stop != nil && stop() {
			return results, "time", nil
		}
		if len(results) >= MaxJobs {
			return results, "jobs", nil
		}
		sort.Slice(queue, func(i, k int) bool { return queue[i].Job.Compare(queue[k].Job) < 0 })
		j, root := queue[0].Job, queue[0].Root
		queue = queue[1:]
		if best != nil && j.Compare(*best) > 0 {
			continue
		}
		r, err := distrib.Explore(prog, spec, j, root, budget.NewMonitor(), render)
		if err != nil {
			return results, "", fmt.Errorf("job %v: %v", j, err)
		}
		if r.Status == distrib.StatusFailed {
			return results, "", fmt.Errorf("job %v failed: %s", j, r.Reason)
		}
		results[r.Job] = r
		subs, err := r.SplitOff()
		if err != nil {
			return results, "", err
		}
		queue = append(queue, subs...)
		if spec.AllBugs {
			continue
		}
		for _, ev := range r.Events {
			if at, err := job.Parse(ev.At); err == nil && ev.Outcome == distrib.OutcomeBug && (best == nil || at.Compare(*best) < 0) {
				best = &at
			}
		}
		if r.Status == distrib.StatusStopped {
			if at, err := job.Parse(r.StoppedAt); err == nil && (best == nil || at.Compare(*best) < 0) {
				best = &at
			}
		}
	}
	return results, "", nil
}

// Hooks are the layer's checks that take the assembled report's bugs: BugReplay replays one
// bug's input on the reference (its mismatches named check); AllBugs is the all-bugs oracle on
// a run's bugs (finished: the run explored its whole tree).
type Hooks struct {
	BugReplay func(check string, b *engine.Bug)
	AllBugs   func(check string, bugs []*engine.Bug, finished bool)
}

// Run is the check of the unit's program in the refinement layer, first bug and --all-bugs, with
// the layer's engine bounds without the time bound (the single run's state bound, a large one
// for a program of the large-budget kind), each comparison within the program's budget. It
// counts the programs compared and those left out in c.Sum.
func Run(c *checker.Checker, h Hooks) {
	o := Options{MaxStates: c.Cfg.MaxStates}
	lim := c.EngineOptions().Limits
	o.Limits = budget.Limits{QueryTimeout: lim.QueryTimeout, RLimit: lim.RLimit}
	if c.U.Long && c.Cfg.LongStates > o.MaxStates {
		o.MaxStates = c.Cfg.LongStates
	}
	compared, start := false, time.Now()
	defer func() {
		c.Sum.DistTime += time.Since(start)
		if compared {
			c.Sum.DistRuns++
		}
	}()
	for _, all := range []bool{false, true} {
		if c.Expired() {
			return
		}
		o.AllBugs = all
		out, err := Compare(c.U.Prog, o, c.Expired)
		if err != nil {
			c.Report("dist/error", "", -1, "all bugs %v: the single run: %v", all, err)
			return
		}
		for _, m := range out.Mismatches {
			c.Report(m.Check, "", -1, "all bugs %v: %s", all, m.Detail)
		}
		switch out.Skip {
		case "":
		case "stopped":
			c.Sum.DistStopped++
			return
		case "time":
			return
		default:
			c.Sum.DistSkipped++
			return
		}
		if len(out.Mismatches) > 0 {
			return
		}
		compared = true
		c.Sum.DistJobs += out.Jobs
		if h.BugReplay != nil {
			for _, b := range out.Bugs {
				if c.Expired() {
					return
				}
				h.BugReplay("dist/bug-replay", b)
			}
		}
		if all && h.AllBugs != nil {
			h.AllBugs("dist/all-bugs", out.Bugs, out.Finished)
		}
	}
}
