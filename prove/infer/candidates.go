package infer

import (
	"fmt"
	"math/big"
	"sort"

	"certsym/spec"
	"certsym/spec/integer"
	"certsym/spec/syntax"
)

// Origin says which rule of the grammar (docs/infer.md) a candidate comes from.
type Origin uint8

// The rules of the candidate grammar.
const (
	// FromCondition: a comparison of the program's conditions and claims, with each of the six
	// operators.
	FromCondition Origin = iota
	// FromBound: x <= c or x >= c, x a variable, c 0 or a constant of the program.
	FromBound
	// FromOctagon: x - y or x + y against 0 or a constant of the program.
	FromOctagon
	// FromEquality: a linear equality among the variables found by exact elimination over the
	// sampled loop-head states.
	FromEquality
	// FromArray: forall k in lo..h: P(a[k]), P from an element write or a claim of the program.
	FromArray
	// FromQuadratic: an equality of degree 2 found by exact elimination over the monomials of
	// the sampled loop-head states.
	FromQuadratic
	// FromModular: x % k == c, k a small constant of the program.
	FromModular
	// FromDisjunction: g or q (g an atom of the loop's condition, q of a claim), or not g or P
	// (g an atom of a branch, P a fact of the sampled states where g holds).
	FromDisjunction
	// FromExit: an atom of the loop's condition widened by a step of the loop (l <= r + d - 1
	// from l < r).
	FromExit
	// FromSlack: an atom of a claim combined with one of the loop's condition (the claim's
	// slack at least the condition's).
	FromSlack
)

var originText = [...]string{FromCondition: "condition", FromBound: "bound", FromOctagon: "octagon", FromEquality: "equality", FromArray: "array",
	FromQuadratic: "quadratic", FromModular: "modular", FromDisjunction: "disjunction", FromExit: "exit", FromSlack: "slack"}

func (o Origin) String() string { return originText[o] }

// Candidate is a candidate invariant of one loop: a condition over the program's variables and
// arrays (resolved: its Var indices and arrays are the program's), its text, and its rule.
type Candidate struct {
	Cond   syntax.BExpr
	Text   string
	Origin Origin
}

func newCand(c syntax.BExpr, o Origin) *Candidate {
	return &Candidate{Cond: c, Text: syntax.PrintB(c), Origin: o}
}

// Constants are 0, 1 and the integer literals of the program (those of at most 64 bits), sorted,
// without repeats: the constants of the bound and octagon templates.
func Constants(prog *syntax.Program) []int64 {
	set := map[int64]bool{0: true, 1: true}
	syntax.Inspect(prog.Body, func(n syntax.Node) bool {
		if x, ok := n.(*syntax.Num); ok {
			if v, small := x.Val.Int64(); small {
				set[v] = true
			}
		}
		return true
	})
	out := make([]int64, 0, len(set))
	for v := range set {
		out = append(out, v)
	}
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	return out
}

// The builders of candidate syntax: every node is placed at the loop (pos).

func num(p syntax.Pos, v int64) syntax.AExpr {
	return &syntax.Num{P: p, Val: integer.Of(v)}
}

func variable(prog *syntax.Program, p syntax.Pos, i int) *syntax.Var {
	return &syntax.Var{P: p, Name: prog.Vars[i], Index: i}
}

func cmp(p syntax.Pos, op syntax.CmpOp, l, r syntax.AExpr) *syntax.Cmp {
	return &syntax.Cmp{P: p, Op: op, L: l, R: r}
}

func bin(p syntax.Pos, op syntax.AOp, l, r syntax.AExpr) *syntax.BinA {
	return &syntax.BinA{P: p, Op: op, L: l, R: r}
}

// scalarOnly reports whether the expression reads variables and constants only (no element,
// no bound variable, no quantifier).
func scalarOnly(n syntax.Node) bool {
	ok := true
	syntax.Inspect(n, func(m syntax.Node) bool {
		switch m.(type) {
		case *syntax.Elem, *syntax.BoundRef, *syntax.Quant:
			ok = false
		}
		return ok
	})
	return ok
}

// conditions lists the conditions of the program's statements: of if, while, assume, assert
// and invariant clauses.
func conditions(prog *syntax.Program) []syntax.BExpr {
	var out []syntax.BExpr
	syntax.Inspect(prog.Body, func(n syntax.Node) bool {
		switch s := n.(type) {
		case *syntax.If:
			out = append(out, s.Cond)
		case *syntax.While:
			out = append(out, s.Cond)
		case *syntax.Assume:
			out = append(out, s.Cond)
		case *syntax.Assert:
			out = append(out, s.Cond)
		}
		return true
	})
	return out
}

