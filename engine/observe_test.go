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
	for _, strat := range []Strategy{BFS, DFS, Coverage, RandomPath} {
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
