package gen

import (
	"fmt"
	"math/big"
	"math/rand"
	"strings"

	"certsym/spec/integer"
	"certsym/spec/syntax"
)

// The generator's steering to the corners where the engine decides without Z3, and its macros.
//
// A generated program gets, from its seed (a generator of its own, so gofuzz's draws are those
// of the plain generator): sometimes only corner snippets, sometimes corner snippets around the
// random statements, sometimes macros. The corner snippets are:
//
//   - countdown: assume L <= a <= H; while a != L do a = a - 1 od (x != v at the low end of an
//     interval, shaved to the next value at every iteration), or the high end; long countdowns
//     (hundreds to thousands of iterations, half of them from a constant, a = H) mark the
//     program for a large budget;
//   - straddle: a and b in intervals around zero (or only bounded below, one end negative), a
//     branch on a * b against a constant near the products of the ends;
//   - divisor: a divisor or modulus in an interval that contains zero and negatives, a dividend
//     in a positive or negative interval, a branch on a / b or a % b;
//   - linear: a fact on a two-variable linear form k1*a - k2*b (coefficients small, or near
//     2^62 and 2^63), then a branch on a multiple of the same form, of either sign;
//   - undecidable: assume a * b == K, then an error under a branch: no solver-free rule decides
//     it (the verdict under a starved solver must be unknown);
//   - sum divisor: a / (b + c) or a % (b + c) with b + c in a range with an end at 0 (the
//     definedness conjunct b + c != 0 cannot shave a two-symbol divisor, so the range the rules
//     see keeps its 0), compared where the corners and the true range differ;
//   - divisor without zero: a % b with b in a range like [2, 5] or [-5, -2], compared against
//     a value below the larger |end| and above the smaller one;
//   - atom disequality: k*(b*c) + c0 != 0 with -c0/k at an end of a's interval, then a branch
//     on a at that end (a disequality on a nonlinear atom must not shave a symbol's interval);
//   - atom forms: a fact on k1*(a*b) - k2*(c*d), then a branch on k1*(a*c) - k2*(b*d), another
//     form over other atoms with the same coefficients (facts are kept per form).
//
// Targeted (the reduced run) are fixed programs of these shapes with parameters where the
// unsound variants of the interval rules decide a branch wrongly.
//
// Macros: one or two definitions with parameters pa (always given a variable, the body may
// assign it) and pb (given any expression, only read), called at the top level; the second may
// call the first. The text has the definitions and the calls; the tree the reference runs is
// inlined by the generator itself (call by name), so the parser's inliner is checked.

// cornerGen draws the corner snippets and macros of one program.
type cornerGen struct {
	r *rand.Rand
	// long is set when a long countdown was drawn (the program wants a large budget).
	long bool
	// corners counts the corner snippets drawn.
	corners int
}

func (k *cornerGen) v() *syntax.Var                      { return &syntax.Var{Name: Vars[k.r.Intn(len(Vars))]} }
func num(v int64) *syntax.Num                            { return &syntax.Num{Val: integer.Of(v)} }
func numI(v integer.Int) *syntax.Num                     { return &syntax.Num{Val: v} }
func cmp(op syntax.CmpOp, l, r syntax.AExpr) *syntax.Cmp { return &syntax.Cmp{Op: op, L: l, R: r} }
func and(l, r syntax.BExpr) syntax.BExpr                 { return &syntax.BinB{Op: syntax.And, L: l, R: r} }
func bin(op syntax.AOp, l, r syntax.AExpr) *syntax.BinA  { return &syntax.BinA{Op: op, L: l, R: r} }

// two returns two distinct variables.
func (k *cornerGen) two() (*syntax.Var, *syntax.Var) {
	i := k.r.Intn(len(Vars))
	j := (i + 1 + k.r.Intn(len(Vars)-1)) % len(Vars)
	return &syntax.Var{Name: Vars[i]}, &syntax.Var{Name: Vars[j]}
}

// interval is assume lo <= a <= hi.
func interval(a *syntax.Var, lo, hi int64) syntax.Stmt {
	return &syntax.Assume{Cond: and(cmp(syntax.Ge, a, num(lo)), cmp(syntax.Le, a, num(hi)))}
}

