package testcase

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"certsym/cmd/certsym/internal/report"
	"certsym/internal/budget"
	"certsym/spec"
)

// Stored is a test case file as replay reads it: a Case (its fields mean the same) whose input is
// kept as written, to be read into the program's variables.
type Stored struct {
	Format        int             `json:"certsym_test"`
	Program       string          `json:"program"`
	ProgramSHA256 string          `json:"program_sha256"`
	Input         json.RawMessage `json:"input"`
	Expected      End             `json:"expected"`
	PathCondition string          `json:"path_condition"`
}

// Read reads and checks one test case file; it returns it and its scalar inputs, each variable's
// value as a JSON number with all its digits (an array's list of elements is left in
// Stored.Input, which inputs.FromJSON reads whole).
func Read(path string) (*Stored, map[string]json.Number, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, nil, err
	}
	var t Stored
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&t); err != nil {
		return nil, nil, fmt.Errorf("%s: not a certsym test case: %v", path, err)
	}
	if t.Format != Format && t.Format != 1 {
		return nil, nil, fmt.Errorf("%s: certsym_test is %d, want %d (or 1, the format before)", path, t.Format, Format)
	}
	switch t.Expected.Outcome {
	case "normal", "bug", "infeasible":
	default:
		return nil, nil, fmt.Errorf("%s: expected.outcome is %q, want normal, bug or infeasible", path, t.Expected.Outcome)
	}
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(t.Input, &raw); err != nil {
		return nil, nil, fmt.Errorf("%s: input: %v", path, err)
	}
	in := map[string]json.Number{}
	for name, v := range raw {
		if bytes.HasPrefix(bytes.TrimSpace(v), []byte("[")) {
			continue // an array: read from Stored.Input (inputs.FromJSON)
		}
		var n json.Number
		d := json.NewDecoder(bytes.NewReader(v))
		d.UseNumber()
		if err := d.Decode(&n); err != nil {
			return nil, nil, fmt.Errorf("%s: input %s: %v", path, name, err)
		}
		in[name] = n
	}
	return &t, in, nil
}

// ProgramFile is the program file of the test case read from path, as a path from the working
// directory: Program taken from the test case file's directory (format 2), or as it is when
// absolute, "-", or in a file of format 1 (whose program path starts from the working directory
// of the run that wrote it).
func (t *Stored) ProgramFile(path string) string {
	if t.Format == 1 || t.Program == "-" || filepath.IsAbs(t.Program) {
		return t.Program
	}
	return filepath.Join(filepath.Dir(path), t.Program)
}

// Observed is the end of a concrete run, in the terms of an End.
func Observed(r spec.Result) End {
	switch r.Outcome {
	case spec.Final:
		return End{Outcome: "normal", Steps: r.Steps}
	case spec.Failed:
		p := r.Fail.Pos()
		return End{Outcome: "bug", Kind: r.Fail.Kind.String(), Line: p.Line, Col: p.Col, Steps: r.Steps}
	case spec.Blocked:
		p := spec.Head(r.Final.Prog).Pos()
		return End{Outcome: "infeasible", Line: p.Line, Col: p.Col, Steps: r.Steps}
	}
	p := spec.Head(r.Final.Prog).Pos()
	switch r.Cut {
	case budget.CutIntBits:
		return End{Outcome: "stopped", Reason: report.IntBound(spec.Head(r.Final.Prog)), Line: p.Line, Col: p.Col, Steps: r.Steps}
	case budget.CutStop: // the caller knows why (its monitor) and sets Reason
		return End{Outcome: "stopped", Line: p.Line, Col: p.Col, Steps: r.Steps}
	}
	return End{Outcome: "step-bound", Steps: r.Steps}
}

// Files returns target when it is a file, or the .json files in the directory target, sorted.
func Files(target string) ([]string, error) {
	fi, err := os.Stat(target)
	if err != nil {
		return nil, err
	}
	if !fi.IsDir() {
		return []string{target}, nil
	}
	entries, err := os.ReadDir(target)
	if err != nil {
		return nil, err
	}
	var files []string
	for _, e := range entries {
		if !e.IsDir() && strings.HasSuffix(e.Name(), ".json") {
			files = append(files, filepath.Join(target, e.Name()))
		}
	}
	sort.Strings(files)
	if len(files) == 0 {
		return nil, errors.New(target + ": no test case (.json) in this directory")
	}
	return files, nil
}
