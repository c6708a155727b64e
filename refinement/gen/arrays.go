package gen

// Arrays and bounded quantifiers. A fraction of the generated programs (ArrayShare in
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

	"certsym/spec/integer"
	"certsym/spec/syntax"
)

// ArrayShare is the percentage of generated programs that have arrays.
const ArrayShare = 30

type arrGen struct {
	r     *rand.Rand
	arrs  []*syntax.Array
	loops []genLoop // the loops over an array written, for their invariant clauses
}

// withArrays draws whether the program of seed has arrays: if so, the function that puts the
// array snippets around a body, the declarations' text, the arrays and the loops over an array
// the snippets have (else nil, "", nil, nil).
func withArrays(seed int64) (func(syntax.Stmt) syntax.Stmt, string, []*syntax.Array, []genLoop) {
	r := rand.New(rand.NewSource(seed*104729 + 31))
	if r.Intn(100) >= ArrayShare {
		return nil, "", nil, nil
	}
	k := &arrGen{r: r}
	shapes := [][2]int64{{1, 4}, {0, 3}, {-3, 1}, {-2, -1}, {0, 0}, {-3, -3}, {2, 6}, {-1, 1}}
	n := 1 + r.Intn(2)
	slot := 0 // the offsets are set by the parser; the generator's tree only needs names and bounds
	var decl strings.Builder
	for i := 0; i < n; i++ {
		sh := shapes[r.Intn(len(shapes))]
		a := &syntax.Array{Name: []string{"a", "b"}[i], Lo: sh[0], Hi: sh[1], Index: i, Offset: slot}
		slot += a.Size()
		k.arrs = append(k.arrs, a)
		fmt.Fprintf(&decl, "array %s[%d..%d];\n", a.Name, a.Lo, a.Hi)
	}
	m := 1 + r.Intn(3)
	var before, after []syntax.Stmt
	for i := 0; i < m; i++ {
		if r.Intn(3) == 0 {
			after = append(after, k.snippet())
		} else {
			before = append(before, k.snippet())
		}
	}
	wrap := func(body syntax.Stmt) syntax.Stmt {
		out := body
		for i := len(before) - 1; i >= 0; i-- {
			out = &syntax.Seq{First: before[i], Second: out}
		}
		for _, s := range after {
			out = appendSeq(out, s)
		}
		return out
	}
	return wrap, decl.String(), k.arrs, k.loops
}

func (k *arrGen) arr() *syntax.Array { return k.arrs[k.r.Intn(len(k.arrs))] }

func (k *arrGen) v() syntax.AExpr { return &syntax.Var{Name: Vars[k.r.Intn(len(Vars))]} }

func n64(v int64) syntax.AExpr { return &syntax.Num{Val: integer.Of(v)} }

// index draws an index for a: constant inside, lo, hi, lo-1, hi+1, a variable, a variable plus
// a constant, computed with / or %.
func (k *arrGen) index(a *syntax.Array) syntax.AExpr {
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
		return &syntax.BinA{Op: syntax.Add, L: k.v(), R: n64(int64(k.r.Intn(3) - 1))}
	case 8:
		return &syntax.BinA{Op: syntax.Div, L: k.v(), R: n64(int64(2 + k.r.Intn(2)))}
	case 9:
		return &syntax.BinA{Op: syntax.Mod, L: k.v(), R: n64(int64(2 + k.r.Intn(3)))}
	case 10:
		return &syntax.BinA{Op: syntax.Mod, L: k.v(), R: k.v()} // may divide by zero first
	}
	return &syntax.BinA{Op: syntax.Add, L: n64(a.Lo), R: &syntax.BinA{Op: syntax.Mod, L: k.v(), R: n64(a.Hi - a.Lo + 1)}}
}

func (k *arrGen) elem(a *syntax.Array, i syntax.AExpr) syntax.AExpr {
	return &syntax.Elem{Arr: a, I: i}
}

// value draws a right-hand side: a constant, a variable, an element, a sum with an element.
func (k *arrGen) value() syntax.AExpr {
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
		return &syntax.BinA{Op: syntax.Add, L: k.elem(a, k.index(a)), R: n64(1)}
	}
	return &syntax.BinA{Op: syntax.Div, L: n64(int64(k.r.Intn(20) - 10)), R: k.v()}
}

func (k *arrGen) assign(x string, e syntax.AExpr) syntax.Stmt {
	return &syntax.Assign{X: &syntax.Var{Name: x}, A: e}
}

// cond draws a condition over the arrays: a comparison of an element, or a quantifier.
func (k *arrGen) cond() syntax.BExpr {
	if k.r.Intn(3) == 0 {
		a := k.arr()
		return &syntax.Cmp{Op: syntax.CmpOp(k.r.Intn(6)), L: k.elem(a, k.index(a)), R: k.value()}
	}
	return k.quant(0)
}