// outcome is a small statement for a branch: an error, an assert, or an assignment.
func (k *cornerGen) outcome(a, b *syntax.Var) syntax.Stmt {
	switch k.r.Intn(5) {
	case 0:
		return &syntax.Fail{}
	case 1:
		return &syntax.Assert{Cond: cmp(syntax.CmpOp(k.r.Intn(6)), a, b)}
	case 2:
		return &syntax.Assign{X: a, A: bin(syntax.Sub, a, b)}
	}
	return &syntax.Assign{X: k.v(), A: num(int64(k.r.Intn(7) - 3))}
}

func (k *cornerGen) branch(c syntax.BExpr, a, b *syntax.Var) syntax.Stmt {
	var el syntax.Stmt = &syntax.Skip{}
	if k.r.Intn(2) == 0 {
		el = k.outcome(b, a)
	}
	return &syntax.If{Cond: c, Then: k.outcome(a, b), Else: el}
}

func (k *cornerGen) seq(ss ...syntax.Stmt) syntax.Stmt {
	var out syntax.Stmt
	for _, s := range ss {
		if out == nil {
			out = s
		} else {
			out = appendSeq(out, s)
		}
	}
	return out
}

// corner draws one corner snippet.
func (k *cornerGen) corner() syntax.Stmt {
	k.corners++
	a, b := k.two()
	ops := []syntax.CmpOp{syntax.Lt, syntax.Le, syntax.Gt, syntax.Ge, syntax.Eq, syntax.Ne}
	op := func() syntax.CmpOp { return ops[k.r.Intn(len(ops))] }
	switch k.r.Intn(10) {
	case 6, 7: // a two-symbol divisor with an end at 0, or a modulus whose range excludes 0
		return k.divisorCorner()
	case 8: // a disequality on a nonlinear atom
		c := k.v()
		lo := int64(k.r.Intn(7) - 3)
		hi := lo + int64(1+k.r.Intn(4))
		kk := []int64{1, 2, -1, -3}[k.r.Intn(4)]
		end := lo
		if k.r.Intn(2) == 0 {
			end = hi
		}
		return atomNe(a, b, c, lo, hi, kk, end, op())
	case 9: // facts on two nonlinear-atom forms with the same coefficients
		vs := k.r.Perm(len(Vars))
		v := func(i int) *syntax.Var { return &syntax.Var{Name: Vars[vs[i]]} }
		k1, k2 := int64(1+k.r.Intn(3)), int64(1+k.r.Intn(3))
		c1 := int64(k.r.Intn(5) - 2)
		return atomForms(v(0), v(1), v(2), v(3), k1, k2, c1, op(), c1+int64(k.r.Intn(3)-1))
	case 0: // countdown with != at an end of the interval
		lo := int64(k.r.Intn(9) - 4)
		span := int64(1 + k.r.Intn(6))
		concrete := false
		if k.r.Intn(6) == 0 {
			span, k.long = int64(300+k.r.Intn(2700)), true
			// half of the long ones count down from a constant: the path condition stays small, so
			// the unpruned stream can be compared with the reference's beyond the queue's first
			// reclaim (1,024 states), where the symbolic countdown's conditions have outgrown the
			// stream comparison's term limit
			concrete = k.r.Intn(2) == 0
		}
		if k.r.Intn(3) == 0 { // the high end
			hi := lo + span
			return k.seq(interval(a, lo, hi),
				&syntax.If{Cond: cmp(syntax.Ne, a, num(hi)), Then: &syntax.Assert{Cond: cmp(op(), a, num(hi-int64(k.r.Intn(2))))}, Else: &syntax.Skip{}})
		}
		var init syntax.Stmt = interval(a, lo, lo+span)
		if concrete {
			init = &syntax.Assign{X: a, A: num(lo + span)}
		}
		return k.seq(init,
			&syntax.While{Cond: cmp(syntax.Ne, a, num(lo)), Body: &syntax.Assign{X: a, A: bin(syntax.Sub, a, num(1))}},
			&syntax.Assert{Cond: cmp(op(), a, num(lo+int64(k.r.Intn(3)-1)))})
	case 1: // a product of intervals that straddle zero
		al, ah := -int64(1+k.r.Intn(5)), int64(k.r.Intn(6))
		bl, bh := -int64(k.r.Intn(6)), int64(1+k.r.Intn(5))
		ends := []int64{al * bl, al * bh, ah * bl, ah * bh}
		c := ends[k.r.Intn(4)] + int64(k.r.Intn(3)-1)
		if k.r.Intn(3) == 0 { // half-bounded: a >= al (al < 0), b >= bl (the nonnegative rule must not fire)
			if k.r.Intn(2) == 0 { // b >= 0 or more: a rule for nonnegative factors must not fire either
				bl = int64(k.r.Intn(3))
				c = al*bl - 1 - int64(k.r.Intn(2))
				if bl == 0 {
					c = -1 - int64(k.r.Intn(2))
				}
			} else {
				c = al * bh
			}
			p := bin(syntax.Mul, a, b)
			if k.r.Intn(2) == 0 {
				p = bin(syntax.Mul, b, a)
			}
			return k.seq(&syntax.Assume{Cond: cmp(syntax.Ge, a, num(al))}, &syntax.Assume{Cond: cmp(syntax.Ge, b, num(bl))},
				k.branch(cmp(op(), p, num(c)), a, b))
		}
		return k.seq(interval(a, al, ah), interval(b, bl, bh), k.branch(cmp(op(), bin(syntax.Mul, a, b), num(c)), a, b))
	case 2: // a divisor or modulus whose range holds zero and negatives
		dl, dh := -int64(k.r.Intn(4)), int64(k.r.Intn(4))
		nl := int64(1 + k.r.Intn(8))
		nh := nl + int64(k.r.Intn(8))
		if k.r.Intn(3) == 0 {
			nl, nh = -nh, -nl
		}
		o := syntax.Div
		if k.r.Intn(2) == 0 {
			o = syntax.Mod
		}
		c := int64(k.r.Intn(int(nh-nl+3))) + nl - 1
		if k.r.Intn(2) == 0 {
			c = int64(k.r.Intn(5) - 2)
		}
		return k.seq(interval(a, nl, nh), interval(b, dl, dh), k.branch(cmp(op(), bin(o, a, b), num(c)), a, b))
	case 3: // a fact on a two-variable linear form, then a multiple of the same form
		k1, k2 := integer.Of(int64(1+k.r.Intn(3))), integer.Of(int64(1+k.r.Intn(3)))
		if k.r.Intn(3) == 0 { // coefficients near 2^62 / 2^63
			base := new(big.Int).Lsh(big.NewInt(1), uint(62+k.r.Intn(2)))
			k1 = integer.FromBig(new(big.Int).Sub(base, big.NewInt(int64(k.r.Intn(3)))))
		}
		form := func(g int64) syntax.AExpr { // g * (k1*a - k2*b)
			gi := integer.Of(g)
			return bin(syntax.Sub, bin(syntax.Mul, numI(gi.Mul(k1)), a), bin(syntax.Mul, numI(gi.Mul(k2)), b))
		}
		c1 := int64(k.r.Intn(7) - 3)
		g := []int64{1, 2, -1, -2, 3}[k.r.Intn(5)]
		c2 := g*c1 + int64(k.r.Intn(5)-2)
		return k.seq(&syntax.Assume{Cond: cmp(op(), form(1), num(c1))}, k.branch(cmp(op(), form(g), num(c2)), a, b))
	case 4: // no solver-free rule decides a * b == K
		ks := []int64{7, 12, -15, 91}
		kk := ks[k.r.Intn(len(ks))]
		return k.seq(&syntax.Assume{Cond: cmp(syntax.Eq, bin(syntax.Mul, a, b), num(kk))},
			k.branch(cmp(op(), a, num(int64(k.r.Intn(7)-3))), a, b))
	}
	// != against a non-zero constant inside a bounded range
	lo := int64(k.r.Intn(11) - 5)
	hi := lo + int64(k.r.Intn(4))
	return k.seq(interval(a, lo, hi), &syntax.If{Cond: cmp(syntax.Ne, a, num(lo+int64(k.r.Intn(int(hi-lo+1))))),
		Then: k.branch(cmp(op(), a, num(hi)), a, b), Else: &syntax.Skip{}})
}

