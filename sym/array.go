package sym

import (
	"fmt"
	"strconv"
	"sync"

	"certsym/internal/fault"
	"certsym/spec/integer"
	"certsym/spec/syntax"
)

// Arrays and bounded quantifiers (spec/SEMANTICS.md for the rules).
//
// Symbols are the slots of the flat concrete store: the scalars first (by Var.Index), then the
// elements of each array in declaration order, the initial value of a[j] being the symbol
// a.Offset + (j - a.Lo). A symbolic store holds, after the scalars' terms, one array value per
// declared array (a Term whose arr is set): a chain of stores over the initial array,
// store(...store(a0, i1, v1)..., in, vn). A read select(t, i) walks the chain from the newest
// store (Select); what it cannot resolve stays an atom AtomSel, opaque to the bounds and linear
// facts (they treat it as an unknown symbol: its range is all of ℤ, it is never a bound).

// ArrTerm is an array value: the initial array Arr (Prev nil) or store(Prev, I, V).
type ArrTerm struct {
	Arr   *syntax.Array
	Prev  *ArrTerm
	I, V  *Term
	id    int   // creation order, for the select atoms' interning
	inner int32 // the largest degree of a polynomial inside the chain (degree.go)
}

type selKey struct {
	arr *ArrTerm
	idx string
}

// NewTermsFor creates the factory of a run over the program's flat store: its variables, then
// its arrays' elements (SlotNames).
func NewTermsFor(p *syntax.Program) *Terms {
	ts := NewTerms(SlotNames(p))
	ts.nvars, ts.arrays, ts.elems = len(p.Vars), p.Arrays, ts.syms
	ts.syms = ts.syms[:len(p.Vars):len(p.Vars)]
	for _, a := range p.Arrays {
		ts.syms = append(ts.syms, &Term{arr: &ArrTerm{Arr: a, id: ts.key()}})
	}
	return ts
}

// SlotNames names the slots of p's flat store: the variables, then a[j] for each element.
func SlotNames(p *syntax.Program) []string {
	if len(p.Arrays) == 0 {
		return p.Vars
	}
	names := append([]string(nil), p.Vars...)
	for _, a := range p.Arrays {
		for j := a.Lo; j <= a.Hi; j++ {
			names = append(names, a.Name+"["+strconv.FormatInt(j, 10)+"]")
		}
	}
	return names
}

// Slots is the number of symbols (the length of a valuation and of a witness).
func (ts *Terms) Slots() int { return len(ts.names) }

// Names are the symbols' names.
func (ts *Terms) Names() []string { return ts.names }

// elemSym returns the symbol of element j of the initial array a, or nil outside its bounds.
func (ts *Terms) elemSym(a *syntax.Array, j integer.Int) *Term {
	slot, ok := a.Slot(j)
	if !ok {
		return nil
	}
	return ts.elems[slot]
}

// differ reports whether i and j are different under every valuation: their difference is a
// nonzero constant.
func differ(i, j *Term) bool {
	d, ok := sub(i, j).IsConst()
	return ok && !d.IsZero()
}

// sameTerm reports whether i and j are the same term (equal under every valuation, by their
// normal form: atoms compared by identity).
func sameTerm(i, j *Term) bool {
	if i == j {
		return true
	}
	d, ok := sub(i, j).IsConst()
	return ok && d.IsZero()
}

// Select is select(t, i): the chain is walked from the newest store; a store at the same index
// gives its value, a store at an index that differs by a nonzero constant is skipped, and the
// first other store stops the walk: the read is then an atom over the chain from that store. A
// read of the initial array at a constant index inside the bounds is the element's symbol.
func (ts *Terms) Select(t *ArrTerm, i *Term) *Term {
	for t.Prev != nil {
		if sameTerm(t.I, i) {
			return t.V
		}
		if !differ(t.I, i) && fault.Active != fault.SelectSkipsStore {
			break
		}
		t = t.Prev
	}
	if t.Prev == nil {
		if c, ok := i.IsConst(); ok {
			if s := ts.elemSym(t.Arr, c); s != nil {
				return s
			}
		}
	}
	if ts.sels == nil {
		ts.sels = map[selKey]*Atom{}
	}
	k := selKey{t, termKey(i)}
	if a, ok := ts.sels[k]; ok {
		return atomTerm(a)
	}
	a := &Atom{Kind: AtomSel, A: t, L: i, key: ts.key(), bnd: i.hasBound() || t.hasBound(), ext: true,
		fac: 1, inner: max(1, i.props().inner, t.inner)}
	ts.sels[k] = a
	return atomTerm(a)
}

