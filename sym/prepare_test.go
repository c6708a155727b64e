package sym

import (
	"fmt"
	"math/rand"
	"sync"
	"testing"

	"certsym/spec/integer"
)

// TestPrepareConcurrent: two copies of the same tree of path conditions, grown level by level as
// a breadth-first run grows them; in one, each level's new path conditions are prepared by one
// Preparer in order, in the other by four goroutines at once, each with its own Preparer, over
// ancestors they share. Then both solvers check the level in the same order: the answers, the
// witnesses and the counters must be the same (the prepared part does not depend on who computed
// it), and every witness must satisfy its path condition. Run with -race, it also checks that the
// preparers' shared memo is written safely.
func TestPrepareConcurrent(t *testing.T) {
	names := []string{"x", "y", "z", "w"}
	ts := NewTerms(names)
	rng := rand.New(rand.NewSource(29))
	cond := func() *Formula {
		s1, s2 := ts.syms[rng.Intn(4)], ts.syms[rng.Intn(4)]
		lin := add(scale(s1, integer.Of(int64(rng.Intn(7)-3))), scale(s2, integer.Of(int64(rng.Intn(5)-2))))
		tm := sub(lin, k(int64(rng.Intn(41)-20)))
		switch rng.Intn(4) {
		case 0:
			return Pred(FNe, tm)
		case 1:
			return Pred(FGe, sub(ts.mul(s1, s2), k(int64(rng.Intn(9)))))
		}
		return Pred(FGe, tm)
	}
	seq, par := NewSolver(names), NewSolver(names)
	levelA, levelB := []*PC{RootPC(4)}, []*PC{RootPC(4)}
	checked := 0
	for depth := 0; depth < 10 && len(levelA) > 0; depth++ {
		var nextA, nextB []*PC
		for i := range levelA {
			for c := 0; c < 3; c++ {
				f := cond()
				a, b := Extend(levelA[i], f, 4), Extend(levelB[i], f, 4)
				if a == levelA[i] {
					continue
				}
				nextA, nextB = append(nextA, a), append(nextB, b)
			}
		}
		for _, a := range nextA {
			seq.Prepare(a)
		}
		var wg sync.WaitGroup
		for g := 0; g < 4; g++ {
			p := par.NewPreparer()
			wg.Add(1)
			go func() {
				defer wg.Done()
				for j := g; j < len(nextB); j += 4 {
					p.Prepare(nextB[j])
				}
			}()
		}
		wg.Wait()
		levelA, levelB = levelA[:0], levelB[:0]
		for j, a := range nextA {
			b := nextB[j]
			sa, sb := seq.Check(a), par.Check(b)
			checked++
			if sa != sb || fmt.Sprint(a.Witness) != fmt.Sprint(b.Witness) {
				t.Fatalf("depth %d: in order %v %v, concurrently %v %v: %s", depth, sa, a.Witness, sb, b.Witness, a.String(names))
			}
			if sa == Sat && !a.Formula().Eval(a.Witness) {
				t.Fatalf("depth %d: witness %v does not satisfy %s", depth, a.Witness, a.String(names))
			}
			if sa != Unsat && len(levelA) < 48 {
				levelA, levelB = append(levelA, a), append(levelB, b)
			}
		}
	}
	t.Logf("checked %d, %+v", checked, seq.Stats)
	sa, sb := seq.Stats, par.Stats
	sa.Time, sb.Time = 0, 0
	if sa != sb {
		t.Errorf("counters: in order %+v, concurrently %+v", sa, sb)
	}
	if checked < 200 || sa.RepairHits == 0 || sa.Z3Queries == 0 {
		t.Errorf("%d path conditions checked, counters %+v: the test does not reach the layers", checked, sa)
	}
}
