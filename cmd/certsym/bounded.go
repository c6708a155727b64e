package main

import (
	"errors"
	"fmt"
	"io"

	"certsym/bounded"
	"certsym/cmd/certsym/internal/buginput"
	"certsym/cmd/certsym/internal/jsonout"
	"certsym/cmd/certsym/internal/report"
	"certsym/engine"
	"certsym/spec"
	"certsym/spec/syntax"
	"certsym/sym"
)

// resultGroups are the groups of result states run --loop-bound prints, in order: the four
// behaviours of the bounded semantics, then the paths a budget stopped ("stopped").
var resultGroups = []string{spec.Normal.String(), spec.Error.String(), spec.Infeasible.String(), spec.Incomplete.String(), "stopped"}

// resultGroup is the group of r: "stopped" for a path a budget (or the observer) cut, which is no
// outcome of the program, and its behaviour otherwise.
func resultGroup(r bounded.Result) string {
	if r.Cut != bounded.CutNone {
		return "stopped"
	}
	return r.Behaviour.String()
}

// runBounded is certsym run --loop-bound N: the bounded interpreter of the Why3 development
// (bounded.Interp.Run, which confirms each error by running its model on the bounded concrete
// semantics). It prints the result states grouped by behaviour with their constraints, like the
// CoLiS tool. finished ends the progress reports and the interrupt handling once the solver's work
// is over.
func runBounded(prog *syntax.Program, n int, opts engine.Options, finished func(), asJSON, full bool, stdout, stderr io.Writer) int {
	b := bounded.New(prog, n)
	defer b.Close()
	b.Limits, b.NoPrune = opts.Limits, opts.NoPrune
	if opts.Monitor != nil {
		b.SetMonitor(opts.Monitor)
	}
	rep, err := b.RunWorkers(opts.Workers)
	if err != nil {
		var re *bounded.ReplayError
		if errors.As(err, &re) {
			fmt.Fprintf(stderr, "certsym: %v\n", err)
		} else {
			fmt.Fprintf(stderr, "certsym: internal error: %v\n", err)
		}
		return exitInternal
	}
	rs := rep.Results
	names := sym.SlotNames(prog)
	mon := opts.Monitor
	mon.Enter("rendering of the report")
	// The constraint and store of each result state, rendered on the workers (pure functions of
	// the state, kept by index: the same text for every number of workers). Once the partial
	// report is due (an interrupt, the time or memory bound), the states left are not rendered:
	// the report lists those rendered and says how many it leaves out.
	constraints, stores := make([]string, len(rs)), make([]string, len(rs))
	rendered := make([]bool, len(rs))
	bounded.Each(len(rs), opts.Workers, func(i int) {
		if mon.Overdue() {
			return
		}
		constraints[i], stores[i] = rs[i].State.PC.String(names), sym.StoreString(rs[i].State.Store, names)
		rendered[i] = true
	})
	left := 0
	for _, r := range rendered {
		if !r {
			left++
		}
	}
	var cut string
	if left > 0 {
		cut = fmt.Sprintf("%s: the rendering of the report: %d of %d result states not shown", mon.Stop(), left, len(rs))
	}
	bugs := []jsonout.Bug{}
	var inputs []spec.Store
	var notes []string
	// The inputs as run's bug finder shows them: the variables assigned before read named apart.
	show := buginput.New(prog, "")
	for _, e := range rep.Errors {
		r, input := e.Result, e.Input
		inputs = append(inputs, input)
		cmd, note, err := show.Reproduce(prog.File, &engine.Bug{Fail: r.Fail, Input: input})
		notes = append(notes, note)
		if err != nil {
			fmt.Fprintf(stderr, "certsym: %v\n", err)
			return exitInternal
		}
		bugs = append(bugs, jsonout.Bug{Line: r.Fail.Line(), Column: r.Fail.Pos().Col, Kind: r.Fail.Kind.String(), PathCondition: r.State.PC.String(names),
			Input: report.InputJSON(input, names), AssignedBeforeRead: show.Irrelevant(), Store: sym.StoreString(r.State.Store, names), Reproduce: cmd})
	}
	finished()
	verdict, reason := rep.Verdict.String(), rep.Reason
	if asJSON {
		out := jsonout.Bounded{Verdict: verdict, LoopBound: n, States: []jsonout.State{}, Bugs: bugs, Reason: reason,
			SolverQueries: b.Solver().Stats.Queries, Cut: cut}
		for _, g := range resultGroups {
			for i, r := range rs {
				if resultGroup(r) != g || !rendered[i] {
					continue
				}
				js := jsonout.State{Behaviour: g, Constraint: constraints[i], Store: stores[i]}
				if r.Fail != nil {
					js.Line, js.Column, js.Kind = r.Fail.Line(), r.Fail.Pos().Col, r.Fail.Kind.String()
				} else if r.At != nil {
					js.Line, js.Column = r.At.Pos().Line, r.At.Pos().Col
				}
				out.States = append(out.States, js)
			}
		}
		if err := jsonout.Write(stdout, out); err != nil {
			fmt.Fprintf(stderr, "certsym: %v\n", err)
			return exitInternal
		}
	} else {
		fmt.Fprintf(stdout, "bounded symbolic execution, loop bound %d: %s\n", n, report.Plural(len(rs), "result state"))
		for _, g := range resultGroups {
			var group []int // indices into rs
			for i, r := range rs {
				if resultGroup(r) == g && rendered[i] {
					group = append(group, i)
				}
			}
			if len(group) == 0 {
				continue
			}
			fmt.Fprintf(stdout, "\n%s (%d):\n", g, len(group))
			for _, i := range group {
				r, where := rs[i], ""
				switch {
				case r.Fail != nil:
					where = fmt.Sprintf(" [%s at %s]", report.DescribeFail(r.Fail), loc(r.Fail))
				case r.At != nil:
					where = fmt.Sprintf(" [at %s]", loc(r.At))
				}
				fmt.Fprintf(stdout, "  constraint: %s%s\n      store: %s\n", report.Abbrev(constraints[i], " and ", "conjunct", full), where,
					report.Abbrev(stores[i], ", ", "variable", full))
			}
		}
		fmt.Fprintln(stdout)
		for i, bug := range bugs {
			// In the words of run's reports (report.DescribeFail); the JSON gives the kind.
			fmt.Fprintf(stdout, "BUG: %s at %s:%d:%d, input %s (confirmed by the bounded concrete execution)\n", report.DescribeFail(rep.Errors[i].Result.Fail),
				prog.File, bug.Line, bug.Column, show.Text(inputs[i]))
			fmt.Fprintf(stdout, "  reproduce: %s\n", bug.Reproduce)
			if notes[i] != "" {
				fmt.Fprintf(stdout, "             (%s)\n", notes[i])
			}
		}
		fmt.Fprintf(stdout, "verdict: %s", verdict)
		if reason != "" {
			fmt.Fprintf(stdout, " (%s)", reason)
		}
		st := b.Solver().Stats
		fmt.Fprintf(stdout, "\n%s (%d sat, %d unsat, %d unknown)\n", report.Plural(st.Queries, "solver query"), st.Sat, st.Unsat, st.Unknown)
		if cut != "" {
			fmt.Fprintf(stdout, "cut short: %s\n", cut)
		}
	}
	switch {
	case rep.Verdict == bounded.Bug:
		return exitBug
	case rep.Verdict == bounded.Safe && cut == "":
		return exitSafe
	}
	return exitUnknown
}