// divisorCorner draws a sum divisor with an end at 0, or a modulus whose range excludes 0.
func (k *cornerGen) divisorCorner() syntax.Stmt {
	vs := k.r.Perm(len(Vars))
	a, b, c := &syntax.Var{Name: Vars[vs[0]]}, &syntax.Var{Name: Vars[vs[1]]}, &syntax.Var{Name: Vars[vs[2]]}
	nl := int64(1 + k.r.Intn(6))
	nh := nl + int64(2+k.r.Intn(8))
	neg := k.r.Intn(3) == 0
	if neg {
		nl, nh = -nh, -nl
	}
	ops := []syntax.CmpOp{syntax.Lt, syntax.Le, syntax.Gt, syntax.Ge, syntax.Eq, syntax.Ne}
	op := ops[k.r.Intn(len(ops))]
	if k.r.Intn(2) == 0 { // a % b, b in [dl, dh] without 0
		dl := int64(1 + k.r.Intn(3))
		dh := dl + int64(1+k.r.Intn(4))
		if k.r.Intn(2) == 0 {
			dl, dh = -dh, -dl
		}
		m := max64(abs64(dl), abs64(dh))
		kk := min64(abs64(dl), abs64(dh)) + int64(k.r.Intn(int(m-min64(abs64(dl), abs64(dh))))) // in [min|d|, max|d|)
		if neg {
			kk = -kk
		}
		return modNoZero(a, b, nl, nh, dl, dh, op, kk)
	}
	// a / (b + c) or a % (b + c), b + c in [0, bh+ch] or [-(bh+ch), 0]
	bh, ch := int64(1+k.r.Intn(3)), int64(k.r.Intn(2))
	down := k.r.Intn(2) == 0
	o := syntax.Div
	if k.r.Intn(3) == 0 {
		o = syntax.Mod
	}
	m := bh + ch
	var kk int64
	switch {
	case o == syntax.Mod:
		kk = int64(k.r.Intn(int(m + 1)))
	default: // |kk| between the corners' extreme |x| / m and the true one, |x| / 1
		big := max64(abs64(nl), abs64(nh))
		kk = big/m + int64(k.r.Intn(int(big-big/m+1)))
		if neg != down { // the quotient's sign
			kk = -kk
		}
	}
	return sumDivisor(a, b, c, nl, nh, bh, ch, down, o, op, kk)
}

