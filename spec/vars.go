package spec

// VarsOf lists the names of the variables of s in order of first occurrence, the order in which
// the parser numbers a program's variables (Program.Vars): an assignment's target comes before
// the variables of its right-hand side, a condition's variables before those of its branches or
// body. It reads s only (resolve, which numbers the variables of a parsed program, also sets
// indices and builds error nodes); for a parsed program p, VarsOf(p.Body) equals p.Vars.
func VarsOf(s Stmt) []string {
	seen := map[string]bool{}
	var out []string
	add := func(x *Var) {
		if !seen[x.Name] {
			seen[x.Name] = true
			out = append(out, x.Name)
		}
	}
	var a func(AExpr)
	a = func(e AExpr) {
		switch e := e.(type) {
		case *Var:
			add(e)
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
	var st func(Stmt)
	st = func(s Stmt) {
		switch s := s.(type) {
		case *Assign:
			add(s.X)
			a(s.A)
		case *Seq:
			st(s.First)
			st(s.Second)
		case *If:
			b(s.Cond)
			st(s.Then)
			st(s.Else)
		case *While:
			b(s.Cond)
			st(s.Body)
		case *Assume:
			b(s.Cond)
		case *Assert:
			b(s.Cond)
		}
	}
	st(s)
	return out
}
