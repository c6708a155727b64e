package conv

import (
	"errors"
	"testing"

	"certsym/internal/testprog"
	"certsym/spec/integer"
	"certsym/spec/syntax"
	"certsym/sym"
)

// TestTreeSize checks the tree size the layer bounds its conversions by: on the term of k
// iterations of x = x / (x - 3) + x (a graph of k division atoms, each reading its predecessor
// at least twice, so its tree at least doubles with k), the size sizer computes with its memo is the node count of
// the converted syntax tree up to a constant factor, and past MaxTreeNodes the conversions answer
// ErrTree instead of building the tree.
func TestTreeSize(t *testing.T) {
	p := testprog.Parse(t, "x = x + 1")
	ts := sym.NewTermsFor(p)
	x := ts.Syms()[0]
	three := sym.Const(integer.Of(3))
	var prev int
	for k := 1; k <= 40; k++ {
		x = sym.Add(ts.Div(x, sym.Sub(x, three)), x)
		n := newSizer().term(x)
		if n <= MaxTreeNodes {
			a, err := Term(p, x)
			if err != nil {
				t.Fatalf("k=%d: %v", k, err)
			}
			nodes := 0
			syntax.Inspect(a, func(n syntax.Node) bool {
				if n != nil {
					nodes++
				}
				return true
			})
			if n < nodes || n > 3*nodes {
				t.Fatalf("k=%d: sizer says %d nodes, the converted tree has %d", k, n, nodes)
			}
		}
		if k > 1 && n <= MaxTreeNodes && n < 2*prev {
			t.Fatalf("k=%d: the size %d did not double (%d before)", k, n, prev)
		}
		prev = n
		_, err := Term(p, x)
		f := sym.Pred(sym.FGe, x)
		_, ferr := Formula(p, f)
		if too := TooLarge(nil, []*sym.Term{x}); too != (n > MaxTreeNodes) {
			t.Fatalf("k=%d: TooLarge %v with size %d", k, too, n)
		} else if too && (!errors.Is(err, ErrTree) || !errors.Is(ferr, ErrTree)) {
			t.Fatalf("k=%d: a term of %d nodes converted (Term: %v, Formula: %v)", k, n, err, ferr)
		} else if !too && (err != nil || ferr != nil) {
			t.Fatalf("k=%d: %v, %v", k, err, ferr)
		}
	}
	if prev <= MaxTreeNodes {
		t.Fatalf("40 iterations stayed within the bound: %d", prev)
	}
}
