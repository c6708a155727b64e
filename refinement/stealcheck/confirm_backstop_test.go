package stealcheck

import (
	"os"
	"os/exec"
	"strings"
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
//
// It runs in a process of its own: the query Z3 loops on is abandoned, and an abandoned query
// runs until Z3 returns, holding one of the process's z3worker.MaxAbandoned places; once they are
// taken every query answers unknown at once, which would leave the programs of the tests after
// this one out (TestCompare).
func TestConfirmerBackstop(t *testing.T) {
	if testing.Short() {
		t.Skip("a query of seconds")
	}
	if os.Getenv(backstopChild) == "" {
		cmd := exec.Command(os.Args[0], "-test.run=^TestConfirmerBackstop$", "-test.v")
		cmd.Env = append(os.Environ(), backstopChild+"=1")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("the test's process: %v\n%s", err, out)
		}
		if !strings.Contains(string(out), "--- PASS: TestConfirmerBackstop") {
			t.Fatalf("the test's process did not pass:\n%s", out)
		}
		return
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

// backstopChild marks the process TestConfirmerBackstop runs its check in.
const backstopChild = "CERTSYM_BACKSTOP_CHILD"
