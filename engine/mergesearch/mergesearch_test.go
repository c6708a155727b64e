package mergesearch

import (
	"fmt"
	"strings"
	"testing"

	"certsym/engine"
	"certsym/engine/search"
	"certsym/internal/budget"
	"certsym/internal/testprog"
	"certsym/merge"
	"certsym/spec"
	"certsym/spec/syntax"
	"certsym/spec/syntax/parser"
	"certsym/sym"
)

// run runs the bug finder on src with merging (the searcher returned) or without (nil).
func run(t *testing.T, src string, merging bool, opts engine.Options) (*engine.Report, *Searcher) {
	t.Helper()
	p := testprog.Parse(t, src)
	var ms *Searcher
	if merging {
		opts.Merge = Option(&ms)
	}
	e := engine.New(p, opts)
	defer e.Close()
	rep, err := e.FindBugs(nil)
	if err != nil {
		t.Fatal(err)
	}
	return rep, ms
}

// TestNonlinearIfsMerged: the 13 nonlinear ifs run to the end with merging in at most 200 states
// (8,192 paths; 32,763 states without merging), one merge a join but the last (the end of the
// program: finished states are not merged), and the verdict is safe.
func TestNonlinearIfsMerged(t *testing.T) {
	rep, ms := run(t, testprog.NonlinearIfs(13), true, engine.Options{})
	if rep.Verdict != engine.VerdictSafe {
		t.Fatalf("verdict %s (%s), want safe", rep.Verdict, rep.Reason)
	}
	if rep.Stats.Expanded > 200 {
		t.Errorf("%d states expanded, want at most 200", rep.Stats.Expanded)
	}
	if ms.Stats.Merges != 12 || ms.Stats.TooLarge+ms.Stats.Refused != 0 {
		t.Errorf("merging: %+v, want 12 merges and none left", ms.Stats)
	}
}

// TestLinearIfsMerged: testprog.IndependentIfs(18) (18 ifs whose branches take 2 and 3 steps, so
// that paths meet again at different depths, then an assert that fails) finds its bug in at most
// 2,000 states with merging, and the bug's state is its path's own (no merged state on it).
func TestLinearIfsMerged(t *testing.T) {
	rep, ms := run(t, testprog.IndependentIfs(18), true, engine.Options{})
	if rep.Verdict != engine.VerdictBug || len(rep.Bugs) != 1 || rep.Bugs[0].Line() != 19 {
		t.Fatalf("verdict %s, bugs %d, want the assert of line 19", rep.Verdict, len(rep.Bugs))
	}
	if rep.Stats.Expanded > 2000 {
		t.Errorf("%d states expanded, want at most 2,000", rep.Stats.Expanded)
	}
	if ms.Stats.Merges == 0 {
		t.Error("no merge")
	}
	checkOwnPath(t, testprog.Parse(t, testprog.IndependentIfs(18)), rep.Bugs[0])
}

// TestLinearIfsExhaustiveMerged: testprog.IndependentIfs(18) runs to its end with --all-bugs in
// at most 2,000 states with merging (3,123 when only the states of one depth were merged, the
// guards of the joins holding the disjunctions of the earlier merges), its paths joined across
// the two depths at which its branches end; the one bug is its assert's, on its input's own path.
func TestLinearIfsExhaustiveMerged(t *testing.T) {
	src := testprog.IndependentIfs(18)
	rep, ms := run(t, src, true, engine.Options{AllBugs: true})
	if rep.Verdict != engine.VerdictBug || bugList(rep) != "assert@19" {
		t.Fatalf("verdict %s [%s], want the assert of line 19", rep.Verdict, bugList(rep))
	}
	if rep.Stats.Expanded > 2000 {
		t.Errorf("%d states expanded, want at most 2,000", rep.Stats.Expanded)
	}
	if ms.Stats.Deeper == 0 {
		t.Errorf("merging: %+v, want merges across depths", ms.Stats)
	}
	checkOwnPath(t, testprog.Parse(t, src), rep.Bugs[0])
}

