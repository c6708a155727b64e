package refclient

// Arrays and bounded quantifiers in the protocol with certsym-ref: the array terms of
// the reference's symbolic states (select/store chains over the input arrays), the "first" node of
// its first-failure formulas, error kinds, and the total evaluation of all of them.

import (
	"encoding/json"
	"errors"
	"fmt"

	"certsym/spec/integer"
	"certsym/spec/syntax"
)

// ArrTerm is an array term of the reference: the input array (ArrInit) or a store over a term
// (ArrStore).
type ArrTerm interface{ arrTerm() }

// ArrInit is the input array Arr: its elements are the input symbols of Arr.
type ArrInit struct{ Arr *syntax.Array }

// ArrStore is T with element I set to V.
type ArrStore struct {
	T    ArrTerm
	I, V syntax.AExpr
}

func (*ArrInit) arrTerm()  {}
func (*ArrStore) arrTerm() {}

// arrText is the text of an array term: the array's name, or store(T, I, V).
func arrText(t ArrTerm) string {
	switch u := t.(type) {
	case *ArrInit:
		return u.Arr.Name
	case *ArrStore:
		return "store(" + arrText(u.T) + ", " + syntax.PrintA(u.I) + ", " + syntax.PrintA(u.V) + ")"
	}
	return fmt.Sprintf("<%T>", t)
}

// Root returns the input array under a term.
func Root(t ArrTerm) *syntax.Array {
	for {
		switch u := t.(type) {
		case *ArrInit:
			return u.Arr
		case *ArrStore:
			t = u.T
		default:
			return nil
		}
	}
}

// Select is the read T[I] of an array term that is not the input array itself (a read of an input
// array decodes to syntax.Elem). It is an arithmetic expression: the embedded syntax.Elem holds the
// root array (whose bounds are the read's bounds) and the index I.
type Select struct {
	syntax.Elem
	T ArrTerm
}

// String is the text syntax.PrintA gives a select: T[I], T as arrText writes it.
func (s *Select) String() string { return arrText(s.T) + "[" + syntax.PrintA(s.I) + "]" }

// First is the reference's first-failure node ("first"): some integer j with Lo <= j <= Hi
// satisfies F (with the bound variable Name = j) while every i with Lo <= i < j satisfies D.
// The embedded syntax.Quant holds Name, Level, Lo and Hi (its Body is unused).
type First struct {
	syntax.Quant
	D, F syntax.BExpr
}

// String is the text syntax.PrintB gives a first node: first k in Lo..Hi: D; F.
func (f *First) String() string {
	return "(first " + f.Name + " in " + syntax.PrintA(f.Lo) + ".." + syntax.PrintA(f.Hi) + ": " + syntax.PrintB(f.D) + "; " + syntax.PrintB(f.F) + ")"
}

// failKindName is the protocol's name of an error kind: "" (no field) for an explicit fail, an
// assert and an invariant clause, which the reference does not distinguish (they are all the
// fail of a core if b then skip else fail fi).
func failKindName(k syntax.FailKind) string {
	switch k {
	case syntax.FailDivZero, syntax.FailIndex:
		return k.String()
	case syntax.FailExplicit, syntax.FailAssert, syntax.FailInvariant:
		return ""
	default:
		panic(fmt.Sprintf("refclient: unknown error kind %d", k))
	}
}

// failKindOf is the kind of a "fail" node's "kind" field.
func failKindOf(s string) (syntax.FailKind, error) {
	switch s {
	case "", "fail":
		return syntax.FailExplicit, nil
	case "division-by-zero":
		return syntax.FailDivZero, nil
	case "index-out-of-range":
		return syntax.FailIndex, nil
	}
	return 0, fmt.Errorf("unknown error kind %q", s)
}

// arrayNamed returns the declared array called name.
func (d *decoder) arrayNamed(name string) (*syntax.Array, error) {
	a, ok := d.arrays[name]
	if !ok {
		return nil, fmt.Errorf("unknown array %q in the reference's answer", name)
	}
	return a, nil
}

// arrayA decodes a "sel" or "bvar" node.
func (d *decoder) arrayA(n *node) (syntax.AExpr, error) {
	if n.K == "bvar" {
		for l := len(d.bound) - 1; l >= 0; l-- {
			if d.bound[l] == n.X {
				return &syntax.BoundRef{Name: n.X, Level: l}, nil
			}
		}
		return nil, fmt.Errorf("bound variable %q outside its quantifier", n.X)
	}
	e, err := child(n, "e", n.E)
	if err != nil {
		return nil, err
	}
	i, err := d.a(e)
	if err != nil {
		return nil, err
	}
	if n.T == nil {
		a, err := d.arrayNamed(n.X)
		if err != nil {
			return nil, err
		}
		return &syntax.Elem{Arr: a, I: i}, nil
	}
	t, err := d.arrTerm(n.T)
	if err != nil {
		return nil, err
	}
	if init, ok := t.(*ArrInit); ok {
		return &syntax.Elem{Arr: init.Arr, I: i}, nil
	}
	return &Select{Elem: syntax.Elem{Arr: Root(t), I: i}, T: t}, nil
}