// termKey is a structural key of t (atoms by key, which is unique in a run).
func termKey(t *Term) string {
	b := t.c.Big().Append(nil, 36)
	for _, m := range t.monos {
		b = append(b, '+')
		b = m.k.Big().Append(b, 36)
		b = append(b, '*')
		b = strconv.AppendInt(b, int64(m.a.key), 36)
	}
	return string(b)
}

// Store is store(t, i, v); a store at the same constant index earlier in the chain is removed
// (the newest store at an index overrides every older one there).
func (ts *Terms) Store(t *ArrTerm, i, v *Term) *ArrTerm {
	if _, ok := i.IsConst(); ok {
		t = ts.without(t, i)
	}
	return store(t, i, v, ts.key())
}

// without is t with the stores at the constant index i removed (only when there is one).
func (ts *Terms) without(t *ArrTerm, i *Term) *ArrTerm {
	found := false
	for u := t; u.Prev != nil; u = u.Prev {
		if sameTerm(u.I, i) {
			found = true
			break
		}
	}
	if !found {
		return t
	}
	var keep []*ArrTerm
	u := t
	for ; u.Prev != nil; u = u.Prev {
		if !sameTerm(u.I, i) {
			keep = append(keep, u)
		}
	}
	for k := len(keep) - 1; k >= 0; k-- {
		u = store(u, keep[k].I, keep[k].V, ts.key())
	}
	return u
}

// ArrayValue returns the array term of a store slot holding an array, or nil.
func (t *Term) ArrayValue() *ArrTerm { return t.arr }

// ArrayTerm wraps an array term as a store slot's value.
func ArrayTerm(a *ArrTerm) *Term { return &Term{arr: a} }

// read is the value of element j of t under the valuation v: the newest store at j, else the
// initial element (0 outside the bounds: such reads are guarded by the definedness conditions).
func (t *ArrTerm) read(j integer.Int, v []integer.Int, env *benv) integer.Int {
	for ; t.Prev != nil; t = t.Prev {
		if t.I.eval(v, env).Equal(j) {
			return t.V.eval(v, env)
		}
	}
	if slot, ok := t.Arr.Slot(j); ok {
		return v[slot]
	}
	return integer.Int{}
}

func (t *ArrTerm) hasBound() bool {
	for ; t.Prev != nil; t = t.Prev {
		if t.I.hasBound() || t.V.hasBound() {
			return true
		}
	}
	return false
}

func (t *Term) hasBound() bool {
	for _, m := range t.monos {
		if m.a.Kind == AtomBnd || m.a.bnd {
			return true
		}
	}
	return false
}

func (t *ArrTerm) write(p *printer) {
	if t.Prev == nil {
		p.b.WriteString(t.Arr.Name)
		return
	}
	if p.namedStore(t) {
		return
	}
	t.writeBody(p)
}

// writeBody writes a store itself (its name aside).
func (t *ArrTerm) writeBody(p *printer) {
	b := p.b
	b.WriteString("store(")
	t.Prev.write(p)
	b.WriteString(", ")
	t.I.write(p)
	b.WriteString(", ")
	t.V.write(p)
	b.WriteByte(')')
}

// String renders the array term; one whose expansion is large names its shared subterms
// (render).
func (t *ArrTerm) String(names []string) string {
	return render(names, func(c *counter) { c.store(t) }, func(p *printer) { t.write(p) })
}