// TestDeeperBugReplays: bugs that only the paths through the longer branches reach (so below
// merges whose state has the depth of a shorter path) are reported on their inputs' own paths,
// with their own depths, and as the run without merging reports them.
func TestDeeperBugReplays(t *testing.T) {
	src := "assume y == 0;\n" + testprog.IndependentIfs(4) + ";\nassert y != 4;\nq = 10 / (y - 3);\nassert y != 2\n"
	src = strings.Replace(src, "assert y >= 0\n;", "skip;", 1)
	for _, all := range []bool{false, true} {
		plain, _ := run(t, src, false, engine.Options{AllBugs: all})
		merged, ms := run(t, src, true, engine.Options{AllBugs: all})
		if ms.Stats.Deeper == 0 {
			t.Fatalf("all-bugs %v: merging %+v, want merges across depths", all, ms.Stats)
		}
		if plain.Verdict != merged.Verdict || bugList(plain) != bugList(merged) {
			t.Errorf("all-bugs %v: without merging %s [%s], with %s [%s]", all, plain.Verdict, bugList(plain), merged.Verdict, bugList(merged))
		}
		for _, b := range merged.Bugs {
			checkOwnPath(t, testprog.Parse(t, src), b)
		}
	}
}

// TestWaitingPending: the successors waiting for a state of the depth being taken are pending
// states: Len counts them and Each visits them, at every step of a run whose paths join one step
// apart (the engine's pending count and explored depth read them).
func TestWaitingPending(t *testing.T) {
	p := testprog.Parse(t, testprog.IndependentIfs(4))
	var ms *Searcher
	e := engine.New(p, engine.Options{Merge: Option(&ms)})
	defer e.Close()
	waited := false
	for {
		if _, ok := e.NextState(); !ok {
			break
		}
		n, seen := 0, map[*engine.State]bool{}
		ms.Each(func(x *engine.State) { n++; seen[x] = true })
		if n != ms.Len() || len(seen) != n {
			t.Fatalf("Each visits %d states (%d distinct), Len says %d", n, len(seen), ms.Len())
		}
		for _, w := range ms.wait {
			waited = true
			if !seen[w.st] {
				t.Fatalf("a waiting successor is not visited by Each")
			}
		}
	}
	if !waited || ms.Stats.Deeper == 0 {
		t.Errorf("no successor waited (merging %+v)", ms.Stats)
	}
}

// checkOwnPath checks that a bug's state is its input's own path's in the tree without merging:
// the engine's steps from the initial state of a run of its own, each time to the successor whose
// branch condition the input satisfies, reach after as many steps a state with the same path
// condition, store and program; and that the input's concrete run reaches the bug's error after
// as many steps as the state's depth.
func checkOwnPath(t *testing.T, p *syntax.Program, b *engine.Bug) {
	t.Helper()
	e := engine.New(p, engine.Options{})
	defer e.Close()
	names := e.Names()
	st := e.Initial()
	for st.Depth < b.State.Depth {
		var next *engine.State
		for _, k := range e.Expand(st, nil) {
			holds := true
			for _, f := range engine.Added(st, k) {
				holds = holds && f.Eval(b.Input)
			}
			if holds {
				next = k
				break
			}
		}
		if next == nil {
			t.Fatalf("the input of the bug at line %d follows no successor at depth %d", b.Line(), st.Depth)
		}
		st = next
	}
	if got, want := b.State.PC.String(names), st.PC.String(names); got != want {
		t.Errorf("the bug's path condition is %s, its input's path's %s", got, want)
	}
	if got, want := sym.StoreString(b.State.Store, names), sym.StoreString(st.Store, names); got != want {
		t.Errorf("the bug's store is %s, its input's path's %s", got, want)
	}
	if got, want := syntax.Print(b.State.Prog.Stmt()), syntax.Print(st.Prog.Stmt()); got != want {
		t.Errorf("the bug's program is\n%s\nits input's path's\n%s", got, want)
	}
	if b.Replay.Outcome != spec.Failed || b.Replay.Fail != b.Fail || b.Replay.Steps != b.State.Depth {
		t.Errorf("replay: %s after %d steps, want the bug's error after %d", b.Replay.Outcome, b.Replay.Steps, b.State.Depth)
	}
}

