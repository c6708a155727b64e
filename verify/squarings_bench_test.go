package verify

import (
	"fmt"
	"strings"
	"testing"

	"certsym/spec/syntax/parser"
)

// squaringsProg is y = y * y repeated k times after an input's assumption, then a reachable
// fail: the value of y is a product term of k shared atoms whose written form, expanded, has 2^k
// copies of y.
func squaringsProg(k int, assume string) []byte {
	return []byte(assume + strings.Repeat("x = x * x;\n", k) + "if y > 0 then fail else skip fi\n")
}

// BenchmarkVerifySquarings is verify on k squarings of an input (the report's paths rendered and
// replayed): its symbolic part, the claim checks, the notes on products and the renderings of
// the stores and path conditions, takes time linear in k. With assume x > 1 the tests' replays
// square the integer 2 k times, until the integer bound stops them; without it the solver's model
// is small and the replays cheap.
func BenchmarkVerifySquarings(b *testing.B) {
	for _, assume := range []string{"", "assume x > 1;\n"} {
		for _, k := range []int{10, 20, 30} {
			prog, err := parser.Parse("squarings.imp", squaringsProg(k, assume))
			if err != nil {
				b.Fatal(err)
			}
			name := "free"
			if assume != "" {
				name = "assumed"
			}
			b.Run(fmt.Sprintf("%s/k=%d", name, k), func(b *testing.B) {
				for b.Loop() {
					rep := Verify(prog, Options{LoopBound: 3})
					if len(rep.Claims) != 1 || len(rep.Paths) == 0 {
						b.Fatalf("%d claims, %d paths", len(rep.Claims), len(rep.Paths))
					}
				}
			})
		}
	}
}
