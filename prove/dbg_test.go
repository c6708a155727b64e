package prove_test

import (
	"fmt"
	"path/filepath"
	"testing"

	"certsym/prove"
	"certsym/spec/syntax/parser"
)

func TestDbg(t *testing.T) {
	files, _ := filepath.Glob("../testdata/prove/*.imp")
	files2, _ := filepath.Glob("../testdata/inv_*.imp")
	for _, f := range append(files, files2...) {
		prog, err := parser.ParseFile(f)
		if err != nil {
			t.Fatal(err)
		}
		res, _ := prove.Check(prog, nil, prove.Options{})
		fmt.Printf("%s: %s loops=%v stats=%+v\n", filepath.Base(f), res, res.Loops, res.Stats)
		if res.Bug != nil {
			fmt.Printf("  bug %v %v at %v found %s claim %v\n", res.Bug.Fail.Kind, res.Bug.Input, res.Bug.Fail.Pos(), res.Bug.Found, res.Bug.Claim)
		}
		if res.CTI != nil {
			fmt.Printf("  cti %+v\n", *res.CTI)
		}
	}
}
