package solver

import (
	"math/rand"
	"testing"

	"certsym/pathcond"
	"certsym/spec/integer"
	"certsym/sym"
)

func k(v int64) *sym.Term { return sym.Const(integer.Of(v)) }

// TestCacheLayers: each layer answers where it should and is counted; with NoCache every query
// reaches Z3.
func TestCacheLayers(t *testing.T) {
	names := []string{"x", "y"}
	ts := sym.NewTerms(names)
	x, y := ts.Syms()[0], ts.Syms()[1]
	a := sym.Pred(sym.FGe, sym.Sub(sym.Sub(x, y), k(1)))   // x - y >= 1
	b := sym.Pred(sym.FGe, sym.Sub(sym.Sub(y, x), k(1)))   // y - x >= 1
	c := sym.Pred(sym.FNe, sym.Sub(sym.Add(x, y), k(3)))   // x + y != 3
	d := sym.Pred(sym.FGe, sym.Sub(ts.Mul(x, y), k(1000))) // x * y >= 1000
	for _, off := range []bool{false, true} {
		sv := NewForSymbols(names, Options{NoCache: off})
		steps := []struct {
			pc   *pathcond.PC
			want pathcond.SatStatus
		}{
			{pcOf(a, b), pathcond.Unsat},    // Z3
			{pcOf(a, c, b), pathcond.Unsat}, // a superset of an unsat set: cex-unsat-subset
			{pcOf(a, d), pathcond.Sat},      // Z3
			{pcOf(a, d), pathcond.Sat},      // the same set: query-cache
			{pcOf(d), pathcond.Sat},         // a stored model satisfies it: cex-model
		}
		for i, s := range steps {
			if got := sv.Check(s.pc); got != s.want {
				t.Fatalf("nocache=%v step %d: %v, want %v", off, i, got, s.want)
			}
			if s.want == pathcond.Sat && !s.pc.Formula().Eval(s.pc.Witness) {
				t.Errorf("nocache=%v step %d: witness %v does not satisfy the path condition", off, i, s.pc.Witness)
			}
		}
		st := sv.Stats
		if st.Queries != 5 || st.Sat+st.Unsat+st.Unknown != st.Queries {
			t.Errorf("nocache=%v: %+v", off, st)
		}
		want := Stats{Z3Queries: 2, CexUnsatHits: 1, CacheHits: 1, CexModelHits: 1}
		if off {
			want = Stats{Z3Queries: 5}
		}
		if st.Z3Queries != want.Z3Queries || st.CexUnsatHits != want.CexUnsatHits || st.CacheHits != want.CacheHits || st.CexModelHits != want.CexModelHits {
			t.Errorf("nocache=%v: %+v, want the layer counters of %+v", off, st, want)
		}
	}
}

// TestSliceIndependent: a deep path condition on x and y, then a conjunct on z and w alone: the
// query is that conjunct only (the slice solver answers), and the model merged with the parent's
// witness satisfies the whole path condition.
func TestSliceIndependent(t *testing.T) {
	names := []string{"x", "y", "z", "w"}
	ts := sym.NewTerms(names)
	x, y, z, w := ts.Syms()[0], ts.Syms()[1], ts.Syms()[2], ts.Syms()[3]
	sv := NewForSymbols(names, Options{})
	phi := pathcond.RootPC(4)
	phi = pathcond.Extend(phi, sym.Pred(sym.FGe, x), 4)
	for i := int64(1); i <= 12; i++ {
		// i*x - y >= i*i: not implied by the parent's witness (the solver is asked)
		phi = pathcond.Extend(phi, sym.Pred(sym.FGe, sym.Sub(sym.Sub(sym.Scale(x, integer.Of(i)), y), k(i*i))), 4)
		if sv.Check(phi) != pathcond.Sat {
			t.Fatalf("step %d: %v", i, phi.Status)
		}
	}
	before := sv.Stats.Sliced
	phi = pathcond.Extend(phi, sym.Pred(sym.FEq, sym.Sub(ts.Mul(z, w), k(12))), 4) // z * w == 12 (nonlinear: no repair)
	if sv.Check(phi) != pathcond.Sat || sv.Stats.Sliced != before+1 {
		t.Fatalf("%v, sliced %d -> %d", phi.Status, before, sv.Stats.Sliced)
	}
	if !phi.Formula().Eval(phi.Witness) {
		t.Errorf("merged witness %v does not satisfy %s", phi.Witness, phi.String(names))
	}
}

