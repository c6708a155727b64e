package bounded

import (
	"testing"

	"certsym/internal/testprog"
	"certsym/spec"
	"certsym/spec/syntax"
)

// TestInvariantTransition runs a loop over an unbounded input in the invariant mode: it has no
// loop-bound cutoff; the entry claims' failure, the body successor's end (Infeasible at the loop,
// after the preservation claims) and the exit are its results; every state after the havoc is
// flagged with the loop (Over.Loop) and is of generation 1; the exit state's path condition
// implies the invariant and the negated condition; and the modified variable has a fresh symbol
// while the unmodified one keeps the input's.
func TestInvariantTransition(t *testing.T) {
	p := testprog.Parse(t, `assume n >= 0;
i = 0;
while i < n invariant i <= n do
  i = i + 1
od;
assert i == n`)
	inv := NewInvariant(p, 2)
	b := New(inv.Layout.Ext, 2)
	defer b.Close()
	b.Invariant = inv
	rs, err := b.SymInterp(nil)
	if err != nil {
		t.Fatal(err)
	}
	var w *syntax.While
	syntax.Inspect(p.Body, func(n syntax.Node) bool {
		if x, ok := n.(*syntax.While); ok {
			w = x
		}
		return true
	})
	count, ends := map[spec.Behaviour]int{}, 0
	for _, r := range rs {
		count[r.Behaviour]++
		if _, ok := r.At.(*syntax.Assume); ok && r.Behaviour == spec.Infeasible {
			continue // n < 0
		}
		switch r.Behaviour {
		case spec.Incomplete:
			t.Errorf("a cut result at %v: the loop with clauses is not unrolled", r.At)
		case spec.Infeasible:
			ends++
			if r.At != w || r.State.Over == nil || r.State.Over.Loop != w || r.State.Gen != 1 {
				t.Errorf("body successor's end: at %v, over %+v, generation %d", r.At, r.State.Over, r.State.Gen)
			}
		case spec.Normal, spec.Error:
			if r.State.Over == nil || r.State.Over.Loop != w {
				if r.Fail == nil || r.Fail.Kind != syntax.FailInvariant {
					t.Errorf("a %s result after the loop not flagged: %+v", r.Behaviour, r.State.Over)
				}
				continue
			}
			// n (slot 0) keeps its input symbol; i (slot 1) is the fresh symbol of generation 0.
			names := b.Terms().Names()
			if _, isConst := r.State.Store[1].IsConst(); r.State.Store[0] != b.Terms().Syms()[0] || isConst ||
				r.State.Store[1].String(names) != "fresh'0[0]" {
				t.Errorf("the havoc: n is %s, i is %s", r.State.Store[0].String(names), r.State.Store[1].String(names))
			}
		}
	}
	// The assert after the loop holds (i <= n and not i < n): no assert failure after the loop,
	// one normal end; the body's end once; the entry claim holds (i == 0 <= n).
	if count[spec.Normal] != 1 || ends != 1 || count[spec.Error] != 0 {
		t.Errorf("results by behaviour: %v (%d ends of the body), want 1 normal, 1 end of the body, no error", count, ends)
	}
}

// TestGenerations: a loop with clauses takes one generation plus its body's; a loop without
// clauses its body's times the loop bound.
func TestGenerations(t *testing.T) {
	p := testprog.Parse(t, `while a < 3 do
  while b < 3 invariant b >= 0 do b = b + 1 od;
  a = a + 1
od;
while c < 3 invariant c >= 0 do c = c + 1 od`)
	if g := Generations(p.Body, 4); g != 4*1+1 {
		t.Errorf("Generations = %d, want 5", g)
	}
}
