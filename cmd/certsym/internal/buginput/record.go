package buginput

import (
	"encoding/json"
	"fmt"
	"io"

	"certsym/cmd/certsym/internal/report"
	"certsym/engine"
	"certsym/sym"
)

// Record is a bug as certsym run reports it: what its text report prints (whole: WriteText
// abbreviates) and its JSON object holds. A distributed run's workers make the records of the
// bugs they find, and the coordinator prints them as the single run does.
type Record struct {
	Describe           string                     `json:"describe"` // report.DescribeFail
	File               string                     `json:"file"`     // the program's name (Program.File)
	Line               int                        `json:"line"`
	Column             int                        `json:"column"`
	Kind               string                     `json:"kind"`
	PathCondition      string                     `json:"path_condition"`
	Input              string                     `json:"input"` // Text
	InputJSON          map[string]json.RawMessage `json:"input_json"`
	AssignedBeforeRead []string                   `json:"assigned_before_read,omitempty"`
	Store              string                     `json:"store"`
	Steps              int                        `json:"steps"`
	Reproduce          string                     `json:"reproduce"`
	Note               string                     `json:"note,omitempty"`
}

// Record returns b's record, b a bug of the program file (as the command line names it); the
// error is Reproduce's (the record is complete but for the reproduce line then).
func (s *Shower) Record(file string, b *engine.Bug) (Record, error) {
	p := b.Fail.Pos()
	r := Record{Describe: report.DescribeFail(b.Fail), File: s.prog.File, Line: p.Line, Column: p.Col, Kind: b.Kind(),
		PathCondition: b.State.PC.String(s.names), Input: s.Text(b.Input), InputJSON: report.InputJSON(b.Input, s.names),
		AssignedBeforeRead: s.Irrelevant(), Store: sym.StoreString(b.State.Store, s.names), Steps: b.Replay.Steps}
	var err error
	r.Reproduce, r.Note, err = s.Reproduce(file, b)
	return r, err
}

// WriteText prints the bug as run's text report does; full prints the path condition and the
// store whole (run --full).
func (r *Record) WriteText(w io.Writer, full bool) {
	fmt.Fprintf(w, "BUG: %s at %s:%d:%d\n", r.Describe, r.File, r.Line, r.Column)
	fmt.Fprintf(w, "  path condition: %s\n", report.Abbrev(r.PathCondition, " and ", "conjunct", full))
	fmt.Fprintf(w, "  input:          %s\n", r.Input)
	fmt.Fprintf(w, "  symbolic store: %s\n", report.Abbrev(r.Store, ", ", "variable", full))
	fmt.Fprintf(w, "  confirmed:      the concrete run of this input reaches the error after %s\n", report.Plural(r.Steps, "step"))
	fmt.Fprintf(w, "  reproduce:      %s\n", r.Reproduce)
	if r.Note != "" {
		fmt.Fprintf(w, "                  (%s)\n", r.Note)
	}
}
