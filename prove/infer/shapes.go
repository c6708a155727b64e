package infer

import (
	"fmt"
	"sort"

	"certsym/spec"
	"certsym/spec/integer"
	"certsym/spec/syntax"
)

// The bounds of the modular and disjunctive templates (docs/infer.md).
const (
	// MaxModuli bounds the moduli k of x % k == c: the smallest of 2, the program's literal
	// divisors and its constants up to maxSmallModulus.
	MaxModuli = 4
	// MaxGuardDisjunctions bounds the candidates g or q of a loop (g an atom of its condition,
	// q an atom of a claim of the program).
	MaxGuardDisjunctions = 24
	// MaxSplitAtoms bounds the atoms of the program's branch and loop conditions that split a
	// loop's sampled states for the conditional candidates.
	MaxSplitAtoms = 6
	// MaxConditional bounds the conditional candidates (not g or P) of a loop, maxPerSplit
	// those of one atom's polarity.
	MaxConditional = 48
	maxPerSplit    = 6
	// maxSplitClaimAtoms bounds the atoms of claims that split the states.
	maxSplitClaimAtoms = 4
	// maxSmallModulus is the largest constant of the program taken as a modulus unless it is a
	// divisor of the program.
	maxSmallModulus = 16
)

// Moduli are the moduli of the modular template: 2, the positive literals the program divides
// by (/ and %), and its constants from 3 to maxSmallModulus; the MaxModuli smallest.
func Moduli(prog *syntax.Program) []int64 {
	set := map[int64]bool{2: true}
	syntax.Inspect(prog.Body, func(n syntax.Node) bool {
		if b, ok := n.(*syntax.BinA); ok && (b.Op == syntax.Mod || b.Op == syntax.Div) {
			if x, ok := b.R.(*syntax.Num); ok {
				if v, small := x.Val.Int64(); small && v >= 2 {
					set[v] = true
				}
			}
		}
		return true
	})
	for _, c := range Constants(prog) {
		if c >= 3 && c <= maxSmallModulus {
			set[c] = true
		}
	}
	out := make([]int64, 0, len(set))
	for v := range set {
		out = append(out, v)
	}
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	if len(out) > MaxModuli {
		out = out[:MaxModuli]
	}
	return out
}

// modularCands are x % k == c for each variable x and modulus k, c the remainder of x in the
// first sampled state (the filter drops those another state breaks). With no state, none.
func modularCands(prog *syntax.Program, p syntax.Pos, states []spec.Store, moduli []int64) []*Candidate {
	if len(states) == 0 {
		return nil
	}
	var out []*Candidate
	for x := range prog.Vars {
		for _, k := range moduli {
			c := states[0][x].Rem(integer.Of(k))
			e := bin(p, syntax.Mod, variable(prog, p, x), num(p, k))
			out = append(out, newCand(cmp(p, syntax.Eq, e, &syntax.Num{P: p, Val: c}), FromModular))
		}
	}
	return out
}

// scalarAtoms are the comparisons over variables and constants of the conditions, without
// repeats, in the order of the text.
func scalarAtoms(conds []syntax.BExpr) []*syntax.Cmp {
	var out []*syntax.Cmp
	seen := map[string]bool{}
	for _, c := range conds {
		syntax.Inspect(c, func(n syntax.Node) bool {
			if _, ok := n.(*syntax.Quant); ok {
				return false
			}
			x, ok := n.(*syntax.Cmp)
			if !ok || !scalarOnly(x) {
				return true
			}
			if t := syntax.PrintB(x); !seen[t] {
				seen[t] = true
				out = append(out, x)
			}
			return true
		})
	}
	return out
}

// claimConds are the conditions of the program's asserts.
func claimConds(prog *syntax.Program) []syntax.BExpr {
	var out []syntax.BExpr
	syntax.Inspect(prog.Body, func(n syntax.Node) bool {
		if a, ok := n.(*syntax.Assert); ok {
			out = append(out, a.Cond)
		}
		return true
	})
	return out
}

// branchConds are the conditions of the program's if and while statements.
func branchConds(prog *syntax.Program) []syntax.BExpr {
	var out []syntax.BExpr
	syntax.Inspect(prog.Body, func(n syntax.Node) bool {
		switch s := n.(type) {
		case *syntax.If:
			out = append(out, s.Cond)
		case *syntax.While:
			out = append(out, s.Cond)
		}
		return true
	})
	return out
}

func or(p syntax.Pos, l, r syntax.BExpr) syntax.BExpr {
	return &syntax.BinB{P: p, Op: syntax.Or, L: l, R: r}
}

