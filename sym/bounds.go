package sym

import (
	"certsym/internal/fault"
	"certsym/spec/integer"
)

// A bound is an interval of ℤ, each end possibly infinite.
type bound struct {
	lo, hi       integer.Int
	hasLo, hasHi bool
}

// String renders the interval as a condition on x.
func (b bound) String(x string) string {
	switch {
	case b.hasLo && b.hasHi && b.lo.Equal(b.hi):
		return x + " == " + b.lo.String()
	case b.hasLo && b.hasHi:
		return x + " >= " + b.lo.String() + " and " + x + " <= " + b.hi.String()
	case b.hasLo:
		return x + " >= " + b.lo.String()
	case b.hasHi:
		return x + " <= " + b.hi.String()
	}
	return "true"
}

func (b bound) empty() bool { return b.hasLo && b.hasHi && b.lo.Cmp(b.hi) > 0 }

// intersect returns b ∩ c.
func (b bound) intersect(c bound) bound {
	if c.hasLo && (!b.hasLo || c.lo.Cmp(b.lo) > 0) {
		b.lo, b.hasLo = c.lo, true
	}
	if c.hasHi && (!b.hasHi || c.hi.Cmp(b.hi) < 0) {
		b.hi, b.hasHi = c.hi, true
	}
	return b
}

// bounds are the interval facts a path condition implies for some symbols, sorted by symbol.
// They are immutable: refining makes a copy.
type bounds []symBound

type symBound struct {
	sym int
	b   bound
}

func (bs bounds) of(sym int) bound {
	for _, e := range bs {
		if e.sym == sym {
			return e.b
		}
	}
	return bound{}
}

func (bs bounds) with(sym int, b bound) bounds {
	out := make(bounds, 0, len(bs)+1)
	done := false
	for _, e := range bs {
		switch {
		case e.sym == sym:
			out = append(out, symBound{sym, b})
			done = true
		case e.sym > sym && !done:
			out = append(out, symBound{sym, b}, e)
			done = true
		default:
			out = append(out, e)
		}
	}
	if !done {
		out = append(out, symBound{sym, b})
	}
	return out
}

// rng is the range of t when each symbol ranges over its bound (interval arithmetic, through
// the nonlinear atoms too: atomRange).
func (bs bounds) rng(t *Term) bound { return bs.rngDepth(t, 0, false) }

// maxAtomDepth bounds how deep rng looks into nested nonlinear atoms (terms are DAGs: x = x * x
// repeated n times has 2^n paths).
const maxAtomDepth = 3

func (bs bounds) rngDepth(t *Term, depth int, abs bool) bound {
	r := bound{lo: t.c, hi: t.c, hasLo: true, hasHi: true}
	for _, m := range t.monos {
		if !r.hasLo && !r.hasHi {
			return r
		}
		var ab bound
		if m.a.Kind == AtomSym {
			ab = bs.of(m.a.Sym)
		} else if depth < maxAtomDepth && m.a.Kind <= AtomMod {
			// select atoms and bound variables are opaque: their range is all of ℤ
			ab = bs.atomRange(m.a, depth+1, abs)
		}
		lo, hi, hasLo, hasHi := ab.lo, ab.hi, ab.hasLo, ab.hasHi
		if m.k.Sign() < 0 {
			lo, hi, hasLo, hasHi = hi, lo, hasHi, hasLo
		}
		if r.hasLo {
			if hasLo {
				r.lo = r.lo.Add(m.k.Mul(lo))
			} else {
				r.hasLo = false
			}
		}
		if r.hasHi {
			if hasHi {
				r.hi = r.hi.Add(m.k.Mul(hi))
			} else {
				r.hasHi = false
			}
		}
	}
	return r
}

// point reports whether b is a single value, and returns it.
func (b bound) point() (integer.Int, bool) {
	return b.lo, b.hasLo && b.hasHi && b.lo.Equal(b.hi)
}

func (b bound) finite() bool { return b.hasLo && b.hasHi }