// TestMergedBugReplays: bugs found below merged states, in first-bug and all-bugs runs, are
// reported on their inputs' own paths (checkOwnPath), at the places and kinds of the run without
// merging.
func TestMergedBugReplays(t *testing.T) {
	src := testprog.NonlinearIfs(6) + ";\nassert s != 3;\nq = 10 / (s - 4);\nif x1 > 0 then s = s + 1 else s = s - 1 fi;\nassert s != 9\n"
	for _, all := range []bool{false, true} {
		plain, _ := run(t, src, false, engine.Options{AllBugs: all})
		merged, ms := run(t, src, true, engine.Options{AllBugs: all})
		if ms.Stats.Merges == 0 {
			t.Fatal("no merge")
		}
		if plain.Verdict != merged.Verdict || bugList(plain) != bugList(merged) {
			t.Errorf("all-bugs %v: without merging %s [%s], with %s [%s]", all, plain.Verdict, bugList(plain), merged.Verdict, bugList(merged))
		}
		for _, b := range merged.Bugs {
			checkOwnPath(t, testprog.Parse(t, src), b)
		}
	}
}

// bugList names a report's bugs by kind and line, in report order.
func bugList(r *engine.Report) string {
	var out []string
	for _, b := range r.Bugs {
		out = append(out, fmt.Sprintf("%s@%d", b.Kind(), b.Line()))
	}
	return strings.Join(out, " ")
}

// TestUnmergeLastOnly: Unmerge answers for the state taken last only.
func TestUnmergeLastOnly(t *testing.T) {
	p := testprog.Parse(t, testprog.NonlinearIfs(2))
	var ms *Searcher
	e := engine.New(p, engine.Options{Merge: Option(&ms)})
	defer e.Close()
	first, _ := e.NextState()
	last, _ := e.NextState()
	if _, err := ms.Unmerge(first, make(spec.Store, p.Slots())); err == nil {
		t.Error("Unmerge of a state taken before the last: no error")
	}
	if u, err := ms.Unmerge(last, make(spec.Store, p.Slots())); err != nil || u != last {
		t.Errorf("Unmerge of the last state, on no merged path: %v, %v", u, err)
	}
}

// TestHotSlots: the states of a loop's body that differ in a variable the loop's condition reads
// are not merged (each would carry every constituent's case into every later query); those that
// differ in a variable no loop condition reads are.
func TestHotSlots(t *testing.T) {
	loop := "assume a > 0 and b > 0;\nk = 0;\nwhile a != b and k < 6 do\n  if a < b then b = b - a else a = a - b fi;\n  k = k + 1\nod\n"
	_, ms := run(t, loop, true, engine.Options{Limits: budget.Limits{MaxStates: 400}})
	if ms.Stats.Merges != 0 {
		t.Errorf("the loop on a and b: %d merges, want none", ms.Stats.Merges)
	}
	cold := "assume n >= 0 and n <= 5;\nk = 0;\nwhile k < n do\n  if x * k > y then s = s + 1 else s = s - 1 fi;\n  k = k + 1\nod\n"
	rep, ms := run(t, cold, true, engine.Options{})
	if ms.Stats.Merges == 0 || rep.Verdict != engine.VerdictSafe {
		t.Errorf("the loop summing s: %d merges, verdict %s; want merges and safe", ms.Stats.Merges, rep.Verdict)
	}
	p := testprog.Parse(t, loop)
	e := engine.New(p, engine.Options{})
	defer e.Close()
	var names []string
	for _, i := range hotSlots(p, &engine.Kont{S: p.Body}) {
		names = append(names, p.Vars[i])
	}
	if got := strings.Join(names, " "); got != "a b k" {
		t.Errorf("hot slots of the loop program: %s, want a b k", got)
	}
}

// TestGroupKeyIsSameProgram: two states have one program key exactly when merge.SameProgram
// holds, on the states of the first levels of the corpus's programs.
func TestGroupKeyIsSameProgram(t *testing.T) {
	for _, f := range testprog.Corpus(t)[:40] {
		p, err := parser.ParseFile(f)
		if err != nil {
			t.Fatal(err)
		}
		e := engine.New(p, engine.Options{NoPrune: true})
		s := &Searcher{e: e, ids: map[syntax.Stmt]uint64{}, hot: map[string][]int{}}
		level := []*engine.State{e.Initial()}
		for d := 0; d < 12 && len(level) > 0 && len(level) < 200; d++ {
			var next []*engine.State
			for _, st := range level {
				next = e.Expand(st, next)
			}
			keys := make([]string, len(next))
			for i, st := range next {
				s.progKey(st.Prog)
				keys[i] = string(s.key)
			}
			for i := range next {
				for j := range next {
					if (keys[i] == keys[j]) != merge.SameProgram(next[i].Prog, next[j].Prog) {
						t.Fatalf("%s: depth %d: keys equal %v, SameProgram %v", f, d+1, keys[i] == keys[j], !(keys[i] == keys[j]))
					}
				}
			}
			level = next
		}
		e.Close()
	}
}

