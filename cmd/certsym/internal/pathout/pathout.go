// Package pathout prints the path of certsym concolic: its text report and its JSON object.
package pathout

import (
	"encoding/json"
	"fmt"
	"io"

	"certsym/cmd/certsym/internal/report"
	"certsym/concolic"
	"certsym/pathcond"
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
	// Cut says what the report leaves out, when a bound or an interrupt cut the flips or the
	// rendering of the branch points short.
	Cut []string `json:"cut,omitempty"`
}

// Object is the JSON object of concolic --json for the path p of a program with variables names.
// due is asked before each branch point is rendered: true cuts the list there (Cut says so).
func Object(p *concolic.Path, names []string, due func() string) JSON {
	out := JSON{Input: report.InputJSON(p.Input, names), Branches: []Branch{}, Outcome: p.Outcome.String(),
		Steps: p.Steps, Store: report.InputJSON(p.Final, names), PathCondition: p.PC.String(names),
		SymbolicStore: sym.StoreString(p.Store, names), SolverQueries: p.Solver.Queries}
	if p.FlipsCut != "" {
		out.Cut = append(out.Cut, p.FlipsCut)
	}
	for i, b := range p.Branches {
		if r := due(); r != "" {
			out.Cut = append(out.Cut, renderCut(r, i, len(p.Branches)))
			break
		}
		jb := Branch{Line: b.Pos.Line, Column: b.Pos.Col, Kind: string(b.Kind), Condition: b.Cond, Step: b.Step,
			Taken: b.SideName(b.Taken), Constraint: b.Conj.String(names), PathCondition: b.PC.String(names), Flips: []Flip{}}
		for _, f := range b.Flips {
			jf := Flip{Side: b.SideName(f.Side), Status: f.Status.String(), Confirmed: f.Confirmed, Reason: f.Reason}
			if f.Status == pathcond.Sat {
				jf.Input = report.InputJSON(f.Input, names)
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
		w := p.Kont.Head().Pos()
		out.Line, out.Column, out.Reason = w.Line, w.Col, p.Reason
	}
	return out
}

// renderCut says that the rendering of the branch points stopped (reason) before the i-th of n.
func renderCut(reason string, i, n int) string {
	return fmt.Sprintf("%s: the rendering of the report: branch points %d to %d not shown", reason, i+1, n)
}

// WriteText prints the text report of concolic for the path p of the program file with
// variables names; full prints path conditions and stores whole. due is asked before each
// branch point is printed: a reason cuts the list there, and the report says so. It returns
// whether the report was cut (the flips, or the list).
func WriteText(w io.Writer, file string, p *concolic.Path, names []string, full bool, due func() string) (cut bool) {
	fmt.Fprintf(w, "path of the input %s\n", report.InputText(p.Input, names))
	sat, unsat, unknown := 0, 0, 0
	var cuts []string
	if p.FlipsCut != "" {
		cuts = append(cuts, p.FlipsCut)
	}
	for i, b := range p.Branches {
		if r := due(); r != "" {
			cuts = append(cuts, renderCut(r, i, len(p.Branches)))
			break
		}
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
				how := "confirmed: its concrete run takes it"
				if !f.Confirmed {
					how = "not confirmed: its concrete run was stopped first"
					if f.Reason != "" {
						how = f.Reason
					}
				}
				fmt.Fprintf(w, "   flip to %s: %s (%s)\n", b.SideName(f.Side), report.InputText(f.Input, names), how)
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
		fmt.Fprintf(w, "outcome: %s at %s:%s\n", p.Reason, file, pos(p.Kont.Head().Pos()))
	}
	fmt.Fprintf(w, "store: %s\n", report.InputText(p.Final, names))
	fmt.Fprintf(w, "path condition: %s\n", report.Abbrev(p.PC.String(names), " and ", "conjunct", full))
	fmt.Fprintf(w, "symbolic store: %s\n", report.Abbrev(sym.StoreString(p.Store, names), ", ", "variable", full))
	fmt.Fprintf(w, "%s; flips: %d found and confirmed, %d unsat, %d unknown; %s\n", report.Plural(len(p.Branches), "branch point"),
		sat, unsat, unknown, report.Plural(p.Solver.Queries, "solver query"))
	for _, c := range cuts {
		fmt.Fprintf(w, "cut short: %s\n", c)
	}
	return len(cuts) > 0
}

func pos(p syntax.Pos) string { return fmt.Sprintf("%d:%d", p.Line, p.Col) }