// atomRange is the range of a nonlinear atom when its operands range over their intervals: the
// value when both are single values, otherwise interval rules for the product, the truncating
// division (x / 0 = 0) and its remainder (x % 0 = x); all of ℤ when no rule applies. With abs
// (Solver.AbstractMul) a product's range is only what its sign axioms say (signRange).
func (bs bounds) atomRange(a *Atom, depth int, abs bool) bound {
	l, r := bs.rngDepth(a.L, depth, abs), bs.rngDepth(a.R, depth, abs)
	if abs && a.Kind == AtomMul {
		return signRange(l, r)
	}
	x, lp := l.point()
	y, rp := r.point()
	if lp && rp {
		v := (&Atom{Kind: a.Kind, L: Const(x), R: Const(y)}).Eval(nil)
		return bound{lo: v, hi: v, hasLo: true, hasHi: true}
	}
	switch a.Kind {
	case AtomMul:
		return mulRange(l, r)
	case AtomDiv:
		return divRange(l, r)
	}
	return modRange(l, r)
}

// corners is the smallest interval holding op(x, y) for x, y the ends of the finite l and r.
func corners(l, r bound, op func(x, y integer.Int) integer.Int) bound {
	out := bound{hasLo: true, hasHi: true}
	for i, v := range []integer.Int{op(l.lo, r.lo), op(l.lo, r.hi), op(l.hi, r.lo), op(l.hi, r.hi)} {
		if i == 0 || v.Cmp(out.lo) < 0 {
			out.lo = v
		}
		if i == 0 || v.Cmp(out.hi) > 0 {
			out.hi = v
		}
	}
	return out
}

// monotone is the range of f(x) for x in r, f nondecreasing (up) or nonincreasing (not up).
func monotone(r bound, f func(integer.Int) integer.Int, up bool) bound {
	if !up {
		r.lo, r.hi, r.hasLo, r.hasHi = r.hi, r.lo, r.hasHi, r.hasLo
	}
	out := bound{hasLo: r.hasLo, hasHi: r.hasHi}
	if r.hasLo {
		out.lo = f(r.lo)
	}
	if r.hasHi {
		out.hi = f(r.hi)
	}
	return out
}

// scaleRange is k·r.
func scaleRange(r bound, k integer.Int) bound {
	if k.IsZero() {
		return bound{hasLo: true, hasHi: true}
	}
	return monotone(r, k.Mul, k.Sign() > 0)
}

// mulRange is the range of x * y for x in l, y in r.
func mulRange(l, r bound) bound {
	if k, ok := l.point(); ok {
		return scaleRange(r, k)
	}
	if k, ok := r.point(); ok {
		return scaleRange(l, k)
	}
	if l.finite() && r.finite() {
		if fault.Active == fault.MulRangeStraddle {
			return bound{lo: l.lo.Mul(r.lo), hi: l.hi.Mul(r.hi), hasLo: true, hasHi: true}
		}
		return corners(l, r, integer.Int.Mul)
	}
	if l.hasLo && r.hasLo && l.lo.Sign() >= 0 && r.lo.Sign() >= 0 { // both nonnegative
		return bound{lo: l.lo.Mul(r.lo), hasLo: true}
	}
	return bound{}
}

// signRange is the range of l * r that the abstraction's sign axioms give (signAxioms): the
// sign from the operands' signs (l, r >= 0 give l * r >= 0, the axiom of xSymExe, Sections II-A
// and IV-B), nothing of the magnitude.
func signRange(l, r bound) bound {
	sl, sr, b := signs(l), signs(r), bound{}
	var can [3]bool // the product may be negative, zero, positive
	for x := range sl {
		for y := range sr {
			can[(x-1)*(y-1)+1] = can[(x-1)*(y-1)+1] || sl[x] && sr[y]
		}
	}
	if !can[0] {
		b.lo, b.hasLo = integer.Int{}, true
		if !can[1] {
			b.lo = one
		}
	}
	if !can[2] {
		b.hi, b.hasHi = integer.Int{}, true
		if !can[1] {
			b.hi = minusOne
		}
	}
	return b
}

// signs says which signs the values in b may have: negative, zero, positive.
func signs(b bound) [3]bool {
	return [3]bool{!b.hasLo || b.lo.Sign() < 0, (!b.hasLo || b.lo.Sign() <= 0) && (!b.hasHi || b.hi.Sign() >= 0), !b.hasHi || b.hi.Sign() > 0}
}

