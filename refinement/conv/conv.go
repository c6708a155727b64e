// Package conv converts between the engine's states and the reference's, over a program's flat
// store (its variables, then each array's elements): the engine's terms and formulas exported
// to IMP syntax (the layer's own export, not sym's, which names a select atom by its rendering:
// element symbols as a[j], select atoms as reads of their array terms, bound variables by
// nesting level, quantified formulas as forall/exists), the arrays of a concrete store, the
// elements of the engine's array terms under a valuation, and the comparison of both with the
// reference's concrete arrays (arrays and bounded quantifiers). A conditional term (sym.Ite, the
// store of a merged state) has no IMP expression: a formula over one is written as the cases of
// its conditions (ite.go), and a term or array term with one is an error (ErrIte).
package conv

import (
	"errors"
	"fmt"

	"certsym/refinement/refclient"
	"certsym/spec/integer"
	"certsym/spec/syntax"
	"certsym/sym"
)

// exporter converts engine terms to IMP syntax over the program's flat store: symbol i < len(Vars)
// is a variable, a larger one the element of an input array; a select atom is a read of an
// array term; a bound variable refers to its binder by nesting level.
type exporter struct {
	p     *syntax.Program
	names []string
	level map[int]int // binder → nesting level
	depth int
	// cases: a conditional term is split into the cases of its condition (in a formula); else it
	// is an error. nodes counts the syntax nodes the cases made (ite.go).
	cases bool
	nodes int
}

// ErrIte is the error of the conversion of a term with a conditional term (sym.Ite) inside:
// IMP has no conditional expression (a formula over one is written as its cases: Formula).
var ErrIte = errors.New("conv: a conditional term (of a merged state) has no IMP expression")

// failure carries an error of the conversion out of the exporter's recursion (catch).
type failure struct{ err error }

// catch turns the failure the exporter panicked with into *err; other panics go on.
func catch(err *error) {
	if r := recover(); r != nil {
		f, ok := r.(failure)
		if !ok {
			panic(r)
		}
		*err = f.err
	}
}

func newExporter(p *syntax.Program) *exporter {
	return &exporter{p: p, names: p.Vars, level: map[int]int{}}
}

// ElemOf returns the array and index of slot s (an element symbol), or nil.
func ElemOf(p *syntax.Program, s int) (*syntax.Array, int64) {
	for _, a := range p.Arrays {
		if s >= a.Offset && s < a.Offset+a.Size() {
			return a, a.Lo + int64(s-a.Offset)
		}
	}
	return nil, 0
}

func (x *exporter) term(t *sym.Term) syntax.AExpr {
	var out syntax.AExpr
	t.EachMono(func(k integer.Int, a *sym.Atom) {
		var e syntax.AExpr = x.atom(a)
		if !k.Equal(integer.Of(1)) {
			e = &syntax.BinA{Op: syntax.Mul, L: &syntax.Num{Val: k}, R: e}
		}
		if out == nil {
			out = e
		} else {
			out = &syntax.BinA{Op: syntax.Add, L: out, R: e}
		}
	})
	c := t.Const()
	switch {
	case out == nil:
		return &syntax.Num{Val: c}
	case !c.IsZero():
		return &syntax.BinA{Op: syntax.Add, L: out, R: &syntax.Num{Val: c}}
	}
	return out
}

func (x *exporter) atom(a *sym.Atom) syntax.AExpr {
	switch a.Kind {
	case sym.AtomSym:
		if a.Sym < len(x.names) {
			return &syntax.Var{Name: x.names[a.Sym], Index: a.Sym}
		}
		if arr, j := ElemOf(x.p, a.Sym); arr != nil {
			return &syntax.Elem{Arr: arr, I: &syntax.Num{Val: integer.Of(j)}}
		}
		panic(fmt.Sprintf("conv: symbol %d outside the store", a.Sym))
	case sym.AtomMul:
		return &syntax.BinA{Op: syntax.Mul, L: x.term(a.L), R: x.term(a.R)}
	case sym.AtomDiv:
		return &syntax.BinA{Op: syntax.Div, L: x.term(a.L), R: x.term(a.R)}
	case sym.AtomMod:
		return &syntax.BinA{Op: syntax.Mod, L: x.term(a.L), R: x.term(a.R)}
	case sym.AtomSel:
		i := x.term(a.L)
		if a.A.Prev == nil {
			return &syntax.Elem{Arr: a.A.Arr, I: i}
		}
		return &refclient.Select{Elem: syntax.Elem{Arr: a.A.Arr, I: i}, T: x.arr(a.A)}
	case sym.AtomBnd:
		l, ok := x.level[a.Sym]
		if !ok {
			panic(fmt.Sprintf("conv: bound variable %d outside its quantifier", a.Sym))
		}
		return &syntax.BoundRef{Name: fmt.Sprintf("qv%d", l), Level: l}
	case sym.AtomIte: // only in a formula, split into cases first (ite.go)
		panic(failure{ErrIte})
	}
	panic(fmt.Sprintf("conv: atom kind %d", a.Kind))
}