// conditionCands are the comparisons of the program's conditions and claims over variables and
// constants, each with the six operators (i < n gives i <= n, i == n, ...).
func conditionCands(prog *syntax.Program, p syntax.Pos) []*Candidate {
	var out []*Candidate
	for _, c := range conditions(prog) {
		syntax.Inspect(c, func(n syntax.Node) bool {
			x, ok := n.(*syntax.Cmp)
			if !ok || !scalarOnly(x) {
				return true
			}
			for op := syntax.Eq; op <= syntax.Ge; op++ {
				out = append(out, newCand(cmp(p, op, x.L, x.R), FromCondition))
			}
			return true
		})
	}
	return out
}

// form is a linear form over at most two variables: x (y < 0), x - y or x + y.
type form struct {
	x, y int
	sum  bool
}

func (f form) expr(prog *syntax.Program, p syntax.Pos) syntax.AExpr {
	if f.y < 0 {
		return variable(prog, p, f.x)
	}
	op := syntax.Sub
	if f.sum {
		op = syntax.Add
	}
	return bin(p, op, variable(prog, p, f.x), variable(prog, p, f.y))
}

func (f form) value(s spec.Store) integer.Int {
	if f.y < 0 {
		return s[f.x]
	}
	if f.sum {
		return s[f.x].Add(s[f.y])
	}
	return s[f.x].Sub(s[f.y])
}

// templateCands are the bound and octagon templates: for each form x, x - y, x + y, the two
// tightest constants (0 or the program's) that bound it from above, and from below, on the
// sampled states. With no state sampled, only x >= 0 and x <= 0.
func templateCands(prog *syntax.Program, p syntax.Pos, states []spec.Store, consts []int64) []*Candidate {
	n := len(prog.Vars)
	var forms []form
	for x := 0; x < n; x++ {
		forms = append(forms, form{x: x, y: -1})
	}
	for x := 0; x < n; x++ {
		for y := x + 1; y < n; y++ {
			forms = append(forms, form{x: x, y: y}, form{x: y, y: x}, form{x: x, y: y, sum: true})
		}
	}
	var out []*Candidate
	for _, f := range forms {
		o := FromOctagon
		if f.y < 0 {
			o = FromBound
		}
		if len(states) == 0 {
			if f.y < 0 {
				out = append(out, newCand(cmp(p, syntax.Ge, f.expr(prog, p), num(p, 0)), o),
					newCand(cmp(p, syntax.Le, f.expr(prog, p), num(p, 0)), o))
			}
			continue
		}
		lo, hi := f.value(states[0]), f.value(states[0])
		for _, s := range states[1:] {
			v := f.value(s)
			if v.Cmp(lo) < 0 {
				lo = v
			}
			if v.Cmp(hi) > 0 {
				hi = v
			}
		}
		// upper bounds: the two smallest constants >= hi; lower: the two largest <= lo
		up, down := 0, 0
		for _, c := range consts {
			if up < 2 && integer.Of(c).Cmp(hi) >= 0 {
				out = append(out, newCand(cmp(p, syntax.Le, f.expr(prog, p), num(p, c)), o))
				up++
			}
		}
		for i := len(consts) - 1; i >= 0; i-- {
			if c := consts[i]; down < 2 && integer.Of(c).Cmp(lo) <= 0 {
				out = append(out, newCand(cmp(p, syntax.Ge, f.expr(prog, p), num(p, c)), o))
				down++
			}
		}
	}
	return out
}

// boundName is a name for a quantifier's variable that no variable or array of the program has.
func boundName(prog *syntax.Program) string {
	for i := 0; ; i++ {
		name := "k"
		if i > 0 {
			name = fmt.Sprintf("k%d", i)
		}
		if prog.VarIndex(name) < 0 && prog.ArrayIndex(name) == nil {
			return name
		}
	}
}

// substA is a with every read of the variable index i replaced by the bound variable (level 0);
// ok is false when a holds a quantifier's bound variable already.
func substA(a syntax.AExpr, i int, k *syntax.BoundRef) (syntax.AExpr, bool) {
	switch a := a.(type) {
	case *syntax.Num:
		return a, true
	case *syntax.Var:
		if a.Index == i {
			return k, true
		}
		return a, true
	case *syntax.Neg:
		x, ok := substA(a.X, i, k)
		return &syntax.Neg{P: a.P, X: x}, ok
	case *syntax.BinA:
		l, ok1 := substA(a.L, i, k)
		r, ok2 := substA(a.R, i, k)
		return &syntax.BinA{P: a.P, Op: a.Op, L: l, R: r}, ok1 && ok2
	case *syntax.Elem:
		x, ok := substA(a.I, i, k)
		return &syntax.Elem{P: a.P, Arr: a.Arr, I: x}, ok
	case *syntax.BoundRef:
		return a, false
	default:
		panic(fmt.Sprintf("infer.substA: unknown expression %T", a))
	}
}

