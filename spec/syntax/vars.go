package syntax

// VarsOf lists the names of the (scalar) variables of s in order of first occurrence, the order
// in which the parser numbers a program's variables (Program.Vars): an assignment's target comes
// before the variables of its right-hand side, a condition's variables before those of its
// branches or body. Arrays (Elem.Arr, ArrAssign.Arr) and bound variables (BoundRef) are not
// variables. It reads s only (resolve, which numbers the variables of a parsed program, also
// sets indices and builds error nodes); for a parsed program p, VarsOf(p.Body) equals p.Vars.
func VarsOf(s Stmt) []string {
	seen := map[string]bool{}
	var out []string
	Inspect(s, func(n Node) bool {
		if x, ok := n.(*Var); ok && !seen[x.Name] {
			seen[x.Name] = true
			out = append(out, x.Name)
		}
		return true
	})
	return out
}