func (x *exporter) arr(t *sym.ArrTerm) refclient.ArrTerm {
	if t.Prev == nil {
		return &refclient.ArrInit{Arr: t.Arr}
	}
	return &refclient.ArrStore{T: x.arr(t.Prev), I: x.term(t.I), V: x.term(t.V)}
}

func (x *exporter) formula(f *sym.Formula) syntax.BExpr {
	zero := func() syntax.AExpr { return &syntax.Num{} }
	switch f.Op {
	case sym.FTrue:
		return &syntax.BoolLit{Val: true}
	case sym.FFalse:
		return &syntax.BoolLit{Val: false}
	case sym.FGe, sym.FEq, sym.FNe:
		op := map[sym.FormulaOp]syntax.CmpOp{sym.FGe: syntax.Ge, sym.FEq: syntax.Eq, sym.FNe: syntax.Ne}[f.Op]
		if x.cases && hasIte(f.T) {
			return x.splitCmp(op, f.T) // ite.go
		}
		return &syntax.Cmp{Op: op, L: x.term(f.T), R: zero()}
	case sym.FForall, sym.FExists:
		lo, hi := x.term(f.Lo), x.term(f.Hi)
		l := x.depth
		x.level[f.Bind] = l
		x.depth++
		body := x.formula(f.Args[0])
		x.depth--
		delete(x.level, f.Bind)
		return &syntax.Quant{Exists: f.Op == sym.FExists, Name: fmt.Sprintf("qv%d", l), Level: l, Lo: lo, Hi: hi, Body: body}
	}
	op := syntax.And
	if f.Op == sym.FOr {
		op = syntax.Or
	}
	var out syntax.BExpr
	for _, g := range f.Args {
		if out == nil {
			out = x.formula(g)
		} else {
			out = &syntax.BinB{Op: op, L: out, R: x.formula(g)}
		}
	}
	if out == nil {
		return &syntax.BoolLit{Val: f.Op == sym.FAnd}
	}
	return out
}

// Formula is the engine formula f as IMP syntax over the store of p (arrays included). A
// comparison over a conditional term is written as the disjunction of its cases (ite.go), the
// same truth under every valuation; an error when the cases are too many (ErrTooLarge), a
// conditional term is inside an array read (ErrIte) or the formula written as a tree would pass
// MaxTreeNodes (ErrTree).
func Formula(p *syntax.Program, f *sym.Formula) (b syntax.BExpr, err error) {
	if TooLarge([]*sym.Formula{f}, nil) {
		return nil, ErrTree
	}
	if !formulaHasIte(f) {
		return newExporter(p).formula(f), nil
	}
	defer catch(&err)
	x := newExporter(p)
	x.cases = true
	return x.formula(f), nil
}

// Term is the engine term t as IMP syntax over the store of p (arrays included); ErrIte for a
// term with a conditional term inside, ErrTree for one too large to write as a tree.
func Term(p *syntax.Program, t *sym.Term) (a syntax.AExpr, err error) {
	if TooLarge(nil, []*sym.Term{t}) {
		return nil, ErrTree
	}
	if hasIte(t) {
		return nil, ErrIte
	}
	if len(p.Arrays) == 0 {
		return t.AExpr(p.Vars), nil
	}
	return newExporter(p).term(t), nil
}

// Arr is the engine's array term t as the reference's array term (its store chain); ErrIte for
// an array term with a conditional term inside (the merge of states whose arrays differ).
func Arr(p *syntax.Program, t *sym.ArrTerm) (a refclient.ArrTerm, err error) {
	if newSizer().arr(t) > MaxTreeNodes {
		return nil, ErrTree
	}
	defer catch(&err)
	return newExporter(p).arr(t), nil
}

