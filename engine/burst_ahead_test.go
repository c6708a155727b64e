package engine

import (
	"path/filepath"
	"strings"
	"testing"

	"certsym/internal/budget"
	"certsym/internal/testprog"
)

// TestConcreteAhead: the steps that read no symbol ahead of the pending states, counted up to the
// limit; a state whose next statement reads an input has none.
func TestConcreteAhead(t *testing.T) {
	prog := testprog.Parse(t, "x = 0;\nwhile x < 1000000 do x = x + 1 od;\nassert y > 0\n")
	e := New(prog, Options{})
	defer e.Close()
	for i := 0; i < 10; i++ {
		if _, ok := e.NextState(); !ok {
			t.Fatal("the run ended early")
		}
	}
	if pending, fewest := e.ConcreteAhead(500); pending != 1 || fewest != 500 {
		t.Errorf("in the loop: %d pending, %d steps ahead; want 1 and 500", pending, fewest)
	}
	last := testprog.Parse(t, "x = 0;\nassert y > x\n")
	e2 := New(last, Options{})
	defer e2.Close()
	for i := 0; i < 2; i++ { // x = 0, then the skip after it
		e2.NextState()
	}
	if pending, fewest := e2.ConcreteAhead(500); pending != 1 || fewest != 0 {
		t.Errorf("at assert y > x: %d pending, %d steps ahead; want 1 and 0", pending, fewest)
	}
}

// TestConcreteAheadChangesNothing: a run asked ConcreteAhead between every two picks picks the
// same states, and counts the same, as the run that is not asked, on the loops of the burst
// tests' corpus under bfs and dfs.
func TestConcreteAheadChangesNothing(t *testing.T) {
	for _, prog := range corpusPrograms(t) {
		if name := filepath.Base(prog.File); !strings.HasPrefix(name, "loop_") && !strings.HasPrefix(name, "while_") && !strings.HasPrefix(name, "dfs_") {
			continue
		}
		for _, s := range []Strategy{BFS, DFS} {
			opts := Options{Strategy: s, Limits: budget.Limits{MaxStates: 300}}
			a, b := New(prog, opts), New(prog, opts)
			for n := 0; ; n++ {
				b.ConcreteAhead(50)
				sa, oka := a.NextState()
				sb, okb := b.NextState()
				if oka != okb || (oka && (sa.Depth != sb.Depth || sa.PC.String(a.Names()) != sb.PC.String(b.Names()))) {
					t.Fatalf("%s %v: pick %d differs", prog.File, s, n)
				}
				if !oka {
					break
				}
			}
			if a.Stats.Expanded != b.Stats.Expanded || a.Stats.Produced != b.Stats.Produced || a.Stats.Pruned != b.Stats.Pruned {
				t.Errorf("%s %v: stats %+v and %+v", prog.File, s, a.Stats, b.Stats)
			}
			a.Close()
			b.Close()
		}
	}
}
