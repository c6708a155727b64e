package spec

// resolve numbers the variables of prog in order of first occurrence and builds the nodes the
// semantics refers to: the Fail of each statement that divides, the Fail of each assert, and the
// unfolding of each while ([S-While]).
func resolve(prog *Program) {
	idx := map[string]int{}
	divErr := func(l Loc, divides bool) *Fail {
		if !divides {
			return nil
		}
		return &Fail{Loc: l, Kind: FailDivZero}
	}
	// Inspect meets an assignment's target before its expression and a condition before the
	// branches or body, which is the order of first occurrence that numbers the variables.
	Inspect(prog.Body, func(n Node) bool {
		switch st := n.(type) {
		case *Var:
			i, ok := idx[st.Name]
			if !ok {
				i = len(prog.Vars)
				idx[st.Name] = i
				prog.Vars = append(prog.Vars, st.Name)
			}
			st.Index = i
		case *Assign:
			st.Err = divErr(st.Loc, HasDivA(st.A))
		case *If:
			st.Err = divErr(st.Loc, HasDivB(st.Cond))
		case *While:
			st.Unfold = &If{Loc: st.Loc, Cond: st.Cond, Then: &Seq{st.Body, st}, Else: &Skip{st.Loc},
				Err: divErr(st.Loc, HasDivB(st.Cond))}
		case *Assume:
			st.Err = divErr(st.Loc, HasDivB(st.Cond))
		case *Assert:
			st.Err = divErr(st.Loc, HasDivB(st.Cond))
			st.Violation = &Fail{Loc: st.Loc, Kind: FailAssert}
		}
		return true
	})
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
