package syntax_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"certsym/spec/syntax"
	"certsym/spec/syntax/parser"
)

// TestPos: on every program of testdata/, each node's Pos points at the token the node's type
// says (Node.Pos), a statement inlined from a macro stands at the macro call, a sequence has no
// position, and End follows the name or literal of the nodes that have one.
func TestPos(t *testing.T) {
	files, _ := filepath.Glob("../../testdata/*.imp")
	verify, _ := filepath.Glob("../../testdata/verify/*.imp")
	files = append(files, verify...)
	if len(files) < 40 {
		t.Fatalf("found %d programs in testdata/", len(files))
	}
	ident := regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*`)
	number := regexp.MustCompile(`^-?\s*[0-9]`)
	inlined, checked := 0, 0
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		p, err := parser.Parse(f, src)
		if err != nil {
			continue // a program that tests a syntax error
		}
		lines := strings.Split(string(src), "\n")
		at := func(pos syntax.Pos) string {
			if pos.Line < 1 || pos.Line > len(lines) || pos.Col < 1 || pos.Col > len(lines[pos.Line-1])+1 {
				t.Fatalf("%s: position %d:%d outside the file", f, pos.Line, pos.Col)
			}
			return lines[pos.Line-1][pos.Col-1:]
		}
		syntax.Inspect(p.Body, func(n syntax.Node) bool {
			if n == nil {
				return false
			}
			if sq, ok := n.(*syntax.Seq); ok {
				if sq.Pos() != (syntax.Pos{}) || sq.Location() != (syntax.Loc{}) {
					t.Errorf("%s: a sequence at %v, %v", f, sq.Pos(), sq.Location())
				}
				return true
			}
			text := at(n.Pos())
			if s, ok := n.(syntax.Stmt); ok && s.Location().Site != (syntax.Pos{}) {
				// Inlined from a macro: placed at the call, which starts with the macro's name.
				inlined++
				if s.Pos() != s.Location().Site || !ident.MatchString(text) {
					t.Errorf("%s: %T inlined at %v placed at %v (%q)", f, n, s.Location().Site, s.Pos(), text)
				}
				return true
			}
			var want string // the token the node's Pos must point at; "" when checked otherwise
			switch n := n.(type) {
			case *syntax.Num:
				if !number.MatchString(text) {
					t.Errorf("%s: number %s at %q", f, n.Val, text)
				}
			case *syntax.Var:
				want = n.Name
				if end := n.End(); end.Line != n.P.Line || len(at(n.Pos()))-len(at(end)) != len(n.Name) {
					t.Errorf("%s: variable %s ends at %v", f, n.Name, end)
				}
			case *syntax.BoundRef:
				want = n.Name
				if end := n.End(); len(at(n.Pos()))-len(at(end)) != len(n.Name) {
					t.Errorf("%s: bound variable %s ends at %v", f, n.Name, end)
				}
			case *syntax.BoolLit:
				want = map[bool]string{true: "true", false: "false"}[n.Val]
				if end := n.End(); len(at(n.Pos()))-len(at(end)) != len(want) {
					t.Errorf("%s: %s ends at %v", f, want, end)
				}
			case *syntax.Neg:
				want = "-"
			case *syntax.BinA:
				want = n.Op.String()
			case *syntax.Cmp:
				want = n.Op.String()
			case *syntax.Not:
				want = "not"
			case *syntax.BinB:
				want = n.Op.String()
			case *syntax.Elem, *syntax.Assign, *syntax.ArrAssign:
				if !ident.MatchString(text) {
					t.Errorf("%s: %T at %q", f, n, text)
				}
			case *syntax.Quant:
				want = map[bool]string{true: "exists", false: "forall"}[n.Exists]
			case *syntax.Skip:
				if !strings.HasPrefix(text, "skip") && !strings.HasPrefix(text, "fi") { // a missing else is a skip at its 'fi'
					t.Errorf("%s: skip at %q", f, text)
				}
			case *syntax.Fail:
				want = "fail"
			case *syntax.If:
				want = "if"
			case *syntax.While:
				want = "while"
			case *syntax.Assume:
				want = "assume"
			case *syntax.Assert:
				want = "assert"
				if n.Violation.Kind == syntax.FailInvariant { // a loop's invariant clause
					want = "invariant"
				}
			default:
				t.Fatalf("%s: unexpected node %T", f, n)
			}
			if want != "" && !strings.HasPrefix(text, want) {
				t.Errorf("%s: %T at %v points at %q, want %q", f, n, n.Pos(), text, want)
			}
			checked++
			return true
		})
	}
	if inlined == 0 || checked == 0 {
		t.Errorf("%d inlined statements and %d other nodes checked", inlined, checked)
	}
}
