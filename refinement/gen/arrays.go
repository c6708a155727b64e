package gen

// Arrays and bounded quantifiers (issue 13). A fraction of the generated programs (ArrayShare in
// 100, drawn from a random source of its own so that the other programs are generated exactly
// as before) declare one or two arrays and get array snippets around their random statements:
// declarations with negative bounds and of size 1; reads and writes at constant, symbolic, edge
// (lo, hi) and out-of-range (lo-1, hi+1) indices and at indices computed with / and %; two
// writes at symbolic indices that may alias, read back; forall/exists over constant and
// symbolic ranges, empty ranges included, nested, in every boolean position (if, while,
// assert, assume). Symbolic ranges have a few elements whatever the inputs (x..x+2, x+1..x,
// lo..lo + x % m): the reference evaluates every instance of a quantifier (a range of 2^64
// elements overflows its stack), so no range may grow with the inputs.

import (
	"fmt"
	"math/rand"
	"strings"

	"certsym/spec"
)

// ArrayShare is the percentage of generated programs that have arrays.
const ArrayShare = 30

type arrGen struct {
	r      *rand.Rand
	arrs   []*spec.Array
	binder int // quantifier nesting while drawing a condition
	names  []string
}

// withArrays draws whether the program of seed has arrays: if so, the function that puts the
// array snippets around a body, the declarations' text, and the arrays (else nil, "", nil).
func withArrays(seed int64) (func(spec.Stmt) spec.Stmt, string, []*spec.Array) {
	r := rand.New(rand.NewSource(seed*104729 + 31))
	if r.Intn(100) >= ArrayShare {
		return nil, "", nil
	}
	k := &arrGen{r: r}
	shapes := [][2]int64{{1, 4}, {0, 3}, {-3, 1}, {-2, -1}, {0, 0}, {-3, -3}, {2, 6}, {-1, 1}}
	n := 1 + r.Intn(2)
	slot := 0 // the offsets are set by the parser; the generator's tree only needs names and bounds
	var decl strings.Builder
	for i := 0; i < n; i++ {
		sh := shapes[r.Intn(len(shapes))]
		a := &spec.Array{Name: []string{"a", "b"}[i], Lo: sh[0], Hi: sh[1], Index: i, Offset: slot}
		slot += a.Size()
		k.arrs = append(k.arrs, a)
		fmt.Fprintf(&decl, "array %s[%d..%d];\n", a.Name, a.Lo, a.Hi)
	}
	m := 1 + r.Intn(3)
	var before, after []spec.Stmt
	for i := 0; i < m; i++ {
		if r.Intn(3) == 0 {
			after = append(after, k.snippet())
		} else {
			before = append(before, k.snippet())
		}
	}
	wrap := func(body spec.Stmt) spec.Stmt {
		out := body
		for i := len(before) - 1; i >= 0; i-- {
			out = &spec.Seq{First: before[i], Second: out}
		}
		for _, s := range after {
			out = appendSeq(out, s)
		}
		return out
	}
	return wrap, decl.String(), k.arrs
}

func (k *arrGen) arr() *spec.Array { return k.arrs[k.r.Intn(len(k.arrs))] }

func (k *arrGen) v() spec.AExpr { return &spec.Var{Name: Vars[k.r.Intn(len(Vars))]} }

func n64(v int64) spec.AExpr { return &spec.Num{Val: spec.IntOf(v)} }

// index draws an index for a: constant inside, lo, hi, lo-1, hi+1, a variable, a variable plus
// a constant, computed with / or %.
func (k *arrGen) index(a *spec.Array) spec.AExpr {
	switch k.r.Intn(12) {
	case 0:
		return n64(a.Lo)
	case 1:
		return n64(a.Hi)
	case 2:
		return n64(a.Lo - 1)
	case 3:
		return n64(a.Hi + 1)
	case 4:
		return n64(a.Lo + k.r.Int63n(a.Hi-a.Lo+1))
	case 5, 6:
		return k.v()
	case 7:
		return &spec.BinA{Op: spec.Add, L: k.v(), R: n64(int64(k.r.Intn(3) - 1))}
	case 8:
		return &spec.BinA{Op: spec.Div, L: k.v(), R: n64(int64(2 + k.r.Intn(2)))}
	case 9:
		return &spec.BinA{Op: spec.Mod, L: k.v(), R: n64(int64(2 + k.r.Intn(3)))}
	case 10:
		return &spec.BinA{Op: spec.Mod, L: k.v(), R: k.v()} // may divide by zero first
	}
	return &spec.BinA{Op: spec.Add, L: n64(a.Lo), R: &spec.BinA{Op: spec.Mod, L: k.v(), R: n64(a.Hi - a.Lo + 1)}}
}