func abs64(x int64) int64 {
	if x < 0 {
		return -x
	}
	return x
}

func max64(x, y int64) int64 {
	if x > y {
		return x
	}
	return y
}

func min64(x, y int64) int64 {
	if x < y {
		return x
	}
	return y
}

// halfProduct is assume a >= al; assume b >= bl; if p OP c then fail fi, p = a * b or b * a: a
// product with a factor bounded only below, compared against c.
func halfProduct(a, b *syntax.Var, al, bl int64, swap bool, op syntax.CmpOp, c int64) syntax.Stmt {
	p := bin(syntax.Mul, a, b)
	if swap {
		p = bin(syntax.Mul, b, a)
	}
	return appendSeq(appendSeq(&syntax.Assume{Cond: cmp(syntax.Ge, a, num(al))}, &syntax.Assume{Cond: cmp(syntax.Ge, b, num(bl))}),
		&syntax.If{Cond: cmp(op, p, num(c)), Then: &syntax.Fail{}, Else: &syntax.Skip{}})
}

// sumDivisor is a in [nl, nh], b in [0, bh], c in [0, ch] (or b in [-bh, 0], c in [-ch, 0] when
// down), then if a o (b + c) OP kk then fail fi: the divisor b + c ranges over an interval with an
// end at 0 that the definedness conjunct b + c != 0 does not shave (it is a fact on a form of two
// symbols, not on a symbol).
func sumDivisor(a, b, c *syntax.Var, nl, nh, bh, ch int64, down bool, o syntax.AOp, op syntax.CmpOp, kk int64) syntax.Stmt {
	bi, ci := interval(b, 0, bh), interval(c, 0, ch)
	if down {
		bi, ci = interval(b, -bh, 0), interval(c, -ch, 0)
	}
	return appendSeq(appendSeq(appendSeq(interval(a, nl, nh), bi), ci),
		&syntax.If{Cond: cmp(op, bin(o, a, bin(syntax.Add, b, c)), num(kk)), Then: &syntax.Fail{}, Else: &syntax.Skip{}})
}