// Concretize is V ∘ S: the concrete flat store that the symbolic store s denotes under the
// valuation v (the scalars' values, then each array's elements), laid out as a spec.Store.
func (ts *Terms) Concretize(s []*Term, v []integer.Int) []integer.Int {
	out := make([]integer.Int, ts.Slots())
	for i := 0; i < ts.nvars || (ts.arrays == nil && i < len(s)); i++ {
		out[i] = s[i].Eval(v)
	}
	for k, a := range ts.arrays {
		t := s[ts.nvars+k].arr
		for j := a.Lo; j <= a.Hi; j++ {
			out[a.Offset+int(j-a.Lo)] = t.read(integer.Of(j), v, nil)
		}
	}
	return out
}

// benv is an environment of bound variables' values: a binder's value, then the enclosing ones.
// The outermost environment of an evaluation is a root (binder 0, which no quantifier has): it
// binds nothing and holds the values of the composite atoms evaluated so far, so that an atom
// shared by many terms (the store of a loop that divides a variable by itself, say) is evaluated
// once per evaluation instead of once per path to it in the term's DAG, which is exponential in
// its depth. Under a quantifier the environment is not a root and nothing is remembered, since an
// atom's value may depend on the bound variables.
type benv struct {
	bind int
	val  integer.Int
	next *benv
	memo map[*Atom]integer.Int // at a root only: the composite atoms' values (made on first use)
}

// rootEnv returns the outermost environment of an evaluation, from a pool (the solver's model
// checks evaluate formulas by the million): the caller hands it back with release once the
// evaluation is over.
func rootEnv() *benv { return envPool.Get().(*benv) }

var envPool = sync.Pool{New: func() any { return &benv{} }}

// release returns a root environment to the pool, emptied (a large memo is dropped rather than
// kept for the next evaluation).
func (e *benv) release() {
	if len(e.memo) > 256 {
		e.memo = nil
	} else {
		clear(e.memo)
	}
	envPool.Put(e)
}

func (e *benv) lookup(bind int) integer.Int {
	for ; e != nil; e = e.next {
		if e.bind == bind && bind != 0 {
			return e.val
		}
	}
	panic("sym: unbound quantified variable")
}

// boundAtom returns a fresh binder and the term of its variable.
func (ts *Terms) boundAtom() (int, *Term) {
	ts.nextBind++
	return ts.nextBind, atomTerm(&Atom{Kind: AtomBnd, Sym: ts.nextBind, key: ts.key(), bnd: true, ext: true, fac: 1, inner: 1})
}

// MaxExpand is the largest range of a quantifier with constant bounds that is expanded into a
// conjunction (or disjunction) of its instances; larger or symbolic ranges stay quantified
// formulas, decided by instantiation (package solver).
const MaxExpand = 64

// Quant is the bounded quantified formula forall (exists when ex) k in lo..hi: body, k the
// variable of binder bind (an AtomBnd atom inside body), folded when the body is constant or the
// range is constant and empty.
func Quant(ex bool, bind int, lo, hi *Term, body *Formula) *Formula {
	l, lok := lo.IsConst()
	h, hok := hi.IsConst()
	if lok && hok && l.Cmp(h) > 0 {
		return boolF(!ex)
	}
	switch {
	case body == True && !ex, body == False && ex:
		return boolF(!ex)
	case body == True: // exists over a nonempty range
		return Pred(FGe, sub(hi, lo))
	case body == False: // forall over an empty range
		return Pred(FGe, add(sub(lo, hi), Const(minusOne)))
	}
	op := FForall
	if ex {
		op = FExists
	}
	return &Formula{Op: op, Bind: bind, Lo: lo, Hi: hi, Args: []*Formula{body}}
}

// cond is what the evaluation of a condition gives symbolically: its value, its definedness D
// and the first-failure formulas F[0] = F_div, F[1] = F_idx (design file, "Definedness and
// first-failure formulas").
type cond struct {
	v    *Formula
	d    *Formula
	f    [2]*Formula
	term *Term // for an arithmetic expression: its value
}

// seq accumulates the parts of an evaluation in order: prefix is D(p1) ∧ ... ∧ D(pi).
type seq struct {
	prefix *Formula
	f      [2]*Formula
}

func newSeq() *seq { return &seq{prefix: True, f: [2]*Formula{False, False}} }

