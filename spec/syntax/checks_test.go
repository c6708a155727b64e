package syntax_test

import (
	"strings"
	"testing"

	"certsym/spec/syntax"
)

// TestInspectArrays: Inspect visits the new nodes in source order; VarsOf lists scalars only.
func TestInspectArrays(t *testing.T) {
	p := mustParse(t, "array a[0..1];\na[i] = a[j] + x;\nassert forall k in lo..hi: a[k] > y")
	var kinds []string
	syntax.Inspect(p.Body, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.ArrAssign:
			kinds = append(kinds, "[]=")
		case *syntax.Elem:
			kinds = append(kinds, "elem")
		case *syntax.Quant:
			kinds = append(kinds, "forall")
		case *syntax.BoundRef:
			kinds = append(kinds, "k")
		case *syntax.Var:
			kinds = append(kinds, n.Name)
		}
		return true
	})
	if got, want := strings.Join(kinds, " "), "[]= i elem j x forall lo hi elem k y"; got != want {
		t.Errorf("Inspect order %q, want %q", got, want)
	}
	if got := strings.Join(syntax.VarsOf(p.Body), " "); got != strings.Join(p.Vars, " ") || got != "i j x lo hi y" {
		t.Errorf("VarsOf = %q, Vars = %v", got, p.Vars)
	}
}

// TestWalkChecks: the checks of a statement in evaluation order, with their quantifiers; without
// quantifiers the first failing check gives the kind EvalKind reports.
func TestWalkChecks(t *testing.T) {
	p := mustParse(t, "array a[0..3];\na[x / y] = a[a[1] % z] + 1;\nassert forall k in 0..n / m: exists j in k..3: a[j] / k > a[k]")
	describe := func(s syntax.Stmt) string {
		var out []string
		syntax.WalkStmtChecks(s, func(c syntax.Check) {
			d := c.Kind.String()
			switch {
			case c.Div != nil:
				d += " " + syntax.PrintA(c.Div)
			case c.Elem != nil:
				d += " " + syntax.PrintA(c.Elem)
			case c.Write != nil:
				d += " write"
			}
			for _, q := range c.Quants {
				d += " in " + q.Name
			}
			out = append(out, d)
		})
		return strings.Join(out, "; ")
	}
	s1 := p.Body.(*syntax.Seq).First
	if got, want := describe(s1), "division-by-zero x / y; index-out-of-range a[1]; division-by-zero a[1] % z; index-out-of-range a[a[1] % z]; index-out-of-range write"; got != want {
		t.Errorf("element assignment:\n got %s\nwant %s", got, want)
	}
	s2 := p.Body.(*syntax.Seq).Second
	if got, want := describe(s2), "division-by-zero n / m; index-out-of-range a[j] in k in j; division-by-zero a[j] / k in k in j; index-out-of-range a[k] in k in j"; got != want {
		t.Errorf("assert:\n got %s\nwant %s", got, want)
	}
	// Divisions agrees with the division checks.
	var divs []*syntax.BinA
	syntax.WalkChecks(s2.(*syntax.Assert).Cond, func(c syntax.Check) {
		if c.Div != nil {
			divs = append(divs, c.Div)
		}
	})
	if got := syntax.Divisions(s2.(*syntax.Assert).Cond, nil); len(got) != len(divs) || got[0] != divs[0] || got[1] != divs[1] {
		t.Errorf("Divisions %v, checks %v", got, divs)
	}
}
