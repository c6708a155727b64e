package bounded

import (
	"strings"
	"testing"
	"time"

	"certsym/internal/testprog"
	"certsym/spec"
	"certsym/spec/integer"
	"certsym/spec/syntax/parser"
)

// TestBoundedGhost runs the bounded interpreter in ghost mode on every program of testdata/ and
// the PyWiSE corpus, from random inputs, for several loop limits: every ghost assertion (ρ
// satisfies the constraint, ρ∘σ is the concrete store, exactly one branch holds and it is the
// concrete one, the final behaviour is the concrete bounded execution's) must hold.
func TestBoundedGhost(t *testing.T) {
	if testing.Short() {
		t.Skip("short mode: the ghost checks on the corpus from random inputs; make check runs it")
	}
	f := testprog.InputFuzzer(7)
	checks := 0
	for _, file := range testprog.Corpus(t) {
		p, err := parser.ParseFile(file)
		if err != nil {
			t.Fatal(err)
		}
		for _, n := range []int{0, 1, 3} {
			b := New(p, n)
			b.MaxStates = 3000
			// rlimit alone does not stop Z3 4.8.12 on some nonlinear queries: the timer does.
			b.RLimit, b.QueryTimeout = 20_000_000, 10*time.Second
			for run := 0; run < 4; run++ {
				in := testprog.RandomInput(f, p.Slots())
				if _, err := b.SymInterp(in); err != nil {
					t.Fatalf("%s, loop limit %d, input %s: %v", file, n, spec.StoreString(p, in), err)
				}
				checks += b.GhostChecks
			}
			b.Close()
		}
	}
	if checks == 0 {
		t.Fatal("no ghost check ran")
	}
	t.Logf("%d ghost checks", checks)
}

func TestBoundedBehaviours(t *testing.T) {
	src := `assume x >= 0;
y = 10 / (x - 2);
i = 0;
while i < x do
  i = i + 1
od;
assume i != 1;
if i == 3 then fail fi`
	p := testprog.Parse(t, src)
	b := New(p, 4)
	rs, err := b.SymInterp(nil)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range rs {
		line := 0
		if r.Fail != nil {
			line = r.Fail.Line()
		} else if r.At != nil {
			line = r.At.Pos().Line
		}
		got = append(got, r.Behaviour.String()+"@"+itoa(line)+": "+r.State.PC.String(p.Vars))
	}
	want := []string{
		// the loop's results: continuing first (interp_loop: rt ++ rf), innermost first; the
		// conjunct x != 2 is implied by each interval and not printed
		"incomplete@4: x >= 5",
		"normal@0: x == 4",
		"error@8: x == 3",
		"infeasible@7: x == 1",
		"normal@0: x == 0",
		"error@2: x == 2",
		"infeasible@1: x <= -1",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("results:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func itoa(n int) string { return integer.Of(int64(n)).String() }

// TestBoundedGhostStopped: a bound that stops the interpretation cuts branches instead of
// dropping them, so the ghost checks still hold after the stop, for inputs whose path is cut and
// for inputs whose path ends before the stop.
func TestBoundedGhostStopped(t *testing.T) {
	p := testprog.Parse(t, "i = 0;\nwhile i < n do\n  if i % 2 == 0 then x = x + 1 else x = x - 1 fi;\n  i = i + 1\nod")
	b := New(p, 50)
	b.MaxStates = 10
	for _, n := range []int64{40, 0, 1, -3} {
		in := spec.Store{integer.Of(0), integer.Of(n), integer.Of(3)}
		rs, err := b.SymInterp(in)
		if err != nil {
			t.Fatalf("n = %d: ghost failure after a bound: %v", n, err)
		}
		if b.Stopped() == "" {
			t.Fatal("the state bound did not stop the interpretation")
		}
		if b.GhostChecks == 0 {
			t.Fatalf("n = %d: no ghost check ran", n)
		}
		ghost := 0
		for _, r := range rs {
			if r.State.Ghost != nil {
				ghost++
			}
		}
		if ghost != 1 {
			t.Fatalf("n = %d: %d results on the ghost path, want 1", n, ghost)
		}
	}
}

// TestBoundedStoppedCuts: when a budget (here the state bound) stops the bounded interpreter,
// the branches it did not explore are cut results (the Stopped outcome of the Why3
// development), not dropped: every input either ends as some uncut result with the behaviour,
// place and store of the bounded concrete execution, or is an instance of a cut result (the
// postcondition of sym_interp).
func TestBoundedStoppedCuts(t *testing.T) {
	src := `i = 0;
while i < n do
  if i % 2 == 0 then x = x + 100 / (n - 7) else assume x != 5 fi;
  i = i + 1
od;
assert x != 9`
	p := testprog.Parse(t, src)
	for _, maxStates := range []int{1, 5, 12, 30} {
		b := New(p, 6)
		b.MaxStates = maxStates
		rs, err := b.SymInterp(nil)
		if err != nil {
			t.Fatal(err)
		}
		if b.Stopped() == "" {
			t.Fatalf("MaxStates %d: the state bound did not stop the interpretation", maxStates)
		}
		cuts := 0
		for _, r := range rs {
			if r.Cut == CutNone {
				continue
			}
			cuts++
			if r.Cut != CutBudget || r.Behaviour != spec.Incomplete || r.At == nil || r.Fail != nil {
				t.Fatalf("MaxStates %d: cut result %+v, want a budget cut, Incomplete, at a statement", maxStates, r)
			}
		}
		if cuts == 0 {
			t.Fatalf("MaxStates %d: the stopped run has no cut result", maxStates)
		}
		for n := int64(-2); n <= 9; n++ {
			for _, x := range []int64{-1, 0, 5, 9, 109} {
				in := spec.Store{integer.Of(0), integer.Of(n), integer.Of(x)}
				want := spec.ExecBounded(p, in, 6)
				covered := false
				for _, r := range rs {
					if !r.State.PC.Formula().Eval(in) {
						continue
					}
					if r.Cut != CutNone {
						covered = true
						continue
					}
					if r.Behaviour != want.Behaviour || r.Fail != want.Fail || r.At != want.At {
						t.Fatalf("MaxStates %d, input %s: result %s at line %d, concretely %s", maxStates, spec.InputString(in, p.Vars), r.Behaviour, resultLine(r.Fail, r.At), want.Behaviour)
					}
					covered = true
				}
				if !covered {
					t.Fatalf("MaxStates %d: input %s (concretely %s) is covered by no result: a branch was dropped", maxStates, spec.InputString(in, p.Vars), want.Behaviour)
				}
			}
		}
	}
}
