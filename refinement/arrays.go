// Arrays and bounded quantifiers (issue 13) in the layer: the engine's terms and formulas with
// select atoms and quantified formulas exported to the reference's syntax (the layer's own
// export, not sym's, which names a select atom by its rendering), concrete stores with arrays,
// and the concretization of the engine's array terms.

package refinement

import (
	"fmt"

	"certsym/engine"
	"certsym/refinement/refclient"
	"certsym/spec/integer"
	"certsym/spec/syntax"
	"certsym/spec/syntax/parser"
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
}

func (c *checker) exporter() *exporter {
	return &exporter{p: c.u.Prog, names: c.names, level: map[int]int{}}
}

// elemOf returns the array and index of slot s (an element symbol), or nil.
func elemOf(p *syntax.Program, s int) (*syntax.Array, int64) {
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
		if arr, j := elemOf(x.p, a.Sym); arr != nil {
			return &syntax.Elem{Arr: arr, I: &syntax.Num{Val: integer.Of(j)}}
		}
		panic(fmt.Sprintf("refinement: symbol %d outside the store", a.Sym))
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
			panic(fmt.Sprintf("refinement: bound variable %d outside its quantifier", a.Sym))
		}
		return &syntax.BoundRef{Name: fmt.Sprintf("qv%d", l), Level: l}
	}
	panic(fmt.Sprintf("refinement: atom kind %d", a.Kind))
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
	case sym.FGe:
		return &syntax.Cmp{Op: syntax.Ge, L: x.term(f.T), R: zero()}
	case sym.FEq:
		return &syntax.Cmp{Op: syntax.Eq, L: x.term(f.T), R: zero()}
	case sym.FNe:
		return &syntax.Cmp{Op: syntax.Ne, L: x.term(f.T), R: zero()}
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

// formulaB is the engine formula f as IMP syntax over the program's store (arrays included).
func (c *checker) formulaB(f *sym.Formula) syntax.BExpr {
	if len(c.u.Prog.Arrays) == 0 {
		return f.BExpr(c.names)
	}
	return c.exporter().formula(f)
}

// termA is the engine term t as IMP syntax over the program's store (arrays included).
func (c *checker) termA(t *sym.Term) syntax.AExpr {
	if len(c.u.Prog.Arrays) == 0 {
		return t.AExpr(c.names)
	}
	return c.exporter().term(t)
}

