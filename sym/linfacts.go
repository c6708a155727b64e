package sym

import (
	"certsym/internal/fault"
	"certsym/spec/integer"
)

// Interval facts on linear forms of two or more symbols. A path condition that states
// b - 2*a >= 1 knows the interval [1, ∞) of the form b - 2*a, so a later conjunct on the same form
// (2*a - b == 0, or 2*b - 4*a >= 1) is decided without the solver, as the bounds decide
// conjuncts on one symbol. Loops that update several variables together make such conjuncts at
// every iteration (Euclid's algorithm compares b - k*a with a again and again).

// linFact is the interval known for one linear form, k1*x1 + ... + kn*xn with n >= 2, coprime
// coefficients and k1 > 0. Facts make a persistent list: a path condition points at the newest
// fact of its path, and each fact holds the whole interval known for its form at that point.
type linFact struct {
	form []mono // symbols only, in term order
	b    bound
	ne   []integer.Int // values the form is known to differ from (inside b)
	next *linFact
}

// linForm returns g such that t = g·F + c for the form F of t, when t is linear in two or more
// symbols; ok is false otherwise.
func linForm(t *Term) (g integer.Int, ok bool) {
	if len(t.monos) < 2 {
		return g, false
	}
	for _, m := range t.monos {
		if m.a.Kind != AtomSym {
			return g, false
		}
	}
	g = absInt(t.monos[0].k)
	for _, m := range t.monos[1:] {
		g = gcdInt(g, absInt(m.k))
	}
	if t.monos[0].k.Sign() < 0 {
		g = g.Neg()
	}
	return g, true
}

func absInt(x integer.Int) integer.Int {
	if x.Sign() < 0 {
		return x.Neg()
	}
	return x
}

// gcdInt is the greatest common divisor of a, b >= 0, not both 0.
func gcdInt(a, b integer.Int) integer.Int {
	for !b.IsZero() {
		a, b = b, a.Rem(b)
	}
	return a
}

// find returns the newest fact on the form of t = g·F + c, or nil.
func (l *linFact) find(t *Term, g integer.Int) *linFact {
	for ; l != nil; l = l.next {
		if len(l.form) != len(t.monos) {
			continue
		}
		same := true
		for i, m := range l.form {
			if m.a.Sym != t.monos[i].a.Sym || !m.k.Mul(g).Equal(t.monos[i].k) {
				same = false
				break
			}
		}
		if same {
			return l
		}
	}
	return nil
}

// rangeOf is the range of t that the facts give (all of ℤ when they know nothing of its form).
func (l *linFact) rangeOf(t *Term) bound {
	if l == nil {
		return bound{}
	}
	g, ok := linForm(t)
	if !ok {
		return bound{}
	}
	f := l.find(t, g)
	if f == nil {
		return bound{}
	}
	// t = g·F + c with F in f.b.
	lo, hi, hasLo, hasHi := f.b.lo, f.b.hi, f.b.hasLo, f.b.hasHi
	if g.Sign() < 0 && fault.Active != fault.LinFactNegScale {
		lo, hi, hasLo, hasHi = hi, lo, hasHi, hasLo
	}
	r := bound{hasLo: hasLo, hasHi: hasHi}
	if hasLo {
		r.lo = g.Mul(lo).Add(t.c)
	}
	if hasHi {
		r.hi = g.Mul(hi).Add(t.c)
	}
	return r
}

// with returns the facts l and the fact that f states on a linear form (f is t >= 0, t == 0 or
// t != 0 with t linear in two or more symbols, and not decided by l); otherwise l itself.
func (l *linFact) with(f *Formula) *linFact {
	if f.Op != FGe && f.Op != FEq && f.Op != FNe {
		return l
	}
	t := f.T
	g, ok := linForm(t)
	if !ok {
		return l
	}
	n := &linFact{next: l}
	old := l.find(t, g)
	if old != nil {
		n.b, n.ne = old.b, old.ne
	}
	switch {
	case f.Op == FNe: // F != -c/g (when g does not divide c, decide has said true)
		n.ne = append(n.ne[:len(n.ne):len(n.ne)], t.c.Neg().Quo(g))
	case f.Op == FEq: // F = -c/g (g divides c, or decide would have said false)
		v := t.c.Neg().Quo(g)
		n.b = n.b.intersect(bound{lo: v, hi: v, hasLo: true, hasHi: true})
	case g.Sign() > 0: // F >= ⌈-c/g⌉
		n.b = n.b.intersect(bound{lo: ceilDiv(t.c.Neg(), g), hasLo: true})
	default: // F <= ⌊c/|g|⌋
		n.b = n.b.intersect(bound{hi: floorDiv(t.c, g.Neg()), hasHi: true})
	}
	n.b = n.b.shave(n.ne)
	if old != nil {
		n.form = old.form
	} else {
		n.form = make([]mono, len(t.monos))
		for i, m := range t.monos {
			n.form[i] = mono{m.k.Quo(g), m.a}
		}
	}
	return n
}

// shave moves the ends of b inward past the values of ne.
func (b bound) shave(ne []integer.Int) bound {
	for moved := true; moved; {
		moved = false
		for _, v := range ne {
			if b.hasLo && b.lo.Equal(v) {
				b.lo, moved = b.lo.Add(one), true
			}
			if b.hasHi && b.hi.Equal(v) {
				b.hi, moved = b.hi.Sub(one), true
			}
		}
	}
	return b
}
