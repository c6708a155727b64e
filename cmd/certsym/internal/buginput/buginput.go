// Package buginput is how certsym run shows the input of a bug: the values the path condition
// leaves free are set to 0 (the solver's model gives them whatever its model completion picks),
// the variables the program assigns before it reads them are named apart as irrelevant, and the
// command that reproduces the bug takes its input from a file when the input is too long for a
// command line.
package buginput

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"certsym/cmd/certsym/internal/inputs"
	"certsym/cmd/certsym/internal/outfile"
	"certsym/cmd/certsym/internal/report"
	"certsym/engine"
	"certsym/spec"
	"certsym/spec/integer"
	"certsym/spec/syntax"
	"certsym/sym"
)

// MaxInputText is the longest --input a reproduce line carries: past it, the input goes to a
// file (--input-file). A shell line of 131,072 characters or more is refused by the system
// ("Argument list too long"), and one of a few thousand is already beyond reading or pasting.
const MaxInputText = 4000

// EvalBudget bounds the evaluations of a path condition Repair makes to find the values it can
// set to 0; what it found when the budget runs out is kept.
const EvalBudget = 128

// A Shower shows the bugs of one run of a program.
type Shower struct {
	prog  *syntax.Program
	names []string // the slot names (sym.SlotNames)
	// relevant tells, for each slot, whether some run may read its initial value: the variables
	// read before they are assigned (inputs.ReadBeforeWritten) and the elements of the arrays the
	// program reads. irrelevant names the other variables and arrays, in the program's order.
	relevant   []bool
	irrelevant []string
	// dir is where the inputs too long for a command line are written (run --tests DIR: its
	// subdirectory InputsDir), or "" when they are not written.
	dir      string
	repaired map[*engine.Bug]bool
}

// InputsDir is the subdirectory of run --tests DIR where the inputs of the reproduce lines too
// long for a command line are written (apart from the test cases, which replay reads).
const InputsDir = "bug-inputs"

// New returns the shower of the bugs of prog. testsDir is run --tests DIR, or "".
func New(prog *syntax.Program, testsDir string) *Shower {
	s := &Shower{prog: prog, names: sym.SlotNames(prog), relevant: make([]bool, prog.Slots()), repaired: map[*engine.Bug]bool{}}
	if testsDir != "" {
		s.dir = filepath.Join(testsDir, InputsDir)
	}
	read := inputs.ReadBeforeWritten(prog)
	for i, v := range prog.Vars {
		s.relevant[i] = read[i]
		if !read[i] {
			s.irrelevant = append(s.irrelevant, v)
		}
	}
	readArr := inputs.ArraysRead(prog)
	for _, a := range prog.Arrays {
		for j := a.Offset; j < a.Offset+a.Size(); j++ {
			s.relevant[j] = readArr[a]
		}
		if !readArr[a] {
			s.irrelevant = append(s.irrelevant, a.Name)
		}
	}
	return s
}

// Irrelevant names the variables (and arrays) the program assigns before it reads them: their
// initial values change nothing.
func (s *Shower) Irrelevant() []string { return s.irrelevant }

// Repair sets to 0 the values of b's input that change nothing: those of the irrelevant
// variables, and those the path condition leaves free (it still holds with 0 there). The new
// input is confirmed as the engine confirms a bug: its concrete run reaches the same error after
// the same number of steps; b keeps its input otherwise. A bug is repaired once.
func (s *Shower) Repair(b *engine.Bug) {
	if s.repaired[b] || b.State == nil || b.State.PC == nil {
		return
	}
	s.repaired[b] = true
	in := append(spec.Store(nil), b.Input...)
	for i, rel := range s.relevant {
		if !rel && i < len(in) {
			in[i] = integer.Int{}
		}
	}
	in = ZeroFree(b.State.PC.Conjuncts(), in, EvalBudget)
	if equal(in, b.Input) {
		return
	}
	r := spec.RunFast(s.prog, in, b.Replay.Steps)
	if r.Outcome == spec.Failed && r.Fail == b.Fail && r.Steps == b.Replay.Steps {
		b.Input, b.Replay = in, r
	}
}

