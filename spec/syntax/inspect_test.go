package syntax_test

import (
	"fmt"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"certsym/spec/syntax"
	"certsym/spec/syntax/parser"
)

// mustParse parses src or fails the test.
func mustParse(t *testing.T, src string) *syntax.Program {
	t.Helper()
	p, err := parser.Parse("test.imp", []byte(src))
	if err != nil {
		t.Fatalf("parse %q: %v", src, err)
	}
	return p
}

// trace writes the walk of Inspect from n as text: each node's name (with its operator, variable
// or value) when it is entered, ")" for each f(nil).
func trace(n syntax.Node, prune func(syntax.Node) bool) string {
	var b strings.Builder
	syntax.Inspect(n, func(n syntax.Node) bool {
		var s string
		switch n := n.(type) {
		case nil:
			s = ")"
		case *syntax.Num:
			s = "Num " + n.Val.String()
		case *syntax.Var:
			s = "Var " + n.Name
		case *syntax.Neg:
			s = "Neg"
		case *syntax.BinA:
			s = "BinA " + n.Op.String()
		case *syntax.BoolLit:
			s = fmt.Sprint("BoolLit ", n.Val)
		case *syntax.Cmp:
			s = "Cmp " + n.Op.String()
		case *syntax.Not:
			s = "Not"
		case *syntax.BinB:
			s = "BinB " + n.Op.String()
		default:
			s = strings.TrimPrefix(reflect.TypeOf(n).String(), "*syntax.")
		}
		b.WriteString(s + "|")
		return prune == nil || !prune(n)
	})
	return b.String()
}

// TestInspectOrder: every kind of node is entered in source order, children after their parent,
// each f(nil) after the node's last child; the nodes resolution adds are not visited.
func TestInspectOrder(t *testing.T) {
	p := mustParse(t, "x = -a + 2 * b;\n"+
		"if not (x < 3) or true then assert x / y == 1 else fail fi;\n"+
		"while x > 0 do x = x - 1 od; assume y != 0; skip")
	want := "Seq|Assign|Var x|)|BinA +|Neg|Var a|)|)|BinA *|Num 2|)|Var b|)|)|)|)|" +
		"Seq|If|BinB or|Not|Cmp <|Var x|)|Num 3|)|)|)|BoolLit true|)|)|" +
		"Assert|Cmp ==|BinA /|Var x|)|Var y|)|)|Num 1|)|)|)|Fail|)|)|" +
		"Seq|While|Cmp >|Var x|)|Num 0|)|)|Assign|Var x|)|BinA -|Var x|)|Num 1|)|)|)|)|" +
		"Seq|Assume|Cmp !=|Var y|)|Num 0|)|)|)|Skip|)|)|)|)|)|"
	if got := trace(p.Body, nil); got != want {
		t.Errorf("walk\n got %s\nwant %s", got, want)
	}
}

// TestInspectInvariantOrder: a loop's children are its condition, its invariant clauses (Asserts)
// in source order, then its body; the Entry built from the clauses is not walked again.
func TestInspectInvariantOrder(t *testing.T) {
	p := mustParse(t, "while x > 0 invariant y >= 0 invariant true do x = x - 1 od")
	want := "While|Cmp >|Var x|)|Num 0|)|)|Assert|Cmp >=|Var y|)|Num 0|)|)|)|Assert|BoolLit true|)|)|" +
		"Assign|Var x|)|BinA -|Var x|)|Num 1|)|)|)|)|"
	if got := trace(p.Body, nil); got != want {
		t.Errorf("walk\n got %s\nwant %s", got, want)
	}
	if got, want := syntax.Print(p.Body), "while x > 0 invariant y >= 0 invariant true do\n  x = x - 1\nod\n"; got != want {
		t.Errorf("printed %q, want %q", got, want)
	}
}

// TestInspectPrune: a node for which f returns false is entered, but neither its children nor
// its f(nil) follow; its siblings are still walked.
func TestInspectPrune(t *testing.T) {
	p := mustParse(t, "if a / b > 0 then x = 1 + c else skip fi; y = d")
	prune := func(n syntax.Node) bool { _, ok := n.(syntax.BExpr); return ok }
	want := "Seq|If|Cmp >|Assign|Var x|)|BinA +|Num 1|)|Var c|)|)|)|Skip|)|)|Assign|Var y|)|Var d|)|)|)|"
	if got := trace(p.Body, prune); got != want {
		t.Errorf("walk\n got %s\nwant %s", got, want)
	}
	stmtsOnly := func(n syntax.Node) bool { _, ok := n.(syntax.Stmt); return !ok }
	want = "Seq|If|Cmp >|Assign|Var x|BinA +|)|Skip|)|)|Assign|Var y|Var d|)|)|"
	if got := trace(p.Body, stmtsOnly); got != want {
		t.Errorf("statements only\n got %s\nwant %s", got, want)
	}
	if got := trace(nil, nil); got != "" {
		t.Errorf("nil root: %q", got)
	}
	if got := trace(&syntax.Assign{A: &syntax.Num{}}, nil); got != "Assign|Num 0|)|)|" {
		t.Errorf("nil child: %q", got)
	}
}

