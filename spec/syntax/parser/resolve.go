package parser

import (
	"certsym/spec/syntax"
)

import "fmt"

// resolve numbers the variables of prog in order of first occurrence, links each element read and
// write to its declared array (checking that array names and scalar names are used as such, and
// that bound variables are named like no variable or array), lays out the arrays after the
// variables in the concrete store, and builds the nodes the semantics refers to: the Fail of each
// statement that can divide (Err) or index out of range (IdxErr), the Fail of each assert and of
// each invariant clause, and the unfolding and entry of each while ([S-While], [S-While-Inv]). fail reports a misuse at its position.
func resolve(prog *syntax.Program, fail func(syntax.Pos, string, ...any)) {
	arrays := map[string]*syntax.Array{}
	for _, a := range prog.Arrays {
		arrays[a.Name] = a
	}
	// The scalar names, for the messages and the bound-variable check.
	scalars := map[string]syntax.Pos{}
	assigned := map[string]syntax.Pos{} // the first assignment of each scalar
	syntax.Inspect(prog.Body, func(n syntax.Node) bool {
		switch x := n.(type) {
		case *syntax.Var:
			if _, seen := scalars[x.Name]; !seen {
				scalars[x.Name] = x.P
			}
		case *syntax.Assign:
			if _, seen := assigned[x.X.Name]; !seen {
				assigned[x.X.Name] = x.P
			}
		}
		return true
	})
	array := func(a *syntax.Array, at syntax.Pos) *syntax.Array {
		if d := arrays[a.Name]; d != nil {
			return d
		}
		if p, ok := scalars[a.Name]; ok {
			fail(at, "%s is a variable (line %d), not an array: it takes no index", a.Name, p.Line)
		}
		fail(at, "unknown array %s (declare it before the statements: array %s[lo..hi];)", a.Name, a.Name)
		return nil
	}
	idx := map[string]int{}
	invariant := map[*syntax.Assert]bool{} // the clauses of the loops met so far
	mk := func(l syntax.Loc, k syntax.FailKind, can bool) *syntax.Fail {
		if !can {
			return nil
		}
		return &syntax.Fail{Loc: l, Kind: k}
	}
	// Inspect meets an assignment's target before its expression and a condition before the
	// branches or body, which is the order of first occurrence that numbers the variables.
	syntax.Inspect(prog.Body, func(n syntax.Node) bool {
		switch st := n.(type) {
		case *syntax.Var:
			if d := arrays[st.Name]; d != nil {
				fail(st.P, "%s is an array (declared at line %d): use one of its elements, %s[...]", st.Name, d.P.Line, st.Name)
			}
			i, ok := idx[st.Name]
			if !ok {
				i = len(prog.Vars)
				idx[st.Name] = i
				prog.Vars = append(prog.Vars, st.Name)
			}
			st.Index = i
		case *syntax.Elem:
			st.Arr = array(st.Arr, st.P)
		case *syntax.Quant:
			if d := arrays[st.Name]; d != nil {
				fail(st.P, "bound variable %s has the name of an array of the program (line %d)", st.Name, d.P.Line)
			}
			if p, ok := assigned[st.Name]; ok {
				fail(p, "cannot assign %s: it is the bound variable of the quantifier at %d:%d (bound variables are read-only and never named like a variable of the program)", st.Name, st.P.Line, st.P.Col)
			}
			if p, ok := scalars[st.Name]; ok {
				fail(st.P, "bound variable %s has the name of a variable of the program (line %d); bound variables are read-only and never named like a variable", st.Name, p.Line)
			}
		case *syntax.Assign:
			st.Err = mk(st.Loc, syntax.FailDivZero, syntax.HasDivA(st.A))
			st.IdxErr = mk(st.Loc, syntax.FailIndex, syntax.HasIndex(st.A))
		case *syntax.ArrAssign:
			st.Arr = array(st.Arr, st.Arr.P)
			st.Err = mk(st.Loc, syntax.FailDivZero, syntax.HasDivA(st.I) || syntax.HasDivA(st.A))
			st.IdxErr = mk(st.Loc, syntax.FailIndex, true)
		case *syntax.If:
			st.Err = mk(st.Loc, syntax.FailDivZero, syntax.HasDivB(st.Cond))
			st.IdxErr = mk(st.Loc, syntax.FailIndex, syntax.HasIndex(st.Cond))
		case *syntax.While:
			unfold(st, mk)
			if len(st.Invariants) == 0 {
				break
			}
			// [S-While-Inv]: the loop steps to assert I1 ; ... ; assert In ; Loop, where Loop is
			// while b do (p ; assert I1 ; ... ; assert In) od.
			for _, inv := range st.Invariants {
				invariant[inv] = true
			}
			checks := make([]syntax.Stmt, 0, len(st.Invariants)+1)
			for _, inv := range st.Invariants {
				checks = append(checks, inv)
			}
			loop := &syntax.While{Loc: st.Loc, Cond: st.Cond, Body: &syntax.Seq{First: st.Body, Second: joinSeq(checks)}}
			unfold(loop, mk)
			st.Loop, st.Unfold = loop, loop.Unfold
			st.Entry = joinSeq(append(checks, loop))
		case *syntax.Assume:
			st.Err = mk(st.Loc, syntax.FailDivZero, syntax.HasDivB(st.Cond))
			st.IdxErr = mk(st.Loc, syntax.FailIndex, syntax.HasIndex(st.Cond))
		case *syntax.Assert:
			st.Err = mk(st.Loc, syntax.FailDivZero, syntax.HasDivB(st.Cond))
			st.IdxErr = mk(st.Loc, syntax.FailIndex, syntax.HasIndex(st.Cond))
			kind := syntax.FailAssert
			if invariant[st] { // Inspect meets a loop before its clauses
				kind = syntax.FailInvariant
			}
			st.Violation = &syntax.Fail{Loc: st.Loc, Kind: kind}
		}
		return true
	})
	off := len(prog.Vars)
	for _, a := range prog.Arrays {
		a.Offset = off
		off += a.Size()
	}
}