// TestValidate: merging is for breadth-first runs without bursts or shards.
func TestValidate(t *testing.T) {
	for _, o := range []engine.Options{{Strategy: engine.DFS}, {Strategy: engine.Coverage}, {Burst: 10}, {Shard: engine.Shard{Index: 0, Count: 2}}} {
		o.Merge = New
		if o.Validate() == nil {
			t.Errorf("%+v with merging: no error", o)
		}
	}
	if err := (engine.Options{Merge: New}).Validate(); err != nil {
		t.Error(err)
	}
}

// TestDisjunctionSize: a merge whose disjunction is larger than the bound is not made (its states
// stay, the run's answer is the same), and every merge made is within it. The program is ten ifs
// whose then branches take three steps more than their else branches (testprog.UnevenIfs(10, 1)):
// its paths meet three depths apart, which no merge across depths joins, so its merges of one depth join merged histories.
func TestDisjunctionSize(t *testing.T) {
	src := testprog.UnevenIfs(10, 1)
	want, _ := run(t, src, false, engine.Options{AllBugs: true})
	p := testprog.Parse(t, src)
	for _, size := range []int{16, 64, MaxSize} {
		var ms *Searcher
		e := engine.New(p, engine.Options{AllBugs: true, Merge: func(e *engine.Engine) search.Searcher[*engine.State] {
			ms = Of(New(e))
			ms.Size = size
			return ms
		}})
		rep, err := e.FindBugs(nil)
		if err != nil {
			t.Fatal(err)
		}
		if rep.Verdict != want.Verdict || bugList(rep) != bugList(want) {
			t.Errorf("size %d: %s [%s], without merging %s [%s]", size, rep.Verdict, bugList(rep), want.Verdict, bugList(want))
		}
		if ms.Stats.Largest > size {
			t.Errorf("size %d: a merge of size %d was made", size, ms.Stats.Largest)
		}
		if size == 16 && ms.Stats.TooLarge == 0 {
			t.Errorf("size 16: no merge left out")
		}
		e.Close()
	}
}

// TestFirstTwo: the first two statements of a program, sequences flattened, across continuations.
func TestFirstTwo(t *testing.T) {
	p := testprog.Parse(t, "x = 1; y = 2; z = 3")
	seq := p.Body.(*syntax.Seq)
	for _, k := range []*engine.Kont{
		{S: p.Body},
		{S: seq.First, Next: &engine.Kont{S: seq.Second}},
		{S: &syntax.Seq{First: &syntax.Seq{First: seq.First, Second: seq.Second.(*syntax.Seq).First}, Second: seq.Second.(*syntax.Seq).Second}},
	} {
		a, b := firstTwo(k)
		if a != seq.First || b != seq.Second.(*syntax.Seq).First {
			t.Errorf("firstTwo(%s) = %v, %v", syntax.Print(k.Stmt()), a, b)
		}
	}
	if a, b := firstTwo(&engine.Kont{S: seq.First}); a != seq.First || b != nil {
		t.Errorf("firstTwo of one statement: %v, %v", a, b)
	}
}

// TestIdleLevels: after a long stretch of depths without a group (a loop over constants), the
// frontier looks for groups at one depth in sixteen; a chain of ifs after it is merged all the
// same, from the first depth it looks at, and the run ends with the answer of the run without
// merging.
func TestIdleLevels(t *testing.T) {
	src := "i = 0;\nwhile i < 60 do i = i + 1 od;\n" + testprog.NonlinearIfs(10) + ";\nassert s != 7\n"
	plain, _ := run(t, src, false, engine.Options{})
	rep, ms := run(t, src, true, engine.Options{})
	if rep.Verdict != plain.Verdict || bugList(rep) != bugList(plain) {
		t.Errorf("with merging %s [%s], without %s [%s]", rep.Verdict, bugList(rep), plain.Verdict, bugList(plain))
	}
	if ms.Stats.Merges < 5 || rep.Stats.Expanded*4 > plain.Stats.Expanded {
		t.Errorf("%d merges, %d states (%d without merging): the chain after the loop is not merged", ms.Stats.Merges, rep.Stats.Expanded, plain.Stats.Expanded)
	}
}
