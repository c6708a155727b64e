package prove_test

import (
	"path/filepath"
	"testing"

	"certsym/prove"
	"certsym/spec/syntax/parser"
)

// BenchmarkCheck proves the programs of testdata/prove that are proved (one Check each per
// iteration): the proof mode's execution and its solver queries.
func BenchmarkCheck(b *testing.B) {
	files, _ := filepath.Glob("../testdata/prove/*_proved.imp")
	if len(files) == 0 {
		b.Fatal("no proved programs in testdata/prove")
	}
	for _, f := range files {
		prog, err := parser.ParseFile(f)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(filepath.Base(f), func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				res, err := prove.Check(prog, nil, prove.Options{})
				if err != nil || res.Answer != prove.Proved {
					b.Fatalf("%v %v", res, err)
				}
			}
		})
	}
}
