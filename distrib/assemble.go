package distrib

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"certsym/engine"
	"certsym/engine/job"
	"certsym/engine/steal"
	"certsym/internal/fault"
)

// Report is run --workers's report computed from the jobs' results (the single run's verdict,
// bugs and states; the queries counted by the tree): what certsym run --distributed prints.
type Report struct {
	Verdict string // bug, safe or unknown
	Reason  string
	// Bugs are the confirmed bugs in breadth-first order, each error once (without --all-bugs
	// the first only), as the workers rendered them (Confirm renders them again); Found are
	// their events, in the same order.
	Bugs  []json.RawMessage
	Found []Event
	// Totals are the counters of the states the single run expands (Depth unused); MaxDepth
	// the deepest of them.
	Totals   Level
	MaxDepth int
	// Jobs is the number of jobs whose results were used.
	Jobs int
}

// located is an event with its position parsed.
type located struct {
	Event
	at  job.Job
	job *Result
}

// Assemble computes the single run's report from the results of a run's jobs (by job), which
// must account for every job the single run's report depends on (Pending says which are still
// missing). The single run expands states in breadth-first order, by depth and then by path;
// within one depth the states of one job are a prefix, in that order, of its subtree's states
// at that depth (the rest of that depth, if any, went to split-off jobs, which come after them),
// and its subtree's paths all extend the job's own. So:
//
//   - With --all-bugs, or when no job found a bug, the single run expands every state: the
//     counters are the sums of every job's levels. The error states are taken in breadth-first
//     order; with --all-bugs one whose error was reported before is not checked by the single
//     run, so its check is taken out of the counters (a job only knows the errors it reported
//     itself). Bugs are the first of each error; the verdict is bug, else unknown when the
//     solver left an error state undecided (the reason names the first), else safe.
//   - Without --all-bugs, the single run stops at the first bug B in breadth-first order: it
//     expanded the states before B and B. Those are the states of depth below B's in every job
//     whose root comes before B, the states of B's depth in the jobs whose subtree comes before
//     B's path, and the states of B's job up to B (the job stopped there).
//
// A job that the engine stopped (a huge assignment) stops the single run too: without
// --all-bugs the report ends at the first of those stops or bugs; with it, the bugs found
// are reported with the stop's reason. Assemble fails on a result with StatusFailed (certsym's
// own error).
//
// The reason ends with a note when answers of the states the report takes were cut short by a
// bound (steal.WithCutNote), as run --workers's does.
func Assemble(results map[string]*Result, allBugs bool) (*Report, error) {
	rep, err := assemble(results, allBugs)
	if err != nil {
		return nil, err
	}
	rep.Reason = steal.WithCutNote(rep.Reason, rep.Totals.Cut)
	return rep, nil
}