// TestInspectVarsOfCorpus: on every program of testdata/, the variables Inspect meets, in order
// of first meeting, are the program's variables as resolution numbered them (in order of first
// occurrence), each Var carrying its own index; every statement of the program is entered once.
func TestInspectVarsOfCorpus(t *testing.T) {
	files, _ := filepath.Glob("../../testdata/*.imp")
	verify, _ := filepath.Glob("../../testdata/verify/*.imp")
	files = append(files, verify...)
	if len(files) < 40 {
		t.Fatalf("found %d programs in ../testdata", len(files))
	}
	for _, f := range files {
		p, err := parser.ParseFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var vars []string
		seen := map[string]bool{}
		entered, exited := 0, 0
		syntax.Inspect(p.Body, func(n syntax.Node) bool {
			if n == nil {
				exited++
				return true
			}
			entered++
			if v, ok := n.(*syntax.Var); ok {
				if p.Vars[v.Index] != v.Name {
					t.Errorf("%s: %s has index %d", f, v.Name, v.Index)
				}
				if !seen[v.Name] {
					seen[v.Name] = true
					vars = append(vars, v.Name)
				}
			}
			return true
		})
		if !reflect.DeepEqual(vars, p.Vars) {
			t.Errorf("%s: variables met %v, program's %v", f, vars, p.Vars)
		}
		if entered != exited || entered == 0 {
			t.Errorf("%s: %d nodes entered, %d f(nil) calls", f, entered, exited)
		}
	}
}

// TestInspectDeep: a long sequence (a right-nested chain of Seq) and an expression as deep as
// the parser allows are walked completely.
func TestInspectDeep(t *testing.T) {
	const n = 50_000
	var src strings.Builder
	for i := 0; i < n; i++ {
		src.WriteString("x = x + 1;\n")
	}
	src.WriteString("assert x " + strings.Repeat("- 1 ", parser.MaxExprDepth-2) + "> 0")
	p, err := parser.Parse("deep.imp", []byte(src.String()))
	if err != nil {
		t.Fatal(err)
	}
	assigns, nums := 0, 0
	syntax.Inspect(p.Body, func(n syntax.Node) bool {
		switch n.(type) {
		case *syntax.Assign:
			assigns++
		case *syntax.Num:
			nums++
		}
		return true
	})
	if wantNums := n + parser.MaxExprDepth - 1; assigns != n || nums != wantNums {
		t.Errorf("%d assignments and %d numbers walked, want %d and %d", assigns, nums, n, wantNums)
	}
}

// TestHasMul: HasMul finds a product wherever the printed program has '*', and only there.
func TestHasMul(t *testing.T) {
	for _, c := range []struct {
		src  string
		want bool
	}{
		{"x = y + 1; assert x / 2 > y % 3", false},
		{"x = 1; while x < 9 do if x > 2 then x = x * 2 fi od", true},
		{"array a[1..3];\nassert forall k in 1..3: a[k * 1] > 0", true},
		{"array a[1..3];\nassume exists k in 1..3: a[k] == 0 - k", false},
	} {
		p, err := parser.Parse("m.imp", []byte(c.src))
		if err != nil {
			t.Fatal(err)
		}
		if got := syntax.HasMul(p.Body); got != c.want || got != strings.Contains(syntax.PrintProgram(p), "*") {
			t.Errorf("HasMul(%q) = %v, want %v", c.src, got, c.want)
		}
	}
}

// TestHasQuant: a quantifier anywhere in a program is found, also when other nodes follow it in
// the walk (a sibling after the quantifier, a later statement), and a program without one has
// none. certsym exec chooses its evaluator by this answer.
func TestHasQuant(t *testing.T) {
	for _, c := range []struct {
		src  string
		want bool
	}{
		{"x = 1; y = x + 2", false},
		{"array a[0..3];\nx = a[1]", false},
		{"array a[0..3];\nassert forall k in 0..3: a[k] >= 0", true},
		{"array a[0..3];\nif (exists k in 0..3: a[k] == x) and y > 0 then z = 1 fi; w = 2", true},
		{"array a[0..3];\nassume x > 0 and forall k in 0..x: a[0] > k;\ny = x + 1;\nz = y * 2", true},
	} {
		p, err := parser.Parse("q.imp", []byte(c.src))
		if err != nil {
			t.Fatalf("%s: %v", c.src, err)
		}
		if got := syntax.HasQuant(p.Body); got != c.want {
			t.Errorf("HasQuant(%q) = %v, want %v", c.src, got, c.want)
		}
	}
}
