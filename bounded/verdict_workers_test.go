package bounded

import (
	"sync/atomic"
	"testing"

	"certsym/spec"
	"certsym/spec/syntax/parser"
)

// TestEach: Each calls f once for every index, whatever the number of workers and of indices
// (none, fewer than a chunk, a chunk and one, many).
func TestEach(t *testing.T) {
	for _, n := range []int{0, 1, 15, 16, 17, 1000} {
		for _, w := range []int{-1, 0, 1, 2, 4, 100} {
			calls := make([]atomic.Int32, n)
			Each(n, w, func(i int) { calls[i].Add(1) })
			for i := range calls {
				if c := calls[i].Load(); c != 1 {
					t.Fatalf("n %d, workers %d: index %d called %d times", n, w, i, c)
				}
			}
		}
	}
}

// TestRunWorkers: run --loop-bound with 4 workers (under go test -race, the errors' replays run
// concurrently) gives the verdict, results and errors of one worker on a program with many error
// paths, each error confirmed by its replay.
func TestRunWorkers(t *testing.T) {
	src := `i = 0;
y = 0;
while i < n do
  if x > i then y = y + 1 else y = y - 1 fi;
  i = i + 1
od;
assert y < 2`
	prog, err := parser.Parse("many_errors.imp", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	var reps [2]*Report
	for k, w := range []int{1, 4} {
		rep, err := New(prog, 6).RunWorkers(w)
		if err != nil {
			t.Fatalf("workers %d: %v", w, err)
		}
		reps[k] = rep
	}
	one, four := reps[0], reps[1]
	errs := 0
	for _, r := range four.Results {
		if r.Behaviour == spec.Error {
			errs++
		}
	}
	if errs < 5 || four.Verdict != Bug || len(four.Errors) != 1 {
		t.Fatalf("4 workers: %d error results, verdict %s, %d errors; want at least 5 error results, one bug", errs, four.Verdict, len(four.Errors))
	}
	if len(one.Results) != len(four.Results) || one.Verdict != four.Verdict || one.Reason != four.Reason || one.Errors[0].Result.Fail != four.Errors[0].Result.Fail {
		t.Errorf("1 worker: %d results, verdict %s (%s); 4 workers: %d results, verdict %s (%s)",
			len(one.Results), one.Verdict, one.Reason, len(four.Results), four.Verdict, four.Reason)
	}
	if r := spec.ExecBounded(prog, four.Errors[0].Input, 6); r.Behaviour != spec.Error || r.Fail != four.Errors[0].Result.Fail {
		t.Errorf("the error's input %v ends %s", four.Errors[0].Input, r.Behaviour)
	}
}
