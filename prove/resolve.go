package prove

import (
	"fmt"
	"strings"

	"certsym/spec/syntax"
	"certsym/spec/syntax/parser"
)

// ResolveCond parses the condition text as a clause for the program: its variables and arrays
// are the program's (their Index and the arrays themselves), so the result can be given to
// Check (Clauses). A name that is no variable or array of the program is an error.
func ResolveCond(prog *syntax.Program, text string) (syntax.BExpr, error) {
	var b strings.Builder
	for _, a := range prog.Arrays {
		fmt.Fprintf(&b, "array %s[%d..%d];\n", a.Name, a.Lo, a.Hi)
	}
	for _, v := range prog.Vars {
		fmt.Fprintf(&b, "%s = %s;\n", v, v)
	}
	b.WriteString("assume (\n")
	b.WriteString(text)
	b.WriteString("\n)\n")
	p, err := parser.Parse("<clause>", []byte(b.String()))
	if err != nil {
		return nil, fmt.Errorf("the clause %q: %v", text, err)
	}
	if len(p.Vars) != len(prog.Vars) {
		return nil, fmt.Errorf("the clause %q names %s, no variable of %s", text, p.Vars[len(prog.Vars)], prog.File)
	}
	s := p.Body
	for {
		seq, ok := s.(*syntax.Seq)
		if !ok {
			break
		}
		s = seq.Second
	}
	as, ok := s.(*syntax.Assume)
	if !ok {
		return nil, fmt.Errorf("the clause %q is not one condition", text)
	}
	syntax.Inspect(as.Cond, func(n syntax.Node) bool {
		if e, ok := n.(*syntax.Elem); ok {
			e.Arr = prog.Arrays[e.Arr.Index]
		}
		return true
	})
	return as.Cond, nil
}
