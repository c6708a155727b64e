package stealcheck

import (
	"testing"
	"time"

	"certsym/engine"
	"certsym/internal/budget"
	"certsym/refinement/gen"
	"certsym/spec/syntax/parser"
)

// TestConfirmerBackstop runs the comparison on the generated program of seed 795790337, with the
// layer's engine options but 100 ms per query (150 states, resource limit 2,000,000, no time
// bound for the run): the engine that confirms the partitioned run's bugs replays the path of one
// of its bugs through a query that Z3 answers neither within the resource limit nor at all (it
// loops in its arithmetic without counting resources). With the confirmer's queries bounded by
// the resource limit alone the comparison does not end (a full run of the layer was stopped after
// eleven minutes on this program, and this test after a minute); with the time bound behind it,
// it ends in seconds, and the partitioned run's output is still the single run's.
func TestConfirmerBackstop(t *testing.T) {
	if testing.Short() {
		t.Skip("a query of seconds")
	}
	g, err := gen.Generate(795790337, gen.Default)
	if err != nil {
		t.Fatal(err)
	}
	prog, err := parser.Parse("gen-795790337", []byte(g.Text))
	if err != nil {
		t.Fatal(err)
	}
	g.FixArrays(prog)
	opts := engine.Options{Limits: budget.Limits{MaxStates: 150, RLimit: 2_000_000, QueryTimeout: 100 * time.Millisecond}}
	for _, all := range []bool{false, true} {
		opts.AllBugs = all
		ms, _, err := Compare(prog, opts, func() bool { return false })
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range ms {
			t.Errorf("all bugs %v: %s", all, m)
		}
	}
}
