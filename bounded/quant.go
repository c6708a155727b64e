package bounded

import (
	"fmt"

	"certsym/spec"
	"certsym/spec/integer"
	"certsym/spec/syntax"
	"certsym/sym"
)

// Quantifiers executed as loops bounded by the loop bound (Interp.QuantLoop, certsym verify).
//
// What the paper says (xSymExe, Sections II-A on Figure 1(b) and III-B3): Kiasan evaluates a
// quantifier as a loop over its range, under the same bound as the program's loops. When the
// bound runs out in the condition of an assume, the evaluation of that quantifier stops, the
// constraints gathered on the instances evaluated so far stay, the quantifier gets a
// nondeterministic value, and the path goes on flagged (g) as possibly over-approximating, it
// and all its successors; in any other statement, running out of the bound is a cutoff.
//
// How certsym does it (our design, not a transcription of Kiasan's code): a statement whose
// condition has quantifiers is split, before the observer sees it, into cases on the sizes of
// their ranges (a quantifier `Q k in lo..hi: b` is small when hi - lo + 1 <= N, big otherwise):
//
//   - every quantifier small: the statement runs as without QuantLoop (each quantifier decided
//     exactly, which is what the loop over at most N instances computes);
//   - some big: the bound runs out. The observer is shown the state with Trunc, the condition
//     with each big quantifier cut to its first N instances `Q k in lo..lo+(N-1): b` (so that a
//     claim can still be found FALSE or UNDEFINED on them). In an assume, the path goes on under
//     the condition with each big quantifier replaced by the value the loop leaves, a
//     nondeterministic one, and the normal successor's Over gets the assume (unless the
//     quantifiers were decided early, below); elsewhere the path is cut there: an Incomplete
//     result at the statement with QuantCut set.
//
// The nondeterministic value needs no fresh symbol: a boolean occurrence in an IMP condition has
// one polarity (IMP has not, and, or, and quantifiers, all monotone but not), and the path is
// kept when some value makes the condition true, so the weakest choice can be written down. A
// forall whose first N instances hold is true or false at the loop's exit, so its value is
// "first N hold, then anything": written `T` where it occurs positively and `(T and false)`
// where it occurs negatively (T the cut quantifier; the `and false` keeps T's evaluation, so its
// errors on the first N instances stay errors). Dually, an exists is `(E or true)` positively
// and `E` negatively. The admitted states are exactly those where some nondeterministic value
// makes the assume true.
//
// Differences from Kiasan, on purpose or for lack of detail in the paper:
//   - the normal successor of such an assume is split once more: where every big quantifier is
//     decided by its first N instances (a forall with a false one, an exists with a true one),
//     Kiasan's loop stops early without running out of the bound, and the path is not flagged;
//     elsewhere it is. When a big quantifier is nested in another quantifier, or its body can
//     fail (IMP evaluates every instance, so a later one can still fail: found by the refinement
//     layer's verify/replay on a generated program), every successor is flagged (conservative:
//     FALSE becomes FALSE? at worst);
//   - a quantifier whose range uses a bound variable (an inner quantifier over k's row) is
//     decided exactly, not looped; the others, nested or not, are split as above;
//   - at most MaxQuantSplit quantifiers of one condition are split (2^m cases); the others are
//     decided exactly;
//   - the range's upper end is evaluated before the instances, as in the concrete semantics:
//     when it can fail (it divides or reads an element), the cut end is written
//     `hi - (hi - (lo + (N-1)))` so that its errors are kept in order.

// MaxQuantSplit bounds the quantifiers of one condition that QuantLoop splits on (2^m cases).
const MaxQuantSplit = 6

// quantSites returns the quantifiers of cond that QuantLoop splits on: those whose range uses no
// bound variable, in the order of Inspect (outer ones first), at most MaxQuantSplit.
func quantSites(cond syntax.BExpr) []*syntax.Quant {
	var out []*syntax.Quant
	syntax.Inspect(cond, func(n syntax.Node) bool {
		if q, ok := n.(*syntax.Quant); ok && len(out) < MaxQuantSplit && !syntax.UsesBound(q.Lo) && !syntax.UsesBound(q.Hi) {
			out = append(out, q)
		}
		return true
	})
	return out
}