// TestCacheAgreesWithZ3: on random trees of path conditions (linear conditions on one or two of
// four symbols, products, divisions and remainders), the caching solver answers as Z3 on the
// whole path condition does, and each of its witnesses satisfies the path condition.
func TestCacheAgreesWithZ3(t *testing.T) {
	if testing.Short() {
		t.Skip("short mode: the caching solver against Z3 on random trees of path conditions; make check runs it")
	}
	names := []string{"x", "y", "z", "w"}
	ts := sym.NewTerms(names)
	rng := rand.New(rand.NewSource(17))
	sv, ref := NewForSymbols(names, Options{}), NewForSymbols(names, Options{NoCache: true})
	term := func() *sym.Term {
		s1, s2 := ts.Syms()[rng.Intn(4)], ts.Syms()[rng.Intn(4)]
		switch rng.Intn(8) {
		case 0:
			return ts.Mul(s1, s2)
		case 1:
			return ts.Div(s1, sym.Add(s2, k(int64(rng.Intn(3)))))
		case 2:
			return ts.Mod(s1, k(int64(2+rng.Intn(3))))
		case 3, 4:
			return s1
		}
		return sym.Add(sym.Scale(s1, integer.Of(int64(rng.Intn(5)-2))), s2)
	}
	cond := func() *sym.Formula {
		t := sym.Sub(term(), k(int64(rng.Intn(21)-10)))
		switch rng.Intn(3) {
		case 0:
			return sym.Pred(sym.FGe, t)
		case 1:
			return sym.Pred(sym.FNe, t)
		}
		if rng.Intn(4) == 0 {
			return sym.Pred(sym.FEq, t)
		}
		return sym.Or(sym.Pred(sym.FGe, t), sym.Pred(sym.FEq, sym.Sub(term(), k(1))))
	}
	live := []*pathcond.PC{pathcond.RootPC(4)}
	agree := 0
	for i := 0; i < 500; i++ {
		parent := live[rng.Intn(len(live))]
		if rng.Intn(4) > 0 { // mostly deep: one of the newest
			parent = live[len(live)-1-rng.Intn(min(len(live), 20))]
		}
		phi := pathcond.Extend(parent, cond(), 4)
		if phi == parent {
			continue
		}
		got := sv.Check(phi)
		want := ref.Check(pcOf(phi.Conjuncts()...)) // fresh nodes: phi keeps the answer it has
		if got == pathcond.Unknown || want == pathcond.Unknown {
			continue
		}
		if got != want {
			t.Fatalf("query %d: caching %v, Z3 on the whole %v: %s", i, got, want, phi.String(names))
		}
		agree++
		if got == pathcond.Sat {
			if !phi.Formula().Eval(phi.Witness) {
				t.Fatalf("query %d: witness %v does not satisfy %s", i, phi.Witness, phi.String(names))
			}
			live = append(live, phi)
		}
	}
	s := sv.Stats
	t.Logf("%d answers agree; %+v", agree, s)
	if s.Sat+s.Unsat+s.Unknown != s.Queries || s.Z3Queries+s.CacheHits+s.CexModelHits+s.CexUnsatHits+s.SliceEmpty+s.RepairHits < s.Queries {
		t.Errorf("counters do not add up: %+v", s)
	}
}

// TestRepair: a linear condition the base witness violates is satisfied by moving one symbol
// (3·x == 2·y + 6 from x = y = 0: x = 2); no Z3 query.
func TestRepair(t *testing.T) {
	names := []string{"x", "y"}
	ts := sym.NewTerms(names)
	x, y := ts.Syms()[0], ts.Syms()[1]
	sv := NewForSymbols(names, Options{})
	phi := pcOf(sym.Pred(sym.FEq, sym.Sub(sym.Sub(sym.Scale(x, integer.Of(3)), sym.Scale(y, integer.Of(2))), k(6))))
	if sv.Check(phi) != pathcond.Sat || !phi.Formula().Eval(phi.Witness) || sv.Stats.RepairHits != 1 || sv.Stats.Z3Queries != 0 {
		t.Errorf("%v %v %+v", phi.Status, phi.Witness, sv.Stats)
	}
}