// quant draws forall/exists at nesting level lvl.
func (k *arrGen) quant(lvl int) syntax.BExpr {
	name := fmt.Sprintf("k%d", lvl)
	ref := func() syntax.AExpr { return &syntax.BoundRef{Name: name, Level: lvl} }
	a := k.arr()
	var lo, hi syntax.AExpr
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
		lo, hi = x, &syntax.BinA{Op: syntax.Add, L: x, R: n64(2)}
		readsK = true
	case 4: // symbolic and empty
		x := k.v()
		lo, hi = &syntax.BinA{Op: syntax.Add, L: x, R: n64(1)}, x
	case 5: // lo..lo + x % (size + 2): empty when x % ... < 0, errs beyond hi
		lo, hi = n64(a.Lo), &syntax.BinA{Op: syntax.Add, L: n64(a.Lo), R: &syntax.BinA{Op: syntax.Mod, L: k.v(), R: n64(int64(a.Size() + 2))}}
		readsK = true
	case 6: // a constant range inside
		lo = n64(a.Lo + k.r.Int63n(a.Hi-a.Lo+1))
		hi = n64(a.Hi)
	case 7: // lo..lo + x % 3: empty, one, two or three elements
		lo, hi = n64(a.Lo), &syntax.BinA{Op: syntax.Add, L: n64(a.Lo), R: &syntax.BinA{Op: syntax.Mod, L: k.v(), R: n64(3)}}
	default: // constant range not reading the array
		lo, hi = n64(int64(k.r.Intn(5)-2)), n64(int64(k.r.Intn(5)-1))
	}
	var body syntax.BExpr
	elemK := &syntax.Cmp{Op: syntax.CmpOp(k.r.Intn(6)), L: k.elem(a, ref()), R: k.qvalue(lvl)}
	switch {
	case lvl == 0 && k.r.Intn(4) == 0: // nested
		inner := k.quant(1)
		if readsK || k.r.Intn(2) == 0 {
			body = &syntax.BinB{Op: syntax.And, L: elemK, R: inner}
		} else {
			body = &syntax.BinB{Op: syntax.Or, L: &syntax.Cmp{Op: syntax.Le, L: ref(), R: k.v()}, R: inner}
		}
	case readsK || k.r.Intn(3) > 0:
		body = elemK
	default:
		body = &syntax.Cmp{Op: syntax.CmpOp(k.r.Intn(6)), L: ref(), R: k.v()}
	}
	return &syntax.Quant{Exists: k.r.Intn(2) == 0, Name: name, Level: lvl, Lo: lo, Hi: hi, Body: body}
}

// qvalue is the right operand of a comparison in a quantifier body at level lvl.
func (k *arrGen) qvalue(lvl int) syntax.AExpr {
	switch k.r.Intn(4) {
	case 0:
		return n64(int64(k.r.Intn(7) - 3))
	case 1:
		if lvl > 0 {
			return &syntax.BoundRef{Name: "k0", Level: 0}
		}
		return k.v()
	case 2:
		a := k.arr()
		return k.elem(a, n64(a.Lo))
	}
	return k.v()
}

// snippet draws one array statement (or a small block).
func (k *arrGen) snippet() syntax.Stmt {
	a := k.arr()
	x := Vars[k.r.Intn(len(Vars))]
	switch k.r.Intn(11) {
	case 0, 1: // write
		return &syntax.ArrAssign{Arr: a, I: k.index(a), A: k.value()}
	case 2: // read
		return k.assign(x, k.elem(a, k.index(a)))
	case 3: // aliasing of two symbolic indices, read back
		i, j := k.v(), k.v()
		return &syntax.Seq{First: &syntax.ArrAssign{Arr: a, I: i, A: n64(int64(k.r.Intn(5)))},
			Second: &syntax.Seq{First: &syntax.ArrAssign{Arr: a, I: j, A: n64(int64(5 + k.r.Intn(5)))},
				Second: &syntax.Assert{Cond: &syntax.Cmp{Op: syntax.CmpOp(k.r.Intn(6)), L: k.elem(a, i), R: k.elem(a, j)}}}}
	case 4: // write then read at another symbolic index
		return &syntax.Seq{First: &syntax.ArrAssign{Arr: a, I: k.v(), A: k.value()}, Second: k.assign(x, k.elem(a, k.index(a)))}
	case 5:
		return &syntax.Assert{Cond: k.cond()}
	case 6:
		return &syntax.Assume{Cond: k.cond()}
	case 7:
		var el syntax.Stmt = &syntax.Skip{}
		if k.r.Intn(2) == 0 {
			el = &syntax.ArrAssign{Arr: a, I: k.index(a), A: k.value()}
		}
		return &syntax.If{Cond: k.cond(), Then: k.assign(x, k.value()), Else: el}
	case 8: // a loop over the array: j = lo; while j <= hi [and cond] do a[j] = e; j = j + 1 od
		ctr := "j9"
		ref := func() syntax.AExpr { return &syntax.Var{Name: ctr} }
		hi := a.Hi + int64(k.r.Intn(2))
		var c syntax.BExpr = &syntax.Cmp{Op: syntax.Le, L: ref(), R: n64(hi)}
		if k.r.Intn(2) == 0 {
			c = &syntax.BinB{Op: syntax.And, L: c, R: k.cond()}
		}
		body := &syntax.Seq{First: &syntax.ArrAssign{Arr: a, I: ref(), A: k.value()},
			Second: &syntax.Assign{X: &syntax.Var{Name: ctr}, A: &syntax.BinA{Op: syntax.Add, L: ref(), R: n64(1)}}}
		w := &syntax.While{Cond: c, Body: body}
		k.loops = append(k.loops, genLoop{W: w, Ctr: ctr, From: a.Lo, Bound: n64(hi), Inclusive: true, Arr: a})
		return &syntax.Seq{First: &syntax.Assign{X: &syntax.Var{Name: ctr}, A: n64(a.Lo)}, Second: w}
	case 9: // a guarded read: safe when the guard is the bounds
		i := k.v()
		return &syntax.If{Cond: &syntax.BinB{Op: syntax.And, L: &syntax.Cmp{Op: syntax.Ge, L: i, R: n64(a.Lo)}, R: &syntax.Cmp{Op: syntax.Le, L: i, R: n64(a.Hi)}},
			Then: k.assign(x, k.elem(a, i)), Else: &syntax.Skip{}}
	}
	return &syntax.Assert{Cond: k.quant(0)}
}
