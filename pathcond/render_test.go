package pathcond

import (
	"math/rand"
	"testing"

	"certsym/spec/integer"
	"certsym/sym"
)

// TestRendererMatchesString: on a random tree of path conditions over three symbols (bounds,
// disequalities at and inside the ends of intervals, linear facts of two symbols, disjunctions,
// repeated conjuncts), the renderer gives each node's String, whichever order the nodes are
// asked in, and the sum of its conjuncts' sizes.
func TestRendererMatchesString(t *testing.T) {
	names := []string{"x", "y", "z"}
	ts := sym.NewTerms(names)
	s := ts.Syms()
	c := func(v int) *sym.Term { return sym.Const(integer.Of(int64(v))) }
	rng := rand.New(rand.NewSource(1))
	conj := func() *sym.Formula {
		a, b, v := s[rng.Intn(3)], s[rng.Intn(3)], rng.Intn(7)-3
		switch rng.Intn(6) {
		case 0:
			return sym.Pred(sym.FGe, sym.Sub(a, c(v))) // a >= v
		case 1:
			return sym.Pred(sym.FGe, sym.Sub(c(v), a)) // a <= v
		case 2:
			return sym.Pred(sym.FNe, sym.Sub(a, c(v)))
		case 3:
			return sym.Pred(sym.FGe, sym.Sub(sym.Add(a, b), c(v)))
		case 4:
			return sym.Or(sym.Pred(sym.FEq, sym.Sub(a, c(v))), sym.Pred(sym.FEq, sym.Sub(b, c(v))))
		}
		return sym.Pred(sym.FEq, sym.Sub(a, c(v)))
	}
	nodes := []*PC{RootPC(3)}
	for len(nodes) < 3000 {
		phi := nodes[rng.Intn(len(nodes))]
		if n := Extend(phi, conj(), 3); n != phi && n.Status != Unsat {
			nodes = append(nodes, n)
		}
	}
	// Any measure of one conjunct will do: here the length of its text, capped as asked.
	size := func(f *sym.Formula, limit int) int { return min(len(f.String(names)), limit+1) }
	for _, limit := range []int{1 << 30, 60} {
		r := NewRenderer(names, size, limit)
		for _, i := range rng.Perm(len(nodes)) {
			phi := nodes[i]
			want := 0
			for _, f := range phi.Conjuncts() {
				want += len(f.String(names))
			}
			text, got := r.Render(phi)
			if want > limit {
				if got != limit+1 || text != "" {
					t.Fatalf("limit %d, %s: size %d, text %q; want %d and no text", limit, phi.String(names), got, text, limit+1)
				}
				continue
			}
			if got != want || text != phi.String(names) {
				t.Fatalf("limit %d: renderer %q (size %d), String %q (size %d)", limit, text, got, phi.String(names), want)
			}
		}
	}
}

// TestRendererCostsEachConjunctOnce: rendering every node of a chain of conjuncts (the terminal
// paths of a loop, each one conjunct deeper than the last) measures each conjunct once, where
// rendering each node alone would measure the square of their number.
func TestRendererCostsEachConjunctOnce(t *testing.T) {
	names := []string{"n", "m"}
	s := sym.NewTerms(names).Syms()
	const k = 2000
	chain := []*PC{RootPC(2)}
	for i := 0; i < k; i++ {
		f := sym.Pred(sym.FGe, sym.Sub(s[0], sym.Const(integer.Of(int64(i))))) // n >= i
		if i%2 == 1 {
			f = sym.Pred(sym.FGe, sym.Sub(sym.Add(s[0], s[1]), sym.Const(integer.Of(int64(i%7))))) // n + m >= i % 7
		}
		chain = append(chain, Append(chain[len(chain)-1], f))
	}
	calls := 0
	r := NewRenderer(names, func(f *sym.Formula, limit int) int { calls++; return 1 }, 1<<30)
	for i, phi := range chain {
		if text, _ := r.Render(phi); i%100 == 0 && text != phi.String(names) {
			t.Fatalf("depth %d: %q, want %q", phi.Depth, text, phi.String(names))
		}
	}
	if calls != k {
		t.Errorf("rendering the %d nodes of a chain measured %d conjuncts, want %d", len(chain), calls, k)
	}
}