// sites returns the quantifiers QuantLoop splits on in the condition of s, computed once per
// statement; nil when QuantLoop is off or the condition has none.
func (b *Interp) sites(cond syntax.BExpr) []*syntax.Quant {
	if !b.QuantLoop || cond == nil {
		return nil
	}
	if qs, ok := b.quantSites[cond]; ok {
		return qs
	}
	if b.quantSites == nil {
		b.quantSites = map[syntax.BExpr][]*syntax.Quant{}
	}
	qs := quantSites(cond)
	b.quantSites[cond] = qs
	return qs
}

// condOf is the condition of an if, assert or assume (nil for the other statements; a while
// loop's condition is handled in interpLoop).
func condOf(s syntax.Stmt) syntax.BExpr {
	switch s := s.(type) {
	case *syntax.If:
		return s.Cond
	case *syntax.Assert:
		return s.Cond
	case *syntax.Assume:
		return s.Cond
	case *syntax.Skip, *syntax.Fail, *syntax.Assign, *syntax.ArrAssign, *syntax.Seq, *syntax.While:
		return nil
	default:
		panic(fmt.Sprintf("bounded: unknown statement %T", s))
	}
}

// smallRange is the condition hi - lo <= N - 1 of q: its range has at most N elements.
func smallRange(q *syntax.Quant, n int) syntax.BExpr {
	return &syntax.Cmp{P: q.P, Op: syntax.Le, L: &syntax.BinA{P: q.P, Op: syntax.Sub, L: q.Hi, R: q.Lo},
		R: &syntax.Num{P: q.P, Val: integer.Of(int64(n) - 1)}}
}

// cutEnd is the upper end of q's range cut to its first n instances: lo + (n-1), folded when lo
// is a literal, and written hi - (hi - (lo + (n-1))) when hi can fail, so that hi is still
// evaluated (before the instances, as the concrete semantics does).
func cutEnd(q *syntax.Quant, n int) syntax.AExpr {
	k := integer.Of(int64(n) - 1)
	end := syntax.AExpr(&syntax.BinA{P: q.P, Op: syntax.Add, L: q.Lo, R: &syntax.Num{P: q.P, Val: k}})
	if lo, ok := q.Lo.(*syntax.Num); ok {
		end = &syntax.Num{P: q.P, Val: lo.Val.Add(k)}
	}
	if syntax.HasIndex(q.Hi) || len(syntax.DivisorsA(q.Hi, nil)) > 0 {
		end = &syntax.BinA{P: q.P, Op: syntax.Sub, L: q.Hi, R: &syntax.BinA{P: q.P, Op: syntax.Sub, L: q.Hi, R: end}}
	}
	return end
}

// rewriteMode says what rewrite puts in place of a big quantifier.
type rewriteMode uint8

const (
	cutOnly    rewriteMode = iota // the quantifier over its first N instances (Trunc)
	nondetLoop                    // the loop's value: first N instances, then anything (assume)
)

// rewrite returns e with each quantifier of big replaced as mode says; pos is the polarity of e
// in the whole condition. Subexpressions without a big quantifier are shared, not copied.
func (b *Interp) rewrite(e syntax.BExpr, big map[*syntax.Quant]bool, mode rewriteMode, pos bool) syntax.BExpr {
	switch x := e.(type) {
	case *syntax.Not:
		if y := b.rewrite(x.X, big, mode, !pos); y != x.X {
			return &syntax.Not{P: x.P, X: y}
		}
	case *syntax.BinB:
		l, r := b.rewrite(x.L, big, mode, pos), b.rewrite(x.R, big, mode, pos)
		if l != x.L || r != x.R {
			return &syntax.BinB{P: x.P, Op: x.Op, L: l, R: r}
		}
	case *syntax.Quant:
		body := b.rewrite(x.Body, big, mode, pos)
		q := x
		if body != x.Body {
			q = &syntax.Quant{P: x.P, Exists: x.Exists, Name: x.Name, Level: x.Level, Lo: x.Lo, Hi: x.Hi, Body: body}
		}
		if !big[x] {
			return q
		}
		cut := &syntax.Quant{P: q.P, Exists: q.Exists, Name: q.Name, Level: q.Level, Lo: q.Lo, Hi: cutEnd(q, b.N), Body: q.Body}
		if mode == cutOnly {
			return cut
		}
		switch {
		case !q.Exists && !pos: // forall, negatively: first N hold, then false is admitted
			return &syntax.BinB{P: q.P, Op: syntax.And, L: cut, R: &syntax.BoolLit{P: q.P, Val: false}}
		case q.Exists && pos: // exists, positively: true is admitted
			return &syntax.BinB{P: q.P, Op: syntax.Or, L: cut, R: &syntax.BoolLit{P: q.P, Val: true}}
		}
		return cut
	case *syntax.BoolLit, *syntax.Cmp:
	default:
		panic(fmt.Sprintf("bounded: unknown condition %T", e))
	}
	return e
}