// modNoZero is a in [nl, nh], b in [dl, dh] (0 outside), then if a % b OP kk then fail fi.
func modNoZero(a, b *syntax.Var, nl, nh, dl, dh int64, op syntax.CmpOp, kk int64) syntax.Stmt {
	return appendSeq(appendSeq(interval(a, nl, nh), interval(b, dl, dh)),
		&syntax.If{Cond: cmp(op, bin(syntax.Mod, a, b), num(kk)), Then: &syntax.Fail{}, Else: &syntax.Skip{}})
}

// atomNe is a in [lo, hi], then if kk*(b*c) + (-kk*end) != 0 then (if a OP end then fail fi) fi:
// the disequality is on the nonlinear atom b*c, and -c0/kk is the end end of a's interval.
func atomNe(a, b, c *syntax.Var, lo, hi, kk, end int64, op syntax.CmpOp) syntax.Stmt {
	lhs := bin(syntax.Add, bin(syntax.Mul, num(kk), bin(syntax.Mul, b, c)), num(-kk*end))
	inner := &syntax.If{Cond: cmp(op, a, num(end)), Then: &syntax.Fail{}, Else: &syntax.Skip{}}
	return appendSeq(interval(a, lo, hi), &syntax.If{Cond: cmp(syntax.Ne, lhs, num(0)), Then: inner, Else: &syntax.Skip{}})
}

// atomForms is assume k1*(a*b) - k2*(c*d) >= c1; if k1*(a*c) - k2*(b*d) OP c2 then fail fi: two
// linear forms over different nonlinear atoms with the same coefficients.
func atomForms(a, b, c, d *syntax.Var, k1, k2, c1 int64, op syntax.CmpOp, c2 int64) syntax.Stmt {
	form := func(p, q, r, s *syntax.Var) syntax.AExpr {
		return bin(syntax.Sub, bin(syntax.Mul, num(k1), bin(syntax.Mul, p, q)), bin(syntax.Mul, num(k2), bin(syntax.Mul, r, s)))
	}
	return appendSeq(&syntax.Assume{Cond: cmp(syntax.Ge, form(a, b, c, d), num(c1))},
		&syntax.If{Cond: cmp(op, form(a, c, b, d), num(c2)), Then: &syntax.Fail{}, Else: &syntax.Skip{}})
}

// A TargetedProgram is one fixed corner program: its name and its tree.
type TargetedProgram struct {
	Name string
	Tree syntax.Stmt
}

