package infer

import (
	"testing"

	"certsym/internal/testprog"
	"certsym/spec"
	"certsym/spec/integer"
)

// loopCands samples the program and returns the candidates of its first loop, by text.
func loopCands(t *testing.T, src string) map[string]Origin {
	t.Helper()
	prog := testprog.Parse(t, src)
	states := Sample(prog, SampleOptions{})
	set := Candidates(prog, states)
	if v := CheckStates(set, states); len(v) != 0 {
		t.Fatalf("kept candidates fail on the sampled states: %v", v[0])
	}
	return texts(set[Loops(prog)[0]])
}

func wantCands(t *testing.T, got map[string]Origin, want map[string]Origin) {
	t.Helper()
	for text, o := range want {
		g, ok := got[text]
		switch {
		case !ok:
			t.Errorf("candidates lack %s: %v", text, got)
		case g != o:
			t.Errorf("%s comes from %s, want %s", text, g, o)
		}
	}
}

// TestQuadraticGauss finds the degree-2 equality of the Gauss sum among the sampled states.
func TestQuadraticGauss(t *testing.T) {
	got := loopCands(t, `assume 1 <= n and n <= 1000;
sum = 0;
i = 1;
while i <= n do
  sum = sum + i;
  i = i + 1
od;
assert 2 * sum == n * (n + 1)
`)
	wantCands(t, got, map[string]Origin{"2 * sum + i - i * i == 0": FromQuadratic})
}

// TestModularExitSlack: counting by 2 gives i % 2 == 0 and the exit bound i <= n + 1; a
// counter that counts down beside one that counts up gives the slack candidate.
func TestModularExitSlack(t *testing.T) {
	got := loopCands(t, `i = 0;
while i < 1000000 do
  i = i + 2
od;
assert i == 1000000
`)
	wantCands(t, got, map[string]Origin{"i % 2 == 0": FromModular, "i <= 1000000 + 1": FromExit})
	got = loopCands(t, `assume n >= 1 and k >= n and j == 0;
while j <= n - 1 do
  j = j + 1;
  k = k - 1
od;
assert k >= 0
`)
	wantCands(t, got, map[string]Origin{"k + j >= n - 1 + 1": FromSlack})
}

// TestDisjunctions: the loop's condition or the claim's atom, and the facts of one branch's
// states guarded by the branch's atom.
func TestDisjunctions(t *testing.T) {
	got := loopCands(t, `x = -50;
assume -1000 < y and y < 1000000;
while x < 0 do
  x = x + y;
  y = y + 1
od;
assert y > 0
`)
	wantCands(t, got, map[string]Origin{"x < 0 or y > 0": FromDisjunction})
	got = loopCands(t, `x = 0;
y = 50;
while x < 100 do
  if x < 50 then
    x = x + 1
  else
    x = x + 1;
    y = y + 1
  fi
od;
assert y == 100
`)
	wantCands(t, got, map[string]Origin{"x < 50 or x - y == 0": FromDisjunction, "x >= 50 or y == 50": FromDisjunction})
}

// TestEqualitiesSpread reads the states over all runs: the first 300 states, from runs whose a
// is 0, satisfy a == 0, which the later ones break; the equality of all of them is found.
func TestEqualitiesSpread(t *testing.T) {
	prog := testprog.Parse(t, `assume 0 <= b;
res = a;
cnt = b;
while cnt > 0 do
  cnt = cnt - 1;
  res = res + 1
od;
assert res == a + b
`)
	var states []spec.Store
	for j := 0; j < 400; j++ {
		a := int64(0)
		if j >= 300 {
			a = int64(j % 7)
		}
		b, cnt := int64(j%11), int64(j%5)
		states = append(states, spec.Store{integer.Of(b), integer.Of(a + b - cnt), integer.Of(a), integer.Of(cnt)})
	}
	if got := prog.Vars; len(got) != 4 || got[0] != "b" || got[1] != "res" || got[2] != "a" || got[3] != "cnt" {
		t.Fatalf("variables %v", got)
	}
	got := texts(Equalities(prog, Loops(prog)[0].Pos(), states))
	if _, ok := got["b - res + a - cnt == 0"]; !ok || len(got) != 1 {
		t.Errorf("equalities %v, want b - res + a - cnt == 0 only", got)
	}
}

// TestUnmodifiedDropped: a fact over variables the loop does not modify is no candidate.
func TestUnmodifiedDropped(t *testing.T) {
	got := loopCands(t, `assume n >= 3;
i = 0;
while i < n do
  i = i + 1
od;
assert i == n
`)
	wantCands(t, got, map[string]Origin{"i <= n": FromCondition})
	for text := range got {
		if text == "n >= 3" || text == "n >= 1" || text == "n >= 0" {
			t.Errorf("candidate %s reads only n, which the loop does not modify", text)
		}
	}
}
