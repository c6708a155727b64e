package parser

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"certsym/internal/corpus"
	"certsym/spec/syntax"
)

func mustParse(t *testing.T, src string) *syntax.Program {
	t.Helper()
	p, err := Parse("test.imp", []byte(src))
	if err != nil {
		t.Fatalf("parse %q: %v", src, err)
	}
	return p
}

// TestPrecedence checks the grouping of the grammar by printing with full parentheses.
func TestPrecedence(t *testing.T) {
	cases := []struct{ src, want string }{
		{"x = 1 + 2 * 3", "(1 + (2 * 3))"},
		{"x = 1 - 2 + 3", "((1 - 2) + 3)"},
		{"x = 1 - 2 - 3", "((1 - 2) - 3)"},
		{"x = 8 / 4 / 2", "((8 / 4) / 2)"},
		{"x = 7 % 3 * 2", "((7 % 3) * 2)"},
		{"x = -y * 2", "((-y) * 2)"},
		{"x = -3 * 2", "(-3 * 2)"},
		{"x = a - -3", "(a - -3)"},
		{"x = -(a + b)", "(-(a + b))"},
		{"x = (1 + 2) * 3", "((1 + 2) * 3)"},
		{"assert a < b or c == d and not e >= f", "((a < b) or ((c == d) and (not (e >= f))))"},
		{"assert not a <= 0 and b > 0", "((not (a <= 0)) and (b > 0))"},
		{"assert (a < b or c < d) and true", "(((a < b) or (c < d)) and true)"},
		{"assert (a + 1) * 2 != b", "(((a + 1) * 2) != b)"},
		{"assert a or b < c or false", "error"},
		{"assert not not x > 1", "(not (not (x > 1)))"},
	}
	for _, c := range cases {
		p, err := Parse("t.imp", []byte(c.src))
		if c.want == "error" {
			if err == nil {
				t.Errorf("%q: parsed, want an error", c.src)
			}
			continue
		}
		if err != nil {
			t.Errorf("%q: %v", c.src, err)
			continue
		}
		var got string
		switch s := p.Body.(type) {
		case *syntax.Assign:
			got = fullA(s.A)
		case *syntax.Assert:
			got = fullB(s.Cond)
		default:
			panic(fmt.Sprintf("%q parses to a %T", c.src, s))
		}
		if got != c.want {
			t.Errorf("%q: grouped as %s, want %s", c.src, got, c.want)
		}
	}
}

func fullA(a syntax.AExpr) string {
	switch a := a.(type) {
	case *syntax.Num:
		return a.Val.String()
	case *syntax.Var:
		return a.Name
	case *syntax.Neg:
		return "(-" + fullA(a.X) + ")"
	case *syntax.BinA:
		return "(" + fullA(a.L) + " " + a.Op.String() + " " + fullA(a.R) + ")"
	case *syntax.Elem:
		return a.Arr.Name + "[" + fullA(a.I) + "]"
	case *syntax.BoundRef:
		return fmt.Sprintf("%s@%d", a.Name, a.Level)
	default:
		panic(fmt.Sprintf("fullA: unknown expression %T", a))
	}
}

func fullB(b syntax.BExpr) string {
	switch b := b.(type) {
	case *syntax.BoolLit:
		if b.Val {
			return "true"
		}
		return "false"
	case *syntax.Cmp:
		return "(" + fullA(b.L) + " " + b.Op.String() + " " + fullA(b.R) + ")"
	case *syntax.Not:
		return "(not " + fullB(b.X) + ")"
	case *syntax.BinB:
		return "(" + fullB(b.L) + " " + b.Op.String() + " " + fullB(b.R) + ")"
	case *syntax.Quant:
		q := "forall"
		if b.Exists {
			q = "exists"
		}
		return fmt.Sprintf("(%s %s@%d in %s..%s: %s)", q, b.Name, b.Level, fullA(b.Lo), fullA(b.Hi), fullB(b.Body))
	default:
		panic(fmt.Sprintf("fullB: unknown condition %T", b))
	}
}

