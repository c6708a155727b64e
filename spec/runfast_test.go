package spec

import (
	"fmt"
	"math/big"
	"math/rand"
	"path/filepath"
	"strings"
	"testing"

	"certsym/spec/integer"
	"certsym/spec/syntax"
	"certsym/spec/syntax/parser"
)

// diffResult compares RunFast's result with Run's and says how they differ ("" when they agree):
// the outcome, the steps, the Fail (the same node), QuantBound, the final store (value by value)
// and the final program (the same shape: Seq nodes compared by their halves, other statements
// the same node, or, for the skip a finished statement steps to, a Skip at the same place).
func diffResult(ref, fast Result) string {
	switch {
	case ref.Outcome != fast.Outcome:
		return fmt.Sprintf("outcome %v, RunFast %v", ref.Outcome, fast.Outcome)
	case ref.Steps != fast.Steps:
		return fmt.Sprintf("%d steps, RunFast %d", ref.Steps, fast.Steps)
	case ref.Fail != fast.Fail:
		return fmt.Sprintf("fail %v, RunFast %v", ref.Fail, fast.Fail)
	case ref.QuantBound != fast.QuantBound:
		return "QuantBound differs"
	case len(ref.Final.Store) != len(fast.Final.Store):
		return fmt.Sprintf("store of %d slots, RunFast %d", len(ref.Final.Store), len(fast.Final.Store))
	}
	for i := range ref.Final.Store {
		if !ref.Final.Store[i].Equal(fast.Final.Store[i]) {
			return fmt.Sprintf("slot %d is %v, RunFast %v", i, ref.Final.Store[i], fast.Final.Store[i])
		}
	}
	if !sameProg(ref.Final.Prog, fast.Final.Prog) {
		return fmt.Sprintf("final program\n%s\nRunFast\n%s", syntax.Print(ref.Final.Prog), syntax.Print(fast.Final.Prog))
	}
	return ""
}

// sameProg reports whether two remaining programs have the same shape (diffResult).
func sameProg(x, y syntax.Stmt) bool {
	if x == y {
		return true
	}
	switch xs := x.(type) {
	case *syntax.Seq:
		ys, ok := y.(*syntax.Seq)
		return ok && sameProg(xs.First, ys.First) && sameProg(xs.Second, ys.Second)
	case *syntax.Skip:
		ys, ok := y.(*syntax.Skip)
		return ok && xs.Loc == ys.Loc
	case *syntax.Fail, *syntax.Assign, *syntax.ArrAssign, *syntax.If, *syntax.While, *syntax.Assume, *syntax.Assert: // the same only if identical
		return false
	default:
		panic(fmt.Sprintf("sameProg: unknown statement %T", x))
	}
}

// CompareRuns runs p from in with Run and RunFast under the step bound max and then under bounds
// that cut the run mid-way (every bound up to 40, the steps of the run and around them, and a few
// drawn by r), and fails t at the first difference. It also checks that RunFast leaves in as it
// found it. It returns Run's result under max.
func CompareRuns(t testing.TB, p *syntax.Program, in Store, max int, r *rand.Rand) Result {
	t.Helper()
	before := StoreString(p, in)
	full := Run(p, in, max)
	bounds := []int{-1, full.Steps - 1, full.Steps, full.Steps + 1}
	if max >= 0 {
		bounds[0] = max
	}
	for k := 0; k <= 40 && k <= full.Steps; k++ {
		bounds = append(bounds, k)
	}
	for i := 0; i < 4 && full.Steps > 0; i++ {
		bounds = append(bounds, r.Intn(full.Steps+1))
	}
	for _, k := range bounds {
		if k < 0 && max >= 0 {
			continue // the run without a bound need not end
		}
		ref, fast := Run(p, in, k), RunFast(p, in, k)
		if d := diffResult(ref, fast); d != "" {
			t.Fatalf("%s from %s, step bound %d: Run and RunFast differ: %s", p.File, before, k, d)
		}
		if after := StoreString(p, in); after != before {
			t.Fatalf("%s: RunFast changed its input from %s to %s", p.File, before, after)
		}
	}
	return full
}

// hasQuant reports whether p has a quantifier: its inputs are drawn small, since Run evaluates
// every instance of a quantifier whose range a large input would make huge.
func hasQuant(p *syntax.Program) bool { return syntax.HasQuant(p.Body) }

// randomStore draws a store for p: mostly small values, where branches and errors happen, and,
// when big is set, some large and some beyond 64 bits.
func randomStore(r *rand.Rand, p *syntax.Program, big bool) Store {
	in := make(Store, p.Slots())
	for i := range in {
		switch n := r.Intn(10); {
		case big && n == 0:
			in[i] = integer.Of(r.Int63() - r.Int63())
		case big && n == 1:
			in[i] = integer.Of(r.Int63()).Mul(integer.Of(r.Int63() - r.Int63()))
		case n < 4:
			in[i] = integer.Of(int64(r.Intn(2001) - 1000))
		default:
			in[i] = integer.Of(int64(r.Intn(13) - 4))
		}
	}
	return in
}

