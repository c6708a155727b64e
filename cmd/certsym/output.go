package main

import (
	"fmt"
	"io"

	"certsym/cmd/certsym/internal/outfile"
	"certsym/cmd/certsym/internal/report"
	"certsym/spec/syntax"
)

// pluralOf is "1 state expanded", "2 states expanded": noun gets the plural, rest follows it.
func pluralOf(n int, noun, rest string) string { return report.Plural(n, noun) + " " + rest }

// loc is where a node stands as line:col (its Pos: the macro call's for an inlined statement).
func loc(n syntax.Node) string {
	p := n.Pos()
	return fmt.Sprintf("%d:%d", p.Line, p.Col)
}

// checkOutputFile checks, before the run, that the file path of flag --flag of command cmd can be
// written (outfile.CheckFile); a failure is reported on stderr.
func checkOutputFile(cmd, flag, path string, stderr io.Writer) bool {
	if err := outfile.CheckFile(path); err != nil {
		fmt.Fprintf(stderr, "certsym %s: --%s: %v\n", cmd, flag, err)
		return false
	}
	return true
}

// checkOutputDir is checkOutputFile for a directory (outfile.CheckDir).
func checkOutputDir(cmd, flag, dir string, stderr io.Writer) bool {
	if err := outfile.CheckDir(dir); err != nil {
		fmt.Fprintf(stderr, "certsym %s: --%s: %v\n", cmd, flag, err)
		return false
	}
	return true
}
