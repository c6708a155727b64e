package bounded

import (
	"fmt"
	"slices"
	"testing"

	"certsym/internal/testprog"
	"certsym/spec/syntax"
)

// logObserver records each program point the interpreter reports, in order.
type logObserver struct{ log *[]string }

func (o logObserver) At(st State, s syntax.Stmt) bool {
	*o.log = append(*o.log, fmt.Sprintf("at %d", s.Pos().Line))
	return true
}

// resultText names a result by its behaviour, where it arose and its path condition.
func resultText(b *Interp, r Result) string {
	line := 0
	switch {
	case r.Fail != nil:
		line = r.Fail.Line()
	case r.At != nil:
		line = r.At.Pos().Line
	}
	return fmt.Sprintf("result %s %d %s %s", r.Behaviour, line, r.Cut, r.State.PC.String(b.Terms().Names()))
}

// TestSymInterpEachStreams: SymInterpEach hands each result on while the interpretation goes on
// (a result arrives before the last program point is observed), and it interprets step for step
// as SymInterp: the observer sees the same points in the same order, and the results come in the
// order of SymInterp's list.
func TestSymInterpEachStreams(t *testing.T) {
	src := `assume x >= 0;
if y > 0 then z = 1 else z = 2 fi;
i = 0;
while i < x do
  if y > i then z = z + 1 fi;
  i = i + 1
od;
if z == 3 then fail fi;
w = 10 / (x - 2)`
	p := testprog.Parse(t, src)

	var listLog []string
	b := New(p, 3)
	b.Observer = logObserver{&listLog}
	rs, err := b.SymInterp(nil)
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	for _, r := range rs {
		want = append(want, resultText(b, r))
	}
	b.Close()

	var eachLog, got []string
	firstAt := -1 // the observations made when the first result arrived
	b = New(p, 3)
	defer b.Close()
	b.Observer = logObserver{&eachLog}
	err = b.SymInterpEach(nil, func(r Result) {
		if firstAt < 0 {
			firstAt = len(eachLog)
		}
		got = append(got, resultText(b, r))
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(want) < 4 {
		t.Fatalf("only %d results: the program should have more paths", len(want))
	}
	if !slices.Equal(got, want) {
		t.Errorf("SymInterpEach's results differ from SymInterp's:\ngot  %q\nwant %q", got, want)
	}
	if !slices.Equal(eachLog, listLog) {
		t.Errorf("the observer saw %q under SymInterpEach, %q under SymInterp", eachLog, listLog)
	}
	if firstAt < 0 || firstAt >= len(eachLog) {
		t.Errorf("the first result arrived after %d of %d observations: the results are not streamed", firstAt, len(eachLog))
	}
}