// substB is substA on a condition without quantifiers.
func substB(b syntax.BExpr, i int, k *syntax.BoundRef) (syntax.BExpr, bool) {
	switch b := b.(type) {
	case *syntax.BoolLit:
		return b, true
	case *syntax.Cmp:
		l, ok1 := substA(b.L, i, k)
		r, ok2 := substA(b.R, i, k)
		return &syntax.Cmp{P: b.P, Op: b.Op, L: l, R: r}, ok1 && ok2
	case *syntax.Not:
		x, ok := substB(b.X, i, k)
		return &syntax.Not{P: b.P, X: x}, ok
	case *syntax.BinB:
		l, ok1 := substB(b.L, i, k)
		r, ok2 := substB(b.R, i, k)
		return &syntax.BinB{P: b.P, Op: b.Op, L: l, R: r}, ok1 && ok2
	case *syntax.Quant:
		return b, false
	default:
		panic(fmt.Sprintf("infer.substB: unknown condition %T", b))
	}
}

// elemProps are the properties P(k) of an element a[k] the program states: for each write
// a[i] = e (i a variable), a[k] == e[i := k]; for each comparison of a claim or condition that
// reads a[i] (i a variable), the comparison with i := k. Each with its array.
func elemProps(prog *syntax.Program, k *syntax.BoundRef) (props []syntax.BExpr, arrs []*syntax.Array) {
	seen := map[string]bool{}
	add := func(b syntax.BExpr, a *syntax.Array) {
		t := syntax.PrintB(b)
		if !seen[t] {
			seen[t] = true
			props, arrs = append(props, b), append(arrs, a)
		}
	}
	syntax.Inspect(prog.Body, func(n syntax.Node) bool {
		w, ok := n.(*syntax.ArrAssign)
		if !ok {
			return true
		}
		if i, ok := w.I.(*syntax.Var); ok {
			rhs, ok := substA(w.A, i.Index, k)
			if ok {
				add(&syntax.Cmp{P: w.Pos(), Op: syntax.Eq, L: &syntax.Elem{P: w.Pos(), Arr: w.Arr, I: k}, R: rhs}, w.Arr)
			}
		}
		return true
	})
	for _, c := range conditions(prog) {
		syntax.Inspect(c, func(n syntax.Node) bool {
			if _, ok := n.(*syntax.Quant); ok {
				return false
			}
			x, ok := n.(*syntax.Cmp)
			if !ok {
				return true
			}
			syntax.Inspect(x, func(m syntax.Node) bool {
				e, ok := m.(*syntax.Elem)
				if !ok {
					return true
				}
				if i, ok := e.I.(*syntax.Var); ok {
					if b, ok := substB(x, i.Index, k); ok {
						add(b, e.Arr)
					}
				}
				return true
			})
			return true
		})
	}
	return props, arrs
}

// arrayCands are forall k in lo..h: P(k) for each property of elemProps, lo the array's low
// bound, h its high bound or v - 1 for each variable v.
func arrayCands(prog *syntax.Program, p syntax.Pos) []*Candidate {
	if len(prog.Arrays) == 0 {
		return nil
	}
	k := &syntax.BoundRef{P: p, Name: boundName(prog), Level: 0}
	props, arrs := elemProps(prog, k)
	var out []*Candidate
	for j, b := range props {
		a := arrs[j]
		his := []syntax.AExpr{num(p, a.Hi)}
		for v := range prog.Vars {
			his = append(his, bin(p, syntax.Sub, variable(prog, p, v), num(p, 1)))
		}
		for _, h := range his {
			q := &syntax.Quant{P: p, Name: k.Name, Level: 0, Lo: num(p, a.Lo), Hi: h, Body: b}
			out = append(out, newCand(q, FromArray))
		}
	}
	return out
}

// holdsOn reports whether the condition is defined and true in every store.
func holdsOn(c syntax.BExpr, states []spec.Store) bool {
	for _, s := range states {
		if v, ok := spec.EvalB(c, s); !ok || !v {
			return false
		}
	}
	return true
}

func bigNum(p syntax.Pos, v *big.Int) syntax.AExpr {
	return &syntax.Num{P: p, Val: integer.FromBig(v)}
}

func bigNumSigned(p syntax.Pos, v *big.Int) syntax.AExpr {
	return bigNum(p, v)
}
