package spec

import (
	"testing"

	"certsym/spec/integer"
	"certsym/spec/syntax"
	"certsym/spec/syntax/parser"
)

// BenchmarkRunSteps measures the concrete semantics' speed in steps per second, Run (the
// reference, one Step per step) against RunFast (the bug finder's replay), on the first 20
// million steps of loop-acceleration/phases_1-2 (engine/testdata/long, the run the bug finder
// replays in full, 671 million steps) and on the corpus program engine/testdata/isqrt.imp from
// x = 1000, run to its end.
func BenchmarkRunSteps(b *testing.B) {
	for _, c := range []struct {
		name, file string
		x          int64
		max        int
	}{
		{"phases_1-2/steps=20000000", "../engine/testdata/long/phases_1-2.imp", 0, 20_000_000},
		{"isqrt/x=1000", "../engine/testdata/isqrt.imp", 1000, -1},
	} {
		p, err := parser.ParseFile(c.file)
		if err != nil {
			b.Fatal(err)
		}
		in := make(Store, p.Slots())
		in[0] = integer.Of(c.x)
		for _, run := range []struct {
			name string
			f    func(*syntax.Program, Store, int) Result
		}{{"Run", Run}, {"RunFast", RunFast}} {
			b.Run(c.name+"/"+run.name, func(b *testing.B) {
				steps := 0
				for i := 0; i < b.N; i++ {
					r := run.f(p, in, c.max)
					if r.Outcome == Failed || (c.max < 0) != (r.Outcome == Final) {
						b.Fatalf("%s: the run ends %v after %d steps", c.file, r.Outcome, r.Steps)
					}
					steps += r.Steps
				}
				b.ReportMetric(float64(steps)/b.Elapsed().Seconds(), "steps/s")
			})
		}
	}
}