func (q *seq) part(c cond) {
	for k := range q.f {
		if c.f[k] != False {
			q.f[k] = Or(q.f[k], And(q.prefix, c.f[k]))
		}
	}
	q.prefix = And(q.prefix, c.d)
}

// check adds the operation's own check c of kind k (0: div, 1: idx).
func (q *seq) check(c *Formula, k int) {
	if c != True {
		q.f[k] = Or(q.f[k], And(q.prefix, Not(c)))
	}
	q.prefix = And(q.prefix, c)
}

func (q *seq) done(v *Formula, t *Term) cond { return cond{v: v, d: q.prefix, f: q.f, term: t} }

func (ts *Terms) condA(a syntax.AExpr, s []*Term, env []*Term) cond {
	switch a := a.(type) {
	case *syntax.Num, *syntax.Var, *syntax.BoundRef:
		return cond{d: True, f: [2]*Formula{False, False}, term: ts.subst(a, s, env)}
	case *syntax.Neg:
		c := ts.condA(a.X, s, env)
		c.term = neg(c.term)
		return c
	case *syntax.BinA:
		l, r := ts.condA(a.L, s, env), ts.condA(a.R, s, env)
		q := newSeq()
		q.part(l)
		q.part(r)
		if a.Op == syntax.Div || a.Op == syntax.Mod {
			q.check(Pred(FNe, r.term), 0)
		}
		return q.done(nil, ts.apply(a.Op, l.term, r.term))
	case *syntax.Elem:
		i := ts.condA(a.I, s, env)
		q := newSeq()
		q.part(i)
		q.check(inRange(a.Arr, i.term), 1)
		return q.done(nil, ts.Select(s[ts.nvars+a.Arr.Index].arr, i.term))
	default:
		panic(fmt.Sprintf("sym: unknown expression %T", a))
	}
}

// inRange is Lo <= i <= Hi for the array a.
func inRange(a *syntax.Array, i *Term) *Formula {
	if fault.Active == fault.IndexHiOffByOne {
		return And(Pred(FGe, sub(i, Const(integer.Of(a.Lo)))), Pred(FGe, sub(Const(integer.Of(a.Hi+1)), i)))
	}
	return And(Pred(FGe, sub(i, Const(integer.Of(a.Lo)))), Pred(FGe, sub(Const(integer.Of(a.Hi)), i)))
}

func (ts *Terms) condB(b syntax.BExpr, s []*Term, env []*Term) cond {
	switch b := b.(type) {
	case *syntax.BoolLit:
		return cond{v: boolF(b.Val), d: True, f: [2]*Formula{False, False}}
	case *syntax.Cmp:
		l, r := ts.condA(b.L, s, env), ts.condA(b.R, s, env)
		q := newSeq()
		q.part(l)
		q.part(r)
		return q.done(cmpF(b.Op, l.term, r.term), nil)
	case *syntax.Not:
		c := ts.condB(b.X, s, env)
		c.v = Not(c.v)
		return c
	case *syntax.BinB:
		l, r := ts.condB(b.L, s, env), ts.condB(b.R, s, env)
		q := newSeq()
		q.part(l)
		q.part(r)
		if b.Op == syntax.And {
			return q.done(And(l.v, r.v), nil)
		}
		return q.done(Or(l.v, r.v), nil)
	case *syntax.Quant:
		return ts.condQ(b, s, env)
	default:
		panic(fmt.Sprintf("sym: unknown condition %T", b))
	}
}

