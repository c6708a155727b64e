package auto

import (
	"testing"
)

// BenchmarkProveInfer is certsym prove --infer on three tasks of testdata/svcomp: inference
// (sampling, candidates, Houdini with the proof mode as oracle) and the final check.
func BenchmarkProveInfer(b *testing.B) {
	for _, name := range []string{"loop-zilu_benchmark43_conjunctive", "loop-acceleration_const_1-1", "loop-new_count_by_1"} {
		prog, _ := parseFile(b, "../../testdata/svcomp/"+name+".imp")
		b.Run(name, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				if _, err := Prove(prog, svcompOptions()); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
