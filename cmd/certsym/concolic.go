package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"

	"certsym/cmd/certsym/internal/report"
	"certsym/concolic"
	"certsym/engine"
	"certsym/spec"
	"certsym/sym"
)

// jsonFlip is one other side of a branch point in concolic --json.
type jsonFlip struct {
	Side string `json:"side"`
	// Status is "sat" (input takes the side, confirmed by replay), "unsat" or "unknown" (reason).
	Status    string                 `json:"status"`
	Input     map[string]json.Number `json:"input,omitempty"`
	Confirmed bool                   `json:"confirmed,omitempty"`
	Reason    string                 `json:"reason,omitempty"`
}

// jsonBranch is one branch point in concolic --json.
type jsonBranch struct {
	Line          int        `json:"line"`
	Column        int        `json:"column"`
	Kind          string     `json:"kind"`
	Condition     string     `json:"condition"`
	Step          int        `json:"step"`
	Taken         string     `json:"taken"`
	PathCondition string     `json:"path_condition"`
	Flips         []jsonFlip `json:"flips"`
}

// jsonConcolic is the object concolic --json prints.
type jsonConcolic struct {
	Input    map[string]json.Number `json:"input"`
	Branches []jsonBranch           `json:"branches"`
	// Outcome is "finished", "error" (kind, line, column), "blocked" (line, column of the assume),
	// "step-bound" or "stopped" (reason).
	Outcome       string                 `json:"outcome"`
	Kind          string                 `json:"kind,omitempty"`
	Line          int                    `json:"line,omitempty"`
	Column        int                    `json:"column,omitempty"`
	Reason        string                 `json:"reason,omitempty"`
	Steps         int                    `json:"steps"`
	Store         map[string]json.Number `json:"store"`
	PathCondition string                 `json:"path_condition"`
	SymbolicStore string                 `json:"symbolic_store"`
	SolverQueries int                    `json:"solver_queries"`
}