// concArrays are the arrays of the flat concrete store v.
func (c *checker) concArrays(v []integer.Int) refclient.ConcArrays {
	if len(c.u.Prog.Arrays) == 0 {
		return nil
	}
	out := refclient.ConcArrays{}
	for _, a := range c.u.Prog.Arrays {
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

// arrayRead is element j of the engine's array term t under the valuation v (the newest store
// at j, else the input element; 0 outside the bounds).
func arrayRead(t *sym.ArrTerm, j integer.Int, v []integer.Int) integer.Int {
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

// arraysConcretize compares the engine's arrays (store slots after the variables) under v with
// the reference's concrete arrays.
func (c *checker) arraysConcretize(store []*sym.Term, v []integer.Int, arrays refclient.ConcArrays) (bool, string) {
	for k, a := range c.u.Prog.Arrays {
		if len(c.names)+k >= len(store) {
			return false, fmt.Sprintf("the engine's store has no array %s", a.Name)
		}
		t := store[len(c.names)+k].ArrayValue()
		if t == nil {
			return false, fmt.Sprintf("the engine's store slot of array %s holds no array", a.Name)
		}
		want := arrays[a.Name]
		for j := a.Lo; j <= a.Hi; j++ {
			var w integer.Int
			if int(j-a.Lo) < len(want) {
				w = want[j-a.Lo]
			}
			if got := arrayRead(t, integer.Of(j), v); !got.Equal(w) {
				return false, fmt.Sprintf("element %s[%d]: symbolic %s, reference %s", a.Name, j, got, w)
			}
		}
	}
	return true, ""
}

// compareArrays compares the engine's array terms of successor s with the reference's, element
// by element under the witness and the random valuations (step-replay/store-array).
func (c *checker) compareArrays(st *engine.State, i int, s *engine.State, r refclient.SymSucc) {
	if len(c.u.Prog.Arrays) == 0 {
		return
	}
	for _, v := range c.valuations(s.PC.Witness) {
		for k, a := range c.u.Prog.Arrays {
			if k >= len(r.Arrays) || len(c.names)+k >= len(s.Store) {
				c.report("step-replay/store-array", "", st.Depth, "state %s, successor %d: array %s missing", stateString(st, c.slots), i, a.Name)
				return
			}
			t := s.Store[len(c.names)+k].ArrayValue()
			if t == nil {
				c.report("step-replay/store-array", "", st.Depth, "state %s, successor %d: no array term for %s", stateString(st, c.slots), i, a.Name)
				return
			}
			for j := a.Lo; j <= a.Hi; j++ {
				eng := arrayRead(t, integer.Of(j), v)
				if ref := refclient.EvalArr(r.Arrays[k], integer.Of(j), v); !ref.Equal(eng) {
					c.report("step-replay/store-array", c.inputString(v), st.Depth, "state %s, successor %d: under %s element %s[%d] is %s in the engine, %s in the reference",
						stateString(st, c.slots), i, c.inputString(v), a.Name, j, eng, ref)
					return
				}
			}
		}
	}
}

// sameArrays compares the arrays of a flat concrete store (spec's) with the reference's.
func (c *checker) sameArrays(store []integer.Int, arrays refclient.ConcArrays) string {
	for _, a := range c.u.Prog.Arrays {
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

// elemVars rewrites the variables of a condition rendered over the slot names (c.slots) that are
// element symbols into element reads a[j] (the layer's prover ties them to the arrays).
func (c *checker) elemVars(b syntax.BExpr) syntax.BExpr {
	if len(c.u.Prog.Arrays) == 0 {
		return b
	}
	var ea func(a syntax.AExpr) syntax.AExpr
	ea = func(a syntax.AExpr) syntax.AExpr {
		switch a := a.(type) {
		case *syntax.Var:
			if a.Index >= len(c.names) {
				if arr, j := elemOf(c.u.Prog, a.Index); arr != nil {
					return &syntax.Elem{Arr: arr, I: &syntax.Num{Val: integer.Of(j)}}
				}
			}
		case *syntax.Neg:
			return &syntax.Neg{X: ea(a.X)}
		case *syntax.BinA:
			return &syntax.BinA{Op: a.Op, L: ea(a.L), R: ea(a.R)}
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
		}
		return b
	}
	return eb(b)
}

// arrayTargets are fixed array programs, each aimed at one way an engine goes wrong with arrays
// and quantifiers (the mutation check runs them first): the upper bound of a range check, a read
// after a store at another symbolic index, an empty quantifier range (constant and symbolic),
// a model read back element by element, aliasing, / and % indices, nested quantifiers; and two
// for certsym verify (issue 14): an assume whose quantifier runs out of the loop limit 2, so that
// the states after it, past one more branch, are flagged (xSymExe's flag g) and the final assert,
// valid, can only be FALSE? (REFUTED?); and an assert undefined for x = 0 and false for x = 1 on
// one state: UNDEFINED there (FAULTY), the supporting claim x != 0 being FALSE and taking
// precedence over the defining claim's FALSE (CHECKCLAIM of xSymExe, Section IV-C).
var arrayTargets = []string{
	"array a[1..3];\ny = a[x];\nif y > 2 then skip else fail fi\n",
	"array a[1..3];\na[x] = 1;\na[y] = 2;\nassert a[x] == 1\n",
	"array a[-2..2];\nassert forall k in 3..2: a[k] > 0;\nassert exists k in 2..-1: a[k] > 0 or x > 0\n",
	"array a[0..3];\nassume forall k in x + 1..x: a[k] > 0;\nif a[1] == 5 then fail else skip fi\n",
	"array a[1..4];\narray b[-3..-3];\nif a[2] == 7 and a[4] == -3 and b[-3] == 2 then fail else skip fi\n",
	"array a[-3..1];\na[x / 2] = a[x % 3] + 1;\nassert forall k in -3..1: exists j in -3..1: a[k] <= a[j]\n",
	"array a[1..3];\nassume forall k in 1..3: a[k] > 0;\nif a[1] > 5 then x = 1 else x = 2 fi;\nassert a[3] > 0\n",
	"assume x >= 0;\nassume x <= 1;\nassert 10 / x > 20\n",
}

// ArrayTargetUnits parses the targeted array programs.
func ArrayTargetUnits() ([]*Unit, error) {
	var out []*Unit
	for i, src := range arrayTargets {
		name := fmt.Sprintf("array-target-%d", i)
		p, err := parser.Parse(name, []byte(src))
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		out = append(out, &Unit{Name: name, Seed: -1, Prog: p, RefBody: p.Body, Text: src})
	}
	return out, nil
}
