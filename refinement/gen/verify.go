package gen

// Snippets for certsym verify. A fraction of the generated programs (VerifyShare in 100, drawn
// from a random source of its own so that the other programs are generated exactly as before)
// end with one of these shapes, which put to work what random statements rarely reach:
//
//   - claims whose results mix an exact result with a possibly spurious one, or DONTKNOW with
//     FALSE, so that the status table's order between its rows decides the status: an assume
//     whose quantifier has more instances than the loop limit on one branch only (the states
//     past it over-approximate, xSymExe's flag g: FALSE? beside FALSE, or beside UNDEFINED when
//     the other branch divides by zero), a quantifier whose range is within the limit on some
//     paths and beyond it on others, a product that only the abstraction of products lets take
//     a value it cannot take (DONTKNOW with products abstracted) beside a branch where the claim
//     is false;
//   - nested loops whose inner loop runs more iterations than the loop limit inside an outer
//     loop of two iterations, with claims before and after the inner loop: the cutoff of the
//     inner loop reaches the claims before it only through the back edge of the outer loop (the
//     next iteration), so the control-flow graph's back edges are checked through the cutoff
//     rule (verify/cutoff).
//
// The quantifiers range over a few constants or a variable set on each branch: the reference
// evaluates every instance, so no range grows with the inputs.

import (
	"math/rand"

	"certsym/spec/syntax"
)

// VerifyShare is the percentage of generated programs that end with a verify snippet.
const VerifyShare = 20

// VerifyKinds names the kinds of verify snippets, by the number Verify draws.
var VerifyKinds = []string{"false-with-false?", "undefined-with-false?", "dontknow-with-false", "quantifier-bound-on-some-paths", "nested-loops"}

type verGen struct{ r *rand.Rand }

// withVerify draws whether the program of seed ends with a verify snippet: if so, the function
// that appends it to a body and the snippet's kind (an index into VerifyKinds), else nil, -1.
func withVerify(seed int64) (func(syntax.Stmt) syntax.Stmt, int) {
	r := rand.New(rand.NewSource(seed*15485863 + 101))
	if r.Intn(100) >= VerifyShare {
		return nil, -1
	}
	k := &verGen{r: r}
	kind := r.Intn(len(VerifyKinds))
	s := k.snippet(kind)
	return func(body syntax.Stmt) syntax.Stmt { return appendSeq(body, s) }, kind
}

// VerifySnippet is the verify snippet of the given kind drawn from seed (for the layer's
// targeted programs and tests).
func VerifySnippet(seed int64, kind int) syntax.Stmt {
	return (&verGen{r: rand.New(rand.NewSource(seed))}).snippet(kind)
}

// vars draws n distinct variables of Vars.
func (k *verGen) vars(n int) []*syntax.Var {
	perm := k.r.Perm(len(Vars))
	out := make([]*syntax.Var, n)
	for i := range out {
		out[i] = &syntax.Var{Name: Vars[perm[i]]}
	}
	return out
}

func (k *verGen) small() int64 { return int64(k.r.Intn(11) - 5) }

// overAssume is assume forall k0 in lo..lo+3: v > k0 + c, and lo: four instances, two more than
// the loop limit 2 lets verify evaluate, so the states past it are flagged. Under the first two
// instances v > lo + 1 + c, under all four v > lo + 3 + c: a claim v > lo + 2 + c holds on every
// run, and its counterexamples past the assume are spurious (FALSE?).
func (k *verGen) overAssume(v *syntax.Var, c int64) (syntax.Stmt, int64) {
	lo := k.small()
	return &syntax.Assume{Cond: &syntax.Quant{Name: "k0", Lo: num(lo), Hi: num(lo + 3),
		Body: cmp(syntax.Gt, v, bin(syntax.Add, &syntax.BoundRef{Name: "k0"}, num(c)))}}, lo
}

func assign(v *syntax.Var, e syntax.AExpr) syntax.Stmt { return &syntax.Assign{X: v, A: e} }

func seqOf(ss ...syntax.Stmt) syntax.Stmt {
	out := ss[len(ss)-1]
	for i := len(ss) - 2; i >= 0; i-- {
		out = &syntax.Seq{First: ss[i], Second: out}
	}
	return out
}

