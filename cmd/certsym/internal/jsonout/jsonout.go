// Package jsonout holds the JSON objects the certsym commands print with --json (run's verdict
// and bugs, run --loop-bound's result states, exec's run, the error object of a program that
// cannot be read) and the one encoding they are all printed with.
package jsonout

import (
	"encoding/json"
	"io"
	"regexp"
	"strconv"

	"certsym/cmd/certsym/internal/coverage"
	"certsym/cmd/certsym/internal/report"
	"certsym/cmd/certsym/internal/testcase"
	"certsym/internal/budget"
	"certsym/spec"
	"certsym/spec/syntax"
)

// Write prints v as indented JSON, integers with all their digits, no HTML escaping.
func Write(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}

// Bug is one bug in run --json and run --loop-bound --json.
type Bug struct {
	Line          int                        `json:"line"`
	Column        int                        `json:"column"`
	Kind          string                     `json:"kind"`
	PathCondition string                     `json:"path_condition"`
	Input         map[string]json.RawMessage `json:"input"`
	// AssignedBeforeRead names the variables (and arrays) in Input that the program assigns
	// before it reads them: their values change nothing.
	AssignedBeforeRead []string `json:"assigned_before_read,omitempty"`
	Store              string   `json:"store"`
	Steps              int      `json:"steps,omitempty"`
	Reproduce          string   `json:"reproduce"`
}

// Run is the single object run --json prints.
type Run struct {
	Verdict       string `json:"verdict"`
	States        int    `json:"states"`
	Bugs          []Bug  `json:"bugs"`
	Reason        string `json:"reason,omitempty"`
	SolverQueries int    `json:"solver_queries"`

	Coverage *coverage.JSON `json:"coverage,omitempty"` // run --coverage (internal/coverage)
	// Cut lists the phases after the exploration (the writing of the artifacts) that an
	// interrupt or the time or memory bound cut short, with what each left out.
	Cut []string `json:"cut,omitempty"`
}

// State is one result state of the bounded interpreter in run --loop-bound --json. Behaviour
// is normal, error, infeasible or incomplete (the loop bound cut the path off), or stopped (a
// budget stopped the path at Line before its branch was explored; "reason" says which).
type State struct {
	Behaviour  string `json:"behaviour"`
	Line       int    `json:"line,omitempty"`
	Column     int    `json:"column,omitempty"`
	Kind       string `json:"kind,omitempty"`
	Constraint string `json:"constraint"`
	Store      string `json:"store"`
}

// Bounded is the single object run --loop-bound --json prints: the fields of run --json, with
// "states" the list of result states (their number is "explored" branch states).
type Bounded struct {
	Verdict       string  `json:"verdict"`
	LoopBound     int     `json:"loop_bound"`
	States        []State `json:"states"`
	Bugs          []Bug   `json:"bugs"`
	Reason        string  `json:"reason,omitempty"`
	SolverQueries int     `json:"solver_queries"`
	// Cut says how many result states the report leaves out, when an interrupt or the time or
	// memory bound cut its rendering short.
	Cut string `json:"cut,omitempty"`
}

// Exec is the object exec --json prints.
type Exec struct {
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

// WriteExec prints the result r of exec on input as one Exec object and returns its outcome
// (Exec.Outcome); stopped is the monitor's reason to stop (the reason of a run Limits.Stop ended).
func WriteExec(w io.Writer, prog *syntax.Program, input spec.Store, r spec.Result, stopped string) (string, error) {
	x := testcase.Observed(r)
	if r.Cut == budget.CutStop {
		x.Reason = stopped
	}
	out := Exec{Outcome: x.Outcome, Reason: x.Reason, Kind: x.Kind, Line: x.Line, Col: x.Col, Steps: r.Steps,
		Input: report.ProgInput(prog, input), Store: report.ProgInput(prog, r.Final.Store)}
	if x.Outcome == "step-bound" {
		p := spec.Head(r.Final.Prog).Pos()
		out.Line, out.Col = p.Line, p.Col
	}
	return x.Outcome, Write(w, out)
}

// Interrupted is the object a command given --json prints on stdout when a signal (SIGINT,
// SIGTERM) comes before its run started: interrupted true, and the reason, "interrupted before
// the run started".
type Interrupted struct {
	Interrupted bool   `json:"interrupted"`
	Reason      string `json:"reason"`
}

// Error is the object a command given --json prints on stdout when it cannot read its
// program: the error, with its position for a syntax error.
type Error struct {
	Error   string `json:"error"` // "syntax" or "input"
	File    string `json:"file,omitempty"`
	Line    int    `json:"line,omitempty"`
	Col     int    `json:"col,omitempty"`
	Message string `json:"message"`
}

// positioned is a positioned message: file:line:col: message.
var positioned = regexp.MustCompile(`^(.*):(\d+):(\d+): (.*)$`)

// ErrorOf is the Error of text, the message a command printed when it could not read its
// program: a syntax error when the message is positioned, an input error otherwise.
func ErrorOf(text string) Error {
	if m := positioned.FindStringSubmatch(text); m != nil {
		line, _ := strconv.Atoi(m[2])
		col, _ := strconv.Atoi(m[3])
		return Error{Error: "syntax", File: m[1], Line: line, Col: col, Message: m[4]}
	}
	return Error{Error: "input", Message: text}
}