// claimAtoms are the comparisons over variables and constants of the program's asserts, each
// as the claim needs it to hold (negated under a not), without repeats.
func claimAtoms(prog *syntax.Program) []*syntax.Cmp {
	var out []*syntax.Cmp
	seen := map[string]bool{}
	var walk func(b syntax.BExpr, neg bool)
	walk = func(b syntax.BExpr, neg bool) {
		switch b := b.(type) {
		case *syntax.Cmp:
			if !scalarOnly(b) {
				return
			}
			x := b
			if neg {
				x = &syntax.Cmp{P: b.P, Op: b.Op.Negate(), L: b.L, R: b.R}
			}
			if t := syntax.PrintB(x); !seen[t] {
				seen[t] = true
				out = append(out, x)
			}
		case *syntax.Not:
			walk(b.X, !neg)
		case *syntax.BinB:
			walk(b.L, neg)
			walk(b.R, neg)
		case *syntax.BoolLit, *syntax.Quant:
		default:
			panic(fmt.Sprintf("infer.claimAtoms: unknown condition %T", b))
		}
	}
	for _, c := range claimConds(prog) {
		walk(c, false)
	}
	return out
}

// guardCands are g or q for each atom g of the loop's condition, then of the program's other
// branch and loop conditions, and q of a claim of the program (as the claim needs it), when q
// does not hold in every sampled state (the exit of the loop, or a phase of it, gives q where g
// fails); at most MaxGuardDisjunctions.
func guardCands(prog *syntax.Program, w *syntax.While, states []spec.Store) []*Candidate {
	p := w.Pos()
	var out []*Candidate
	gs := scalarAtoms(append([]syntax.BExpr{w.Cond}, branchConds(prog)...))
	qs := claimAtoms(prog)
	for _, g := range gs {
		for _, q := range qs {
			if len(out) == MaxGuardDisjunctions {
				return out
			}
			if holdsOn(q, states) {
				continue
			}
			out = append(out, newCand(or(p, g, q), FromDisjunction))
		}
	}
	return out
}

// conditionalCands are not g or P for each atom g of the program's branch and loop conditions
// (at most MaxSplitAtoms) or of its claims (at most maxSplitClaimAtoms more) and its negation,
// P an equality, a bound, a modular fact or a comparison of the program's conditions (as in
// conditionCands) that holds in the sampled states where g holds but not in all of them: the
// invariant of one branch of the loop's history. At most maxPerSplit for each atom's
// polarity, MaxConditional in all.
func conditionalCands(prog *syntax.Program, w *syntax.While, states []spec.Store, consts, moduli []int64) []*Candidate {
	p := w.Pos()
	atoms := scalarAtoms(branchConds(prog))
	if len(atoms) > MaxSplitAtoms {
		atoms = atoms[:MaxSplitAtoms]
	}
	for _, q := range claimAtoms(prog) {
		if len(atoms) < MaxSplitAtoms+maxSplitClaimAtoms {
			atoms = append(atoms, q)
		}
	}
	conds := conditionCands(prog, p)
	var out []*Candidate
	seen := map[string]bool{}
	for _, a := range atoms {
		for _, g := range []*syntax.Cmp{a, {P: a.P, Op: a.Op.Negate(), L: a.L, R: a.R}} {
			var in []spec.Store
			for _, s := range states {
				if v, ok := spec.EvalB(g, s); ok && v {
					in = append(in, s)
				}
			}
			if len(in) == 0 || len(in) == len(states) {
				continue
			}
			notG := &syntax.Cmp{P: p, Op: g.Op.Negate(), L: g.L, R: g.R}
			var ps []*Candidate
			ps = append(ps, equalities(prog, p, in, MaxSplitStates)...)
			ps = append(ps, modularCands(prog, p, in, moduli)...)
			ps = append(ps, boundCands(prog, p, in, consts)...)
			ps = append(ps, conds...)
			split := 0
			for _, c := range ps {
				if len(out) == MaxConditional {
					return out
				}
				if split == maxPerSplit {
					break
				}
				if !holdsOn(c.Cond, in) || holdsOn(c.Cond, states) || sameOperands(c.Cond, g) {
					continue
				}
				d := newCand(or(p, notG, c.Cond), FromDisjunction)
				if !seen[d.Text] {
					seen[d.Text] = true
					out = append(out, d)
					split++
				}
			}
		}
	}
	return out
}

// boundCands are x <= c and x >= c for each variable x, c the tightest constant of the program
// bounding it in the states, each side.
func boundCands(prog *syntax.Program, p syntax.Pos, states []spec.Store, consts []int64) []*Candidate {
	var out []*Candidate
	for x := range prog.Vars {
		lo, hi := states[0][x], states[0][x]
		for _, s := range states[1:] {
			if s[x].Cmp(lo) < 0 {
				lo = s[x]
			}
			if s[x].Cmp(hi) > 0 {
				hi = s[x]
			}
		}
		for _, c := range consts {
			if integer.Of(c).Cmp(hi) >= 0 {
				out = append(out, newCand(cmp(p, syntax.Le, variable(prog, p, x), num(p, c)), FromBound))
				break
			}
		}
		for i := len(consts) - 1; i >= 0; i-- {
			if integer.Of(consts[i]).Cmp(lo) <= 0 {
				out = append(out, newCand(cmp(p, syntax.Ge, variable(prog, p, x), num(p, consts[i])), FromBound))
				break
			}
		}
	}
	return out
}