// TestSyntaxErrors checks that bad input gives an error with its position and what was expected.
func TestSyntaxErrors(t *testing.T) {
	cases := []struct{ src, want string }{
		{"x = ", "1:5: expected an expression"},
		{"x = 1 +", "1:8: expected an expression"},
		{"if x > 0 then skip", "1:19: expected 'fi'"},
		{"if x then skip fi", "1:4: expected a condition"},
		{"while x > 0 skip od", "1:13: expected 'do'"},
		{"x = 1;\ny == 2", "2:3: expected ';' or end of file"},
		{"x = 1 < 2", "1:5: expected an arithmetic expression after '='"},
		{"assert 1 < 2 < 3", "1:14: comparisons do not chain"},
		{"x = (1 + 2", "1:11: expected ')'"},
		{"x = 1 @ 2", "1:7: unexpected character '@'"},
		{"x = 12abc", "1:7: malformed number"},
		{"assert x ! 2", "1:10: unexpected '!'"},
		{"foo(1)", "1:1: unknown macro foo"},
		{"macro m(a) begin a = 1 end\nm(2 + 3)", "2:1: macro m assigns its parameter a, so its argument must be a variable"},
		{"macro m(a) begin skip end\nm(1, 2)", "2:1: macro m expects 1 argument(s), found 2"},
		{"macro m begin m end\nm", "1:15: recursive macro call"},
		{"macro m begin skip end\nmacro m begin skip end\nskip", "2:7: macro m already defined at line 1"},
		{"macro m(a, a) begin skip end\nskip", "1:12: duplicate parameter a"},
		{"", "1:1: expected a statement"},
		{"skip;;", "1:6: expected a statement"},
		{"then", "1:1: expected a statement (skip, fail, assignment, assert, assume, if, while or macro call), found 'then'"},
	}
	for _, c := range cases {
		_, err := Parse("bad.imp", []byte(c.src))
		if err == nil {
			t.Errorf("%q: parsed, want error %q", c.src, c.want)
			continue
		}
		if _, ok := err.(*SyntaxError); !ok {
			t.Errorf("%q: error %T, want *spec.Error", c.src, err)
		}
		if got := err.Error(); !strings.HasPrefix(got, "bad.imp:"+c.want) {
			t.Errorf("%q:\n got %s\nwant bad.imp:%s...", c.src, got, c.want)
		}
	}
}

func TestMacros(t *testing.T) {
	src := `macro inc(v, by) begin v = v + by end
macro twice(w) begin inc(w, 1); inc(w, 1) end
x = 0;
twice(x);
inc(y, x * 2)
`
	p := mustParse(t, src)
	got := syntax.Print(p.Body)
	want := "x = 0;\nx = x + 1;\nx = x + 1;\ny = y + x * 2\n"
	if got != want {
		t.Fatalf("inlined program:\n%s\nwant:\n%s", got, want)
	}
	// Statements inlined from macros report the outermost call's line.
	s := p.Body.(*syntax.Seq).Second.(*syntax.Seq).First.(*syntax.Assign)
	if s.Line() != 4 || s.P.Line != 1 {
		t.Errorf("inlined statement: Line() = %d, own line %d; want 4 and 1", s.Line(), s.P.Line)
	}
	if !reflect.DeepEqual(p.Vars, []string{"x", "y"}) {
		t.Errorf("vars = %v, want [x y]", p.Vars)
	}
}

// roundTrip parses src, prints it, parses the print and compares the two trees up to positions.
func roundTrip(t *testing.T, name string, src []byte) {
	t.Helper()
	p1, err := Parse(name, src)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	printed := syntax.PrintProgram(p1)
	p2, err := Parse(name+" (printed)", []byte(printed))
	if err != nil {
		t.Fatalf("%s: the printed program does not parse: %v\n%s", name, err, printed)
	}
	if a, b := stripArrays(p1), stripArrays(p2); !reflect.DeepEqual(a, b) {
		t.Fatalf("%s: printing and re-parsing changed the arrays: %v vs %v\nprinted:\n%s", name, a, b, printed)
	}
	if a, b := strip(p1.Body), strip(p2.Body); !reflect.DeepEqual(a, b) {
		t.Fatalf("%s: printing and re-parsing changed the AST\nprinted:\n%s", name, printed)
	}
	if printed2 := syntax.PrintProgram(p2); printed2 != printed {
		t.Fatalf("%s: printing is not a fixed point:\n%s\nvs\n%s", name, printed, printed2)
	}
}

// stripArrays returns the array declarations of p, positions left out.
func stripArrays(p *syntax.Program) []string {
	var out []string
	for _, a := range p.Arrays {
		out = append(out, fmt.Sprintf("%s[%d..%d]@%d+%d", a.Name, a.Lo, a.Hi, a.Index, a.Offset))
	}
	return out
}