// TestRunFastCorpus: RunFast's results are Run's on every program of testdata/ and
// engine/testdata/ (phases_1-2 of testdata/long cut at a million steps), from the zero input and
// random ones (small, large, beyond 64 bits), under step bounds that stop the runs mid-way; the
// runs reach each kind of error and end in each way.
func TestRunFastCorpus(t *testing.T) {
	if testing.Short() {
		t.Skip("short mode: RunFast against Run on the corpus from many inputs; make check runs it")
	}
	var files []string
	for _, g := range []string{"../testdata/*.imp", "../engine/testdata/*.imp", "../engine/testdata/long/*.imp"} {
		fs, _ := filepath.Glob(g)
		files = append(files, fs...)
	}
	if len(files) < 100 {
		t.Fatalf("found %d corpus programs, expected the corpus (more than 100)", len(files))
	}
	r := rand.New(rand.NewSource(17))
	outcomes, kinds := map[Outcome]int{}, map[syntax.FailKind]int{}
	for _, f := range files {
		p, err := parser.ParseFile(f)
		if err != nil {
			t.Fatal(err)
		}
		max := 20000
		if strings.Contains(f, "/long/") {
			max = 1_000_000
		}
		ins := []Store{make(Store, p.Slots())}
		for i := 0; i < 6; i++ {
			ins = append(ins, randomStore(r, p, !hasQuant(p)))
		}
		for _, in := range ins {
			res := CompareRuns(t, p, in, max, r)
			outcomes[res.Outcome]++
			if res.Outcome == Failed {
				kinds[res.Fail.Kind]++
			}
		}
	}
	for _, o := range []Outcome{Stepped, Final, Failed, Blocked} {
		if outcomes[o] == 0 {
			t.Errorf("no corpus run ends %v: %v", o, outcomes)
		}
	}
	for _, k := range []syntax.FailKind{syntax.FailExplicit, syntax.FailAssert, syntax.FailDivZero, syntax.FailIndex} {
		if kinds[k] == 0 {
			t.Errorf("no corpus run fails with %v: %v", k, kinds)
		}
	}
}

// TestRunFastRandomLoops: RunFast's results are Run's on random programs with nested loops,
// branches, arrays, quantifiers, assumes, explicit fails and blocks (the statements of genArr
// inside while loops and sequences of every nesting), from random inputs, under step bounds that
// stop the runs mid-way.
func TestRunFastRandomLoops(t *testing.T) {
	r := rand.New(rand.NewSource(23))
	kinds := map[syntax.FailKind]int{}
	for n := 0; n < 1000; n++ {
		g := &genArr{r: r}
		src := "array a[-1..1];\narray b[0..3];\n" + loopStmt(g, 3)
		p := mustParse(t, src)
		for trial := 0; trial < 3; trial++ {
			res := CompareRuns(t, p, randomStore(r, p, false), 3000, r)
			if res.Outcome == Failed {
				kinds[res.Fail.Kind]++
			}
		}
	}
	for _, k := range []syntax.FailKind{syntax.FailExplicit, syntax.FailAssert, syntax.FailDivZero, syntax.FailIndex} {
		if kinds[k] == 0 {
			t.Errorf("no random run fails with %v: %v", k, kinds)
		}
	}
}

// loopStmt draws a statement for TestRunFastRandomLoops: a genArr statement, skip, fail, a
// sequence (nested to the left or to the right), an if, or a while loop whose counter c counts
// up to a bound drawn from -1..5 or to an input.
func loopStmt(g *genArr, d int) string {
	if d <= 0 {
		return g.stmt(0)
	}
	switch g.r.Intn(9) {
	case 0:
		return "skip"
	case 1:
		if g.r.Intn(4) == 0 {
			return "fail"
		}
	case 2, 3:
		return loopStmt(g, d-1) + ";\n" + loopStmt(g, d-1)
	case 4:
		return "if " + g.bexpr(1) + " then " + loopStmt(g, d-1) + "; " + loopStmt(g, d-1) + " else " + loopStmt(g, d-1) + " fi"
	case 5, 6:
		c := fmt.Sprintf("c%d", d)
		bound := []string{fmt.Sprint(g.r.Intn(7) - 1), "x", "y"}[g.r.Intn(3)]
		return c + " = 0; while " + c + " < " + bound + " do " + loopStmt(g, d-1) + "; " + c + " = " + c + " + 1 od"
	}
	return g.stmt(1)
}

// TestRunFastBigIntegers: RunFast agrees with Run on runs whose values leave int64 and come back
// (repeated squaring, then division), on truncating division and remainder of every sign, at the
// int64 edges (-2^63 / -1, -2^63 % -1), and on element indexes beyond 64 bits.
func TestRunFastBigIntegers(t *testing.T) {
	if testing.Short() {
		t.Skip("short mode: RunFast against Run on big-integer runs; make check runs it")
	}
	r := rand.New(rand.NewSource(29))
	srcs := []string{
		"i = 0; while i < 8 do x = x * x + 1; i = i + 1 od; while x > 1000 do x = x / 7 - x % 5 od; assert x != 3",
		"q = x / y; m = x % y; assert q * y + m == x; assert m == 0 or (m < 0 and x < 0) or (m > 0 and x > 0)",
		"q = x / -1; m = x % -1; y = -x; assert q == y",
		"array a[0..2];\ni = x * x * x; a[i % 3] = i / 2; assert a[0] <= i; y = a[i]",
	}
	edges := []integer.Int{integer.Of(-1 << 63), integer.Of(1<<63 - 1), integer.Of(-1), integer.Of(0), integer.Of(7), integer.Of(-7), integer.Of(2), integer.Of(-3),
		integer.FromBig(new(big.Int).Lsh(big.NewInt(1), 63)), integer.FromBig(new(big.Int).Lsh(big.NewInt(-1), 70))}
	bigs := 0
	for _, src := range srcs {
		p := mustParse(t, src)
		for trial := 0; trial < 60; trial++ {
			in := make(Store, p.Slots())
			for i := range in {
				in[i] = edges[r.Intn(len(edges))]
			}
			res := CompareRuns(t, p, in, 5000, r)
			for _, v := range res.Final.Store {
				if !v.IsSmall() {
					bigs++
				}
			}
		}
	}
	if bigs == 0 {
		t.Error("no run ended with a value beyond 64 bits")
	}
}
