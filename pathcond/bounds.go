package pathcond

import (
	"certsym/internal/fault"
	"certsym/spec/integer"
	"certsym/sym"
)

var one, minusOne = integer.Of(1), integer.Of(-1)

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

// bounds are the interval facts a path condition implies for some symbols, at most one interval
// per symbol. They are immutable and shared between a path condition and its descendants: a
// sorted slice of intervals (base), shared by many path conditions, and the refinements made
// since, newest first, in a short chain (at most maxEdits, so that a lookup stays cheap; the next
// refinement folds them into a new base). So a refinement costs one small object most of the time
// rather than a copy of every interval, which the wide trees of many independent conditions made
// the bulk of a run's allocations.
type bounds struct {
	base  []symBound // sorted by symbol, never written
	edits *boundEdit // the refinements since base, newest first
}

type symBound struct {
	sym int
	b   bound
}

// boundEdit is a refinement of bounds: the symbol's interval, and the older ones.
type boundEdit struct {
	e    symBound
	next *boundEdit
	n    int // the edits from this one to base
}

// maxEdits is the longest chain of refinements before they are folded into a new base.
const maxEdits = 8

// of returns the interval of symbol x (unbounded when the bounds say nothing of x).
func (bs bounds) of(x int) bound {
	for d := bs.edits; d != nil; d = d.next {
		if d.e.sym == x {
			return d.e.b
		}
	}
	base := bs.base
	lo, hi := 0, len(base)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if base[m].sym < x {
			lo = m + 1
		} else {
			hi = m
		}
	}
	if lo < len(base) && base[lo].sym == x {
		return base[lo].b
	}
	return bound{}
}

// with returns the bounds with the interval of x replaced by b.
func (bs bounds) with(x int, b bound) bounds {
	n := 1
	if bs.edits != nil {
		n = bs.edits.n + 1
	}
	if n <= maxEdits {
		return bounds{base: bs.base, edits: &boundEdit{e: symBound{x, b}, next: bs.edits, n: n}}
	}
	next := bounds{base: bs.base, edits: &boundEdit{e: symBound{x, b}, next: bs.edits}}
	out := make([]symBound, 0, len(bs.base)+maxEdits+1)
	next.each(func(e symBound) { out = append(out, e) })
	return bounds{base: out}
}

// each calls fn with the interval of each bounded symbol, in symbol order.
func (bs bounds) each(fn func(symBound)) {
	if bs.edits == nil {
		for _, e := range bs.base {
			fn(e)
		}
		return
	}
	// the newest refinement of each symbol, sorted by symbol (insertion sort: a handful)
	var buf [maxEdits + 1]symBound
	k := 0
outer:
	for d := bs.edits; d != nil; d = d.next {
		for i := 0; i < k; i++ {
			if buf[i].sym == d.e.sym {
				continue outer
			}
		}
		i := k
		for ; i > 0 && buf[i-1].sym > d.e.sym; i-- {
			buf[i] = buf[i-1]
		}
		buf[i] = d.e
		k++
	}
	j := 0
	for _, e := range bs.base {
		for j < k && buf[j].sym < e.sym {
			fn(buf[j])
			j++
		}
		if j < k && buf[j].sym == e.sym {
			fn(buf[j])
			j++
			continue
		}
		fn(e)
	}
	for ; j < k; j++ {
		fn(buf[j])
	}
}

// rng is the range of t when each symbol ranges over its bound (interval arithmetic, through
// the nonlinear atoms too: atomRange).
func (bs bounds) rng(t *sym.Term) bound { return bs.rngDepth(t, 0, false) }

// maxAtomDepth bounds how deep rng looks into nested nonlinear atoms (terms are DAGs: x = x * x
// repeated n times has 2^n paths).
const maxAtomDepth = 3

