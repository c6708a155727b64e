package engine

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"certsym/internal/budget"
	"certsym/internal/testprog"
	"certsym/spec/syntax"
	"certsym/spec/syntax/parser"
)

func parseRoot(t *testing.T, rel string) *syntax.Program {
	t.Helper()
	p, err := parser.ParseFile(filepath.Join(testprog.Root(), rel))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestParseStrategy(t *testing.T) {
	for _, s := range []Strategy{BFS, DFS, Coverage, RandomPath, Generational} {
		got, err := ParseStrategy(s.String())
		if err != nil || got != s {
			t.Errorf("ParseStrategy(%q) = %v, %v", s.String(), got, err)
		}
	}
	_, err := ParseStrategy("best")
	if err == nil {
		t.Fatal("ParseStrategy accepted an unknown name")
	}
	for _, n := range []string{"bfs", "dfs", "coverage", "random-path", "generational"} {
		if !strings.Contains(err.Error(), n) {
			t.Errorf("the error %q does not list %s", err, n)
		}
	}
	if err := (Options{Strategy: Generational}).Validate(); err == nil || !strings.Contains(err.Error(), "concolic") {
		t.Errorf("Validate of generational: %v", err)
	}
	defer func() {
		if r := recover(); r == nil || !strings.Contains(fmt.Sprint(r), "concolic") {
			t.Errorf("New with the generational strategy: %v", r)
		}
	}()
	New(testprog.Parse(t, "skip"), Options{Strategy: Generational})
}

// fairnessObserver keeps its own model of the K-interleaved scheduler from what an Observer is
// told: the pending states in age order. It checks that every pick is a pending state and that
// every FairnessPeriod-th pick is the oldest.
type fairnessObserver struct {
	t       *testing.T
	name    string
	pending []*State // age order; nil for a state taken
	index   map[*State]int
	head    int
	picks   int
	oldest  int // fairness picks checked
}

func newFairnessObserver(t *testing.T, name string, initial *State) *fairnessObserver {
	o := &fairnessObserver{t: t, name: name, index: map[*State]int{}}
	o.add(initial)
	return o
}

func (o *fairnessObserver) add(s *State) {
	o.index[s] = len(o.pending)
	o.pending = append(o.pending, s)
}

func (o *fairnessObserver) remove(s *State) bool {
	i, ok := o.index[s]
	if !ok {
		return false
	}
	delete(o.index, s)
	o.pending[i] = nil
	for o.head < len(o.pending) && o.pending[o.head] == nil {
		o.head++
	}
	return true
}

func (o *fairnessObserver) Expanded(st *State, succ []*State) {
	n := o.picks
	o.picks++
	if n%FairnessPeriod == FairnessPeriod-1 {
		o.oldest++
		if o.head >= len(o.pending) || o.pending[o.head] != st {
			o.t.Fatalf("%s: pick %d is not the oldest pending state", o.name, n)
		}
	}
	if !o.remove(st) {
		o.t.Fatalf("%s: pick %d is not a pending state", o.name, n)
	}
	for _, s := range succ {
		o.add(s)
	}
}

func (o *fairnessObserver) Pruned(s *State) { o.remove(s) }

// TestFairnessPickIsOldest checks the discipline the Coq model states: every K-th pick takes the
// oldest pending state, the others a pending state.
func TestFairnessPickIsOldest(t *testing.T) {
	for _, file := range []string{"engine/testdata/factorial.imp", "testdata/many_paths_one_bug.imp", "testdata/dfs_nested_loops_bfs_bug.imp", "engine/testdata/gcd.imp"} {
		prog := parseRoot(t, file)
		for _, s := range []Strategy{Coverage, RandomPath} {
			name := fmt.Sprintf("%s/%v", filepath.Base(file), s)
			e := New(prog, Options{Strategy: s, Limits: budget.Limits{MaxStates: 3000}, NoPrune: s == RandomPath})
			// The observer must see the initial state: set it after New.
			o := newFairnessObserver(t, name, e.fair.age[0].st)
			e.opts.Observer = o
			for {
				if _, ok := e.NextState(); !ok {
					break
				}
			}
			if o.oldest < e.Stats.Expanded/FairnessPeriod || len(o.index) != e.Pending() {
				t.Errorf("%s: %d fairness picks checked of %d picks; %d pending in the model, %d in the engine", name, o.oldest, e.Stats.Expanded, len(o.index), e.Pending())
			}
		}
	}
}

// firstBug runs the bug finder to its verdict.
func firstBug(t *testing.T, prog *syntax.Program, opts Options) *Report {
	t.Helper()
	rep, err := New(prog, opts).FindBugs(nil)
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

// TestFairStrategiesFindStarvedBug: beside an infinite path, DFS never expands the loop's exit
// whose fail is one step further; the fair strategies do, like BFS.
func TestFairStrategiesFindStarvedBug(t *testing.T) {
	for _, file := range []string{"testdata/dfs_starves_shallow_exit_bfs_bug.imp", "testdata/dfs_nested_loops_bfs_bug.imp"} {
		prog := parseRoot(t, file)
		lim := budget.Limits{MaxStates: 5000}
		if rep := firstBug(t, prog, Options{Strategy: DFS, Limits: lim}); rep.Verdict != VerdictUnknown {
			t.Errorf("%s: DFS: %v, want unknown (starved)", file, rep.Verdict)
		}
		for _, s := range []Strategy{Coverage, RandomPath} {
			for seed := int64(1); seed <= 3; seed++ {
				if rep := firstBug(t, prog, Options{Strategy: s, Limits: lim, Seed: seed}); rep.Verdict != VerdictBug {
					t.Errorf("%s: %v seed %d: %v after %d states, want bug", file, s, seed, rep.Verdict, rep.Stats.Expanded)
				}
			}
		}
	}
}

// trace is the sequence of states a run expands, as depth and program text.
func trace(prog *syntax.Program, opts Options) string {
	var b strings.Builder
	e := New(prog, opts)
	for {
		st, ok := e.NextState()
		if !ok {
			break
		}
		fmt.Fprintf(&b, "%d %p|", st.Depth, st.Prog.Head())
	}
	return b.String()
}

// TestFairStrategiesDeterministic: the same program, options and seed give the same run.
func TestFairStrategiesDeterministic(t *testing.T) {
	prog := parseRoot(t, "testdata/many_paths_one_bug.imp")
	lim := budget.Limits{MaxStates: 600}
	for _, s := range []Strategy{Coverage, RandomPath} {
		a := trace(prog, Options{Strategy: s, Limits: lim, Seed: 7})
		if b := trace(prog, Options{Strategy: s, Limits: lim, Seed: 7}); a != b {
			t.Errorf("%v: two runs with seed 7 differ", s)
		}
	}
	if trace(prog, Options{Strategy: RandomPath, Limits: lim}) != trace(prog, Options{Strategy: RandomPath, Limits: lim, Seed: DefaultSeed}) {
		t.Error("random-path: seed 0 is not the default seed")
	}
	if trace(prog, Options{Strategy: RandomPath, Limits: lim, Seed: 1}) == trace(prog, Options{Strategy: RandomPath, Limits: lim, Seed: 2}) {
		t.Error("random-path: seeds 1 and 2 give the same run")
	}
}

// TestFairStrategiesExhaustive: on programs whose exploration finishes, a fair strategy expands
// the same number of states as BFS (the same states, in another order) and reaches the same
// verdict; with --all-bugs, the same bugs.
func TestFairStrategiesExhaustive(t *testing.T) {
	for _, file := range []string{"testdata/div_guarded_safe.imp", "testdata/all_bugs_three_kinds_in_order.imp", "testdata/all_bugs_if_in_loop_once.imp", "testdata/gcd_correct.imp"} {
		prog := parseRoot(t, file)
		want := firstBug(t, prog, Options{AllBugs: true, Limits: budget.Limits{MaxStates: 100_000}})
		for _, s := range []Strategy{Coverage, RandomPath} {
			got := firstBug(t, prog, Options{Strategy: s, AllBugs: true, Limits: budget.Limits{MaxStates: 100_000}})
			if got.Verdict != want.Verdict || got.Stats.Expanded != want.Stats.Expanded || len(got.Bugs) != len(want.Bugs) {
				t.Errorf("%s: %v: %v, %d states, %d bugs; BFS: %v, %d states, %d bugs", file, s, got.Verdict, got.Stats.Expanded, len(got.Bugs), want.Verdict, want.Stats.Expanded, len(want.Bugs))
			}
		}
	}
}

// TestExploredDepth: the run is exhaustive below the least pending depth, whatever the order.
func TestExploredDepth(t *testing.T) {
	prog := parseRoot(t, "engine/testdata/factorial.imp")
	for _, s := range []Strategy{BFS, DFS, Coverage, RandomPath} {
		e := New(prog, Options{Strategy: s, Limits: budget.Limits{MaxStates: 500}})
		for {
			if _, ok := e.NextState(); !ok {
				break
			}
		}
		if d := e.ExploredDepth(); d < 0 || d > e.Stats.MaxDepth || (s == BFS && d < e.Stats.MaxDepth-1) {
			t.Errorf("%v: explored depth %d, deepest expanded %d", s, d, e.Stats.MaxDepth)
		}
	}
}
