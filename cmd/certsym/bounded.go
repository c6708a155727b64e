package main

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"certsym/engine"
	"certsym/spec"
)

// jsonState is one result state of the bounded interpreter in run --loop-bound --json.
type jsonState struct {
	Behaviour  string `json:"behaviour"`
	Line       int    `json:"line,omitempty"`
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

// boundedProgress prints a progress line of the bounded interpreter (run --loop-bound, verify).
func boundedProgress(stderr io.Writer) func(engine.BProgress) {
	return func(p engine.BProgress) {
		fmt.Fprintf(stderr, "certsym: %.0fs: %d branch states, %d solver queries\n", p.Elapsed.Seconds(), p.States, p.Queries)
	}
}

var behaviourOrder = []spec.Behaviour{spec.Normal, spec.Error, spec.Infeasible, spec.Incomplete}

// runBounded is certsym run --loop-bound N: the bounded interpreter of the Why3 development. It
// prints the result states grouped by behaviour with their constraints, like the CoLiS tool, and
// confirms each error by running its model on the bounded concrete semantics.
func runBounded(prog *spec.Program, n int, opts engine.Options, progress func(engine.BProgress), asJSON bool, stdout, stderr io.Writer) int {
	b := engine.NewBounded(prog, n)
	b.MaxStates, b.Timeout, b.MaxMemory, b.NoPrune, b.Progress = opts.MaxStates, opts.Timeout, opts.MaxMemory, opts.NoPrune, progress
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
		switch r.Behaviour {
		case spec.Incomplete:
			incomplete[spec.LineOf(r.At)]++
		case spec.Error:
			if b.Solver().Check(r.State.C) != engine.Sat {
				unknown = append(unknown, fmt.Sprintf("the %s at line %d (%s)", r.Fail.Kind, r.Fail.Line(), r.State.C.Reason))
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
			bugs = append(bugs, jsonBug{Line: r.Fail.Line(), Kind: r.Fail.Kind.String(), PathCondition: r.State.C.String(names),
				Input: inputJSON(input, names), Store: engine.StoreString(r.State.Sigma, names), Reproduce: reproduceInput(prog.File, input, names)})
		}
	}
	verdict, reason := "safe", ""
	switch {
	case len(bugs) > 0:
		verdict = "bug"
	case b.Stopped() != "":
		verdict, reason = "unknown", b.Stopped()
	case len(unknown) > 0:
		verdict, reason = "unknown", "the solver could not decide "+strings.Join(unknown, ", ")
	case len(incomplete) > 0:
		var parts []string
		for _, l := range sortedKeys(incomplete) {
			parts = append(parts, fmt.Sprintf("line %d (%d paths)", l, incomplete[l]))
		}
		verdict, reason = "unknown", fmt.Sprintf("loop bound %d cut off loops at %s", n, strings.Join(parts, ", "))
	}
	if asJSON {
		out := jsonBounded{Verdict: verdict, LoopBound: n, States: []jsonState{}, Bugs: bugs, Reason: reason,
			SolverQueries: b.Solver().Stats.Queries}
		if out.Bugs == nil {
			out.Bugs = []jsonBug{}
		}
		for _, beh := range behaviourOrder {
			for _, r := range rs {
				if r.Behaviour != beh {
					continue
				}
				js := jsonState{Behaviour: beh.String(), Constraint: r.State.C.String(names), Store: engine.StoreString(r.State.Sigma, names)}
				if r.Fail != nil {
					js.Line, js.Kind = r.Fail.Line(), r.Fail.Kind.String()
				} else if r.At != nil {
					js.Line = spec.LineOf(r.At)
				}
				out.States = append(out.States, js)
			}
		}
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		enc.SetEscapeHTML(false)
		enc.Encode(out)
	} else {
		fmt.Fprintf(stdout, "bounded symbolic execution, loop bound %d: %d result states\n", n, len(rs))
		for _, beh := range behaviourOrder {
			var group []engine.BResult
			for _, r := range rs {
				if r.Behaviour == beh {
					group = append(group, r)
				}
			}
			if len(group) == 0 {
				continue
			}
			fmt.Fprintf(stdout, "\n%s (%d):\n", beh, len(group))
			for _, r := range group {
				where := ""
				switch {
				case r.Fail != nil:
					where = fmt.Sprintf(" [%s at line %d]", r.Fail.Kind, r.Fail.Line())
				case r.At != nil:
					where = fmt.Sprintf(" [line %d]", spec.LineOf(r.At))
				}
				fmt.Fprintf(stdout, "  constraint: %s%s\n      store: %s\n", r.State.C.String(names), where, engine.StoreString(r.State.Sigma, names))
			}
		}
		fmt.Fprintln(stdout)
		for _, bug := range bugs {
			var in []string
			for _, v := range names {
				in = append(in, v+"="+string(bug.Input[v]))
			}
			fmt.Fprintf(stdout, "BUG: %s at line %d, input %s (confirmed by the bounded concrete execution)\n", bug.Kind, bug.Line, strings.Join(in, ", "))
			fmt.Fprintf(stdout, "  reproduce: %s\n", bug.Reproduce)
		}
		fmt.Fprintf(stdout, "verdict: %s", verdict)
		if reason != "" {
			fmt.Fprintf(stdout, " (%s)", reason)
		}
		fmt.Fprintf(stdout, "\n%d solver queries\n", b.Solver().Stats.Queries)
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
