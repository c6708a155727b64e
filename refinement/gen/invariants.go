package gen

// Loop invariants. A fraction of the generated programs (InvariantShare in 100, drawn from a
// random source of its own, so that the other programs are generated exactly as before) get
// invariant clauses on the loops the generator wrote: the counter loops of the random statements
// (gen.loop, i = 0; while i < B [and c] do ...; i = i + 1 od) and the loops over an array of the
// array snippets (j = lo; while j <= H [and c] do a[j] = e; j = j + 1 od). Each such loop gets, with
// probability 3/4, one to three clauses of three sorts:
//
//   - correct: they hold at every arrival at the loop's head (i >= 0; i <= B for a constant bound
//     B >= 0; lo <= j and j <= H + 1; quantified ones, forall k in 0..i - 1: k < i, exists k in
//     0..i: k == i);
//   - weak: they hold but say little (true, i >= -5, i * i >= 0);
//   - wrong: they fail at some arrival, or are undefined there: i == 0 (false after the first
//     iteration), i < B (false at the last arrival, when the loop exits, or on entry when B is an
//     input <= 0), 10 / (B - i) != 7 (a division by zero at the arrival where i == B), a[j] == a[j]
//     (an index out of range at the last arrival, j == H + 1), a random condition of the
//     generator.
//
// The engine checks each clause at every arrival at the head ([E-While-Inv]), the reference runs
// the desugared loop (refclient.DesugarInvariants): every check of the layer compares the two.

import (
	"math/rand"

	fuzz "github.com/google/gofuzz"

	"certsym/spec/integer"
	"certsym/spec/syntax"
)

// InvariantShare is the percentage of generated programs whose loops may get invariant clauses.
const InvariantShare = 60

// genLoop is a loop the generator wrote, with what its clauses may say about it: its counter,
// the counter's first value, and its bound (the counter stays < Bound, or <= Bound when
// Inclusive); Arr is the array a loop over an array writes (nil for a counter loop).
type genLoop struct {
	W         *syntax.While
	Ctr       string
	From      int64
	Bound     syntax.AExpr
	Inclusive bool
	Arr       *syntax.Array
}

// withInvariants draws whether the program of seed has invariant clauses and, if so, adds them
// to the loops (in place).
func withInvariants(seed int64, cfg Config, loops []genLoop) {
	r := rand.New(rand.NewSource(seed*15485863 + 101))
	if r.Intn(100) >= InvariantShare {
		return
	}
	g := &gen{cfg: cfg}
	f := fuzz.NewWithSeed(seed*31+7).NilChance(0).Funcs(
		func(v *integer.Int, c fuzz.Continue) { *v = g.constant(c) },
		func(a *syntax.AExpr, c fuzz.Continue) { *a = g.aexpr(c) },
		func(b *syntax.BExpr, c fuzz.Continue) { *b = g.cond(c) },
	)
	for _, l := range loops {
		if r.Intn(4) == 0 {
			continue
		}
		n := 1 + r.Intn(3)
		for k := 0; k < n; k++ {
			l.W.Invariants = append(l.W.Invariants, &syntax.Assert{Cond: clause(r, f, l)})
		}
	}
}

// clause draws one invariant clause for loop l: correct (1 in 2), weak (1 in 5) or wrong.
func clause(r *rand.Rand, f *fuzz.Fuzzer, l genLoop) syntax.BExpr {
	ctr := func() syntax.AExpr { return &syntax.Var{Name: l.Ctr} }
	cmp := func(op syntax.CmpOp, a, b syntax.AExpr) syntax.BExpr { return &syntax.Cmp{Op: op, L: a, R: b} }
	and := func(a, b syntax.BExpr) syntax.BExpr { return &syntax.BinB{Op: syntax.And, L: a, R: b} }
	sub := func(a, b syntax.AExpr) syntax.AExpr { return &syntax.BinA{Op: syntax.Sub, L: a, R: b} }
	bound, isConst := l.Bound.(*syntax.Num)
	// the last value the counter takes: Bound, or Bound + 1 for an inclusive bound
	last := func() syntax.AExpr {
		if l.Inclusive {
			return &syntax.BinA{Op: syntax.Add, L: copyA(l.Bound), R: n64(1)}
		}
		return copyA(l.Bound)
	}
	switch x := r.Intn(10); {
	case x < 5: // correct
		switch r.Intn(4) {
		case 0:
			return cmp(syntax.Ge, ctr(), n64(l.From))
		case 1:
			if isConst && bound.Val.Sign() >= 0 || l.Arr != nil {
				return and(cmp(syntax.Le, n64(l.From), ctr()), cmp(syntax.Le, ctr(), last()))
			}
			return cmp(syntax.Ge, ctr(), n64(l.From))
		case 2:
			return &syntax.Quant{Name: "k", Lo: n64(l.From), Hi: sub(ctr(), n64(1)),
				Body: cmp(syntax.Lt, &syntax.BoundRef{Name: "k"}, ctr())}
		}
		return &syntax.Quant{Exists: true, Name: "k", Lo: n64(l.From), Hi: ctr(),
			Body: cmp(syntax.Eq, &syntax.BoundRef{Name: "k"}, ctr())}
	case x < 7: // weak
		switch r.Intn(3) {
		case 0:
			return &syntax.BoolLit{Val: true}
		case 1:
			return cmp(syntax.Ge, ctr(), n64(l.From-5))
		}
		return cmp(syntax.Ge, &syntax.BinA{Op: syntax.Mul, L: ctr(), R: ctr()}, n64(0))
	}
	switch r.Intn(5) { // wrong, or undefined at some arrival
	case 0:
		return cmp(syntax.Eq, ctr(), n64(l.From))
	case 1:
		return cmp(syntax.Lt, ctr(), last())
	case 2:
		return cmp(syntax.Ne, &syntax.BinA{Op: syntax.Div, L: n64(10), R: sub(last(), ctr())}, n64(7))
	case 3:
		if l.Arr != nil {
			e := &syntax.Elem{Arr: l.Arr, I: ctr()}
			return cmp(syntax.Eq, e, &syntax.Elem{Arr: l.Arr, I: ctr()})
		}
	}
	var b syntax.BExpr
	f.Fuzz(&b)
	return b
}