// arrTerm decodes an array term ("array" or "store").
func (d *decoder) arrTerm(n *node) (ArrTerm, error) {
	if n == nil {
		return nil, fmt.Errorf("missing array term")
	}
	switch n.K {
	case "array":
		a, err := d.arrayNamed(n.X)
		if err != nil {
			return nil, err
		}
		return &ArrInit{Arr: a}, nil
	case "store":
		if _, err := child(n, "t", n.T); err != nil {
			return nil, err
		}
		t, err := d.arrTerm(n.T)
		if err != nil {
			return nil, err
		}
		if _, err := child(n, "i", n.I); err != nil {
			return nil, err
		}
		i, err := d.a(n.I)
		if err != nil {
			return nil, err
		}
		if _, err := child(n, "v", n.V); err != nil {
			return nil, err
		}
		v, err := d.a(n.V)
		if err != nil {
			return nil, err
		}
		return &ArrStore{T: t, I: i, V: v}, nil
	}
	return nil, fmt.Errorf("unknown array term node %q", n.K)
}

// quant decodes "forall", "exists" and "first".
func (d *decoder) quant(n *node) (syntax.BExpr, error) {
	if n.X == "" {
		return nil, fmt.Errorf("%q node without its bound name \"x\"", n.K)
	}
	lo, hi, err := d.a2(n)
	if err != nil {
		return nil, err
	}
	level := len(d.bound)
	d.bound = append(d.bound, n.X)
	defer func() { d.bound = d.bound[:level] }()
	q := syntax.Quant{Exists: n.K == "exists", Name: n.X, Level: level, Lo: lo, Hi: hi}
	if n.K != "first" {
		if q.Body, err = d.b(n.B); err != nil {
			return nil, err
		}
		return &q, nil
	}
	if _, err := child(n, "d", n.D); err != nil {
		return nil, err
	}
	if _, err := child(n, "f", n.F); err != nil {
		return nil, err
	}
	dd, err := d.b(n.D)
	if err != nil {
		return nil, err
	}
	ff, err := d.b(n.F)
	if err != nil {
		return nil, err
	}
	return &First{Quant: q, D: dd, F: ff}, nil
}

// arrAssign decodes an "aassign" node.
func (d *decoder) arrAssign(n *node) (syntax.Stmt, error) {
	a, err := d.arrayNamed(n.X)
	if err != nil {
		return nil, err
	}
	if _, err := child(n, "l", n.L); err != nil {
		return nil, err
	}
	if _, err := child(n, "e", n.E); err != nil {
		return nil, err
	}
	i, err := d.a(n.L)
	if err != nil {
		return nil, err
	}
	e, err := d.a(n.E)
	if err != nil {
		return nil, err
	}
	return &syntax.ArrAssign{Arr: a, I: i, A: e}, nil
}

// decodeArrays returns the array term of each array of arrs in a state's store (an array the
// store omits is its input array).
func (d *decoder) decodeArrays(store map[string]*node, arrs []*syntax.Array) ([]ArrTerm, error) {
	out := make([]ArrTerm, len(arrs))
	for j, a := range arrs {
		n, ok := store[a.Name]
		if !ok {
			out[j] = &ArrInit{Arr: a}
			continue
		}
		t, err := d.arrTerm(n)
		if err != nil {
			return nil, fmt.Errorf("store %s: %w", a.Name, err)
		}
		out[j] = t
	}
	return out, nil
}

// EncodeArr returns the JSON tree of an array term.
func EncodeArr(t ArrTerm) (json.RawMessage, error) { return encodeNode(encT(t)) }

func encT(t ArrTerm) (*node, error) {
	switch t := t.(type) {
	case *ArrInit:
		return &node{K: "array", X: t.Arr.Name}, nil
	case *ArrStore:
		u, err := encT(t.T)
		if err != nil {
			return nil, err
		}
		i, err := encA(t.I)
		if err != nil {
			return nil, err
		}
		v, err := encA(t.V)
		return &node{K: "store", T: u, I: i, V: v}, err
	}
	return nil, fmt.Errorf("cannot encode array term %T", t)
}

// --- total evaluation -----------------------------------------------------------------------

// MaxQuantRange bounds the number of instances the total evaluation of one quantifier (or first
// node) evaluates: a larger range is an error (ErrQuantRange), never a hang.
const MaxQuantRange = 1 << 20

// ErrQuantRange is the error of a quantifier whose range exceeds MaxQuantRange.
var ErrQuantRange = errors.New("refclient: quantifier range exceeds MaxQuantRange")

// A valuation v is indexed like a concrete store (spec.Store): the scalars by Var.Index, then the
// elements of each array (element j of array a at a.Offset + j - a.Lo). An element outside its
// array's bounds (read only by the total evaluation, under a false definedness guard) is 0, and
// so is a slot beyond v, as in the reference's finite stores.

type evaluator struct {
	v   []integer.Int
	env []integer.Int
	err error
}

func (e *evaluator) slot(i int) integer.Int {
	if i < 0 || i >= len(e.v) {
		return integer.Int{}
	}
	return e.v[i]
}

