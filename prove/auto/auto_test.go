package auto

import (
	"certsym/prove/infer"
	"testing"

	"certsym/internal/budget"
	"certsym/internal/testprog"
	"certsym/prove"
	"certsym/spec/syntax"
)

// TestProveInfers proves a loop without clauses with the invariants inference finds, and the
// final answer is the proof mode's: the clauses are given beside the program.
func TestProveInfers(t *testing.T) {
	prog := testprog.Parse(t, `assume x < 100 and y < 100;
while x < 100 and y < 100 do
  x = x + 1;
  y = y + 1
od;
assert x == 100 or y == 100
`)
	out, err := Prove(prog, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if out.Result.Answer != prove.Proved {
		t.Fatalf("answer %s, invariants %v", out.Result, out.Invariants)
	}
	if len(out.Result.Loops) != 1 || len(out.Result.Loops[0].Clauses) == 0 {
		t.Fatalf("the proof used no inferred clause: %+v", out.Result.Loops)
	}
	if !out.Complete {
		t.Errorf("Houdini did not reach its fixpoint")
	}
}

// TestProveNeverProvesABug refutes a program with a bug whatever the candidates, and leaves a
// program whose proof needs an invariant outside the grammar unknown, not proved.
func TestProveNeverProvesABug(t *testing.T) {
	bug := testprog.Parse(t, `assume n >= 0;
i = 0;
s = 0;
while i < n do
  s = s + 2;
  i = i + 1
od;
assert s != 6
`)
	out, err := Prove(bug, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if out.Result.Answer != prove.Refuted {
		t.Errorf("a program with a bug: %s", out.Result)
	}
	// s == i * i is no linear equality: the grammar has no invariant for it
	square := testprog.Parse(t, `assume n >= 0;
i = 0;
s = 0;
while i < n do
  s = s + 2 * i + 1;
  i = i + 1
od;
assert s == n * n
`)
	out, err = Prove(square, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if out.Result.Answer == prove.Refuted {
		t.Errorf("a correct program refuted: %s", out.Result)
	}
	t.Logf("the square loop: %s", out.Result)
}

// TestProveRefutesPastQuantifiedClauses: inference proves the clause forall k in 0..i - 1:
// A[k] == k of a loop filling an array, with which the negated claim's query needs a model fixing
// every element filled (unknown: more than the solver's rounds of instantiation); the check made
// again with the clauses without quantifiers refutes the program by a counterexample that
// replays from its start (the bug finder's 100 states do not reach the error, 390 steps away).
func TestProveRefutesPastQuantifiedClauses(t *testing.T) {
	prog := testprog.Parse(t, `array A[0..127];
i = 0;
while i < 64 do
  A[i] = i;
  i = i + 1
od;
assert A[63] != 63
`)
	out, err := Prove(prog, Options{Prove: prove.Options{ReachStates: 100}})
	if err != nil {
		t.Fatal(err)
	}
	if out.Result.Answer != prove.Refuted {
		t.Fatalf("answer %s", out.Result)
	}
	for _, cs := range out.Invariants {
		for _, c := range cs {
			if syntax.HasQuant(c.Cond) {
				t.Errorf("the answer is the check's without quantified clauses, its invariants have %s", c.Text)
			}
		}
	}
}

// TestStoppedRoundIsNoFixpoint: a round of Houdini whose proof was stopped by a bound (here the
// state bound, on a loaded machine its time bound) refuted only the candidates of the paths it
// explored; what is left is no fixpoint and inference does not say it is complete.
func TestStoppedRoundIsNoFixpoint(t *testing.T) {
	prog := testprog.Parse(t, `assume x < 100 and y < 100;
while x < 100 and y < 100 do
  x = x + 1;
  y = y + 1
od;
assert x == 100 or y == 100
`)
	out, err := Prove(prog, Options{Prove: prove.Options{Limits: budget.Limits{MaxStates: 3}}})
	if err != nil {
		t.Fatal(err)
	}
	if out.Complete {
		t.Errorf("inference complete after rounds stopped at 3 states (answer %s)", out.Result)
	}
	if out.Result.Answer == prove.Proved {
		t.Errorf("proved within 3 states: %s", out.Result)
	}
}

// TestOracleRefutesClausesNoStatePasses: the entry claims of a loop's candidates fail in every
// state that reaches the loop (here over-approximate states of an outer loop no run enters, so
// no counterexample replays), so no state passes them and the invariant transition of the
// inner loop is never applied. The oracle still refutes the candidates whose claims failed,
// by the clauses the failures name, and does not call the set inductive.
func TestOracleRefutesClausesNoStatePasses(t *testing.T) {
	prog := testprog.Parse(t, `assume n < 0;
i = 0;
while i < n invariant i >= 0 do
  n = n - 1;
  j = 0;
  while j < 2 do j = j + 1 od;
  i = i + 1
od
`)
	conds := testprog.Parse(t, "assert j == i; assert j != i")
	var inner *syntax.While
	syntax.Inspect(prog.Body, func(n syntax.Node) bool {
		if w, ok := n.(*syntax.While); ok && len(w.Invariants) == 0 {
			inner = w
		}
		return true
	})
	var cands []*infer.Candidate
	syntax.Inspect(conds.Body, func(n syntax.Node) bool {
		if a, ok := n.(*syntax.Assert); ok {
			cands = append(cands, &infer.Candidate{Cond: a.Cond, Text: syntax.PrintB(a.Cond)})
		}
		return true
	})
	o := &oracle{prog: prog}
	refs, err := o.check(infer.Set{inner: cands})
	if err != nil {
		t.Fatal(err)
	}
	if o.refuted != nil || o.stopped {
		t.Fatalf("the round refuted the program or stopped: %v, %v", o.refuted, o.stopped)
	}
	got := map[*infer.Candidate]bool{}
	for _, r := range refs {
		if r.Loop != inner || !r.Entry {
			t.Errorf("refutation of %s: loop %v, entry %v", r.Cand.Text, r.Loop.Pos(), r.Entry)
		}
		got[r.Cand] = true
	}
	if len(got) != 2 {
		t.Fatalf("refuted %d of the 2 contradicting candidates, want both", len(got))
	}
}