// Targeted are fixed programs of the corner shapes, with parameters where an unsound
// variant of an interval rule (a rule applied to a divisor range with an end at 0, to a factor
// that may be negative, or to a disequality on a nonlinear atom; a fact found for another form)
// decides a branch the reference takes: the reduced run checks them first. Each is a name and a
// tree; its variables are x, y, z, w in order of first use (x is the first symbol).
func Targeted() []TargetedProgram {
	x, y, z, w := &syntax.Var{Name: "x"}, &syntax.Var{Name: "y"}, &syntax.Var{Name: "z"}, &syntax.Var{Name: "w"}
	seq := func(ss ...syntax.Stmt) syntax.Stmt {
		out := ss[0]
		for _, s := range ss[1:] {
			out = appendSeq(out, s)
		}
		return out
	}
	return []TargetedProgram{
		// products with a factor bounded only below, possibly negative, in either operand order
		{"half-product", seq(halfProduct(x, y, -3, 0, false, syntax.Lt, -1), halfProduct(z, w, -2, 2, true, syntax.Lt, -5))},
		{"half-product-swapped", seq(halfProduct(x, y, -3, 0, true, syntax.Le, -2), halfProduct(z, w, -4, 1, false, syntax.Lt, -4))},
		// x / (y + z) with y + z in [0, 3] (or [-3, 0]): the corners say [0, 3] (or [0, 3] for a
		// negative x), the truth is [0, 9] (x / 1, x / -1)
		{"sum-divisor-div-up", sumDivisor(x, y, z, 3, 9, 2, 1, false, syntax.Div, syntax.Gt, 4)},
		{"sum-divisor-div-down", sumDivisor(x, y, z, -9, -3, 2, 1, true, syntax.Div, syntax.Ge, 5)},
		{"sum-divisor-div-up-neg", sumDivisor(x, y, z, -9, -3, 2, 1, false, syntax.Div, syntax.Le, -4)},
		{"sum-divisor-div-down-pos", sumDivisor(x, y, z, 3, 9, 2, 1, true, syntax.Div, syntax.Lt, -3)},
		// x % (y + z), the same ranges
		{"sum-divisor-mod-up", sumDivisor(x, y, z, 3, 9, 2, 1, false, syntax.Mod, syntax.Ge, 3)},
		{"sum-divisor-mod-down", sumDivisor(x, y, z, -9, -3, 2, 1, true, syntax.Mod, syntax.Le, -3)},
		// x % y with y in [2, 5] and [-5, -2]: |x % y| <= 4, not 1
		{"mod-no-zero", seq(modNoZero(x, y, 0, 20, 2, 5, syntax.Gt, 1), modNoZero(z, w, -20, 0, -5, -2, syntax.Lt, -1))},
		// y*z != 0 with x in [0, 4]: x == 0 stays possible; 2*(y*w) - 8 != 0 with x ... end 4
		{"atom-ne-low", atomNe(x, y, z, 0, 4, 1, 0, syntax.Eq)},
		{"atom-ne-high", atomNe(x, y, w, 1, 4, 2, 4, syntax.Ge)},
		{"atom-ne-neg", atomNe(x, z, w, -3, 2, -3, -3, syntax.Le)},
		// a product with a factor whose interval is one value (not a constant: the term keeps the
		// atom), k > 0 and k < 0: k*[lo, hi] keeps or swaps the ends
		{"point-factor", appendSeq(appendSeq(appendSeq(&syntax.Assume{Cond: cmp(syntax.Eq, y, num(3))}, interval(x, 0, 5)),
			&syntax.If{Cond: cmp(syntax.Eq, bin(syntax.Mul, x, y), num(3)), Then: &syntax.Fail{}, Else: &syntax.Skip{}}),
			appendSeq(appendSeq(&syntax.Assume{Cond: cmp(syntax.Eq, w, num(-2))}, &syntax.Assume{Cond: cmp(syntax.Ge, z, num(1))}),
				&syntax.If{Cond: cmp(syntax.Lt, bin(syntax.Mul, z, w), num(-2)), Then: &syntax.Fail{}, Else: &syntax.Skip{}}))},
		// facts on x*y - z*w and a branch on x*z - y*w (same coefficients, other atoms)
		{"atom-forms", atomForms(x, y, z, w, 1, 1, 1, syntax.Le, 0)},
		{"atom-forms-scaled", atomForms(x, y, z, w, 2, 3, 0, syntax.Lt, 0)},
	}
}

// --- macros ---------------------------------------------------------------------------------

// macroBody draws a body over pa (assignable), pb (read only) and the program's variables, with
// placeholders mnestJ = 0 for the calls of the earlier macro inner ("" for none); it returns the
// body with placeholders and, per placeholder, the call's text and its inlined tree.
func (k *cornerGen) macroBody(inner string, bodies map[string]syntax.Stmt) (syntax.Stmt, map[string]string, map[string]syntax.Stmt) {
	pa, pb := &syntax.Var{Name: "pa"}, &syntax.Var{Name: "pb"}
	var out []syntax.Stmt
	texts, trees := map[string]string{}, map[string]syntax.Stmt{}
	n := 1 + k.r.Intn(3)
	for i := 0; i < n; i++ {
		switch k.r.Intn(7) {
		case 0:
			out = append(out, &syntax.Assign{X: pa, A: bin(syntax.Add, pa, bin(syntax.Mul, pb, num(int64(k.r.Intn(5)-2))))})
		case 1:
			out = append(out, &syntax.Assign{X: pa, A: bin([]syntax.AOp{syntax.Div, syntax.Mod}[k.r.Intn(2)], pa, pb)})
		case 2:
			out = append(out, &syntax.If{Cond: cmp(syntax.Gt, pb, num(int64(k.r.Intn(5)-2))), Then: &syntax.Assign{X: pa, A: bin(syntax.Sub, pa, num(1))},
				Else: &syntax.Assign{X: k.v(), A: bin(syntax.Sub, pb, pa)}})
		case 3:
			out = append(out, &syntax.Assert{Cond: cmp(syntax.Ne, bin(syntax.Sub, pa, pb), num(int64(k.r.Intn(5)-2)))})
		case 4:
			out = append(out, &syntax.Assume{Cond: cmp(syntax.Ge, bin(syntax.Mul, pb, pb), num(int64(k.r.Intn(3))))})
		case 5:
			if inner != "" {
				ph := fmt.Sprintf("mnest%d", len(texts))
				arg := bin(syntax.Add, pb, num(int64(k.r.Intn(3))))
				texts[ph] = inner + "(pa, " + syntax.PrintA(arg) + ")"
				trees[ph] = inline(bodies[inner], "pa", arg, nil)
				out = append(out, &syntax.Assign{X: &syntax.Var{Name: ph}, A: num(0)})
				break
			}
			fallthrough
		default:
			out = append(out, &syntax.Assign{X: k.v(), A: bin(syntax.Sub, pb, bin(syntax.Mul, pa, num(2)))})
		}
	}
	return k.seq(out...), texts, trees
}

