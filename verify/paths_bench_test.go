package verify

import (
	"fmt"
	"path/filepath"
	"reflect"
	"slices"
	"testing"

	"certsym/internal/budget"
	"certsym/internal/testprog"
	"certsym/spec/syntax/parser"
	"certsym/sym"
	"certsym/verify/paths"
)

// BenchmarkVerifyManyPaths is certsym verify on engine/testdata/gcd.imp at high loop bounds,
// where the paths double with each iteration (32,767 paths reach the claim at loop bound 14):
// the cost per path of the observer, of the path numbering and of the evidence, with 1 and 2
// workers (Options.Workers).
func BenchmarkVerifyManyPaths(b *testing.B) {
	prog, err := parser.Parse("gcd.imp", []byte(gcdSrc(b)))
	if err != nil {
		b.Fatal(err)
	}
	for _, n := range []int{10, 14} {
		for _, w := range []int{1, 2} {
			b.Run(fmt.Sprintf("gcd/loop-bound=%d/workers=%d", n, w), func(b *testing.B) {
				for b.Loop() {
					rep := Verify(prog, Options{LoopBound: n, Workers: w})
					if len(rep.Paths) < 1<<n || rep.Paths[len(rep.Paths)-1].PathCondition == "" {
						b.Fatalf("%d paths", len(rep.Paths))
					}
				}
			})
		}
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

// TestVerifyWorkers runs Verify with 4 workers (and under the race detector, go test -race, the
// workers race with the interpretation) on gcd at loop bound 10 (2,047 paths, past
// MaxPathTests) and on programs of testdata/verify with arrays, quantifiers, products and divisions, and
// checks every path's rendering and test against the sequential computation on the same report:
// its path condition's text, and a replay of its test made again on one goroutine.
func TestVerifyWorkers(t *testing.T) {
	type prog struct {
		file string
		n    int
	}
	progs := []prog{{filepath.Join(testprog.Root(), "engine", "testdata", "gcd.imp"), 10}}
	for _, f := range []string{"fig1a_dequeue.imp", "fig1c_fait.imp", "fig1f_insertionsort.imp", "div_faulty.imp"} {
		progs = append(progs, prog{filepath.Join(testprog.Root(), "testdata", "verify", f), 3})
	}
	for _, pr := range progs {
		p, err := parser.ParseFile(pr.file)
		if err != nil {
			t.Fatal(err)
		}
		rep := Verify(p, Options{LoopBound: pr.n, Workers: 4})
		names := sym.SlotNames(p)
		if len(rep.Paths) == 0 {
			t.Fatalf("%s: no paths", pr.file)
		}
		tested := 0
		for _, path := range rep.Paths {
			if want := path.PC().String(names); path.PathCondition != want {
				t.Errorf("%s: path %d: path condition %q, want %q", pr.file, path.ID, path.PathCondition, want)
			}
			if path.ID >= MaxPathTests {
				continue
			}
			again := paths.New(path.ID, path.Line, path.PC())
			again.SetCounterexample(path.Counterexample())
			paths.Test(p, pr.n, again, func() bool { return false }, budget.NewMonitor())
			if !reflect.DeepEqual(again.Input, path.Input) || !reflect.DeepEqual(again.Final, path.Final) || again.Ends != path.Ends ||
				!slices.Equal(again.Lines, path.Lines) {
				t.Errorf("%s: path %d: test %v ends %q, replayed again %v ends %q", pr.file, path.ID, path.Input, path.Ends, again.Input, again.Ends)
			}
			if path.Input != nil {
				tested++
			}
		}
		if tested == 0 {
			t.Errorf("%s: no path has a test", pr.file)
		}
		if pr.n == 10 && (len(rep.Paths) <= MaxPathTests || rep.Paths[MaxPathTests].Input != nil) {
			t.Errorf("%s: %d paths, want more than %d, the last ones without a test", pr.file, len(rep.Paths), MaxPathTests)
		}
	}
}
