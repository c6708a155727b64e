package main

import (
	"fmt"
	"io"
	"strings"

	"certsym/engine"
	"certsym/spec"
)

// jsonState is one result state of the bounded interpreter in run --loop-bound --json. Behaviour
// is normal, error, infeasible or incomplete (the loop bound cut the path off), or stopped (a
// budget stopped the path at Line before its branch was explored; "reason" says which).
type jsonState struct {
	Behaviour  string `json:"behaviour"`
	Line       int    `json:"line,omitempty"`
	Column     int    `json:"column,omitempty"`
	Kind       string `json:"kind,omitempty"`
	Constraint string `json:"constraint"`
	Store      string `json:"store"`
}

// jsonBounded is the single object run --loop-bound --json prints: the fields of run --json, with
// "states" the list of result states (their number is "explored" branch states).
type jsonBounded struct {
	Verdict       string      `json:"verdict"`
	LoopBound     int         `json:"loop_bound"`
	States        []jsonState `json:"states"`
	Bugs          []jsonBug   `json:"bugs"`
	Reason        string      `json:"reason,omitempty"`
	SolverQueries int         `json:"solver_queries"`
}

// resultGroups are the groups of result states run --loop-bound prints, in order: the four
// behaviours of the bounded semantics, then the paths a budget stopped ("stopped").
var resultGroups = []string{spec.Normal.String(), spec.Error.String(), spec.Infeasible.String(), spec.Incomplete.String(), "stopped"}

// resultGroup is the group of r: "stopped" for a path a budget (or the observer) cut, which is no
// outcome of the program, and its behaviour otherwise.
func resultGroup(r engine.BResult) string {
	if r.Cut != engine.CutNone {
		return "stopped"
	}
	return r.Behaviour.String()
}

