package sym

import (
	"math/rand"
	"testing"

	"certsym/spec/integer"
)

func k(v int64) *Term { return Const(integer.Of(v)) }

// TestCacheLayers: each layer answers where it should and is counted; with NoCache every query
// reaches Z3.
func TestCacheLayers(t *testing.T) {
	names := []string{"x", "y"}
	ts := NewTerms(names)
	x, y := ts.syms[0], ts.syms[1]
	a := Pred(FGe, sub(sub(x, y), k(1)))       // x - y >= 1
	b := Pred(FGe, sub(sub(y, x), k(1)))       // y - x >= 1
	c := Pred(FNe, sub(add(x, y), k(3)))       // x + y != 3
	d := Pred(FGe, sub(ts.mul(x, y), k(1000))) // x * y >= 1000
	for _, off := range []bool{false, true} {
		sv := NewSolver(names)
		sv.NoCache = off
		steps := []struct {
			pc   *PC
			want SatStatus
		}{
			{pcOf(a, b), Unsat},    // Z3
			{pcOf(a, c, b), Unsat}, // a superset of an unsat set: cex-unsat-subset
			{pcOf(a, d), Sat},      // Z3
			{pcOf(a, d), Sat},      // the same set: query-cache
			{pcOf(d), Sat},         // a stored model satisfies it: cex-model
		}
		for i, s := range steps {
			if got := sv.Check(s.pc); got != s.want {
				t.Fatalf("nocache=%v step %d: %v, want %v", off, i, got, s.want)
			}
			if s.want == Sat && !s.pc.Formula().Eval(s.pc.Witness) {
				t.Errorf("nocache=%v step %d: witness %v does not satisfy the path condition", off, i, s.pc.Witness)
			}
		}
		st := sv.Stats
		if st.Queries != 5 || st.Sat+st.Unsat+st.Unknown != st.Queries {
			t.Errorf("nocache=%v: %+v", off, st)
		}
		want := SolverStats{Z3Queries: 2, CexUnsatHits: 1, CacheHits: 1, CexModelHits: 1}
		if off {
			want = SolverStats{Z3Queries: 5}
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
	ts := NewTerms(names)
	x, y, z, w := ts.syms[0], ts.syms[1], ts.syms[2], ts.syms[3]
	sv := NewSolver(names)
	phi := RootPC(4)
	phi = Extend(phi, Pred(FGe, x), 4)
	for i := int64(1); i <= 12; i++ {
		// i*x - y >= i*i: not implied by the parent's witness (the solver is asked)
		phi = Extend(phi, Pred(FGe, sub(sub(scale(x, integer.Of(i)), y), k(i*i))), 4)
		if sv.Check(phi) != Sat {
			t.Fatalf("step %d: %v", i, phi.Status)
		}
	}
	before := sv.Stats.Sliced
	phi = Extend(phi, Pred(FEq, sub(ts.mul(z, w), k(12))), 4) // z * w == 12 (nonlinear: no repair)
	if sv.Check(phi) != Sat || sv.Stats.Sliced != before+1 {
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
	names := []string{"x", "y", "z", "w"}
	ts := NewTerms(names)
	rng := rand.New(rand.NewSource(17))
	sv, ref := NewSolver(names), NewSolver(names)
	ref.NoCache = true
	term := func() *Term {
		s1, s2 := ts.syms[rng.Intn(4)], ts.syms[rng.Intn(4)]
		switch rng.Intn(8) {
		case 0:
			return ts.mul(s1, s2)
		case 1:
			return ts.div(s1, add(s2, k(int64(rng.Intn(3)))))
		case 2:
			return ts.mod(s1, k(int64(2+rng.Intn(3))))
		case 3, 4:
			return s1
		}
		return add(scale(s1, integer.Of(int64(rng.Intn(5)-2))), s2)
	}
	cond := func() *Formula {
		t := sub(term(), k(int64(rng.Intn(21)-10)))
		switch rng.Intn(3) {
		case 0:
			return Pred(FGe, t)
		case 1:
			return Pred(FNe, t)
		}
		if rng.Intn(4) == 0 {
			return Pred(FEq, t)
		}
		return Or(Pred(FGe, t), Pred(FEq, sub(term(), k(1))))
	}
	live := []*PC{RootPC(4)}
	agree := 0
	for i := 0; i < 500; i++ {
		parent := live[rng.Intn(len(live))]
		if rng.Intn(4) > 0 { // mostly deep: one of the newest
			parent = live[len(live)-1-rng.Intn(min(len(live), 20))]
		}
		phi := Extend(parent, cond(), 4)
		if phi == parent {
			continue
		}
		got := sv.Check(phi)
		want, _, _ := ref.check(pcOf(phi.Conjuncts()...)) // fresh nodes: a PC node holds its conjunct in one context
		if got == Unknown || want == Unknown {
			continue
		}
		if got != want {
			t.Fatalf("query %d: caching %v, Z3 on the whole %v: %s", i, got, want, phi.String(names))
		}
		agree++
		if got == Sat {
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
	ts := NewTerms(names)
	x, y := ts.syms[0], ts.syms[1]
	sv := NewSolver(names)
	phi := pcOf(Pred(FEq, sub(sub(scale(x, integer.Of(3)), scale(y, integer.Of(2))), k(6))))
	if sv.Check(phi) != Sat || !phi.Formula().Eval(phi.Witness) || sv.Stats.RepairHits != 1 || sv.Stats.Z3Queries != 0 {
		t.Errorf("%v %v %+v", phi.Status, phi.Witness, sv.Stats)
	}
}