// unfold builds the unfolding of a loop without clauses, if b then (p ; while b do p od) else
// skip fi ([S-While]), and makes it the loop's Entry.
func unfold(w *syntax.While, mk func(syntax.Loc, syntax.FailKind, bool) *syntax.Fail) {
	w.Unfold = &syntax.If{Loc: w.Loc, Cond: w.Cond, Then: &syntax.Seq{First: w.Body, Second: w}, Else: &syntax.Skip{Loc: w.Loc},
		Err: mk(w.Loc, syntax.FailDivZero, syntax.HasDivB(w.Cond)), IdxErr: mk(w.Loc, syntax.FailIndex, syntax.HasIndex(w.Cond))}
	w.Entry = w.Unfold
}

// rightNest re-associates every sequence to s1 ; (s2 ; (... ; sn)), the form the parser gives a
// source sequence, so that inlined macro bodies print and re-parse to the same tree.
func rightNest(s syntax.Stmt) syntax.Stmt {
	var flat []syntax.Stmt
	var walk func(syntax.Stmt)
	walk = func(s syntax.Stmt) {
		switch t := s.(type) {
		case *syntax.Seq:
			walk(t.First)
			walk(t.Second)
		case *syntax.If:
			t.Then, t.Else = rightNest(t.Then), rightNest(t.Else)
			flat = append(flat, t)
		case *syntax.While:
			t.Body = rightNest(t.Body)
			flat = append(flat, t)
		case *syntax.Skip, *syntax.Fail, *syntax.Assign, *syntax.ArrAssign, *syntax.Assume, *syntax.Assert:
			flat = append(flat, s)
		default:
			panic(fmt.Sprintf("spec: unknown statement %T", s))
		}
	}
	walk(s)
	out := flat[len(flat)-1]
	for k := len(flat) - 2; k >= 0; k-- {
		out = &syntax.Seq{First: flat[k], Second: out}
	}
	return out
}