func (bs bounds) rngDepth(t *sym.Term, depth int, abs bool) bound {
	c := t.Const()
	r := bound{lo: c, hi: c, hasLo: true, hasHi: true}
	for i, n := 0, t.Monos(); i < n; i++ {
		if !r.hasLo && !r.hasHi {
			return r
		}
		k, a := t.Mono(i)
		var ab bound
		if a.Kind == sym.AtomSym {
			ab = bs.of(a.Sym)
		} else if depth < maxAtomDepth && a.Kind <= sym.AtomMod {
			// select atoms and bound variables are opaque: their range is all of ℤ
			ab = bs.atomRange(a, depth+1, abs)
		} else if depth < maxAtomDepth && a.Kind == sym.AtomIte {
			ab = bs.iteRange(a, depth+1, abs) // the hull of its branches (ite.go)
		}
		lo, hi, hasLo, hasHi := ab.lo, ab.hi, ab.hasLo, ab.hasHi
		if k.Sign() < 0 {
			lo, hi, hasLo, hasHi = hi, lo, hasHi, hasLo
		}
		if r.hasLo {
			if hasLo {
				r.lo = r.lo.Add(k.Mul(lo))
			} else {
				r.hasLo = false
			}
		}
		if r.hasHi {
			if hasHi {
				r.hi = r.hi.Add(k.Mul(hi))
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
// (Deciders.AbstractMul, the solver's abstraction) a product's range is only what its sign axioms say (signRange).
func (bs bounds) atomRange(a *sym.Atom, depth int, abs bool) bound {
	l, r := bs.rngDepth(a.L, depth, abs), bs.rngDepth(a.R, depth, abs)
	if abs && a.Kind == sym.AtomMul {
		return signRange(l, r)
	}
	x, lp := l.point()
	y, rp := r.point()
	if lp && rp {
		v := (&sym.Atom{Kind: a.Kind, L: sym.Const(x), R: sym.Const(y)}).Eval(nil)
		return bound{lo: v, hi: v, hasLo: true, hasHi: true}
	}
	switch a.Kind {
	case sym.AtomMul:
		return mulRange(l, r)
	case sym.AtomDiv:
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
// or neither; abs: products are abstracted (Deciders.AbstractMul), seen by their signs only.
func (bs bounds) decide(f *sym.Formula, lin *linFact, abs bool) truth {
	switch f.Op {
	case sym.FTrue:
		return trueT
	case sym.FFalse:
		return falseT
	case sym.FGe:
		r := bs.rngDepth(f.T, 0, abs).intersect(lin.rangeOf(f.T))
		switch {
		case r.hasLo && r.lo.Sign() >= 0:
			return trueT
		case r.hasHi && r.hi.Sign() < 0:
			return falseT
		}
		return unknownT
	case sym.FEq, sym.FNe:
		t := bs.decideEq(f.T, lin, abs)
		if f.Op == sym.FNe && t != unknownT {
			t = trueT + falseT - t
		}
		return t
	case sym.FForall, sym.FExists:
		// the bounds know nothing of a bound variable: a quantified formula is left to the solver
		return unknownT
	case sym.FAnd:
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

func (bs bounds) decideEq(t *sym.Term, lin *linFact, abs bool) truth {
	if oneSym(t) {
		if k, _ := t.Mono(0); !t.Const().Rem(k).IsZero() {
			return falseT // k*x + c == 0 has no integer solution when k does not divide c
		}
	}
	if g, ok := linForm(t); ok && !t.Const().Rem(g).IsZero() {
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
func asBound(f *sym.Formula) (x int, b bound, ok bool) {
	if (f.Op != sym.FGe && f.Op != sym.FEq) || !oneSym(f.T) {
		return 0, bound{}, false
	}
	k, a := f.T.Mono(0)
	c, x := f.T.Const(), a.Sym
	if f.Op == sym.FEq { // x = -c/k, divisibility checked by decide
		v := c.Neg().Quo(k)
		return x, bound{lo: v, hi: v, hasLo: true, hasHi: true}, true
	}
	if k.Sign() > 0 { // x >= ceil(-c/k)
		return x, bound{lo: CeilDiv(c.Neg(), k), hasLo: true}, true
	}
	// k < 0: x <= floor(c/-k)
	return x, bound{hi: FloorDiv(c, k.Neg()), hasHi: true}, true
}

// oneSym reports whether t is k*x + c for one symbol x.
func oneSym(t *sym.Term) bool {
	if t.Monos() != 1 {
		return false
	}
	_, a := t.Mono(0)
	return a.Kind == sym.AtomSym
}

// asNe recognizes the disequality k*x + c != 0 on one symbol x: the value v = -c/k it excludes,
// and integral false when k does not divide c (no integer x is excluded).
func asNe(f *sym.Formula) (x int, v integer.Int, integral, ok bool) {
	if f.Op != sym.FNe || !oneSym(f.T) {
		return 0, v, false, false
	}
	k, a := f.T.Mono(0)
	c := f.T.Const()
	if !c.Rem(k).IsZero() {
		return a.Sym, v, false, true
	}
	return a.Sym, c.Neg().Quo(k), true, true
}

// shaved recognizes x != v where v is an end of x's interval, and returns the interval without
// that end: then φ ∧ f states exactly the bounds (a countdown loop's n != 0 after n >= 0 is
// n >= 1).
func (bs bounds) shaved(f *sym.Formula) (x int, b bound, ok bool) {
	x, v, integral, ok := asNe(f)
	if !ok || !integral {
		return 0, bound{}, false
	}
	if cur := bs.of(x); (cur.hasLo && cur.lo.Equal(v)) || (cur.hasHi && cur.hi.Equal(v)) {
		if fault.Active == fault.ShaveWrongEnd && cur.hasLo && cur.lo.Equal(v) && cur.hasHi {
			cur.hi = cur.hi.Sub(one)
			return x, cur, true
		}
		return x, cur.shave([]integer.Int{v}), true
	}
	return 0, bound{}, false
}

// excludes reports whether f is x != v with v outside x's interval (implied by it).
func (bs bounds) excludes(f *sym.Formula) bool {
	x, v, integral, ok := asNe(f)
	if !ok {
		return false
	}
	if !integral {
		return true // no integer x makes it 0
	}
	b := bs.of(x)
	return (b.hasLo && v.Cmp(b.lo) < 0) || (b.hasHi && v.Cmp(b.hi) > 0)
}

// FloorDiv is ⌊a/b⌋ for b > 0 (also the solver's, for its model repair).
func FloorDiv(a, b integer.Int) integer.Int {
	q := a.Quo(b)
	if a.Rem(b).Sign() < 0 {
		q = q.Sub(one)
	}
	return q
}

// CeilDiv is ⌈a/b⌉ for b > 0 (also the solver's, for its model repair).
func CeilDiv(a, b integer.Int) integer.Int {
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
	bs.each(func(e symBound) {
		if e.b.hasLo && w[e.sym].Cmp(e.b.lo) < 0 {
			w[e.sym] = e.b.lo
		}
		if e.b.hasHi && w[e.sym].Cmp(e.b.hi) > 0 {
			w[e.sym] = e.b.hi
		}
	})
	return w
}