func (k *arrGen) elem(a *spec.Array, i spec.AExpr) spec.AExpr { return &spec.Elem{Arr: a, I: i} }

// value draws a right-hand side: a constant, a variable, an element, a sum with an element.
func (k *arrGen) value() spec.AExpr {
	switch k.r.Intn(5) {
	case 0:
		return n64(int64(k.r.Intn(11) - 5))
	case 1:
		return k.v()
	case 2:
		a := k.arr()
		return k.elem(a, k.index(a))
	case 3:
		a := k.arr()
		return &spec.BinA{Op: spec.Add, L: k.elem(a, k.index(a)), R: n64(1)}
	}
	return &spec.BinA{Op: spec.Div, L: n64(int64(k.r.Intn(20) - 10)), R: k.v()}
}

func (k *arrGen) assign(x string, e spec.AExpr) spec.Stmt {
	return &spec.Assign{X: &spec.Var{Name: x}, A: e}
}

// cond draws a condition over the arrays: a comparison of an element, or a quantifier.
func (k *arrGen) cond() spec.BExpr {
	if k.r.Intn(3) == 0 {
		a := k.arr()
		return &spec.Cmp{Op: spec.CmpOp(k.r.Intn(6)), L: k.elem(a, k.index(a)), R: k.value()}
	}
	return k.quant(0)
}

// quant draws forall/exists at nesting level lvl.
func (k *arrGen) quant(lvl int) spec.BExpr {
	name := fmt.Sprintf("k%d", lvl)
	ref := func() spec.AExpr { return &spec.BoundRef{Name: name, Level: lvl} }
	a := k.arr()
	var lo, hi spec.AExpr
	readsK := false
	switch k.r.Intn(9) {
	case 0: // the whole array
		lo, hi = n64(a.Lo), n64(a.Hi)
	case 1: // a constant empty range
		lo, hi = n64(a.Hi), n64(a.Lo-1)
	case 2: // beyond the bounds: errs at lo-1 or hi+1
		if k.r.Intn(2) == 0 {
			lo, hi = n64(a.Lo-1), n64(a.Hi)
		} else {
			lo, hi = n64(a.Lo), n64(a.Hi+1)
		}
		readsK = true
	case 3: // symbolic, at most 3 elements
		x := k.v()
		lo, hi = x, &spec.BinA{Op: spec.Add, L: x, R: n64(2)}
		readsK = true
	case 4: // symbolic and empty
		x := k.v()
		lo, hi = &spec.BinA{Op: spec.Add, L: x, R: n64(1)}, x
	case 5: // lo..lo + x % (size + 2): empty when x % ... < 0, errs beyond hi
		lo, hi = n64(a.Lo), &spec.BinA{Op: spec.Add, L: n64(a.Lo), R: &spec.BinA{Op: spec.Mod, L: k.v(), R: n64(int64(a.Size() + 2))}}
		readsK = true
	case 6: // a constant range inside
		lo = n64(a.Lo + k.r.Int63n(a.Hi-a.Lo+1))
		hi = n64(a.Hi)
	case 7: // lo..lo + x % 3: empty, one, two or three elements
		lo, hi = n64(a.Lo), &spec.BinA{Op: spec.Add, L: n64(a.Lo), R: &spec.BinA{Op: spec.Mod, L: k.v(), R: n64(3)}}
	default: // constant range not reading the array
		lo, hi = n64(int64(k.r.Intn(5)-2)), n64(int64(k.r.Intn(5)-1))
	}
	var body spec.BExpr
	elemK := &spec.Cmp{Op: spec.CmpOp(k.r.Intn(6)), L: k.elem(a, ref()), R: k.qvalue(lvl)}
	switch {
	case lvl == 0 && k.r.Intn(4) == 0: // nested
		inner := k.quant(1)
		if readsK || k.r.Intn(2) == 0 {
			body = &spec.BinB{Op: spec.And, L: elemK, R: inner}
		} else {
			body = &spec.BinB{Op: spec.Or, L: &spec.Cmp{Op: spec.Le, L: ref(), R: k.v()}, R: inner}
		}
	case readsK || k.r.Intn(3) > 0:
		body = elemK
	default:
		body = &spec.Cmp{Op: spec.CmpOp(k.r.Intn(6)), L: ref(), R: k.v()}
	}
	return &spec.Quant{Exists: k.r.Intn(2) == 0, Name: name, Level: lvl, Lo: lo, Hi: hi, Body: body}
}

