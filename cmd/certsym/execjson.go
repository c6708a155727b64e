package main

import (
	"encoding/json"
	"fmt"
	"io"

	"certsym/cmd/certsym/internal/report"
	"certsym/cmd/certsym/internal/testcase"
	"certsym/internal/budget"
	"certsym/spec"
	"certsym/spec/syntax"
)

// jsonExec is the object exec --json prints.
type jsonExec struct {
	// Outcome is "normal" (the program finished), "bug" (it reached an error), "infeasible" (it
	// stopped at an assume whose condition is false), "step-bound" (--max-steps reached) or
	// "stopped" (another bound stopped it: Reason says which).
	Outcome string `json:"outcome"`
	Reason  string `json:"reason,omitempty"`
	Kind    string `json:"kind,omitempty"` // the kind of error, for a bug
	// Line and Col locate the error (bug), the assume (infeasible) or the next statement (step-bound).
	Line  int          `json:"line,omitempty"`
	Col   int          `json:"col,omitempty"`
	Steps int          `json:"steps"`
	Input report.Input `json:"input"`
	Store report.Input `json:"store"`
}

// writeExecJSON prints the result of exec as one JSON object and returns exec's exit status;
// stopped is the monitor's reason to stop (the reason of a run Limits.Stop ended).
func writeExecJSON(stdout, stderr io.Writer, prog *syntax.Program, input spec.Store, r spec.Result, stopped string) int {
	x := testcase.Observed(r)
	if r.Cut == budget.CutStop {
		x.Reason = stopped
	}
	out := jsonExec{Outcome: x.Outcome, Reason: x.Reason, Kind: x.Kind, Line: x.Line, Col: x.Col, Steps: r.Steps,
		Input: report.ProgInput(prog, input), Store: report.ProgInput(prog, r.Final.Store)}
	if x.Outcome == "step-bound" {
		p := spec.Head(r.Final.Prog).Pos()
		out.Line, out.Col = p.Line, p.Col
	}
	enc := json.NewEncoder(stdout)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(out); err != nil {
		fmt.Fprintf(stderr, "certsym: %v\n", err)
		return exitInternal
	}
	switch x.Outcome {
	case "bug":
		return exitBug
	case "step-bound", "stopped":
		return exitUnknown
	}
	return exitSafe
}
