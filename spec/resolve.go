package spec

// resolve numbers the variables of prog in order of first occurrence and builds the nodes the
// semantics refers to: the Fail of each statement that divides, the Fail of each assert, and the
// unfolding of each while ([S-While]).
func resolve(prog *Program) {
	idx := map[string]int{}
	v := func(x *Var) {
		i, ok := idx[x.Name]
		if !ok {
			i = len(prog.Vars)
			idx[x.Name] = i
			prog.Vars = append(prog.Vars, x.Name)
		}
		x.Index = i
	}
	var a func(AExpr)
	a = func(e AExpr) {
		switch e := e.(type) {
		case *Var:
			v(e)
		case *Neg:
			a(e.X)
		case *BinA:
			a(e.L)
			a(e.R)
		}
	}
	var b func(BExpr)
	b = func(e BExpr) {
		switch e := e.(type) {
		case *Cmp:
			a(e.L)
			a(e.R)
		case *Not:
			b(e.X)
		case *BinB:
			b(e.L)
			b(e.R)
		}
	}
	divErr := func(l Loc, divides bool) *Fail {
		if !divides {
			return nil
		}
		return &Fail{Loc: l, Kind: FailDivZero}
	}
	var s func(Stmt)
	s = func(st Stmt) {
		switch st := st.(type) {
		case *Assign:
			v(st.X)
			a(st.A)
			st.Err = divErr(st.Loc, HasDivA(st.A))
		case *Seq:
			s(st.First)
			s(st.Second)
		case *If:
			b(st.Cond)
			st.Err = divErr(st.Loc, HasDivB(st.Cond))
			s(st.Then)
			s(st.Else)
		case *While:
			b(st.Cond)
			s(st.Body)
			st.Unfold = &If{Loc: st.Loc, Cond: st.Cond, Then: &Seq{st.Body, st}, Else: &Skip{st.Loc},
				Err: divErr(st.Loc, HasDivB(st.Cond))}
		case *Assume:
			b(st.Cond)
			st.Err = divErr(st.Loc, HasDivB(st.Cond))
		case *Assert:
			b(st.Cond)
			st.Err = divErr(st.Loc, HasDivB(st.Cond))
			st.Violation = &Fail{Loc: st.Loc, Kind: FailAssert}
		}
	}
	s(prog.Body)
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
		default:
			flat = append(flat, s)
		}
	}
	walk(s)
	out := flat[len(flat)-1]
	for k := len(flat) - 2; k >= 0; k-- {
		out = &Seq{flat[k], out}
	}
	return out
}