// snippet draws a snippet of the given kind.
func (k *verGen) snippet(kind int) syntax.Stmt {
	vs := k.vars(4)
	c1, c2, d := k.small(), k.small(), int64(2+k.r.Intn(5))
	guard := cmp(syntax.Gt, vs[0], num(c1))
	switch kind {
	case 0: // FALSE on the exact branch, FALSE? (only) past the over-approximated assume
		a, lo := k.overAssume(vs[1], c2)
		return seqOf(&syntax.If{Cond: guard, Then: a, Else: &syntax.Skip{}},
			&syntax.Assert{Cond: cmp(syntax.Gt, vs[1], num(lo+2+c2))})
	case 1: // UNDEFINED where the divisor is 0, FALSE? (only) past the over-approximated assume
		a, lo := k.overAssume(vs[1], c2)
		return seqOf(&syntax.If{Cond: guard, Then: seqOf(a, assign(vs[2], num(1))), Else: assign(vs[2], num(0))},
			&syntax.Assert{Cond: cmp(syntax.Gt, bin(syntax.Div, vs[1], vs[2]), num(lo+2+c2))})
	case 2: // DONTKNOW with products abstracted (a value no product of the ranges takes), FALSE on the other branch
		p, q := int64(2+k.r.Intn(3)), int64(2+k.r.Intn(3))
		prods := map[int64]bool{p * q: true, p * (q + 1): true, (p + 1) * q: true, (p + 1) * (q + 1): true}
		t := p*q + 1
		for prods[t] {
			t++
		}
		in := func(v *syntax.Var, lo int64) syntax.BExpr {
			return and(cmp(syntax.Ge, v, num(lo)), cmp(syntax.Le, v, num(lo+1)))
		}
		then := seqOf(&syntax.Assume{Cond: and(in(vs[1], p), in(vs[2], q))}, assign(vs[3], bin(syntax.Mul, vs[1], vs[2])))
		el := assign(vs[3], bin(syntax.Add, bin(syntax.Sub, vs[0], num(c1)), num(t)))
		return seqOf(&syntax.If{Cond: guard, Then: then, Else: el}, &syntax.Assert{Cond: cmp(syntax.Ne, vs[3], num(t))})
	case 3: // a quantifier within the loop limit on one branch (exact: v2 > 1 + c2, FALSE),
		// beyond it on the other (v2 > big + c2, which the claim follows from: FALSE? only)
		big := int64(3 + k.r.Intn(3))
		d = 2 + k.r.Int63n(big-1)
		q := &syntax.Quant{Name: "k0", Lo: num(0), Hi: vs[1], Body: cmp(syntax.Gt, vs[2], bin(syntax.Add, &syntax.BoundRef{Name: "k0"}, num(c2)))}
		return seqOf(&syntax.If{Cond: guard, Then: assign(vs[1], num(1)), Else: assign(vs[1], num(big))},
			&syntax.Assume{Cond: q}, &syntax.Assert{Cond: cmp(syntax.Gt, vs[2], num(c2+d))})
	}
	return k.nested(vs)
}

// nested draws o0 = 0; while o0 < 2 do PRE; j0 = 0; while j0 < B do j0 = j0 + 1 od; POST;
// o0 = o0 + 1 od: B more than the loop limit (a constant, or an input), PRE and POST claims that
// hold on every run (so a cutoff that reaches them is all that keeps them from VERIFIED).
func (k *verGen) nested(vs []*syntax.Var) syntax.Stmt {
	o, j := &syntax.Var{Name: "o0"}, &syntax.Var{Name: "j0"}
	var bound syntax.AExpr = num(int64(3 + k.r.Intn(3)))
	if k.r.Intn(3) == 0 {
		bound = vs[0]
	}
	var pre syntax.Stmt
	switch k.r.Intn(3) {
	case 0:
		pre = &syntax.Assert{Cond: cmp(syntax.Le, o, num(1))}
	case 1:
		pre = assign(vs[1], bin(syntax.Div, vs[2], bin(syntax.Add, o, num(1))))
	default:
		pre = &syntax.Assert{Cond: &syntax.BinB{Op: syntax.Or, L: cmp(syntax.Ge, o, num(0)), R: cmp(syntax.Gt, vs[2], num(k.small()))}}
	}
	var post syntax.Stmt
	switch k.r.Intn(3) {
	case 0:
		post = &syntax.Assert{Cond: cmp(syntax.Ge, j, num(0))}
	case 1:
		post = assign(vs[3], bin(syntax.Div, num(k.small()), bin(syntax.Add, j, num(1))))
	default:
		post = &syntax.Assert{Cond: &syntax.BinB{Op: syntax.Or, L: cmp(syntax.Ge, j, bound), R: cmp(syntax.Lt, o, num(0))}}
	}
	inc := func(v *syntax.Var) syntax.Stmt { return assign(v, bin(syntax.Add, v, num(1))) }
	inner := seqOf(assign(j, num(0)), &syntax.While{Cond: cmp(syntax.Lt, j, bound), Body: inc(j)})
	return seqOf(assign(o, num(0)), &syntax.While{Cond: cmp(syntax.Lt, o, num(2)), Body: seqOf(pre, inner, post, inc(o))})
}
