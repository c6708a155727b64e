package merge

import (
	"errors"
	"math/rand"
	"testing"

	"certsym/engine"
	"certsym/internal/testprog"
	"certsym/pathcond"
	"certsym/spec"
	"certsym/spec/integer"
	"certsym/spec/syntax"
	"certsym/sym"
)

// bfs expands the states of e level by level, from the initial state, for depth levels, the
// successors known unsatisfiable dropped; with merging, each level's states with the same
// remaining program are merged (Level). Final and error states stay from level to level. It
// returns the last level and the merges made.
func bfs(t testing.TB, e *engine.Engine, depth int, merging bool) ([]*engine.State, []*Merged) {
	level := []*engine.State{e.Initial()}
	var all []*Merged
	for d := 0; d < depth && len(level) > 0; d++ {
		var next []*engine.State
		for _, s := range level {
			if s.IsFinal() || s.ErrorOf() != nil { // kept to the last level
				next = append(next, s)
				continue
			}
			for _, k := range e.Expand(s, nil) {
				if e.Solver().Check(k.PC) != pathcond.Unsat {
					next = append(next, k)
				}
			}
		}
		if merging {
			var ms []*Merged
			next, ms, _ = Level(e.Terms(), next)
			all = append(all, ms...)
		}
		level = next
	}
	return level, all
}

// TestPairAtJoin merges the two states that reach the statement after an if: the path condition
// is the disjunction of the two branches' conditions on their common prefix, the variable they
// assign differently an ite, the others shared; an input is read back as the path it follows.
func TestPairAtJoin(t *testing.T) {
	p := testprog.Parse(t, "assume z >= 0; if x > 0 then y = x else y = 0 - x fi; z = y + z")
	e := engine.New(p, engine.Options{})
	defer e.Close()
	// depth 1: assume; 2: skip; 3: the split; 4: the two assignments (the join)
	level, _ := bfs(t, e, 4, false)
	if len(level) != 2 {
		t.Fatalf("%d states at the join, want 2", len(level))
	}
	m, err := Pair(e.Terms(), level[0], level[1])
	if err != nil {
		t.Fatal(err)
	}
	names := e.Names()
	st := m.State
	if got, want := st.PC.String(names), "z >= 0 and (x >= 1 or x <= 0)"; got != want {
		t.Errorf("merged path condition %q, want %q", got, want)
	}
	if got, want := sym.StoreString(st.Store, names), "z = z, x = x, y = ite(x >= 1, x, -x)"; got != want {
		t.Errorf("merged store %q, want %q", got, want)
	}
	if m.Prefix != level[0].PC.Parent || st.Store[0] != level[0].Store[0] {
		t.Error("the prefix or the shared term is not the constituents' own")
	}
	if st.PC.Status != pathcond.Sat || !st.PC.Formula().Eval(st.PC.Witness) {
		t.Errorf("merged path condition %v without a witness that satisfies it", st.PC.Status)
	}
	for _, x := range []int64{-3, 0, 5} {
		v := []integer.Int{integer.Of(1), integer.Of(x), integer.Of(9)} // z, x, y
		i := m.Which(v)
		if want := map[bool]int{true: 0, false: 1}[x > 0]; i != want {
			t.Errorf("x = %d: Which = %d, want %d", x, i, want)
		}
		if !m.Parts[i].State.PC.Formula().Eval(v) {
			t.Errorf("x = %d: the input does not satisfy its constituent's path condition", x)
		}
	}
	// the merged state goes on: skip, then the assignment after the join, one successor each
	kids := e.Expand(st, nil)
	if len(kids) == 1 {
		kids = e.Expand(kids[0], nil)
	}
	if len(kids) != 1 || sym.StoreString(kids[0].Store, names) != "z = z + ite(x >= 1, x, -x), x = x, y = ite(x >= 1, x, -x)" {
		t.Errorf("successors of the merged state: %d, first store %s", len(kids), sym.StoreString(kids[0].Store, names))
	}
}

