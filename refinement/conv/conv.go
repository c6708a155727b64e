// Package conv converts between the engine's states and the reference's, over a program's flat
// store (its variables, then each array's elements): the engine's terms and formulas exported
// to IMP syntax (the layer's own export, not sym's, which names a select atom by its rendering:
// element symbols as a[j], select atoms as reads of their array terms, bound variables by
// nesting level, quantified formulas as forall/exists), the arrays of a concrete store, the
// elements of the engine's array terms under a valuation, and the comparison of both with the
// reference's concrete arrays (issue 13: arrays and bounded quantifiers).
package conv

import (
	"fmt"

	"certsym/refinement/refclient"
	"certsym/spec"
	"certsym/sym"
)

// exporter converts engine terms to IMP syntax over the program's flat store: symbol i < len(Vars)
// is a variable, a larger one the element of an input array; a select atom is a read of an
// array term; a bound variable refers to its binder by nesting level.
type exporter struct {
	p     *spec.Program
	names []string
	level map[int]int // binder → nesting level
	depth int
}

func newExporter(p *spec.Program) *exporter {
	return &exporter{p: p, names: p.Vars, level: map[int]int{}}
}

// ElemOf returns the array and index of slot s (an element symbol), or nil.
func ElemOf(p *spec.Program, s int) (*spec.Array, int64) {
	for _, a := range p.Arrays {
		if s >= a.Offset && s < a.Offset+a.Size() {
			return a, a.Lo + int64(s-a.Offset)
		}
	}
	return nil, 0
}

func (x *exporter) term(t *sym.Term) spec.AExpr {
	var out spec.AExpr
	t.EachMono(func(k spec.Int, a *sym.Atom) {
		var e spec.AExpr = x.atom(a)
		if !k.Equal(spec.IntOf(1)) {
			e = &spec.BinA{Op: spec.Mul, L: &spec.Num{Val: k}, R: e}
		}
		if out == nil {
			out = e
		} else {
			out = &spec.BinA{Op: spec.Add, L: out, R: e}
		}
	})
	c := t.Const()
	switch {
	case out == nil:
		return &spec.Num{Val: c}
	case !c.IsZero():
		return &spec.BinA{Op: spec.Add, L: out, R: &spec.Num{Val: c}}
	}
	return out
}

func (x *exporter) atom(a *sym.Atom) spec.AExpr {
	switch a.Kind {
	case sym.AtomSym:
		if a.Sym < len(x.names) {
			return &spec.Var{Name: x.names[a.Sym], Index: a.Sym}
		}
		if arr, j := ElemOf(x.p, a.Sym); arr != nil {
			return &spec.Elem{Arr: arr, I: &spec.Num{Val: spec.IntOf(j)}}
		}
		panic(fmt.Sprintf("conv: symbol %d outside the store", a.Sym))
	case sym.AtomMul:
		return &spec.BinA{Op: spec.Mul, L: x.term(a.L), R: x.term(a.R)}
	case sym.AtomDiv:
		return &spec.BinA{Op: spec.Div, L: x.term(a.L), R: x.term(a.R)}
	case sym.AtomMod:
		return &spec.BinA{Op: spec.Mod, L: x.term(a.L), R: x.term(a.R)}
	case sym.AtomSel:
		i := x.term(a.L)
		if a.A.Prev == nil {
			return &spec.Elem{Arr: a.A.Arr, I: i}
		}
		return &refclient.Select{Elem: spec.Elem{Arr: a.A.Arr, I: i}, T: x.arr(a.A)}
	case sym.AtomBnd:
		l, ok := x.level[a.Sym]
		if !ok {
			panic(fmt.Sprintf("conv: bound variable %d outside its quantifier", a.Sym))
		}
		return &spec.BoundRef{Name: fmt.Sprintf("qv%d", l), Level: l}
	}
	panic(fmt.Sprintf("conv: atom kind %d", a.Kind))
}

func (x *exporter) arr(t *sym.ArrTerm) refclient.ArrTerm {
	if t.Prev == nil {
		return &refclient.ArrInit{Arr: t.Arr}
	}
	return &refclient.ArrStore{T: x.arr(t.Prev), I: x.term(t.I), V: x.term(t.V)}
}

