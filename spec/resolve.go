package spec

import "fmt"

// resolve numbers the variables of prog in order of first occurrence, links each element read and
// write to its declared array (checking that array names and scalar names are used as such, and
// that bound variables are named like no variable or array), lays out the arrays after the
// variables in the concrete store, and builds the nodes the semantics refers to: the Fail of each
// statement that can divide (Err) or index out of range (IdxErr), the Fail of each assert, and
// the unfolding of each while ([S-While]). fail reports a misuse at its position.
func resolve(prog *Program, fail func(Pos, string, ...any)) {
	arrays := map[string]*Array{}
	for _, a := range prog.Arrays {
		arrays[a.Name] = a
	}
	// The scalar names, for the messages and the bound-variable check.
	scalars := map[string]Pos{}
	assigned := map[string]Pos{} // the first assignment of each scalar
	Inspect(prog.Body, func(n Node) bool {
		switch x := n.(type) {
		case *Var:
			if _, seen := scalars[x.Name]; !seen {
				scalars[x.Name] = x.P
			}
		case *Assign:
			if _, seen := assigned[x.X.Name]; !seen {
				assigned[x.X.Name] = x.P
			}
		}
		return true
	})
	array := func(a *Array, at Pos) *Array {
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
	mk := func(l Loc, k FailKind, can bool) *Fail {
		if !can {
			return nil
		}
		return &Fail{Loc: l, Kind: k}
	}
	// Inspect meets an assignment's target before its expression and a condition before the
	// branches or body, which is the order of first occurrence that numbers the variables.
	Inspect(prog.Body, func(n Node) bool {
		switch st := n.(type) {
		case *Var:
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
		case *Elem:
			st.Arr = array(st.Arr, st.P)
		case *Quant:
			if d := arrays[st.Name]; d != nil {
				fail(st.P, "bound variable %s has the name of an array of the program (line %d)", st.Name, d.P.Line)
			}
			if p, ok := assigned[st.Name]; ok {
				fail(p, "cannot assign %s: it is the bound variable of the quantifier at %d:%d (bound variables are read-only and never named like a variable of the program)", st.Name, st.P.Line, st.P.Col)
			}
			if p, ok := scalars[st.Name]; ok {
				fail(st.P, "bound variable %s has the name of a variable of the program (line %d); bound variables are read-only and never named like a variable", st.Name, p.Line)
			}
		case *Assign:
			st.Err = mk(st.Loc, FailDivZero, HasDivA(st.A))
			st.IdxErr = mk(st.Loc, FailIndex, HasIndex(st.A))
		case *ArrAssign:
			st.Arr = array(st.Arr, st.Arr.P)
			st.Err = mk(st.Loc, FailDivZero, HasDivA(st.I) || HasDivA(st.A))
			st.IdxErr = mk(st.Loc, FailIndex, true)
		case *If:
			st.Err = mk(st.Loc, FailDivZero, HasDivB(st.Cond))
			st.IdxErr = mk(st.Loc, FailIndex, HasIndex(st.Cond))
		case *While:
			st.Unfold = &If{Loc: st.Loc, Cond: st.Cond, Then: &Seq{st.Body, st}, Else: &Skip{st.Loc},
				Err: mk(st.Loc, FailDivZero, HasDivB(st.Cond)), IdxErr: mk(st.Loc, FailIndex, HasIndex(st.Cond))}
		case *Assume:
			st.Err = mk(st.Loc, FailDivZero, HasDivB(st.Cond))
			st.IdxErr = mk(st.Loc, FailIndex, HasIndex(st.Cond))
		case *Assert:
			st.Err = mk(st.Loc, FailDivZero, HasDivB(st.Cond))
			st.IdxErr = mk(st.Loc, FailIndex, HasIndex(st.Cond))
			st.Violation = &Fail{Loc: st.Loc, Kind: FailAssert}
		}
		return true
	})
	off := len(prog.Vars)
	for _, a := range prog.Arrays {
		a.Offset = off
		off += a.Size()
	}
}

// rightNest re-associates every sequence to s1 ; (s2 ; (... ; sn)), the form the parser gives a
// source sequence, so that inlined macro bodies print and re-parse to the same tree.
func rightNest(s Stmt) Stmt {
	var flat []Stmt
	var walk func(Stmt)
	walk = func(s Stmt) {
		switch t := s.(type) {
		case *Seq:
			walk(t.First)
			walk(t.Second)
		case *If:
			t.Then, t.Else = rightNest(t.Then), rightNest(t.Else)
			flat = append(flat, t)
		case *While:
			t.Body = rightNest(t.Body)
			flat = append(flat, t)
		case *Skip, *Fail, *Assign, *ArrAssign, *Assume, *Assert:
			flat = append(flat, s)
		default:
			panic(fmt.Sprintf("spec: unknown statement %T", s))
		}
	}
	walk(s)
	out := flat[len(flat)-1]
	for k := len(flat) - 2; k >= 0; k-- {
		out = &Seq{flat[k], out}
	}
	return out
}