func (e *evaluator) elem(a *syntax.Array, j integer.Int) integer.Int {
	if a == nil {
		return integer.Int{}
	}
	s, ok := a.Slot(j)
	if !ok {
		return integer.Int{}
	}
	return e.slot(s)
}

func (e *evaluator) get(t ArrTerm, j integer.Int) integer.Int {
	for {
		switch u := t.(type) {
		case *ArrInit:
			return e.elem(u.Arr, j)
		case *ArrStore:
			if e.a(u.I).Equal(j) {
				return e.a(u.V)
			}
			t = u.T
		default:
			return integer.Int{}
		}
	}
}

func (e *evaluator) a(a syntax.AExpr) integer.Int {
	switch a := a.(type) {
	case *syntax.Num:
		return a.Val
	case *syntax.Var:
		return e.slot(a.Index)
	case *syntax.BoundRef:
		if a.Level < 0 || a.Level >= len(e.env) {
			return integer.Int{}
		}
		return e.env[a.Level]
	case *syntax.Neg:
		return e.a(a.X).Neg()
	case *syntax.BinA:
		l, r := e.a(a.L), e.a(a.R)
		switch a.Op {
		case syntax.Add:
			return l.Add(r)
		case syntax.Sub:
			return l.Sub(r)
		case syntax.Mul:
			return l.Mul(r)
		case syntax.Div:
			return l.Quo(r)
		}
		return l.Rem(r)
	case *syntax.Elem:
		return e.elem(a.Arr, e.a(a.I))
	case *Select:
		return e.get(a.T, e.a(a.I))
	default:
		panic(fmt.Sprintf("refclient: unknown expression %T", a))
	}
}

// instances calls f with the environment extended by j at level, for j = lo..hi in increasing
// order, until f returns false; an error when the range is too large.
func (e *evaluator) instances(level int, lo, hi integer.Int, f func() bool) {
	if lo.Cmp(hi) > 0 {
		return
	}
	if n := hi.Sub(lo).Add(integer.Of(1)); n.Cmp(integer.Of(MaxQuantRange)) > 0 {
		if e.err == nil {
			e.err = ErrQuantRange
		}
		return
	}
	saved := e.env
	inner := make([]integer.Int, level+1)
	copy(inner, saved)
	e.env = inner
	defer func() { e.env = saved }()
	for j := lo; j.Cmp(hi) <= 0; j = j.Add(integer.Of(1)) {
		inner[level] = j
		if !f() || e.err != nil {
			return
		}
	}
}

func (e *evaluator) b(c syntax.BExpr) bool {
	switch c := c.(type) {
	case *syntax.BoolLit:
		return c.Val
	case *syntax.Cmp:
		return c.Op.Holds(e.a(c.L).Cmp(e.a(c.R)))
	case *syntax.Not:
		return !e.b(c.X)
	case *syntax.BinB:
		l, r := e.b(c.L), e.b(c.R)
		if c.Op == syntax.And {
			return l && r
		}
		return l || r
	case *syntax.Quant:
		found := false // forall: a false instance; exists: a true one
		e.instances(c.Level, e.a(c.Lo), e.a(c.Hi), func() bool {
			found = e.b(c.Body) == c.Exists
			return !found
		})
		return found == c.Exists
	case *First:
		holds := false
		e.instances(c.Level, e.a(c.Lo), e.a(c.Hi), func() bool {
			if e.b(c.F) {
				holds = true
				return false
			}
			return e.b(c.D)
		})
		return holds
	default:
		panic(fmt.Sprintf("refclient: unknown condition %T", c))
	}
}

// EvalA is the value of a under the valuation v with the total semantics of the formal
// development: x / 0 = 0, x % 0 = x (integer.Int's Quo and Rem), reads of array terms through their
// stores, elements outside the bounds 0. A quantifier range too large to evaluate makes EvalA 0;
// EvalAE reports it.
func EvalA(a syntax.AExpr, v []integer.Int) integer.Int {
	r, _ := EvalAE(a, v)
	return r
}

// EvalAE is EvalA with the error of a quantifier range beyond MaxQuantRange.
func EvalAE(a syntax.AExpr, v []integer.Int) (integer.Int, error) {
	e := &evaluator{v: v}
	r := e.a(a)
	return r, e.err
}

// EvalB is the truth of c under v, with the total semantics (see EvalA); quantifiers range over
// their bounds' values (forall true and exists false on an empty range), first as documented on
// First. A quantifier range beyond MaxQuantRange makes EvalB false; EvalBE reports it.
func EvalB(c syntax.BExpr, v []integer.Int) bool {
	r, err := EvalBE(c, v)
	return r && err == nil
}

// EvalBE is EvalB with the error of a quantifier range beyond MaxQuantRange (ErrQuantRange).
func EvalBE(c syntax.BExpr, v []integer.Int) (bool, error) {
	e := &evaluator{v: v}
	r := e.b(c)
	return r, e.err
}

// EvalArr returns element j of the array term t under v (total semantics, see EvalA).
func EvalArr(t ArrTerm, j integer.Int, v []integer.Int) integer.Int {
	e := &evaluator{v: v}
	return e.get(t, j)
}