// divRange is the range of the truncating x / y (x / 0 = 0) for x in l, y in r.
func divRange(l, r bound) bound {
	if k, ok := r.point(); ok {
		if k.IsZero() {
			return bound{hasLo: true, hasHi: true} // x / 0 = 0
		}
		// x / k is nondecreasing in x for k > 0, nonincreasing for k < 0
		return monotone(l, func(x integer.Int) integer.Int { return x.Quo(k) }, k.Sign() > 0)
	}
	if l.finite() && r.finite() && (r.lo.Sign() > 0 || r.hi.Sign() < 0) {
		return corners(l, r, integer.Int.Quo) // monotone in each operand while y keeps its sign
	}
	if l.finite() { // |x / y| <= |x|, and x / 0 = 0
		m := absInt(l.lo)
		if h := absInt(l.hi); h.Cmp(m) > 0 {
			m = h
		}
		return bound{lo: m.Neg(), hi: m, hasLo: true, hasHi: true}
	}
	return bound{}
}

// modRange is the range of the truncating x % y (x % 0 = x) for x in l, y in r.
func modRange(l, r bound) bound {
	// x % y has the sign of x and |x % y| <= |x| (x % 0 = x): the hull of l and 0.
	out := bound{hasLo: l.hasLo, hasHi: l.hasHi, lo: l.lo, hi: l.hi}
	if out.hasLo && out.lo.Sign() > 0 && fault.Active != fault.ModRangeSign {
		out.lo = integer.Int{}
	}
	if out.hasHi && out.hi.Sign() < 0 {
		out.hi = integer.Int{}
	}
	if r.finite() && (r.lo.Sign() > 0 || r.hi.Sign() < 0) { // |x % y| < max |y|
		m := absInt(r.lo)
		if h := absInt(r.hi); h.Cmp(m) > 0 {
			m = h
		}
		out = out.intersect(bound{lo: m.Sub(one).Neg(), hi: m.Sub(one), hasLo: true, hasHi: true})
	}
	return out
}

// truth is a three-valued truth value.
type truth int8

const (
	unknownT truth = iota
	trueT
	falseT
)

// decide says whether the bounds and the linear facts imply f (trueT), contradict it (falseT),
// or neither; abs: products are abstracted (Solver.AbstractMul), seen by their signs only.
func (bs bounds) decide(f *Formula, lin *linFact, abs bool) truth {
	switch f.Op {
	case FTrue:
		return trueT
	case FFalse:
		return falseT
	case FGe:
		r := bs.rngDepth(f.T, 0, abs).intersect(lin.rangeOf(f.T))
		switch {
		case r.hasLo && r.lo.Sign() >= 0:
			return trueT
		case r.hasHi && r.hi.Sign() < 0:
			return falseT
		}
		return unknownT
	case FEq, FNe:
		t := bs.decideEq(f.T, lin, abs)
		if f.Op == FNe && t != unknownT {
			t = trueT + falseT - t
		}
		return t
	case FForall, FExists:
		// the bounds know nothing of a bound variable: a quantified formula is left to the solver
		return unknownT
	case FAnd:
		res := trueT
		for _, g := range f.Args {
			switch bs.decide(g, lin, abs) {
			case falseT:
				return falseT
			case unknownT:
				res = unknownT
			}
		}
		return res
	}
	res := falseT
	for _, g := range f.Args {
		switch bs.decide(g, lin, abs) {
		case trueT:
			return trueT
		case unknownT:
			res = unknownT
		}
	}
	return res
}

func (bs bounds) decideEq(t *Term, lin *linFact, abs bool) truth {
	if len(t.monos) == 1 && t.monos[0].a.Kind == AtomSym && !t.c.Rem(t.monos[0].k).IsZero() {
		return falseT // k*x + c == 0 has no integer solution when k does not divide c
	}
	if g, ok := linForm(t); ok && !t.c.Rem(g).IsZero() {
		return falseT // g·F + c == 0 likewise
	}
	r := bs.rngDepth(t, 0, abs).intersect(lin.rangeOf(t))
	switch {
	case r.hasLo && r.hasHi && r.lo.IsZero() && r.hi.IsZero():
		return trueT
	case (r.hasLo && r.lo.Sign() > 0) || (r.hasHi && r.hi.Sign() < 0):
		return falseT
	}
	return unknownT
}

