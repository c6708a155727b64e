package main

import (
	"fmt"

	"certsym/cmd/certsym/internal/report"
	"certsym/spec/syntax"
)

// pluralOf is "1 state expanded", "2 states expanded": noun gets the plural, rest follows it.
func pluralOf(n int, noun, rest string) string { return report.Plural(n, noun) + " " + rest }

// loc is a statement position as line:col, the macro call's for an inlined statement.
func loc(l syntax.Loc) string {
	p := l.Pos()
	return fmt.Sprintf("%d:%d", p.Line, p.Col)
}

// stmtLoc is where a statement stands as line:col ("" for a sequence).
func stmtLoc(s syntax.Stmt) string {
	if w, ok := s.(interface{ Pos() syntax.Pos }); ok {
		p := w.Pos()
		return fmt.Sprintf("%d:%d", p.Line, p.Col)
	}
	return ""
}

// stmtCol is the column of stmtLoc (0 for a sequence).
func stmtCol(s syntax.Stmt) int {
	if w, ok := s.(interface{ Pos() syntax.Pos }); ok {
		return w.Pos().Col
	}
	return 0
}
