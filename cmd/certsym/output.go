package main

import (
	"fmt"

	"certsym/cmd/certsym/internal/report"
	"certsym/spec"
)

// pluralOf is "1 state expanded", "2 states expanded": noun gets the plural, rest follows it.
func pluralOf(n int, noun, rest string) string { return report.Plural(n, noun) + " " + rest }

// loc is a statement position as line:col, the macro call's for an inlined statement.
func loc(l spec.Loc) string {
	p := l.Where()
	return fmt.Sprintf("%d:%d", p.Line, p.Col)
}

// stmtLoc is where a statement stands as line:col ("" for a sequence).
func stmtLoc(s spec.Stmt) string {
	if w, ok := s.(interface{ Where() spec.Pos }); ok {
		p := w.Where()
		return fmt.Sprintf("%d:%d", p.Line, p.Col)
	}
	return ""
}

// stmtCol is the column of stmtLoc (0 for a sequence).
func stmtCol(s spec.Stmt) int {
	if w, ok := s.(interface{ Where() spec.Pos }); ok {
		return w.Where().Col
	}
	return 0
}
