// Package pathout prints the path of certsym concolic: its text report and its JSON object.
package pathout

import (
	"encoding/json"
	"fmt"
	"io"

	"certsym/cmd/certsym/internal/report"
	"certsym/concolic"
	"certsym/pathcond"
	"certsym/spec"
	"certsym/spec/syntax"
	"certsym/sym"
)

// Flip is one other side of a branch point in concolic --json.
type Flip struct {
	Side string `json:"side"`
	// Status is "sat" (input takes the side, confirmed by replay), "unsat" or "unknown" (reason).
	Status    string                     `json:"status"`
	Input     map[string]json.RawMessage `json:"input,omitempty"`
	Confirmed bool                       `json:"confirmed,omitempty"`
	Reason    string                     `json:"reason,omitempty"`
}

// Branch is one branch point in concolic --json.
type Branch struct {
	Line          int    `json:"line"`
	Column        int    `json:"column"`
	Kind          string `json:"kind"`
	Condition     string `json:"condition"`
	Step          int    `json:"step"`
	Taken         string `json:"taken"`
	Constraint    string `json:"constraint"` // the path condition's conjunct of the side taken
	PathCondition string `json:"path_condition"`
	Flips         []Flip `json:"flips"`
}

// JSON is the object concolic --json prints.
type JSON struct {
	Input    map[string]json.RawMessage `json:"input"`
	Branches []Branch                   `json:"branches"`
	// Outcome is "finished", "error" (kind, line, column), "blocked" (line, column of the assume),
	// "step-bound" or "stopped" (reason).
	Outcome       string                     `json:"outcome"`
	Kind          string                     `json:"kind,omitempty"`
	Line          int                        `json:"line,omitempty"`
	Column        int                        `json:"column,omitempty"`
	Reason        string                     `json:"reason,omitempty"`
	Steps         int                        `json:"steps"`
	Store         map[string]json.RawMessage `json:"store"`
	PathCondition string                     `json:"path_condition"`
	SymbolicStore string                     `json:"symbolic_store"`
	SolverQueries int                        `json:"solver_queries"`
}

// inputJSON is a store as a JSON object: each variable's value as a number token with all its
// digits.
func inputJSON(in spec.Store, names []string) map[string]json.RawMessage {
	return report.InputJSON(in, names)
}

// Object is the JSON object of concolic --json for the path p of a program with variables names.
func Object(p *concolic.Path, names []string) JSON {
	out := JSON{Input: inputJSON(p.Input, names), Branches: []Branch{}, Outcome: p.Outcome.String(),
		Steps: p.Steps, Store: inputJSON(p.Final, names), PathCondition: p.PC.String(names),
		SymbolicStore: sym.StoreString(p.Store, names), SolverQueries: p.Solver.Queries}
	for _, b := range p.Branches {
		jb := Branch{Line: b.Pos.Line, Column: b.Pos.Col, Kind: string(b.Kind), Condition: b.Cond, Step: b.Step,
			Taken: b.SideName(b.Taken), Constraint: b.Conj.String(names), PathCondition: b.PC.String(names), Flips: []Flip{}}
		for _, f := range b.Flips {
			jf := Flip{Side: b.SideName(f.Side), Status: f.Status.String(), Confirmed: f.Confirmed, Reason: f.Reason}
			if f.Status == pathcond.Sat {
				jf.Input = inputJSON(f.Input, names)
			}
			jb.Flips = append(jb.Flips, jf)
		}
		out.Branches = append(out.Branches, jb)
	}
	switch p.Outcome {
	case concolic.Error:
		w := p.Fail.Pos()
		out.Kind, out.Line, out.Column = p.Fail.Kind.String(), w.Line, w.Col
	case concolic.Blocked:
		b := p.Branches[len(p.Branches)-1]
		out.Line, out.Column = b.Pos.Line, b.Pos.Col
	case concolic.StepBound, concolic.Stopped:
		w := report.StmtPos(p.Kont.Head())
		out.Line, out.Column, out.Reason = w.Line, w.Col, p.Reason
	}
	return out
}

// WriteText prints the text report of concolic for the path p of the program file with
// variables names; full prints path conditions and stores whole.
func WriteText(w io.Writer, file string, p *concolic.Path, names []string, full bool) {
	fmt.Fprintf(w, "path of the input %s\n", report.InputText(p.Input, names))
	sat, unsat, unknown := 0, 0, 0
	for i, b := range p.Branches {
		fmt.Fprintf(w, "%d. %s:%d:%d %s %s: %s (after %s)\n", i+1, file, b.Pos.Line, b.Pos.Col, b.Kind, b.Cond,
			b.SideName(b.Taken), report.Plural(b.Step, "step"))
		fmt.Fprintf(w, "   path condition: %s\n", report.Abbrev(b.PC.String(names), " and ", "conjunct", full))
		if len(b.Flips) == 0 {
			why := ""
			if b.Kind == "assume" {
				why = " (its blocked side ends the run without error)"
			}
			fmt.Fprintf(w, "   no other side to flip to%s\n", why)
		}
		for _, f := range b.Flips {
			switch f.Status {
			case pathcond.Sat:
				sat++
				fmt.Fprintf(w, "   flip to %s: %s (confirmed: its concrete run takes it)\n", b.SideName(f.Side), report.InputText(f.Input, names))
			case pathcond.Unsat:
				unsat++
				fmt.Fprintf(w, "   flip to %s: none (unsat: no input follows this path and takes it)\n", b.SideName(f.Side))
			default:
				unknown++
				fmt.Fprintf(w, "   flip to %s: unknown (%s)\n", b.SideName(f.Side), f.Reason)
			}
		}
	}
	steps := report.Plural(p.Steps, "step")
	switch p.Outcome {
	case concolic.Finished:
		fmt.Fprintf(w, "outcome: finished after %s\n", steps)
	case concolic.Error:
		fmt.Fprintf(w, "outcome: error: %s at %s:%s after %s\n", report.DescribeFail(p.Fail), file, pos(p.Fail.Pos()), steps)
	case concolic.Blocked:
		b := p.Branches[len(p.Branches)-1]
		fmt.Fprintf(w, "outcome: blocked at the assume at %s:%d:%d, whose condition is false (an infeasible path, not an error), after %s\n",
			file, b.Pos.Line, b.Pos.Col, steps)
	default:
		fmt.Fprintf(w, "outcome: %s at %s:%s\n", p.Reason, file, pos(report.StmtPos(p.Kont.Head())))
	}
	fmt.Fprintf(w, "store: %s\n", report.InputText(p.Final, names))
	fmt.Fprintf(w, "path condition: %s\n", report.Abbrev(p.PC.String(names), " and ", "conjunct", full))
	fmt.Fprintf(w, "symbolic store: %s\n", report.Abbrev(sym.StoreString(p.Store, names), ", ", "variable", full))
	fmt.Fprintf(w, "%s; flips: %d found and confirmed, %d unsat, %d unknown; %s\n", report.Plural(len(p.Branches), "branch point"),
		sat, unsat, unknown, report.Plural(p.Solver.Queries, "solver query"))
}

func pos(p syntax.Pos) string { return fmt.Sprintf("%d:%d", p.Line, p.Col) }