// condQ is the quantifier case: F_k = F_k(lo) ∨ (D(lo) ∧ F_k(hi)) ∨ (D(lo) ∧ D(hi) ∧
// ∃ j ∈ lo..hi: (∀ i ∈ lo..j-1: D(b[i])) ∧ F_k(b[j])), D = D(lo) ∧ D(hi) ∧ ∀ j ∈ lo..hi: D(b[j]);
// expanded over the instances when the range is constant and at most MaxExpand long.
func (ts *Terms) condQ(b *syntax.Quant, s []*Term, env []*Term) cond {
	lo, hi := ts.condA(b.Lo, s, env), ts.condA(b.Hi, s, env)
	q := newSeq()
	q.part(lo)
	q.part(hi)
	inner := make([]*Term, b.Level+1)
	copy(inner, env)
	l, lok := lo.term.IsConst()
	h, hok := hi.term.IsConst()
	if lok && hok && (l.Cmp(h) > 0 || h.Sub(l).Cmp(integer.Of(MaxExpand-1)) <= 0) {
		var vs []*Formula
		for j := l; j.Cmp(h) <= 0; j = j.Add(one) {
			inner[b.Level] = Const(j)
			c := ts.condB(b.Body, s, inner)
			q.part(c)
			vs = append(vs, c.v)
		}
		if b.Exists || (fault.Active == fault.EmptyQuantFalse && len(vs) == 0) {
			return q.done(Or(vs...), nil)
		}
		return q.done(And(vs...), nil)
	}
	bj, j := ts.boundAtom()
	inner[b.Level] = j
	cj := ts.condB(b.Body, s, inner)
	if cj.d != True {
		bi, i := ts.boundAtom()
		inner[b.Level] = i
		ci := ts.condB(b.Body, s, inner)
		for k := range q.f {
			if cj.f[k] != False {
				prev := Quant(false, bi, lo.term, add(j, Const(minusOne)), ci.d)
				q.f[k] = Or(q.f[k], And(q.prefix, Quant(true, bj, lo.term, hi.term, And(prev, cj.f[k]))))
			}
		}
		q.prefix = And(q.prefix, Quant(false, bj, lo.term, hi.term, cj.d))
	}
	return q.done(Quant(b.Exists, bj, lo.term, hi.term, cj.v), nil)
}

// CondKinds is the symbolic evaluation of the condition b under the store s: its value S(b), its
// definedness S(D(b)) and its first-failure formulas S(F_div(b)), S(F_idx(b)) (design file).
func (ts *Terms) CondKinds(b syntax.BExpr, s []*Term) (v, d, fdiv, fidx *Formula) {
	c := ts.condB(b, s, nil)
	return c.v, c.d, c.f[0], c.f[1]
}

// ExprKinds is CondKinds for an arithmetic expression: its term S(a), S(D(a)), S(F_div(a)),
// S(F_idx(a)).
func (ts *Terms) ExprKinds(a syntax.AExpr, s []*Term) (t *Term, d, fdiv, fidx *Formula) {
	c := ts.condA(a, s, nil)
	return c.term, c.d, c.f[0], c.f[1]
}

// Extended reports whether f has a select atom or a quantifier (what the caching layers set
// aside, cache.go).
func (f *Formula) Extended() bool {
	switch f.Op {
	case FForall, FExists:
		return true
	case FGe, FEq, FNe:
		return f.T.extended()
	case FAnd, FOr:
		for _, g := range f.Args {
			if g.Extended() {
				return true
			}
		}
	}
	return false
}

func (t *Term) extended() bool {
	for _, m := range t.monos {
		if m.a.ext {
			return true
		}
	}
	return false
}

// Quantified reports whether f has a quantifier.
func (f *Formula) Quantified() bool {
	switch f.Op {
	case FForall, FExists:
		return true
	case FAnd, FOr:
		for _, g := range f.Args {
			if g.Quantified() {
				return true
			}
		}
	}
	return false
}

// WriteKinds is the symbolic evaluation of the element assignment a[i] = e under the store s, in
// its evaluation order (i, then e, then the range check of the write): the store
// S[a ↦ store(S(a), S(i), S(e))], its definedness D and the first-failure formulas F_div, F_idx.
func (ts *Terms) WriteKinds(a *syntax.Array, i, e syntax.AExpr, s []*Term) (store []*Term, d, fdiv, fidx *Formula) {
	ci, ce := ts.condA(i, s, nil), ts.condA(e, s, nil)
	q := newSeq()
	q.part(ci)
	q.part(ce)
	q.check(inRange(a, ci.term), 1)
	store = make([]*Term, len(s))
	copy(store, s)
	slot := ts.nvars + a.Index
	store[slot] = ArrayTerm(ts.Store(s[slot].arr, ci.term, ce.term))
	return store, q.prefix, q.f[0], q.f[1]
}
