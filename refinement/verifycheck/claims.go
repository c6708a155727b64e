package verifycheck

import (
	"fmt"

	"certsym/spec"
	"certsym/spec/syntax"
	"certsym/verify"
)

// The check verify/claims: the claims of certsym verify are exactly those of the program, found
// by the layer's own walk of the syntax tree: one assert claim per assert and per explicit fail,
// one invariant claim per invariant clause of a loop (its own divisions and element reads being
// supporting claims, as an assert's), one division claim per division or remainder in each statement's own expressions, one index
// claim per element read and write whose index is not a constant in range.

// expectedClaims is the layer's own list of the program's claims: kind, statement and (for a
// division claim) the division, as keys.
func expectedClaims(s syntax.Stmt, out map[string]int) {
	key := func(kind string, st syntax.Stmt, d *syntax.BinA) string { return fmt.Sprintf("%s %p %p", kind, st, d) }
	ikey := func(st syntax.Stmt, i syntax.AExpr) string { return fmt.Sprintf("index %p %p", st, i) }
	var divsA func(a syntax.AExpr, st syntax.Stmt)
	var divsB func(b syntax.BExpr, st syntax.Stmt)
	divsA = func(a syntax.AExpr, st syntax.Stmt) {
		switch a := a.(type) {
		case *syntax.Elem: // an element read: its index claim, unless the index reads a
			// quantifier's bound variable (verify makes no claim of those: the claim would not be
			// a condition on the statement's store)
			divsA(a.I, st)
			if !syntax.UsesBound(a.I) && !spec.ConstInRange(a.Arr, a.I) { // a constant index in range cannot fail: no claim
				out[ikey(st, a.I)]++
			}
		case *syntax.Neg:
			divsA(a.X, st)
		case *syntax.BinA:
			divsA(a.L, st)
			divsA(a.R, st)
			// verify makes no claim of a divisor reading a bound variable, nor of a constant
			// non-zero divisor (it cannot fail)
			if (a.Op == syntax.Div || a.Op == syntax.Mod) && !syntax.UsesBound(a.R) && !spec.ConstNonZero(a.R) {
				out[key("division", st, a)]++
			}
		case *syntax.Num, *syntax.Var, *syntax.BoundRef:
		default:
			panic(fmt.Sprintf("verifycheck: expectedClaims: arithmetic expression %T", a))
		}
	}
	divsB = func(b syntax.BExpr, st syntax.Stmt) {
		switch b := b.(type) {
		case *syntax.Quant:
			divsA(b.Lo, st)
			divsA(b.Hi, st)
			divsB(b.Body, st)
		case *syntax.Cmp:
			divsA(b.L, st)
			divsA(b.R, st)
		case *syntax.Not:
			divsB(b.X, st)
		case *syntax.BinB:
			divsB(b.L, st)
			divsB(b.R, st)
		case *syntax.BoolLit:
		default:
			panic(fmt.Sprintf("verifycheck: expectedClaims: condition %T", b))
		}
	}
	switch s := s.(type) {
	case *syntax.Seq:
		expectedClaims(s.First, out)
		expectedClaims(s.Second, out)
	case *syntax.Assign:
		divsA(s.A, s)
	case *syntax.ArrAssign:
		divsA(s.I, s)
		divsA(s.A, s)
		if !spec.ConstInRange(s.Arr, s.I) {
			out[ikey(s, s.I)]++
		}
	case *syntax.If:
		divsB(s.Cond, s)
		expectedClaims(s.Then, out)
		expectedClaims(s.Else, out)
	case *syntax.While:
		divsB(s.Cond, s)
		for _, inv := range s.Invariants { // one invariant claim per clause, at the clause
			out[key("invariant", inv, nil)]++
		}
		expectedClaims(s.Body, out)
	case *syntax.Assume:
		divsB(s.Cond, s)
	case *syntax.Assert:
		// its divisions and element reads are supporting primitive claims of the assert
		// (xSymExe, Section IV-A), not claims of their own
		out[key("assert", s, nil)]++
	case *syntax.Fail:
		out[key("assert", s, nil)]++
	case *syntax.Skip:
	default:
		panic(fmt.Sprintf("verifycheck: expectedClaims: statement %T", s))
	}
}

// checkClaimSet is verify/claims.
func (c vchecker) checkClaimSet(rep *verify.Report, mode string) {
	want := map[string]int{}
	expectedClaims(c.U.Prog.Body, want)
	got := map[string]int{}
	for _, cl := range rep.Claims {
		kind, d := "assert", (*syntax.BinA)(nil)
		switch cl.Kind {
		case verify.ClaimDivision:
			kind, d = "division", cl.Div
		case verify.ClaimIndex:
			got[fmt.Sprintf("index %p %p", cl.Stmt, cl.Index)]++
			continue
		case verify.ClaimInvariant:
			kind = "invariant"
		case verify.ClaimAssert:
		default:
			panic(fmt.Sprintf("verifycheck: claim kind %v", cl.Kind))
		}
		got[fmt.Sprintf("%s %p %p", kind, cl.Stmt, d)]++
	}
	if len(got) == len(want) {
		same := true
		for k, n := range want {
			if got[k] != n {
				same = false
				break
			}
		}
		if same {
			return
		}
	}
	nw, ng := 0, 0
	for _, n := range want {
		nw += n
	}
	for _, n := range got {
		ng += n
	}
	c.Report("verify/claims", "", -1, "%s: verify has %d claims %s, the program has %d (its asserts, explicit fails, invariant clauses, divisions and remainders)",
		mode, ng, claimNames(rep.Claims), nw)
}