// runBounded is certsym run --loop-bound N: the bounded interpreter of the Why3 development. It
// prints the result states grouped by behaviour with their constraints, like the CoLiS tool, and
// confirms each error by running its model on the bounded concrete semantics.
// finished ends the progress reports and the interrupt handling once the solver's work is over.
func runBounded(prog *spec.Program, n int, opts engine.Options, finished func(), asJSON, full bool, stdout, stderr io.Writer) int {
	b := engine.NewBounded(prog, n)
	b.MaxStates, b.Timeout, b.MaxMemory, b.NoPrune = opts.MaxStates, opts.Timeout, opts.MaxMemory, opts.NoPrune
	if opts.Monitor != nil {
		b.SetMonitor(opts.Monitor)
	}
	b.Solver().RLimit, b.Solver().QueryTimeout = opts.RLimit, opts.QueryTimeout
	rs, err := b.SymInterp(nil)
	if err != nil {
		fmt.Fprintf(stderr, "certsym: internal error: %v\n", err)
		return exitInternal
	}
	names := prog.Vars
	var bugs []jsonBug
	var unknown []string
	incomplete := map[int]int{}
	reported := map[*spec.Fail]bool{}
	for _, r := range rs {
		switch {
		case r.Cut != engine.CutNone:
			// a path a budget stopped: b.Stopped() gives the reason, not the loop bound
		case r.Behaviour == spec.Incomplete:
			incomplete[spec.LineOf(r.At)]++
		case r.Behaviour == spec.Error:
			if b.Solver().Check(r.State.C) != engine.Sat {
				unknown = append(unknown, fmt.Sprintf("the %s at %s (%s)", r.Fail.Kind, loc(r.Fail.Loc), r.State.C.Reason))
				continue
			}
			input := spec.Store(r.State.C.Witness)
			replay := spec.ExecBounded(prog, input, n)
			if replay.Behaviour != spec.Error || replay.Fail != r.Fail {
				fmt.Fprintf(stderr, "certsym: internal error: the input %s of the error at line %d does not replay: the bounded concrete execution ends %s\n",
					engine.InputString(input, names), r.Fail.Line(), replay.Behaviour)
				return exitInternal
			}
			if reported[r.Fail] {
				continue
			}
			reported[r.Fail] = true
			bugs = append(bugs, jsonBug{Line: r.Fail.Line(), Column: r.Fail.Where().Col, Kind: r.Fail.Kind.String(), PathCondition: r.State.C.String(names),
				Input: inputJSON(input, names), Store: engine.StoreString(r.State.Sigma, names), Reproduce: reproduceInput(prog.File, input, names)})
		}
	}
	finished()
	verdict, reason := "safe", ""
	switch {
	case len(bugs) > 0:
		verdict, reason = "bug", b.Stopped() // a bound or an interrupt may have left errors unexplored
	case b.Stopped() != "":
		verdict, reason = "unknown", b.Stopped()
	case len(unknown) > 0:
		verdict, reason = "unknown", "the solver could not decide "+strings.Join(unknown, ", ")
	case len(incomplete) > 0:
		var parts []string
		for _, l := range sortedKeys(incomplete) {
			parts = append(parts, fmt.Sprintf("line %d (%s)", l, plural(incomplete[l], "path")))
		}
		verdict, reason = "unknown", fmt.Sprintf("loop bound %d cut off loops at %s", n, strings.Join(parts, ", "))
	}
	if asJSON {
		out := jsonBounded{Verdict: verdict, LoopBound: n, States: []jsonState{}, Bugs: bugs, Reason: reason,
			SolverQueries: b.Solver().Stats.Queries}
		if out.Bugs == nil {
			out.Bugs = []jsonBug{}
		}
		for _, g := range resultGroups {
			for _, r := range rs {
				if resultGroup(r) != g {
					continue
				}
				js := jsonState{Behaviour: g, Constraint: r.State.C.String(names), Store: engine.StoreString(r.State.Sigma, names)}
				if r.Fail != nil {
					js.Line, js.Column, js.Kind = r.Fail.Line(), r.Fail.Where().Col, r.Fail.Kind.String()
				} else if r.At != nil {
					js.Line, js.Column = spec.LineOf(r.At), stmtCol(r.At)
				}
				out.States = append(out.States, js)
			}
		}
		if err := writeJSON(stdout, out); err != nil {
			fmt.Fprintf(stderr, "certsym: %v\n", err)
			return exitInternal
		}
	} else {
		fmt.Fprintf(stdout, "bounded symbolic execution, loop bound %d: %s\n", n, plural(len(rs), "result state"))
		for _, g := range resultGroups {
			var group []engine.BResult
			for _, r := range rs {
				if resultGroup(r) == g {
					group = append(group, r)
				}
			}
			if len(group) == 0 {
				continue
			}
			fmt.Fprintf(stdout, "\n%s (%d):\n", g, len(group))
			for _, r := range group {
				where := ""
				switch {
				case r.Fail != nil:
					where = fmt.Sprintf(" [%s at %s]", r.Fail.Kind, loc(r.Fail.Loc))
				case r.At != nil:
					where = fmt.Sprintf(" [at %s]", stmtLoc(r.At))
				}
				fmt.Fprintf(stdout, "  constraint: %s%s\n      store: %s\n", abbrev(r.State.C.String(names), " and ", "conjunct", full), where,
					abbrev(engine.StoreString(r.State.Sigma, names), ", ", "variable", full))
			}
		}
		fmt.Fprintln(stdout)
		for _, bug := range bugs {
			var in []string
			for _, v := range names {
				in = append(in, v+"="+string(bug.Input[v]))
			}
			fmt.Fprintf(stdout, "BUG: %s at %s:%d:%d, input %s (confirmed by the bounded concrete execution)\n", bug.Kind, prog.File, bug.Line, bug.Column, strings.Join(in, ", "))
			fmt.Fprintf(stdout, "  reproduce: %s\n", bug.Reproduce)
		}
		fmt.Fprintf(stdout, "verdict: %s", verdict)
		if reason != "" {
			fmt.Fprintf(stdout, " (%s)", reason)
		}
		st := b.Solver().Stats
		fmt.Fprintf(stdout, "\n%s (%d sat, %d unsat, %d unknown)\n", plural(st.Queries, "solver query"), st.Sat, st.Unsat, st.Unknown)
	}
	switch verdict {
	case "bug":
		return exitBug
	case "safe":
		return exitSafe
	}
	return exitUnknown
}

func sortedKeys(m map[int]int) []int {
	var ks []int
	for k := range m {
		ks = append(ks, k)
	}
	for i := 1; i < len(ks); i++ {
		for j := i; j > 0 && ks[j] < ks[j-1]; j-- {
			ks[j], ks[j-1] = ks[j-1], ks[j]
		}
	}
	return ks
}