// quantCases runs statement s, whose condition cond has the quantifiers qs that QuantLoop splits
// on, from st: one case per choice of small or big range for each (the cases partition st, so
// on the ghost path exactly one keeps the ghost). The case with every range small runs exact(st).
// Each other case shows the observer the state with Trunc; an assume then goes on under the
// loop's nondeterministic value with Over set (assumeOver), any other statement is cut there.
// The results go to yield, exact's too (exact hands its own to yield).
func (b *Interp) quantCases(st State, s syntax.Stmt, cond syntax.BExpr, qs []*syntax.Quant, exact func(State), yield func(Result)) {
	small := make([]*sym.Formula, len(qs))
	for i, q := range qs {
		small[i], _, _, _ = b.terms.CondKinds(smallRange(q, b.N), st.Store)
	}
	ncase := 1 << len(qs)
	brs, anss := make([]State, ncase), make([]answer, ncase)
	want := -1
	for m := 0; m < ncase; m++ {
		parts := make([]*sym.Formula, len(qs))
		for i := range qs {
			parts[i] = small[i]
			if m&(1<<i) != 0 {
				parts[i] = sym.Not(small[i])
			}
		}
		f := sym.And(parts...)
		brs[m], anss[m] = b.branch(st, f)
		if st.Ghost != nil && f.Eval(st.Ghost.Rho) {
			want = m
		}
	}
	if st.Ghost != nil {
		b.ghostSplit(st, s, brs, anss, want)
	}
	for m := 0; m < ncase; m++ {
		switch anss[m] {
		case prune:
			continue
		case exhausted:
			yield(cutResult(brs[m], s))
			continue
		}
		if m == 0 {
			exact(brs[m])
			continue
		}
		big := map[*syntax.Quant]bool{}
		for i, q := range qs {
			if m&(1<<i) != 0 {
				big[q] = true
			}
		}
		seen := brs[m]
		seen.Trunc = b.rewrite(cond, big, cutOnly, true)
		if b.Observer != nil && !b.Observer.At(seen, s) {
			yield(Result{State: brs[m], Behaviour: spec.Incomplete, At: s, Cut: CutObserver})
			continue
		}
		if a, ok := s.(*syntax.Assume); ok {
			b.assumeOver(brs[m], a, b.rewrite(cond, big, nondetLoop, true), b.decidedEarly(cond, big, brs[m]), yield)
			continue
		}
		yield(Result{State: brs[m], Behaviour: spec.Incomplete, At: s, QuantCut: true})
	}
}

// decidedEarly is the condition under which each big quantifier of cond is decided by its first
// N instances, so that the loop that evaluates it stops before the bound runs out: a forall with
// a false instance among them, an exists with a true one (Section III-B3: no exhaustion, no
// flag). It is nil (never decided early) when a big quantifier is nested in another
// quantifier, whose instances it depends on, and when a big quantifier's body can fail (it
// divides or reads an element): IMP evaluates every instance (SEMANTICS.md, strict quantifiers),
// so an instance past the first N can still fail after the value is decided, and only the flag
// accounts for the runs that do.
func (b *Interp) decidedEarly(cond syntax.BExpr, big map[*syntax.Quant]bool, st State) *sym.Formula {
	var parts []*sym.Formula
	nested := false
	var walk func(e syntax.BExpr, inQuant bool)
	walk = func(e syntax.BExpr, inQuant bool) {
		switch x := e.(type) {
		case *syntax.Not:
			walk(x.X, inQuant)
		case *syntax.BinB:
			walk(x.L, inQuant)
			walk(x.R, inQuant)
		case *syntax.Quant:
			if big[x] && (inQuant || syntax.HasIndex(x.Body) || syntax.HasDivB(x.Body)) {
				nested = true // (or its later instances can fail)
			}
			if big[x] && !inQuant {
				v, _, _, _ := b.terms.CondKinds(b.rewrite(x, big, cutOnly, true), st.Store)
				if !x.Exists {
					v = sym.Not(v)
				}
				parts = append(parts, v)
			}
			walk(x.Body, true)
		case *syntax.BoolLit, *syntax.Cmp:
		default:
			panic(fmt.Sprintf("bounded: unknown condition %T", e))
		}
	}
	walk(cond, false)
	if nested || len(parts) == 0 {
		return nil
	}
	return sym.And(parts...)
}