// qvalue is the right operand of a comparison in a quantifier body at level lvl.
func (k *arrGen) qvalue(lvl int) spec.AExpr {
	switch k.r.Intn(4) {
	case 0:
		return n64(int64(k.r.Intn(7) - 3))
	case 1:
		if lvl > 0 {
			return &spec.BoundRef{Name: "k0", Level: 0}
		}
		return k.v()
	case 2:
		a := k.arr()
		return k.elem(a, n64(a.Lo))
	}
	return k.v()
}

// snippet draws one array statement (or a small block).
func (k *arrGen) snippet() spec.Stmt {
	a := k.arr()
	x := Vars[k.r.Intn(len(Vars))]
	switch k.r.Intn(11) {
	case 0, 1: // write
		return &spec.ArrAssign{Arr: a, I: k.index(a), A: k.value()}
	case 2: // read
		return k.assign(x, k.elem(a, k.index(a)))
	case 3: // aliasing of two symbolic indices, read back
		i, j := k.v(), k.v()
		return &spec.Seq{First: &spec.ArrAssign{Arr: a, I: i, A: n64(int64(k.r.Intn(5)))},
			Second: &spec.Seq{First: &spec.ArrAssign{Arr: a, I: j, A: n64(int64(5 + k.r.Intn(5)))},
				Second: &spec.Assert{Cond: &spec.Cmp{Op: spec.CmpOp(k.r.Intn(6)), L: k.elem(a, i), R: k.elem(a, j)}}}}
	case 4: // write then read at another symbolic index
		return &spec.Seq{First: &spec.ArrAssign{Arr: a, I: k.v(), A: k.value()}, Second: k.assign(x, k.elem(a, k.index(a)))}
	case 5:
		return &spec.Assert{Cond: k.cond()}
	case 6:
		return &spec.Assume{Cond: k.cond()}
	case 7:
		var el spec.Stmt = &spec.Skip{}
		if k.r.Intn(2) == 0 {
			el = &spec.ArrAssign{Arr: a, I: k.index(a), A: k.value()}
		}
		return &spec.If{Cond: k.cond(), Then: k.assign(x, k.value()), Else: el}
	case 8: // a loop over the array: j = lo; while j <= hi [and cond] do a[j] = e; j = j + 1 od
		ctr := "j9"
		ref := func() spec.AExpr { return &spec.Var{Name: ctr} }
		var c spec.BExpr = &spec.Cmp{Op: spec.Le, L: ref(), R: n64(a.Hi + int64(k.r.Intn(2)))}
		if k.r.Intn(2) == 0 {
			c = &spec.BinB{Op: spec.And, L: c, R: k.cond()}
		}
		body := &spec.Seq{First: &spec.ArrAssign{Arr: a, I: ref(), A: k.value()},
			Second: &spec.Assign{X: &spec.Var{Name: ctr}, A: &spec.BinA{Op: spec.Add, L: ref(), R: n64(1)}}}
		return &spec.Seq{First: &spec.Assign{X: &spec.Var{Name: ctr}, A: n64(a.Lo)}, Second: &spec.While{Cond: c, Body: body}}
	case 9: // a guarded read: safe when the guard is the bounds
		i := k.v()
		return &spec.If{Cond: &spec.BinB{Op: spec.And, L: &spec.Cmp{Op: spec.Ge, L: i, R: n64(a.Lo)}, R: &spec.Cmp{Op: spec.Le, L: i, R: n64(a.Hi)}},
			Then: k.assign(x, k.elem(a, i)), Else: &spec.Skip{}}
	}
	return &spec.Assert{Cond: k.quant(0)}
}