func (x *exporter) formula(f *sym.Formula) spec.BExpr {
	zero := func() spec.AExpr { return &spec.Num{} }
	switch f.Op {
	case sym.FTrue:
		return &spec.BoolLit{Val: true}
	case sym.FFalse:
		return &spec.BoolLit{Val: false}
	case sym.FGe:
		return &spec.Cmp{Op: spec.Ge, L: x.term(f.T), R: zero()}
	case sym.FEq:
		return &spec.Cmp{Op: spec.Eq, L: x.term(f.T), R: zero()}
	case sym.FNe:
		return &spec.Cmp{Op: spec.Ne, L: x.term(f.T), R: zero()}
	case sym.FForall, sym.FExists:
		lo, hi := x.term(f.Lo), x.term(f.Hi)
		l := x.depth
		x.level[f.Bind] = l
		x.depth++
		body := x.formula(f.Args[0])
		x.depth--
		delete(x.level, f.Bind)
		return &spec.Quant{Exists: f.Op == sym.FExists, Name: fmt.Sprintf("qv%d", l), Level: l, Lo: lo, Hi: hi, Body: body}
	}
	op := spec.And
	if f.Op == sym.FOr {
		op = spec.Or
	}
	var out spec.BExpr
	for _, g := range f.Args {
		if out == nil {
			out = x.formula(g)
		} else {
			out = &spec.BinB{Op: op, L: out, R: x.formula(g)}
		}
	}
	if out == nil {
		return &spec.BoolLit{Val: f.Op == sym.FAnd}
	}
	return out
}

// Formula is the engine formula f as IMP syntax over the store of p (arrays included).
func Formula(p *spec.Program, f *sym.Formula) spec.BExpr {
	if len(p.Arrays) == 0 {
		return f.BExpr(p.Vars)
	}
	return newExporter(p).formula(f)
}

// Term is the engine term t as IMP syntax over the store of p (arrays included).
func Term(p *spec.Program, t *sym.Term) spec.AExpr {
	if len(p.Arrays) == 0 {
		return t.AExpr(p.Vars)
	}
	return newExporter(p).term(t)
}

// Arr is the engine's array term t as the reference's array term (its store chain).
func Arr(p *spec.Program, t *sym.ArrTerm) refclient.ArrTerm { return newExporter(p).arr(t) }

// Arrays are the arrays of p in the flat concrete store v (nil when p has none).
func Arrays(p *spec.Program, v []spec.Int) refclient.ConcArrays {
	if len(p.Arrays) == 0 {
		return nil
	}
	out := refclient.ConcArrays{}
	for _, a := range p.Arrays {
		vs := make([]spec.Int, a.Size())
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
func ArrayRead(t *sym.ArrTerm, j spec.Int, v []spec.Int) spec.Int {
	for ; t.Prev != nil; t = t.Prev {
		if t.I.Eval(v).Equal(j) {
			return t.V.Eval(v)
		}
	}
	if s, ok := t.Arr.Slot(j); ok && s < len(v) {
		return v[s]
	}
	return spec.Int{}
}

// ArraysConcretize compares the arrays of the engine's store of p (the slots after the
// variables) under v with the reference's concrete arrays; otherwise it says how they differ.
func ArraysConcretize(p *spec.Program, store []*sym.Term, v []spec.Int, arrays refclient.ConcArrays) (bool, string) {
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
			var w spec.Int
			if int(j-a.Lo) < len(want) {
				w = want[j-a.Lo]
			}
			if got := ArrayRead(t, spec.IntOf(j), v); !got.Equal(w) {
				return false, fmt.Sprintf("element %s[%d]: symbolic %s, reference %s", a.Name, j, got, w)
			}
		}
	}
	return true, ""
}

// SameArrays compares the arrays of p in a flat concrete store (spec's) with the reference's:
// "" when they are equal, else the first element that differs.
func SameArrays(p *spec.Program, store []spec.Int, arrays refclient.ConcArrays) string {
	for _, a := range p.Arrays {
		want := arrays[a.Name]
		for j := 0; j < a.Size(); j++ {
			var w, g spec.Int
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
func ElemVars(p *spec.Program, b spec.BExpr) spec.BExpr {
	if len(p.Arrays) == 0 {
		return b
	}
	var ea func(a spec.AExpr) spec.AExpr
	ea = func(a spec.AExpr) spec.AExpr {
		switch a := a.(type) {
		case *spec.Var:
			if a.Index >= len(p.Vars) {
				if arr, j := ElemOf(p, a.Index); arr != nil {
					return &spec.Elem{Arr: arr, I: &spec.Num{Val: spec.IntOf(j)}}
				}
			}
		case *spec.Neg:
			return &spec.Neg{X: ea(a.X)}
		case *spec.BinA:
			return &spec.BinA{Op: a.Op, L: ea(a.L), R: ea(a.R)}
		case *spec.Num, *spec.Elem, *spec.BoundRef:
		default:
			panic(fmt.Sprintf("conv: ElemVars: arithmetic expression %T", a))
		}
		return a
	}
	var eb func(b spec.BExpr) spec.BExpr
	eb = func(b spec.BExpr) spec.BExpr {
		switch b := b.(type) {
		case *spec.Cmp:
			return &spec.Cmp{Op: b.Op, L: ea(b.L), R: ea(b.R)}
		case *spec.Not:
			return &spec.Not{X: eb(b.X)}
		case *spec.BinB:
			return &spec.BinB{Op: b.Op, L: eb(b.L), R: eb(b.R)}
		case *spec.BoolLit, *spec.Quant:
		default:
			panic(fmt.Sprintf("conv: ElemVars: condition %T", b))
		}
		return b
	}
	return eb(b)
}