// assumeOver is the assume a in a case where the bound ran out (xSymExe, Section III-B3): the
// assume's branches on loopCond, the condition with each big quantifier given the loop's
// nondeterministic value; the normal successor over-approximates, its Over gets a. On the ghost
// path, the ghost goes on only when loopCond and the assume's own condition agree on ρ's
// concrete store (same value, or the same kind of failure); otherwise the concrete run ends at
// a (infeasible, or an error on an instance past the first N) while the symbolic path goes on,
// and the ghost is dropped (ghostLost). The results go to yield.
func (b *Interp) assumeOver(st State, a *syntax.Assume, loopCond syntax.BExpr, early *sym.Formula, yield func(Result)) {
	if st.Ghost != nil {
		v1, k1, d1 := spec.EvalBKind(a.Cond, st.Ghost.Conc, nil)
		v2, k2, d2 := spec.EvalBKind(loopCond, st.Ghost.Conc, nil)
		if d1 != d2 || (d1 && v1 != v2) || (!d1 && k1 != k2) {
			st.Ghost = nil
			b.ghostLost = true
		}
	}
	br, ans := b.condBranches(st, a, loopCond, a.Err != nil, a.IdxErr != nil)
	if early != nil && ans[0] == keep {
		// the normal successor where every big quantifier is decided by its first N instances
		// is exact; the rest over-approximates
		ex, aEx := b.branch(br[0], early)
		ov, aOv := b.branch(br[0], sym.Not(early))
		if br[0].Ghost != nil {
			want := 1
			if early.Eval(br[0].Ghost.Rho) {
				want = 0
			}
			b.ghostSplit(br[0], a, []State{ex, ov}, []answer{aEx, aOv}, want)
		}
		ov.Over = &OverApprox{At: a, Prev: st.Over}
		leaf(aEx, Result{State: ex, Behaviour: spec.Normal}, a, yield)
		leaf(aOv, Result{State: ov, Behaviour: spec.Normal}, a, yield)
	} else {
		br[0].Over = &OverApprox{At: a, Prev: st.Over}
		leaf(ans[0], Result{State: br[0], Behaviour: spec.Normal}, a, yield)
	}
	leaf(ans[1], Result{State: br[1], Behaviour: spec.Infeasible, At: a}, a, yield)
	leaf(ans[2], Result{State: br[2], Behaviour: spec.Error, Fail: a.Err}, a, yield)
	leaf(ans[3], Result{State: br[3], Behaviour: spec.Error, Fail: a.IdxErr}, a, yield)
}

// Exhausts reports whether QuantLoop with loop bound n runs out of the bound at a statement with
// condition cond reached in the concrete store s: some quantifier it splits on has a range of
// more than n elements in s (the statement is then cut off, or, for an assume,
// over-approximated). A range whose ends are undefined in s does not count (the statement errs
// on them first). The refinement layer uses it to tell the concrete runs verify's bounds reach.
func Exhausts(cond syntax.BExpr, s spec.Store, n int) bool {
	for _, q := range quantSites(cond) {
		lo, ok1 := spec.Eval(q.Lo, s)
		hi, ok2 := spec.Eval(q.Hi, s)
		if ok1 && ok2 && hi.Sub(lo).Cmp(integer.Of(int64(n)-1)) > 0 {
			return true
		}
	}
	return false
}