func assemble(results map[string]*Result, allBugs bool) (*Report, error) {
	rep := &Report{Bugs: []json.RawMessage{}}
	var events []located
	var stop *located
	for _, r := range results {
		if r.Status == StatusFailed {
			return nil, fmt.Errorf("job %s: %s", r.Job, r.Reason)
		}
		for _, ev := range r.Events {
			at, err := job.Parse(ev.At)
			if err != nil {
				return nil, fmt.Errorf("job %s: %v", r.Job, err)
			}
			events = append(events, located{ev, at, r})
		}
		if r.Status == StatusStopped {
			at, err := job.Parse(r.StoppedAt)
			if err != nil {
				at, _ = job.Parse(r.Job)
			}
			if stop == nil || at.Compare(stop.at) < 0 {
				stop = &located{Event{Reason: r.Reason}, at, r}
			}
		}
	}
	sort.Slice(events, func(i, k int) bool {
		if fault.Active == fault.AssembleByJob && events[i].job != events[k].job { // the fault: by job first
			a, _ := job.Parse(events[i].job.Job)
			b, _ := job.Parse(events[k].job.Job)
			return a.Compare(b) < 0
		}
		return events[i].at.Compare(events[k].at) < 0
	})
	if !allBugs {
		cut := stop
		for i := range events {
			if events[i].Outcome == OutcomeBug {
				if cut == nil || events[i].at.Compare(cut.at) < 0 {
					cut = &events[i]
				}
				break
			}
		}
		if cut != nil {
			if err := rep.sumBefore(results, cut); err != nil {
				return nil, err
			}
			if cut.Outcome == OutcomeBug {
				rep.Verdict, rep.Bugs, rep.Found = "bug", []json.RawMessage{cut.Bug}, []Event{cut.Event}
			} else {
				rep.Verdict, rep.Reason = "unknown", cut.Reason
			}
			return rep, nil
		}
	}
	for _, r := range results {
		rep.Jobs++
		for _, l := range r.Levels {
			rep.Totals.add(l)
			if l.States > 0 && l.Depth > rep.MaxDepth {
				rep.MaxDepth = l.Depth
			}
		}
	}
	reported := map[int]bool{}
	var unknowns []located
	for _, ev := range events {
		if allBugs && reported[ev.Fail] {
			rep.Totals.add(ev.Cost.neg()) // the single run does not check it
			continue
		}
		switch ev.Outcome {
		case OutcomeBug:
			rep.Bugs = append(rep.Bugs, ev.Bug)
			rep.Found = append(rep.Found, ev.Event)
			reported[ev.Fail] = true
		case OutcomeUnknown:
			unknowns = append(unknowns, ev)
		}
	}
	switch {
	case len(rep.Bugs) > 0:
		rep.Verdict = "bug"
		var notes []string
		if allBugs && len(unknowns) > 0 {
			u := unknowns[0]
			notes = append(notes, engine.MayMiss(u.Kind, u.Line, u.Reason, len(unknowns)-1))
		}
		if stop != nil {
			notes = append(notes, stop.Reason)
		}
		rep.Reason = strings.Join(notes, "; ")
	case len(unknowns) > 0:
		u := unknowns[0]
		rep.Verdict = "unknown"
		rep.Reason = engine.Undecided(u.Kind, u.Line, u.Reason, len(unknowns)-1)
		if stop != nil {
			rep.Reason += "; " + stop.Reason
		}
	case stop != nil:
		rep.Verdict, rep.Reason = "unknown", stop.Reason
	default:
		rep.Verdict = "safe"
	}
	return rep, nil
}

// neg is -l.
func (l Level) neg() Level { return Level{}.minus(l) }

// sumBefore sets the counters to those of the states the single run expands up to and including
// the state at cut (a bug, or where the engine stopped), in the job cut.job.
func (rep *Report) sumBefore(results map[string]*Result, cut *located) error {
	for _, r := range results {
		root, err := job.Parse(r.Job)
		if err != nil {
			return err
		}
		if root.Compare(cut.at) > 0 {
			continue // every state of the job comes after the cut
		}
		rep.Jobs++
		for _, l := range r.Levels {
			take := r == cut.job || l.Depth < cut.at.Depth || (l.Depth == cut.at.Depth && subtreeBefore(root.Path, cut.at.Path))
			if !take {
				continue
			}
			rep.Totals.add(l)
			if l.States > 0 && l.Depth > rep.MaxDepth {
				rep.MaxDepth = l.Depth
			}
		}
	}
	return nil
}

// subtreeBefore reports whether the states of one depth whose paths extend p come before the
// state of that depth at path c, when none of them is that state: p's first choice that differs
// from c's is smaller, or p is a prefix of c (the states of c's depth under p that a job
// expanded come before those it split off, among which c's).
func subtreeBefore(p, c []uint8) bool {
	for i := 0; i < len(p) && i < len(c); i++ {
		if p[i] != c[i] {
			return p[i] < c[i]
		}
	}
	return len(p) <= len(c)
}
