package gen

import (
	"testing"

	"certsym/spec"
	"certsym/spec/integer"
	"certsym/spec/syntax"
	"certsym/spec/syntax/parser"
)

// TestInvariantPrograms: a share of the generated programs have loops with invariant clauses;
// their text parses to loops with the clauses of the tree, in the same number; and the clauses
// are of every sort: concrete runs of random inputs violate some (wrong clauses, or undefined
// ones), and some programs with clauses run without a violation.
func TestInvariantPrograms(t *testing.T) {
	withClauses, violated, clean, undefined := 0, 0, 0, 0
	for s := int64(1); s <= 400; s++ {
		g, err := Generate(s, Default)
		if err != nil {
			t.Fatal(err)
		}
		count := func(n syntax.Node) int {
			c := 0
			syntax.Inspect(n, func(m syntax.Node) bool {
				if w, ok := m.(*syntax.While); ok {
					c += len(w.Invariants)
				}
				return true
			})
			return c
		}
		want := count(g.AST)
		if want == 0 {
			continue
		}
		withClauses++
		p, err := parser.Parse("g", []byte(g.Text))
		if err != nil {
			t.Fatalf("seed %d: %v\n%s", s, err, g.Text)
		}
		if got := count(p.Body); got != want {
			t.Fatalf("seed %d: the text has %d clauses, the tree %d\n%s", s, got, want, g.Text)
		}
		for k := int64(0); k < 8; k++ {
			in := make(spec.Store, p.Slots())
			for i := range in {
				in[i] = integer.Of((s*7+k*13+int64(i)*5)%7 - 3)
			}
			r := spec.Run(p, in, 3000)
			switch {
			case r.Outcome == spec.Failed && r.Fail.Kind == syntax.FailInvariant:
				violated++
			case r.Outcome == spec.Failed && r.Fail.Kind != syntax.FailInvariant && r.Fail.Kind != syntax.FailExplicit && r.Fail.Kind != syntax.FailAssert && isClause(p, r.Fail):
				undefined++
			case r.Outcome == spec.Final:
				clean++
			}
		}
	}
	if withClauses < 40 || withClauses > 200 {
		t.Errorf("%d programs of 400 with invariant clauses", withClauses)
	}
	if violated == 0 || clean == 0 || undefined == 0 {
		t.Errorf("runs: %d violate a clause, %d fail inside a clause, %d finish: want some of each", violated, undefined, clean)
	}
	t.Logf("%d programs with clauses; runs: %d violations, %d undefined clauses, %d finished", withClauses, violated, undefined, clean)
}

// isClause reports whether f is the error of an invariant clause of p.
func isClause(p *syntax.Program, f *syntax.Fail) bool {
	found := false
	syntax.Inspect(p.Body, func(n syntax.Node) bool {
		if w, ok := n.(*syntax.While); ok {
			for _, inv := range w.Invariants {
				found = found || inv.Err == f || inv.IdxErr == f
			}
		}
		return !found
	})
	return found
}
