package verify

import (
	"fmt"
	"slices"
	"testing"

	"certsym/spec"
)

// BenchmarkVerifyManyPaths is certsym verify on engine/testdata/gcd.imp at high loop bounds,
// where the paths double with each iteration (32,767 paths reach the claim at loop bound 14):
// the cost per path of the observer, of the path numbering and of the evidence (issue 17).
func BenchmarkVerifyManyPaths(b *testing.B) {
	prog, err := spec.Parse("gcd.imp", []byte(gcdSrc(b)))
	if err != nil {
		b.Fatal(err)
	}
	for _, n := range []int{10, 14} {
		b.Run(fmt.Sprintf("gcd/loop-bound=%d", n), func(b *testing.B) {
			for b.Loop() {
				rep := Verify(prog, Options{LoopBound: n})
				if len(rep.Paths) < 1<<n {
					b.Fatalf("%d paths", len(rep.Paths))
				}
			}
		})
	}
}

// TestAddPath: Evidence.addPath keeps the ids sorted and without repeats, whatever the order in
// which they come (checked against a sort of the distinct ids on pseudo-random sequences).
func TestAddPath(t *testing.T) {
	seed := uint32(1)
	for round := range 200 {
		var e Evidence
		seen := map[int]bool{}
		for range round % 50 {
			seed = seed*1664525 + 1013904223
			p := int(seed>>16) % 40
			if seed&1 == 0 && len(e.Paths) > 0 {
				p = e.Paths[len(e.Paths)-1] + 1 // the common case: a new path
			}
			seen[p] = true
			e.addPath(p)
		}
		want := make([]int, 0, len(seen))
		for p := range seen {
			want = append(want, p)
		}
		slices.Sort(want)
		if !slices.Equal(e.Paths, want) {
			t.Fatalf("round %d: paths %v, want %v", round, e.Paths, want)
		}
	}
}
