package syntax_test

import (
	"path/filepath"
	"reflect"
	"testing"

	"certsym/spec/syntax"
	"certsym/spec/syntax/parser"
)

// TestVarsOfOrder: the target of an assignment comes before its right-hand side, a condition's
// variables before its branches', and a repeated variable is listed once.
func TestVarsOfOrder(t *testing.T) {
	p, err := parser.Parse("order.imp", []byte("x = y + x;\nif z < w then assert v == x else u = 1 fi;\nwhile t > 0 do t = t - 1 od;\nassume s >= 0"))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"x", "y", "z", "w", "v", "u", "t", "s"}
	if got := syntax.VarsOf(p.Body); !reflect.DeepEqual(got, want) {
		t.Errorf("VarsOf = %v, want %v", got, want)
	}
	if got := syntax.VarsOf(&syntax.Skip{}); got != nil {
		t.Errorf("VarsOf(skip) = %v, want none", got)
	}
}

// TestVarsOfMatchesParser: for every program of testdata/, VarsOf of the body is the parser's
// numbering of the variables (Program.Vars, built by resolve).
func TestVarsOfMatchesParser(t *testing.T) {
	files, _ := filepath.Glob("../../testdata/*.imp")
	more, _ := filepath.Glob("../../engine/testdata/*.imp")
	files = append(files, more...)
	if len(files) == 0 {
		t.Fatal("no programs found in ../testdata")
	}
	checked := 0
	for _, f := range files {
		p, err := parser.ParseFile(f)
		if err != nil {
			continue // files that test parse errors
		}
		checked++
		if got := syntax.VarsOf(p.Body); !reflect.DeepEqual(got, p.Vars) && !(len(got) == 0 && len(p.Vars) == 0) {
			t.Errorf("%s: VarsOf = %v, parser numbered %v", f, got, p.Vars)
		}
	}
	if checked < len(files)/2 {
		t.Errorf("only %d of %d programs parsed", checked, len(files))
	}
}
