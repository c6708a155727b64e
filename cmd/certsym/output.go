package main

import (
	"fmt"

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
