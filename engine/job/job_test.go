package job_test

import (
	"os"
	"path/filepath"
	"testing"

	"certsym/engine"
	"certsym/engine/job"
	"certsym/internal/testprog"
	"certsym/spec/syntax/parser"
	"certsym/sym"
)

// TestReplayNamesEveryState runs every third program of testdata/ breadth-first (its first 10 states,
// without pruning for every fourth program)
// with the Paths observer, and rebuilds every state expanded from its job alone, in an engine
// of its own: Replay must give a state at the same depth, with the same next statement, path
// condition and store, and the jobs of the states must be in breadth-first order (Compare).
func TestReplayNamesEveryState(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join(testprog.Root(), "testdata", "*.imp"))
	states := 0
	for i, f := range files {
		if i%3 != 0 {
			continue // a third of them: each replay makes an engine of its own
		}
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		prog, err := parser.Parse(f, src)
		if err != nil {
			t.Fatal(err)
		}
		for k, noPrune := range []bool{false, true} {
			if k == 1 && states%4 != 0 {
				continue
			}
			paths := &lateObs{}
			e := engine.New(prog, engine.Options{Observer: paths, NoPrune: noPrune})
			root := e.Initial()
			paths.p = job.NewPaths(root, job.Root, noPrune)
			e.StartAt(root)
			names := sym.SlotNames(prog)
			var last job.Job
			for i := 0; i < 10; i++ {
				st, ok := e.NextState()
				if !ok {
					break
				}
				j, ok := paths.p.JobOf(st)
				if !ok {
					t.Fatalf("%s: no job for the state expanded last", f)
				}
				if i > 0 && last.Compare(j) >= 0 {
					t.Fatalf("%s: job %v expanded after %v: not breadth-first order", f, j, last)
				}
				last = j
				back, err := job.Parse(j.String())
				if err != nil || back.Compare(j) != 0 {
					t.Fatalf("%s: job %v reads back as %v (%v)", f, j, back, err)
				}
				// A fresh engine, as a worker's: the bound variables of quantifiers are numbered
				// in the order an engine makes them.
				r := engine.New(prog, engine.Options{NoPrune: noPrune})
				got, err := job.Replay(r, j, noPrune, nil)
				r.Close()
				if err != nil {
					t.Fatalf("%s: %v", f, err)
				}
				if got.Depth != st.Depth || got.NextStmt() != st.NextStmt() || got.PC.String(names) != st.PC.String(names) ||
					sym.StoreString(got.Store, names) != sym.StoreString(st.Store, names) {
					t.Fatalf("%s: job %v replays to depth %d, %s, %s; the run's state: depth %d, %s, %s", f, j,
						got.Depth, got.PC.String(names), sym.StoreString(got.Store, names), st.Depth, st.PC.String(names), sym.StoreString(st.Store, names))
				}
				states++
			}
			e.Close()
		}
	}
	t.Logf("%d states replayed from their jobs", states)
}

// TestReplayRefusesBadPaths: a path that names no state is an error, not a panic.
func TestReplayRefusesBadPaths(t *testing.T) {
	prog := testprog.Parse(t, "if x > 0 then y = 1 else y = 2 fi; assert y > 0")
	for _, text := range []string{"1:", "1:5", "9:01"} {
		j, err := job.Parse(text)
		if err != nil {
			t.Fatal(err)
		}
		e := engine.New(prog, engine.Options{})
		if _, err := job.Replay(e, j, false, nil); err == nil {
			t.Errorf("job %s: no error", text)
		}
		e.Close()
	}
	for _, text := range []string{"", "x:", "1:23", "0:1", "-1:", "2:a"} {
		if _, err := job.Parse(text); err == nil {
			t.Errorf("Parse(%q): no error", text)
		}
	}
}

// lateObs passes the engine's observations to the Paths made once the root is known.
type lateObs struct{ p *job.Paths }

func (o *lateObs) Expanded(st *engine.State, succ []*engine.State) { o.p.Expanded(st, succ) }
func (o *lateObs) Pruned(st *engine.State)                         { o.p.Pruned(st) }