// Arrays are the arrays of p in the flat concrete store v (nil when p has none).
func Arrays(p *syntax.Program, v []integer.Int) refclient.ConcArrays {
	if len(p.Arrays) == 0 {
		return nil
	}
	out := refclient.ConcArrays{}
	for _, a := range p.Arrays {
		vs := make([]integer.Int, a.Size())
		for j := range vs {
			if a.Offset+j < len(v) {
				vs[j] = v[a.Offset+j]
			}
		}
		out[a.Name] = vs
	}
	return out
}

// ArrayRead is element j of the engine's array term t under the valuation v (the newest store
// at j, else the input element; 0 outside the bounds).
func ArrayRead(t *sym.ArrTerm, j integer.Int, v []integer.Int) integer.Int {
	for ; t.Prev != nil; t = t.Prev {
		if t.I.Eval(v).Equal(j) {
			return t.V.Eval(v)
		}
	}
	if s, ok := t.Arr.Slot(j); ok && s < len(v) {
		return v[s]
	}
	return integer.Int{}
}

// ArraysConcretize compares the arrays of the engine's store of p (the slots after the
// variables) under v with the reference's concrete arrays; otherwise it says how they differ.
func ArraysConcretize(p *syntax.Program, store []*sym.Term, v []integer.Int, arrays refclient.ConcArrays) (bool, string) {
	names := p.Vars
	for k, a := range p.Arrays {
		if len(names)+k >= len(store) {
			return false, fmt.Sprintf("the engine's store has no array %s", a.Name)
		}
		t := store[len(names)+k].ArrayValue()
		if t == nil {
			return false, fmt.Sprintf("the engine's store slot of array %s holds no array", a.Name)
		}
		want := arrays[a.Name]
		for j := a.Lo; j <= a.Hi; j++ {
			var w integer.Int
			if int(j-a.Lo) < len(want) {
				w = want[j-a.Lo]
			}
			if got := ArrayRead(t, integer.Of(j), v); !got.Equal(w) {
				return false, fmt.Sprintf("element %s[%d]: symbolic %s, reference %s", a.Name, j, got, w)
			}
		}
	}
	return true, ""
}

// SameArrays compares the arrays of p in a flat concrete store (spec's) with the reference's:
// "" when they are equal, else the first element that differs.
func SameArrays(p *syntax.Program, store []integer.Int, arrays refclient.ConcArrays) string {
	for _, a := range p.Arrays {
		want := arrays[a.Name]
		for j := 0; j < a.Size(); j++ {
			var w, g integer.Int
			if j < len(want) {
				w = want[j]
			}
			if a.Offset+j < len(store) {
				g = store[a.Offset+j]
			}
			if !g.Equal(w) {
				return fmt.Sprintf("element %s[%d]: %s and %s", a.Name, a.Lo+int64(j), g, w)
			}
		}
	}
	return ""
}

// ElemVars rewrites the variables of a condition rendered over the slot names of p
// (sym.SlotNames) that are element symbols into element reads a[j] (the layer's prover ties them
// to the arrays).
func ElemVars(p *syntax.Program, b syntax.BExpr) syntax.BExpr {
	if len(p.Arrays) == 0 {
		return b
	}
	var ea func(a syntax.AExpr) syntax.AExpr
	ea = func(a syntax.AExpr) syntax.AExpr {
		switch a := a.(type) {
		case *syntax.Var:
			if a.Index >= len(p.Vars) {
				if arr, j := ElemOf(p, a.Index); arr != nil {
					return &syntax.Elem{Arr: arr, I: &syntax.Num{Val: integer.Of(j)}}
				}
			}
		case *syntax.Neg:
			return &syntax.Neg{X: ea(a.X)}
		case *syntax.BinA:
			return &syntax.BinA{Op: a.Op, L: ea(a.L), R: ea(a.R)}
		case *syntax.Num, *syntax.Elem, *syntax.BoundRef:
		default:
			panic(fmt.Sprintf("conv: ElemVars: arithmetic expression %T", a))
		}
		return a
	}
	var eb func(b syntax.BExpr) syntax.BExpr
	eb = func(b syntax.BExpr) syntax.BExpr {
		switch b := b.(type) {
		case *syntax.Cmp:
			return &syntax.Cmp{Op: b.Op, L: ea(b.L), R: ea(b.R)}
		case *syntax.Not:
			return &syntax.Not{X: eb(b.X)}
		case *syntax.BinB:
			return &syntax.BinB{Op: b.Op, L: eb(b.L), R: eb(b.R)}
		case *syntax.BoolLit, *syntax.Quant:
		default:
			panic(fmt.Sprintf("conv: ElemVars: condition %T", b))
		}
		return b
	}
	return eb(b)
}