func equal(a, b spec.Store) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !a[i].Equal(b[i]) {
			return false
		}
	}
	return true
}

// ZeroFree returns in with values set to 0 while every formula of pc holds: it sets the nonzero
// values to 0 a block at a time and splits a block whose zeroing falsifies pc, down to single
// values (a model of n values, k of which the path condition pins, costs about 2k·log(n/k)
// evaluations). Within the budget, no value left nonzero could be set to 0 alone when tried; values tied to
// each other (a[i] == m) may stay. It evaluates pc at most budget times. in is not changed.
func ZeroFree(pc []*sym.Formula, in spec.Store, budget int) spec.Store {
	cur := append(spec.Store(nil), in...)
	holds := func() bool {
		budget--
		for _, f := range pc {
			if !f.Eval(cur) {
				return false
			}
		}
		return true
	}
	var nonzero []int
	for i, v := range cur {
		if v.Sign() != 0 {
			nonzero = append(nonzero, i)
		}
	}
	saved := make(spec.Store, len(cur))
	var zero func(idx []int)
	zero = func(idx []int) {
		if len(idx) == 0 || budget <= 0 {
			return
		}
		for _, i := range idx {
			saved[i], cur[i] = cur[i], integer.Int{}
		}
		if holds() {
			return
		}
		for _, i := range idx {
			cur[i] = saved[i]
		}
		if len(idx) > 1 {
			zero(idx[:len(idx)/2])
			zero(idx[len(idx)/2:])
		}
	}
	zero(nonzero)
	return cur
}

// relevantOnly returns the values and slot names of the relevant slots of in.
func (s *Shower) relevantOnly(in spec.Store) (spec.Store, []string) {
	var vals spec.Store
	var names []string
	for i, v := range in {
		if s.relevant[i] {
			vals, names = append(vals, v), append(names, s.names[i])
		}
	}
	return vals, names
}

// Text is the input of a bug for the text report: its relevant values (report.InputText), then
// the irrelevant variables by name.
func (s *Shower) Text(in spec.Store) string {
	vals, names := s.relevantOnly(in)
	text := report.InputText(vals, names)
	if len(names) == 0 {
		text = "none"
	}
	if len(s.irrelevant) > 0 {
		text += fmt.Sprintf(" (any value of %s: assigned before read)", strings.Join(s.irrelevant, ", "))
	}
	return text
}

// Reproduce is the certsym exec command line that reproduces b, a bug of the program file: its
// relevant input as --input (exec gives 0 to the others). An --input longer than MaxInputText is
// written, as a JSON object, to a file of the inputs directory (named by the error's line,
// column and kind) when there is one, and the line reads it with --input-file; with none, the line
// names INPUT.json, which the text report explains and run --json's "input" is. It returns the
// note to print after the line, if any.
func (s *Shower) Reproduce(file string, b *engine.Bug) (cmd, note string, err error) {
	vals, names := s.relevantOnly(b.Input)
	cmd = report.ReproduceCommand(file, &engine.Bug{Input: vals, Replay: b.Replay}, names)
	long := len(report.InputText(vals, names)) > MaxInputText
	if !long {
		return cmd, "", nil
	}
	steps := ""
	if i := strings.Index(cmd, " --max-steps "); i >= 0 {
		steps = cmd[i:]
	}
	path := "INPUT.json"
	if s.dir != "" {
		p := b.Fail.Pos()
		path = filepath.Join(s.dir, fmt.Sprintf("%d-%d-%s.json", p.Line, p.Col, b.Kind()))
		data, err := report.ProgInput(s.prog, b.Input).MarshalJSON()
		if err != nil {
			return "", "", err
		}
		if err := os.MkdirAll(s.dir, 0o755); err != nil {
			return "", "", err
		}
		if err := outfile.Write(path, append(data, '\n')); err != nil {
			return "", "", err
		}
	} else {
		note = fmt.Sprintf("the input is too long for a command line (%s): save the input of run --json as INPUT.json, or give run --tests DIR to have it written to DIR/%s",
			report.Plural(len(vals), "value"), InputsDir)
	}
	return "certsym exec " + report.ShellQuote(file) + " --input-file " + report.ShellQuote(path) + steps, note, nil
}
