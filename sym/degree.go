package sym

// Degrees. The degree of a product is the sum of its factors' degrees: y = y * y repeated n
// times from y = x + 1 makes n atoms of degree 2^n. Z3 4.8.12 may process a polynomial of high
// degree for minutes without polling for interrupts (package solver bounds the degree of its
// queries), so each atom carries two degrees, computed when it is made: fac, its degree as a
// factor of a polynomial (a symbol, a select, a bound variable, a quotient and a remainder count
// 1, a product the sum of its factors'), and inner, the largest degree of a polynomial inside it
// (the operands of quotients, remainders and selects, the store chain a select reads, and the
// product r * (l / r) of a remainder's encoding, included). Both saturate at DegreeCap.

// DegreeCap is where degrees saturate.
const DegreeCap = 1 << 30

func addDeg(a, b int32) int32 { return int32(min(int64(a)+int64(b), DegreeCap)) }

// props is what an atom made of a term inherits from it: a bound variable inside, a select or a
// bound variable inside, and the degrees of its polynomial.
type props struct {
	bnd, ext   bool
	fac, inner int32
}

func (t *Term) props() (p props) {
	for _, m := range t.monos {
		a := m.a
		p.bnd = p.bnd || a.Kind == AtomBnd || a.bnd
		p.ext = p.ext || a.ext
		p.fac, p.inner = max(p.fac, a.fac), max(p.inner, a.inner)
	}
	return p
}

// operation is the atom x op y (a product, a quotient or a remainder) with the given key.
func operation(kind AtomKind, x, y *Term, key int) *Atom {
	l, r := x.props(), y.props()
	a := &Atom{Kind: kind, L: x, R: y, key: key, bnd: l.bnd || r.bnd, ext: l.ext || r.ext}
	if kind == AtomMul {
		a.fac = addDeg(l.fac, r.fac)
		a.inner = max(a.fac, l.inner, r.inner)
		return a
	}
	a.fac, a.inner = 1, max(1, l.inner, r.inner)
	if kind == AtomMod {
		a.inner = max(a.inner, addDeg(r.fac, 1))
	}
	return a
}

// store is store(prev, i, v) with the given id.
func store(prev *ArrTerm, i, v *Term, id int) *ArrTerm {
	return &ArrTerm{Arr: prev.Arr, Prev: prev, I: i, V: v, id: id, inner: max(prev.inner, i.props().inner, v.props().inner)}
}

// Degree is the largest degree of a polynomial inside t (see above; 0 for a constant).
func (t *Term) Degree() int { return int(t.props().inner) }

// Degree is the largest degree of a polynomial inside f.
func (f *Formula) Degree() int {
	d := 0
	if f.T != nil {
		d = f.T.Degree()
	}
	if f.Lo != nil {
		d = max(d, f.Lo.Degree(), f.Hi.Degree())
	}
	for _, g := range f.Args {
		d = max(d, g.Degree())
	}
	return d
}
