package main

import (
	"io"

	"certsym/spec"
)

// symbolicUnsupported is the one place that keeps programs with arrays or quantifiers (issue 13)
// away from the symbolic commands (run, verify, concolic) until the symbolic engine supports
// them: it returns a positioned error for the first array declaration, element read or write, or
// quantifier of prog, nil for a program of the core language. Remove it (and loadSymbolic) when
// the symbolic side lands.
func symbolicUnsupported(prog *spec.Program) error {
	if len(prog.Arrays) > 0 {
		return &spec.SyntaxError{File: prog.File, Pos: prog.Arrays[0].P,
			Msg: "arrays are not supported by the symbolic engine yet (certsym exec and parse run them)"}
	}
	var err error
	spec.Inspect(prog.Body, func(n spec.Node) bool {
		if q, ok := n.(*spec.Quant); ok && err == nil {
			err = &spec.SyntaxError{File: prog.File, Pos: q.P,
				Msg: "quantifiers are not supported by the symbolic engine yet (certsym exec and parse run them)"}
		}
		return err == nil
	})
	return err
}

// loadSymbolic is loadFor for the symbolic commands: a program symbolicUnsupported rejects is
// reported like a syntax error (exit 2).
func loadSymbolic(file string, asJSON bool, stdout, stderr io.Writer) (*spec.Program, []byte, bool) {
	return loadChecked(file, asJSON, stdout, stderr, symbolicUnsupported)
}
