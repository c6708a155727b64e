package main

import (
	"encoding/json"
	"fmt"
	"io"

	"certsym/cmd/certsym/internal/report"
	"certsym/cmd/certsym/internal/testcase"
	"certsym/spec"
	"certsym/spec/syntax"
)

// jsonExec is the object exec --json prints.
type jsonExec struct {
	// Outcome is "normal" (the program finished), "bug" (it reached an error), "infeasible" (it
	// stopped at an assume whose condition is false) or "step-bound" (--max-steps reached).
	Outcome string `json:"outcome"`
	Kind    string `json:"kind,omitempty"` // the kind of error, for a bug
	// Line and Col locate the error (bug), the assume (infeasible) or the next statement (step-bound).
	Line  int          `json:"line,omitempty"`
	Col   int          `json:"col,omitempty"`
	Steps int          `json:"steps"`
	Input report.Input `json:"input"`
	Store report.Input `json:"store"`
}

// writeExecJSON prints the result of exec as one JSON object and returns exec's exit status.
func writeExecJSON(stdout, stderr io.Writer, prog *syntax.Program, input spec.Store, r spec.Result) int {
	x := testcase.Observed(r)
	out := jsonExec{Outcome: x.Outcome, Kind: x.Kind, Line: x.Line, Col: x.Col, Steps: r.Steps,
		Input: report.ProgInput(prog, input), Store: report.ProgInput(prog, r.Final.Store)}
	if x.Outcome == "step-bound" {
		p := report.StmtPos(spec.Head(r.Final.Prog))
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
	case "step-bound":
		return exitUnknown
	}
	return exitSafe
}
