package engine

import (
	"certsym/internal/budget"
	"certsym/internal/testprog"
	"testing"
)

// countObserver counts what the engine tells an Observer and checks the order of successors.
type countObserver struct {
	t                 *testing.T
	expanded, pruned  int
	produced, checked int
	seen              map[*State]bool
}

func (o *countObserver) Expanded(st *State, succ []*State) {
	o.expanded++
	o.produced += len(succ)
	for _, s := range succ {
		if s.Depth != st.Depth+1 {
			o.t.Errorf("successor at depth %d of a state at depth %d", s.Depth, st.Depth)
		}
		o.seen[s] = true
	}
	// Successors come in the order of the rules, whatever the strategy: at the first if, then
	// (x >= 1) before else (x <= 0).
	if o.expanded == 1 {
		if len(succ) != 2 || Added(st, succ[0])[0].String([]string{"x"}) != "x >= 1" || Added(st, succ[1])[0].String([]string{"x"}) != "x <= 0" {
			o.t.Errorf("the first if's successors are not then, else")
		}
	}
}

func (o *countObserver) Pruned(st *State) {
	o.pruned++
	if !o.seen[st] {
		o.t.Error("Pruned for a state no Expanded call produced")
	}
}

func TestObserverSeesEveryExpansion(t *testing.T) {
	prog := testprog.Parse(t, "if x > 0 then\n  assume x < 0\nfi;\nwhile x > 0 do x = x - 1 od")
	for _, strat := range []Strategy{BFS, DFS} {
		o := &countObserver{t: t, seen: map[*State]bool{}}
		e := New(prog, Options{Strategy: strat, Limits: budget.Limits{MaxStates: 200}, Observer: o})
		if _, err := e.FindBugs(nil); err != nil {
			t.Fatal(err)
		}
		if o.expanded != e.Stats.Expanded || o.produced != e.Stats.Produced || o.pruned != e.Stats.Pruned || o.pruned == 0 {
			t.Errorf("%v: observer saw %d expansions, %d successors, %d pruned; stats %+v", strat, o.expanded, o.produced, o.pruned, e.Stats)
		}
	}
}

// PrintSize counts the printed form of a term that doubles at each step without printing it.
func TestPrintSizeOfSharedTerms(t *testing.T) {
	src := "y = x + 1;\n"
	for i := 0; i < 22; i++ {
		src += "y = y * y;\n" // the printed form doubles; the term grows by one atom
	}
	src += "if y == 7 then fail fi"
	prog := testprog.Parse(t, src)
	e := New(prog, Options{NoPrune: true}) // no solver: the error state's path condition is all we want
	var deep *State
	for {
		st, ok := e.NextState()
		if !ok {
			break
		}
		if st.ErrorOf() != nil {
			deep = st
		}
	}
	if deep == nil {
		t.Fatal("no error state")
	}
	if n := deep.PC.PrintSize(1_000_000); n != 1_000_001 {
		t.Errorf("PrintSize = %d, want past the limit", n)
	}
	small := testprog.Parse(t, "if x + 2 > 0 then fail fi")
	e = New(small, Options{})
	for {
		st, ok := e.NextState()
		if !ok {
			break
		}
		if st.ErrorOf() != nil {
			if n, s := st.PC.PrintSize(100), st.PC.String(small.Vars); n > 100 || len(s) == 0 {
				t.Errorf("PrintSize(%q) = %d", s, n)
			}
		}
	}
}