// cmdConcolic is certsym concolic FILE --input ...: the path of one input, its branch points and
// the inputs that flip them.
func cmdConcolic(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("concolic", flag.ContinueOnError)
	input := fs.String("input", "", "the input whose path to trace, as x=3,y=-2 (required; a variable not given is 0)")
	maxSteps := newCount(fs, "max-steps", concolic.DefaultMaxSteps, "stop the run after `N` steps")
	asJSON := fs.Bool("json", false, "print one JSON object on stdout")
	full := fs.Bool("full", false, "print path conditions and stores whole (the text output abbreviates long ones)")
	queryTimeout := newDuration(fs, "query-timeout", defaultQueryTimeout, "bound each solver query to this `duration` (0: none); an unanswered query is reported unknown")
	rlimit := fs.Uint("rlimit", defaultRLimit, "Z3 resource limit of each solver query (0: none)")
	file, code, ok := oneFile(fs, args, stderr)
	if !ok {
		return code
	}
	if !setFlags(fs)["input"] {
		fmt.Fprintf(stderr, "certsym concolic: --input is required: the input whose path to trace, e.g. --input x=1,y=2 (a variable not given is 0)\n")
		return exitUsage
	}
	if *maxSteps == 0 {
		fmt.Fprintf(stderr, "certsym concolic: --max-steps must be at least 1\n")
		return exitUsage
	}
	prog, _, ok := loadFor(file, *asJSON, stdout, stderr)
	if !ok {
		return exitUsage
	}
	store, ok := parseInput("concolic", "input", *input, prog, stderr)
	if !ok {
		return exitUsage
	}
	opts := concolic.Options{MaxSteps: *maxSteps}
	opts.Limits.QueryTimeout, opts.Limits.RLimit = *queryTimeout, *rlimit
	p, err := concolic.Trace(prog, store, opts)
	if err != nil {
		fmt.Fprintf(stderr, "certsym: %v\n", err)
		return exitInternal
	}
	names := prog.Vars
	if *asJSON {
		out := jsonConcolic{Input: inputJSON(p.Input, names), Branches: []jsonBranch{}, Outcome: p.Outcome.String(),
			Steps: p.Steps, Store: inputJSON(p.Final, names), PathCondition: p.PC.String(names),
			SymbolicStore: sym.StoreString(p.Store, names), SolverQueries: p.Solver.Queries}
		for _, b := range p.Branches {
			jb := jsonBranch{Line: b.Pos.Line, Column: b.Pos.Col, Kind: string(b.Kind), Condition: b.Cond, Step: b.Step,
				Taken: b.SideName(b.Taken), PathCondition: b.PC.String(names), Flips: []jsonFlip{}}
			for _, f := range b.Flips {
				jf := jsonFlip{Side: b.SideName(f.Side), Status: f.Status.String(), Confirmed: f.Confirmed, Reason: f.Reason}
				if f.Status == sym.Sat {
					jf.Input = inputJSON(f.Input, names)
				}
				jb.Flips = append(jb.Flips, jf)
			}
			out.Branches = append(out.Branches, jb)
		}
		switch p.Outcome {
		case concolic.Error:
			w := p.Fail.Where()
			out.Kind, out.Line, out.Column = p.Fail.Kind.String(), w.Line, w.Col
		case concolic.Blocked:
			b := p.Branches[len(p.Branches)-1]
			out.Line, out.Column = b.Pos.Line, b.Pos.Col
		case concolic.StepBound, concolic.Stopped:
			w := report.StmtPos(p.Kont.Head())
			out.Line, out.Column, out.Reason = w.Line, w.Col, p.Reason
		}
		if err := writeJSON(stdout, out); err != nil {
			fmt.Fprintf(stderr, "certsym: %v\n", err)
			return exitInternal
		}
		return concolicExit(p)
	}
	fmt.Fprintf(stdout, "path of the input %s\n", spec.InputString(p.Input, names))
	sat, unsat, unknown := 0, 0, 0
	for i, b := range p.Branches {
		fmt.Fprintf(stdout, "%d. %s:%d:%d %s %s: %s (after %s)\n", i+1, prog.File, b.Pos.Line, b.Pos.Col, b.Kind, b.Cond,
			b.SideName(b.Taken), report.Plural(b.Step, "step"))
		fmt.Fprintf(stdout, "   path condition: %s\n", report.Abbrev(b.PC.String(names), " and ", "conjunct", *full))
		if len(b.Flips) == 0 {
			why := ""
			if b.Kind == "assume" {
				why = " (its blocked side ends the run without error)"
			}
			fmt.Fprintf(stdout, "   no other side to flip to%s\n", why)
		}
		for _, f := range b.Flips {
			switch f.Status {
			case sym.Sat:
				sat++
				fmt.Fprintf(stdout, "   flip to %s: %s (confirmed: its concrete run takes it)\n", b.SideName(f.Side), spec.InputString(f.Input, names))
			case sym.Unsat:
				unsat++
				fmt.Fprintf(stdout, "   flip to %s: none (unsat: no input follows this path and takes it)\n", b.SideName(f.Side))
			default:
				unknown++
				fmt.Fprintf(stdout, "   flip to %s: unknown (%s)\n", b.SideName(f.Side), f.Reason)
			}
		}
	}
	steps := report.Plural(p.Steps, "step")
	switch p.Outcome {
	case concolic.Finished:
		fmt.Fprintf(stdout, "outcome: finished after %s\n", steps)
	case concolic.Error:
		fmt.Fprintf(stdout, "outcome: error: %s at %s:%s after %s\n", report.DescribeFail(p.Fail), prog.File, loc(p.Fail.Loc), steps)
	case concolic.Blocked:
		b := p.Branches[len(p.Branches)-1]
		fmt.Fprintf(stdout, "outcome: blocked at the assume at %s:%d:%d, whose condition is false (an infeasible path, not an error), after %s\n",
			prog.File, b.Pos.Line, b.Pos.Col, steps)
	default:
		fmt.Fprintf(stdout, "outcome: %s at %s:%s\n", p.Reason, prog.File, stmtLoc(p.Kont.Head()))
	}
	fmt.Fprintf(stdout, "store: %s\n", spec.InputString(p.Final, names))
	fmt.Fprintf(stdout, "path condition: %s\n", report.Abbrev(p.PC.String(names), " and ", "conjunct", *full))
	fmt.Fprintf(stdout, "symbolic store: %s\n", report.Abbrev(sym.StoreString(p.Store, names), ", ", "variable", *full))
	fmt.Fprintf(stdout, "%s; flips: %d found and confirmed, %d unsat, %d unknown; %s\n", report.Plural(len(p.Branches), "branch point"),
		sat, unsat, unknown, report.Plural(p.Solver.Queries, "solver query"))
	return concolicExit(p)
}

// concolicExit is concolic's exit status, exec's for the run's outcome: 0 finished or blocked, 1
// error, 3 stopped by a bound.
func concolicExit(p *concolic.Path) int {
	switch p.Outcome {
	case concolic.Finished, concolic.Blocked:
		return exitSafe
	case concolic.Error:
		return exitBug
	}
	return exitUnknown
}

// strategyNames lists the strategies --strategy accepts: the engine's (those engine.ParseStrategy
// knows among the candidates) and generational (package concolic).
func strategyNames() []string {
	var out []string
	for _, s := range []string{"bfs", "dfs", "coverage", "random-path"} {
		if _, err := engine.ParseStrategy(s); err == nil {
			out = append(out, s)
		}
	}
	return append(out, "generational")
}