// asBound recognizes an atomic formula on one symbol, k*x + c >= 0 or k*x + c == 0, and returns
// the interval of x it states exactly.
func asBound(f *Formula) (sym int, b bound, ok bool) {
	if (f.Op != FGe && f.Op != FEq) || len(f.T.monos) != 1 || f.T.monos[0].a.Kind != AtomSym {
		return 0, bound{}, false
	}
	k, c, sym := f.T.monos[0].k, f.T.c, f.T.monos[0].a.Sym
	if f.Op == FEq { // x = -c/k, divisibility checked by decide
		v := c.Neg().Quo(k)
		return sym, bound{lo: v, hi: v, hasLo: true, hasHi: true}, true
	}
	if k.Sign() > 0 { // x >= ceil(-c/k)
		return sym, bound{lo: ceilDiv(c.Neg(), k), hasLo: true}, true
	}
	// k < 0: x <= floor(c/-k)
	return sym, bound{hi: floorDiv(c, k.Neg()), hasHi: true}, true
}

// asNe recognizes the disequality k*x + c != 0 on one symbol x: the value v = -c/k it excludes,
// and integral false when k does not divide c (no integer x is excluded).
func asNe(f *Formula) (sym int, v integer.Int, integral, ok bool) {
	if f.Op != FNe || len(f.T.monos) != 1 || f.T.monos[0].a.Kind != AtomSym {
		return 0, v, false, false
	}
	k, c := f.T.monos[0].k, f.T.c
	if !c.Rem(k).IsZero() {
		return f.T.monos[0].a.Sym, v, false, true
	}
	return f.T.monos[0].a.Sym, c.Neg().Quo(k), true, true
}

// shaved recognizes x != v where v is an end of x's interval, and returns the interval without
// that end: then φ ∧ f states exactly the bounds (a countdown loop's n != 0 after n >= 0 is
// n >= 1).
func (bs bounds) shaved(f *Formula) (sym int, b bound, ok bool) {
	sym, v, integral, ok := asNe(f)
	if !ok || !integral {
		return 0, bound{}, false
	}
	if cur := bs.of(sym); (cur.hasLo && cur.lo.Equal(v)) || (cur.hasHi && cur.hi.Equal(v)) {
		if fault.Active == fault.ShaveWrongEnd && cur.hasLo && cur.lo.Equal(v) && cur.hasHi {
			cur.hi = cur.hi.Sub(one)
			return sym, cur, true
		}
		return sym, cur.shave([]integer.Int{v}), true
	}
	return 0, bound{}, false
}

// excludes reports whether f is x != v with v outside x's interval (implied by it).
func (bs bounds) excludes(f *Formula) bool {
	sym, v, integral, ok := asNe(f)
	if !ok {
		return false
	}
	if !integral {
		return true // no integer x makes it 0
	}
	b := bs.of(sym)
	return (b.hasLo && v.Cmp(b.lo) < 0) || (b.hasHi && v.Cmp(b.hi) > 0)
}

// floorDiv is ⌊a/b⌋ for b > 0.
func floorDiv(a, b integer.Int) integer.Int {
	q := a.Quo(b)
	if a.Rem(b).Sign() < 0 {
		q = q.Sub(one)
	}
	return q
}

// ceilDiv is ⌈a/b⌉ for b > 0.
func ceilDiv(a, b integer.Int) integer.Int {
	q := a.Quo(b)
	if a.Rem(b).Sign() > 0 {
		q = q.Add(one)
	}
	return q
}

// clamp returns a valuation that agrees with v except that each bounded symbol is moved into its
// interval (v may be nil: all zeros).
func (bs bounds) clamp(v []integer.Int, n int) []integer.Int {
	w := make([]integer.Int, n)
	copy(w, v)
	for _, e := range bs {
		if e.b.hasLo && w[e.sym].Cmp(e.b.lo) < 0 {
			w[e.sym] = e.b.lo
		}
		if e.b.hasHi && w[e.sym].Cmp(e.b.hi) > 0 {
			w[e.sym] = e.b.hi
		}
	}
	return w
}