// placeholder is the statement that stands for a macro call until the text is printed.
func placeholder(i int) syntax.Stmt {
	return &syntax.Assign{X: &syntax.Var{Name: fmt.Sprintf("mcall%d", i)}, A: num(0)}
}

// inline is the generator's own inlining: the body with pa replaced by the variable va and pb by
// the expression eb (copied at each use), placeholders replaced by their inlined calls.
func inline(s syntax.Stmt, va string, eb syntax.AExpr, calls map[string]syntax.Stmt) syntax.Stmt {
	var a func(e syntax.AExpr) syntax.AExpr
	a = func(e syntax.AExpr) syntax.AExpr {
		switch e := e.(type) {
		case *syntax.Var:
			switch e.Name {
			case "pa":
				return &syntax.Var{Name: va}
			case "pb":
				return copyA(eb)
			}
			return &syntax.Var{Name: e.Name}
		case *syntax.Num:
			return &syntax.Num{Val: e.Val}
		case *syntax.Neg:
			return &syntax.Neg{X: a(e.X)}
		case *syntax.BinA:
			return &syntax.BinA{Op: e.Op, L: a(e.L), R: a(e.R)}
		case *syntax.Elem:
			return &syntax.Elem{Arr: e.Arr, I: a(e.I)}
		case *syntax.BoundRef:
			return &syntax.BoundRef{Name: e.Name, Level: e.Level}
		default:
			panic(fmt.Sprintf("inline: %T", e))
		}
	}
	var b func(e syntax.BExpr) syntax.BExpr
	b = func(e syntax.BExpr) syntax.BExpr {
		switch e := e.(type) {
		case *syntax.BoolLit:
			return &syntax.BoolLit{Val: e.Val}
		case *syntax.Cmp:
			return &syntax.Cmp{Op: e.Op, L: a(e.L), R: a(e.R)}
		case *syntax.Not:
			return &syntax.Not{X: b(e.X)}
		case *syntax.BinB:
			return &syntax.BinB{Op: e.Op, L: b(e.L), R: b(e.R)}
		case *syntax.Quant:
			return &syntax.Quant{Exists: e.Exists, Name: e.Name, Level: e.Level, Lo: a(e.Lo), Hi: a(e.Hi), Body: b(e.Body)}
		default:
			panic(fmt.Sprintf("inline: %T", e))
		}
	}
	switch s := s.(type) {
	case *syntax.Seq:
		return &syntax.Seq{First: inline(s.First, va, eb, calls), Second: inline(s.Second, va, eb, calls)}
	case *syntax.Skip:
		return &syntax.Skip{}
	case *syntax.Fail:
		return &syntax.Fail{}
	case *syntax.Assign:
		if c, ok := calls[s.X.Name]; ok {
			return inline(c, va, eb, calls)
		}
		return &syntax.Assign{X: a(s.X).(*syntax.Var), A: a(s.A)}
	case *syntax.If:
		return &syntax.If{Cond: b(s.Cond), Then: inline(s.Then, va, eb, calls), Else: inline(s.Else, va, eb, calls)}
	case *syntax.While:
		w := &syntax.While{Cond: b(s.Cond)}
		for _, inv := range s.Invariants {
			w.Invariants = append(w.Invariants, &syntax.Assert{Cond: b(inv.Cond)})
		}
		w.Body = inline(s.Body, va, eb, calls)
		return w
	case *syntax.Assume:
		return &syntax.Assume{Cond: b(s.Cond)}
	case *syntax.Assert:
		return &syntax.Assert{Cond: b(s.Cond)}
	case *syntax.ArrAssign:
		return &syntax.ArrAssign{Arr: s.Arr, I: a(s.I), A: a(s.A)}
	default:
		panic(fmt.Sprintf("inline: %T", s))
	}
}

