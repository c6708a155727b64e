package parser

import (
	"fmt"
	"strings"
	"testing"

	"certsym/spec/syntax"
)

// TestParseDeep: statements nest up to MaxStmtNesting levels, parsed without Go recursion per
// level (an explicit stack); deeper nesting is a positioned syntax error at the first statement
// past the limit. Expression nesting restarts at each statement: a statement 100,000 levels deep
// may still have 999 nested parentheses.
func TestParseDeep(t *testing.T) {
	const n = 100_000
	src := strings.Repeat("if x > 0 then\nwhile y < 3 do\n", n/2) + "z = " + strings.Repeat("(", MaxNesting-1) + "1" +
		strings.Repeat(")", MaxNesting-1) + strings.Repeat("\nod\nfi", n/2)
	p, err := Parse("deep.imp", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	depth := 0
	for s := p.Body; ; depth++ {
		if i, ok := s.(*syntax.If); ok {
			s = i.Then
		} else if w, ok := s.(*syntax.While); ok {
			s = w.Body
		} else {
			if a, ok := s.(*syntax.Assign); !ok || a.P.Line != n+1 {
				t.Fatalf("innermost statement %T", s)
			}
			break
		}
	}
	if depth != n {
		t.Errorf("nesting %d, want %d", depth, n)
	}
	// One more '(' passes the expression limit, at the same place as at the top level.
	_, err = Parse("deep.imp", []byte(strings.Replace(src, "z = (", "z = ((", 1)))
	if err == nil || !strings.Contains(err.Error(), fmt.Sprintf("deep.imp:%d:%d: nesting deeper than 1000 levels", n+1, 4+MaxNesting)) {
		t.Errorf("expression nesting: %v", err)
	}
	over := strings.Repeat("if x > 0 then ", MaxStmtNesting+1) + "skip" + strings.Repeat(" fi", MaxStmtNesting+1)
	_, err = Parse("over.imp", []byte(over))
	want := fmt.Sprintf("over.imp:1:%d: statements nested deeper than %d levels (if, while): certsym's limit", 14*MaxStmtNesting+1, MaxStmtNesting)
	if err == nil || err.Error() != want {
		t.Errorf("got %v, want %s", err, want)
	}
}

// TestPrintDeep: Print's indentation stops at MaxIndent levels, and the text still parses back to
// the same program.
func TestPrintDeep(t *testing.T) {
	const n = 3 * syntax.MaxIndent
	src := strings.Repeat("if x > 0 then y = 1; ", n) + "skip" + strings.Repeat(" else z = 2 fi", n)
	p, err := Parse("p.imp", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	out := syntax.PrintProgram(p)
	widest := 0
	for _, l := range strings.Split(out, "\n") {
		widest = max(widest, len(l)-len(strings.TrimLeft(l, " ")))
	}
	if widest != 2*syntax.MaxIndent {
		t.Errorf("deepest indentation %d spaces, want %d", widest, 2*syntax.MaxIndent)
	}
	q, err := Parse("q.imp", []byte(out))
	if err != nil {
		t.Fatal(err)
	}
	if again := syntax.PrintProgram(q); again != out {
		t.Error("the printed program does not print back the same")
	}
}

// TestImplicitElseNotCounted: the skip of a missing else is not a statement of the source: it
// does not count against MaxStatements, an explicit skip does.
func TestImplicitElseNotCounted(t *testing.T) {
	half := MaxStatements / 2
	src := strings.Repeat("if x > 0 then y = 1 fi;\n", half)
	if _, err := Parse("a.imp", []byte(src)); err != nil {
		t.Errorf("%d ifs without else: %v", half, err)
	}
	src = strings.Repeat("if x > 0 then y = 1 else skip fi;\n", half)
	if _, err := Parse("b.imp", []byte(src)); err == nil || !strings.Contains(err.Error(), "program larger than 200000 statements") {
		t.Errorf("%d ifs with else skip: %v", half, err)
	}
}