// exitCands are the loop's condition's atoms l < r, l <= r, l > r, l >= r widened by a step d
// (d a modulus: a loop that counts by d may leave up to d - 1 past its bound): l <= r + d - 1,
// l <= r + d, l >= r - (d - 1), l >= r - d.
func exitCands(w *syntax.While, moduli []int64) []*Candidate {
	p := w.Pos()
	var out []*Candidate
	for _, g := range scalarAtoms([]syntax.BExpr{w.Cond}) {
		for _, d := range moduli {
			switch g.Op {
			case syntax.Lt:
				out = append(out, newCand(cmp(p, syntax.Le, g.L, bin(p, syntax.Add, g.R, num(p, d-1))), FromExit))
			case syntax.Le:
				out = append(out, newCand(cmp(p, syntax.Le, g.L, bin(p, syntax.Add, g.R, num(p, d))), FromExit))
			case syntax.Gt:
				out = append(out, newCand(cmp(p, syntax.Ge, g.L, bin(p, syntax.Sub, g.R, num(p, d-1))), FromExit))
			case syntax.Ge:
				out = append(out, newCand(cmp(p, syntax.Ge, g.L, bin(p, syntax.Sub, g.R, num(p, d))), FromExit))
			}
		}
	}
	return out
}

// MaxSlackCands bounds the slack candidates of a loop.
const MaxSlackCands = 24

// slack is a comparison read as hi - lo > 0 (strict) or hi - lo >= 0; ok is false for == and !=.
func slack(c *syntax.Cmp) (hi, lo syntax.AExpr, strict, ok bool) {
	switch c.Op {
	case syntax.Lt:
		return c.R, c.L, true, true
	case syntax.Le:
		return c.R, c.L, false, true
	case syntax.Gt:
		return c.L, c.R, true, true
	case syntax.Ge:
		return c.L, c.R, false, true
	}
	return nil, nil, false, false
}

// plus is l + r, without a literal 0.
func plus(p syntax.Pos, l, r syntax.AExpr) syntax.AExpr {
	if n, ok := r.(*syntax.Num); ok && n.Val.IsZero() {
		return l
	}
	if n, ok := l.(*syntax.Num); ok && n.Val.IsZero() {
		return r
	}
	return bin(p, syntax.Add, l, r)
}

// slackCands combine each atom of a claim of the program with each atom of the loop's
// condition: the claim's slack (qhi - qlo) at least the condition's (ghi - glo), adjusted by
// their strictness, written qhi + glo >= qlo + ghi + d (and + d + 1): while the loop runs (the condition's
// slack positive) the claim holds, as when a counter that counts down to the claim's bound and
// the loop's counter that counts up keep their sum.
func slackCands(prog *syntax.Program, w *syntax.While) []*Candidate {
	p := w.Pos()
	var out []*Candidate
	for _, g := range scalarAtoms([]syntax.BExpr{w.Cond}) {
		ghi, glo, gs, ok := slack(g)
		if !ok {
			continue
		}
		for _, q := range claimAtoms(prog) {
			qhi, qlo, qs, ok := slack(q)
			if !ok {
				continue
			}
			if len(out) >= MaxSlackCands {
				return out
			}
			d := int64(0)
			if qs {
				d++
			}
			if gs {
				d--
			}
			// d, and d + 1 for a bound written with an offset (j <= n - 1 for j < n)
			for _, e := range []int64{d, d + 1} {
				rhs := plus(p, qlo, ghi)
				if e != 0 {
					rhs = plus(p, rhs, num(p, e))
				}
				out = append(out, newCand(cmp(p, syntax.Ge, plus(p, qhi, glo), rhs), FromSlack))
			}
		}
	}
	return out
}

// claimCands are the program's claims over variables and constants, whole (a disjunction
// among them): the claim itself may be the invariant.
func claimCands(prog *syntax.Program, p syntax.Pos) []*Candidate {
	var out []*Candidate
	for _, c := range claimConds(prog) {
		if _, atom := c.(*syntax.Cmp); atom || !scalarOnly(c) {
			continue
		}
		out = append(out, newCand(c, FromCondition))
	}
	return out
}

// sameOperands reports whether the condition is a comparison of the atom's two sides (then
// not g or P is true or P itself).
func sameOperands(c syntax.BExpr, g *syntax.Cmp) bool {
	x, ok := c.(*syntax.Cmp)
	if !ok {
		return false
	}
	l, r, gl, gr := syntax.PrintA(x.L), syntax.PrintA(x.R), syntax.PrintA(g.L), syntax.PrintA(g.R)
	return l == gl && r == gr || l == gr && r == gl
}
