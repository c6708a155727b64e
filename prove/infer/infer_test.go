package infer

import (
	"testing"

	"certsym/internal/testprog"
	"certsym/spec"
	"certsym/spec/integer"
	"certsym/spec/syntax"
)

const sum2 = `assume n >= 0;
i = 0;
s = 0;
while i < n do
  s = s + 2;
  i = i + 1
od;
assert s == 2 * n
`

func texts(cs []*Candidate) map[string]Origin {
	m := map[string]Origin{}
	for _, c := range cs {
		m[c.Text] = c.Origin
	}
	return m
}

// TestEqualitiesExact finds s == 2 * i among the states of the sum loop, and no equality that
// some state breaks.
func TestEqualitiesExact(t *testing.T) {
	prog := testprog.Parse(t, sum2)
	w := Loops(prog)[0]
	st := func(n, i, s int64) spec.Store {
		return spec.Store{integer.Of(n), integer.Of(i), integer.Of(s)}
	}
	states := []spec.Store{st(5, 0, 0), st(5, 1, 2), st(5, 2, 4), st(7, 3, 6)}
	eqs := Equalities(prog, w.Pos(), states)
	got := texts(eqs)
	if _, ok := got["2 * i - s == 0"]; !ok {
		t.Fatalf("equalities %v lack 2 * i - s == 0", got)
	}
	for _, c := range eqs {
		if !holdsOn(c.Cond, states) {
			t.Errorf("equality %s fails on a state it was computed from", c.Text)
		}
	}
	if len(eqs) != 1 {
		t.Errorf("equalities %v: want one (n varies independently)", got)
	}
}

// TestCandidatesSum samples the sum loop and keeps the invariant that proves it.
func TestCandidatesSum(t *testing.T) {
	prog := testprog.Parse(t, sum2)
	states := Sample(prog, SampleOptions{})
	w := Loops(prog)[0]
	if len(states[w]) < 10 {
		t.Fatalf("only %d loop-head states sampled", len(states[w]))
	}
	got := texts(Candidates(prog, states)[w])
	for _, want := range []string{"i <= n", "2 * i - s == 0", "i >= 0"} {
		if _, ok := got[want]; !ok {
			t.Errorf("candidates %v lack %s", got, want)
		}
	}
	if _, ok := got["i < n"]; ok {
		t.Errorf("i < n kept though it is false at the last arrival")
	}
}

// TestCandidatesArray builds the quantified candidates of an array loop from its write, and
// none over what the loop after it leaves unmodified.
func TestCandidatesArray(t *testing.T) {
	prog := testprog.Parse(t, `array x[0..99];
assume 0 <= n and n <= 100;
i = 0;
while i < n do
  x[i] = 0;
  i = i + 1
od;
i = 0;
while i < n do
  assert x[i] == 0;
  i = i + 1
od
`)
	states := Sample(prog, SampleOptions{})
	set := Candidates(prog, states)
	ls := Loops(prog)
	if _, ok := texts(set[ls[0]])["forall k in 0..i - 1: x[k] == 0"]; !ok {
		t.Errorf("first loop: %v", texts(set[ls[0]]))
	}
	// the second loop modifies neither x nor n: the fact holds by the path condition, and is
	// no candidate of it
	if _, ok := texts(set[ls[1]])["forall k in 0..n - 1: x[k] == 0"]; ok {
		t.Errorf("second loop: %v", texts(set[ls[1]]))
	}
	if v := CheckStates(set, states); len(v) != 0 {
		t.Errorf("kept candidates fail on the sampled states: %v", v[0])
	}
}

// fakeOracle refutes, in each round, the candidates whose text is in bad, and a candidate in
// needs while the candidate it needs is still in the set (a candidate preserved only with the
// help of another).
type fakeOracle struct {
	entry, pres map[string]bool
	needs       map[string]string
	calls       int
}

func (o *fakeOracle) check(s Set) ([]Refutation, error) {
	o.calls++
	var out []Refutation
	for w, cs := range s {
		in := map[string]bool{}
		for _, c := range cs {
			in[c.Text] = true
		}
		for _, c := range cs {
			switch {
			case o.entry[c.Text]:
				out = append(out, Refutation{Loop: w, Cand: c, Entry: true})
			case o.pres[c.Text]:
				out = append(out, Refutation{Loop: w, Cand: c})
			case o.needs[c.Text] != "" && !in[o.needs[c.Text]]:
				out = append(out, Refutation{Loop: w, Cand: c})
			}
		}
	}
	return out, nil
}

func candSet(prog *syntax.Program, conds ...string) Set {
	w := Loops(prog)[0]
	var cs []*Candidate
	for _, text := range conds {
		cs = append(cs, &Candidate{Text: text, Cond: &syntax.BoolLit{Val: true}})
	}
	return Set{w: cs}
}

// TestHoudiniFixpoint drops the refuted candidates, then those that needed them, and keeps the
// rest after the round that refutes none.
func TestHoudiniFixpoint(t *testing.T) {
	prog := testprog.Parse(t, sum2)
	o := &fakeOracle{entry: map[string]bool{"A": true}, pres: map[string]bool{"B": true},
		needs: map[string]string{"C": "A", "D": "C", "E": "F"}}
	got, st, err := Houdini(candSet(prog, "A", "B", "C", "D", "E", "F"), o.check, 0)
	if err != nil {
		t.Fatal(err)
	}
	w := Loops(prog)[0]
	if m := texts(got[w]); len(m) != 2 || m["E"] != 0 && m["F"] != 0 {
		t.Errorf("kept %v, want E and F", m)
	}
	if st.Rounds != 4 || st.Dropped != 4 || o.calls != 4 {
		t.Errorf("rounds %d, dropped %d, calls %d: want 4, 4, 4", st.Rounds, st.Dropped, o.calls)
	}
}

// TestHoudiniBound reports an error when the rounds run out.
func TestHoudiniBound(t *testing.T) {
	prog := testprog.Parse(t, sum2)
	o := &fakeOracle{needs: map[string]string{"C": "A", "D": "C"}, entry: map[string]bool{"A": true}}
	if _, _, err := Houdini(candSet(prog, "A", "C", "D"), o.check, 2); err == nil {
		t.Errorf("no error after 2 rounds of 3 needed")
	}
}