// strip returns a copy of s as nested slices with positions and derived nodes left out.
func strip(s any) any {
	switch s := s.(type) {
	case *syntax.Skip:
		return "skip"
	case *syntax.Fail:
		return "fail"
	case *syntax.Assign:
		return []any{"=", s.X.Name, stripA(s.A)}
	case *syntax.ArrAssign:
		return []any{"[]=", s.Arr.Name, stripA(s.I), stripA(s.A)}
	case *syntax.Seq:
		return []any{";", strip(s.First), strip(s.Second)}
	case *syntax.If:
		return []any{"if", stripB(s.Cond), strip(s.Then), strip(s.Else)}
	case *syntax.While:
		w := []any{"while", stripB(s.Cond)}
		for _, inv := range s.Invariants {
			w = append(w, []any{"invariant", stripB(inv.Cond)})
		}
		return append(w, strip(s.Body))
	case *syntax.Assume:
		return []any{"assume", stripB(s.Cond)}
	case *syntax.Assert:
		return []any{"assert", stripB(s.Cond)}
	default:
		panic(fmt.Sprintf("strip: unknown statement %T", s))
	}
}

func stripA(a syntax.AExpr) any { return fullA(a) + "#" + typesA(a) }
func stripB(b syntax.BExpr) any { return fullB(b) + "#" + typesB(b) }

// typesA records node kinds, so that Num(-5) and Neg(Num 5) differ.
func typesA(a syntax.AExpr) string {
	switch a := a.(type) {
	case *syntax.Num:
		return "n"
	case *syntax.Var:
		return "v"
	case *syntax.Neg:
		return "-(" + typesA(a.X) + ")"
	case *syntax.BinA:
		return "b(" + typesA(a.L) + "," + typesA(a.R) + ")"
	case *syntax.Elem:
		return "e(" + typesA(a.I) + ")"
	case *syntax.BoundRef:
		return "k"
	default:
		panic(fmt.Sprintf("typesA: unknown expression %T", a))
	}
}

func typesB(b syntax.BExpr) string {
	switch b := b.(type) {
	case *syntax.Cmp:
		return "c(" + typesA(b.L) + "," + typesA(b.R) + ")"
	case *syntax.Not:
		return "!(" + typesB(b.X) + ")"
	case *syntax.BinB:
		return "b(" + typesB(b.L) + "," + typesB(b.R) + ")"
	case *syntax.Quant:
		return "q(" + typesA(b.Lo) + "," + typesA(b.Hi) + "," + typesB(b.Body) + ")"
	case *syntax.BoolLit:
		return "l"
	default:
		panic(fmt.Sprintf("typesB: unknown condition %T", b))
	}
}

func TestPrintRoundTripExamples(t *testing.T) {
	srcs := []string{
		"x = -(5) - -5 * (a - (b - c)) / (d % -(e))",
		"assert not (a < b and c > d) or (e == f or g != h) and true",
		"if x > 0 then y = 1 fi; while not (x <= 0) do x = x - 1; assume x != 3 od",
		"x = --y; z = -(-3)",
		"x = 123456789012345678901234567890 * -98765432109876543210",
		"array a[1..5];\narray b[-3..-3];\na[i] = b[a[-(2)] % 2] + a[a[1]]; assert forall k in 1..4: a[k] <= a[k + 1]",
		"array a[0..2];\nassert (forall k in 0..1: a[k] < a[k+1]) and exists j in -1..n: (forall m in j..j: a[m] > 0) or j == 0",
		"array a[0..2];\nassume not forall k in 0 - 1..-1: exists j in k..k: a[j] == k * j / 2 or false; if exists k in 1..0: true then skip fi",
		"array a[0..0];\nwhile (exists k in 0..0: a[k] > x) and x < 10 do x = x + 1; a[0] = -a[0] od",
		"macro inc(v, i) begin v[i] = v[i] + 1 end\nmacro both(v, w) begin inc(v, 0); inc(w, 0 - 2) end\narray a[0..1];\narray b[-2..0];\nboth(a, b); inc(b, x)",
	}
	for _, s := range srcs {
		roundTrip(t, s, []byte(s))
	}
}

// TestPrintRoundTripCorpus round-trips every program in testdata/ and the PyWiSE corpus.
func TestPrintRoundTripCorpus(t *testing.T) {
	files, _ := filepath.Glob("../../../testdata/*.imp")
	files = append(files, corpus.Optional(t)...)
	if len(files) == 0 {
		t.Fatal("no programs found in the repository's testdata/")
	}
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		roundTrip(t, f, src)
	}
}