// TestRefusesDifferentPrograms: states whose remaining programs differ are not merged
// (ErrContinuation), nor are states of different runs or with an unsatisfiable path condition.
func TestRefusesDifferentPrograms(t *testing.T) {
	p := testprog.Parse(t, "if x > 0 then y = 1 else y = 2 fi")
	e := engine.New(p, engine.Options{})
	defer e.Close()
	level, _ := bfs(t, e, 1, false)
	if len(level) != 2 {
		t.Fatalf("%d states after the split, want 2", len(level))
	}
	if _, err := Pair(e.Terms(), level[0], level[1]); !errors.Is(err, ErrContinuation) {
		t.Errorf("states at the two branches merged: err = %v", err)
	}
	e2 := engine.New(p, engine.Options{})
	defer e2.Close()
	other, _ := bfs(t, e2, 1, false)
	if _, err := Pair(e.Terms(), level[0], other[0]); err == nil {
		t.Error("states of two runs merged")
	}
	unsat := &engine.State{PC: pathcond.Extend(level[0].PC, sym.False, 2), Store: level[0].Store, Prog: level[0].Prog}
	if _, err := Pair(e.Terms(), level[0], unsat); err == nil {
		t.Error("a state with an unsatisfiable path condition merged")
	}
}

// TestSameProgram: the same statements in different Konts, sequences nested differently, are the
// same program; the same text at another place is not.
func TestSameProgram(t *testing.T) {
	p := testprog.Parse(t, "x = 1; x = 1; y = 2")
	seq := p.Body.(*syntax.Seq)
	a, rest := seq.First, seq.Second.(*syntax.Seq)
	b, c := rest.First, rest.Second
	k1 := &engine.Kont{S: p.Body}
	k2 := &engine.Kont{S: a, Next: &engine.Kont{S: &syntax.Seq{First: b, Second: c}}}
	k3 := &engine.Kont{S: b, Next: &engine.Kont{S: a, Next: &engine.Kont{S: c}}}
	if !SameProgram(k1, k2) {
		t.Error("the same statements, nested differently, are not the same program")
	}
	if SameProgram(k1, k3) {
		t.Error("two statements of the same text at different places read as the same program")
	}
}

// TestMergedRunsAgree runs programs with joins to their end with and without merging at each
// level, and checks the merged run against the concrete semantics on random inputs: each input's
// concrete final store is the concretization of the store of the one final merged state whose
// path condition it satisfies; and merging made fewer states.
func TestMergedRunsAgree(t *testing.T) {
	srcs := []string{
		"if x > 0 then y = x else y = 0 - x fi; if y > 3 then z = z + y else z = z - 1 fi; if x * z > y then y = y + 1 else x = 1 fi",
		"s = 0; if a > b then s = s + a else s = s - 1 fi; if a * c > b + 1 then s = s + a else s = s - 1 fi; if c > 2 then s = s + c else s = s - 1 fi; assert s != 7",
		"array a[0..2]; if x > 0 then a[0] = x else a[1] = x fi; if a[0] > a[1] then y = a[0] else y = a[1] fi",
	}
	rng := rand.New(rand.NewSource(3))
	for _, src := range srcs {
		p := testprog.Parse(t, src)
		plain := engine.New(p, engine.Options{})
		unmerged, _ := bfs(t, plain, 40, false)
		plain.Close()
		e := engine.New(p, engine.Options{})
		finals, ms := bfs(t, e, 40, true)
		if len(ms) == 0 {
			t.Errorf("%s: no merge", src)
		}
		states := 0
		for _, s := range finals {
			if s.IsFinal() || s.ErrorOf() != nil {
				states++
			}
		}
		if states >= countFinal(unmerged) && countFinal(unmerged) > 1 {
			t.Errorf("%s: %d final states merged, %d without", src, states, countFinal(unmerged))
		}
		ts := e.Terms()
		for n := 0; n < 300; n++ {
			v := make(spec.Store, p.Slots())
			for i := range v {
				v[i] = integer.Of(int64(rng.Intn(13) - 6))
			}
			r := spec.Run(p, append(spec.Store(nil), v...), 200)
			var hit []*engine.State
			for _, s := range finals {
				if s.PC.Formula().Eval(v) {
					hit = append(hit, s)
				}
			}
			if r.Outcome == spec.Blocked {
				if len(hit) != 0 {
					t.Fatalf("%s: input %v is blocked by an assume, yet satisfies a final state", src, v)
				}
				continue
			}
			if len(hit) != 1 {
				t.Fatalf("%s: input %v satisfies %d final states", src, v, len(hit))
			}
			got := ts.Concretize(hit[0].Store, v)
			for i := range got {
				if !got[i].Equal(r.Final.Store[i]) {
					t.Fatalf("%s: input %v: the merged final store concretizes to %v, the concrete run ends in %v", src, v, got, r.Final.Store)
				}
			}
		}
		e.Close()
		t.Logf("%s: %d final states merged (%d merges), %d without", src, states, len(ms), countFinal(unmerged))
	}
}

func countFinal(ss []*engine.State) int {
	n := 0
	for _, s := range ss {
		if s.IsFinal() || s.ErrorOf() != nil {
			n++
		}
	}
	return n
}