// steer applies the corner snippets and macros to a generated body: it returns the tree the
// reference runs, the text the engine parses, and whether the program wants a large budget.
func steer(seed int64, body syntax.Stmt, wrap func(syntax.Stmt) syntax.Stmt) (syntax.Stmt, string, bool, int) {
	k := &cornerGen{r: rand.New(rand.NewSource(seed*7919 + 17))}
	switch r := k.r.Intn(20); {
	case r < 5: // corner snippets only
		n := 1 + k.r.Intn(3)
		var ss []syntax.Stmt
		for i := 0; i < n; i++ {
			ss = append(ss, k.corner())
		}
		body = k.seq(ss...)
	case r < 11: // corner snippets around the random statements
		if k.r.Intn(2) == 0 {
			body = k.seq(k.corner(), body)
		} else {
			body = k.seq(body, k.corner())
		}
	}
	if wrap != nil { // the array snippets (arrays.go), after the corners, before the macros
		body = wrap(body)
	}
	if k.r.Intn(10) >= 3 {
		return body, syntax.Print(body), k.long, k.corners
	}
	// Macros: m0(pa, pb), and sometimes m1(pa, pb) calling m0.
	bodies := map[string]syntax.Stmt{}
	var defs []string
	mk := func(name string, inner string) {
		b, texts, trees := k.macroBody(inner, bodies)
		bodies[name] = inline(b, "pa", &syntax.Var{Name: "pb"}, trees)
		text := syntax.Print(b)
		for ph, t := range texts {
			text = strings.Replace(text, ph+" = 0", t, 1)
		}
		defs = append(defs, "macro "+name+"(pa, pb) begin\n"+indentText(text)+"end\n")
	}
	mk("m0", "")
	names := []string{"m0"}
	if k.r.Intn(2) == 0 {
		mk("m1", "m0")
		names = append(names, "m1")
	}
	// Calls at the top level: placeholders in the printed text, inlined bodies in the tree.
	n := 1 + k.r.Intn(3)
	calls := map[string]syntax.Stmt{}
	callText := map[string]string{}
	withHoles := body
	for i := 0; i < n; i++ {
		m := names[k.r.Intn(len(names))]
		va := Vars[k.r.Intn(len(Vars))]
		var eb syntax.AExpr = k.v()
		switch k.r.Intn(3) {
		case 0:
			eb = bin(syntax.Add, k.v(), num(int64(k.r.Intn(5)-2)))
		case 1:
			eb = bin(syntax.Sub, k.v(), k.v())
		}
		ph := fmt.Sprintf("mcall%d", i)
		calls[ph] = inline(bodies[m], va, eb, nil)
		callText[ph] = fmt.Sprintf("%s(%s, %s)", m, va, syntax.PrintA(eb))
		if k.r.Intn(2) == 0 {
			withHoles = k.seq(placeholder(i), withHoles)
		} else {
			withHoles = k.seq(withHoles, placeholder(i))
		}
	}
	tree := inline(withHoles, "pa", &syntax.Var{Name: "pb"}, calls)
	text := syntax.Print(withHoles)
	for ph, t := range callText {
		text = strings.Replace(text, ph+" = 0", t, 1)
	}
	return tree, strings.Join(defs, "") + text, k.long, k.corners
}

// indentText indents every line of a printed block by two spaces.
func indentText(s string) string {
	var b strings.Builder
	for _, l := range strings.Split(strings.TrimRight(s, "\n"), "\n") {
		b.WriteString("  " + l + "\n")
	}
	return b.String()
}

// copyA copies an arithmetic expression.
func copyA(e syntax.AExpr) syntax.AExpr {
	switch e := e.(type) {
	case *syntax.Var:
		return &syntax.Var{Name: e.Name}
	case *syntax.Num:
		return &syntax.Num{Val: e.Val}
	case *syntax.Neg:
		return &syntax.Neg{X: copyA(e.X)}
	case *syntax.BinA:
		return &syntax.BinA{Op: e.Op, L: copyA(e.L), R: copyA(e.R)}
	default:
		panic(fmt.Sprintf("copyA: %T", e))
	}
}
