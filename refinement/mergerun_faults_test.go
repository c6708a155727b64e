//go:build faults

package refinement

import (
	"sort"
	"strings"
	"testing"

	"certsym/internal/fault"
	"certsym/internal/testprog"
	"certsym/refinement/checker"
	"certsym/spec/syntax/parser"
)

// TestMergeRunCatchesMergeFaults switches on each fault of the merge in turn and requires the
// whole-run oracles on the run with merging alone (mergeRun, no other check of the layer) to
// catch it, with a check of their own (merge-run/...), on programs whose paths merge: chains of ifs
// on inputs, followed by code that reads what the chains changed. merge-different-continuations
// is not among them: the frontier groups the states by their programs before it asks package
// merge, so no merge of a run ever meets that fault (refinement/mergecheck, which asks merge.Pair
// for states of different programs, catches it).
func TestMergeRunCatchesMergeFaults(t *testing.T) {
	needRef(t)
	defer func() { fault.Active = fault.None }()
	srcs := []string{
		testprog.NonlinearIfs(4) + ";\nassert s != 3;\nq = 12 / (s - x1)\n",
		testprog.IndependentIfs(5),
		"if x > 0 then s = s + 1 else s = s - 2 fi;\nif y > 0 then s = s + 3 else t = t + 1 fi;\nif s == t then fail fi;\nassert s + t != 7\n",
	}
	cfg := DefaultConfig()
	ch, err := checker.New(cfg, 1)
	if err != nil {
		t.Fatal(err)
	}
	defer ch.Ref.Close()
	c := &unitChecker{Checker: ch}
	for _, f := range []fault.Fault{fault.MergeIteSwapped, fault.MergeDropDisjunct, fault.MergeWrongModel} {
		fault.Active = f
		var caught []string
		for i, src := range srcs {
			p, err := parser.Parse("merge-fault", []byte(src))
			if err != nil {
				t.Fatal(err)
			}
			c.Start(&Unit{Name: "merge-fault", Seed: int64(i), Prog: p, RefBody: p.Body, Text: src})
			c.mergeRun()
			for k := range c.Sum.ByCheck {
				caught = append(caught, k)
			}
		}
		sort.Strings(caught)
		merged := false
		for _, k := range caught {
			merged = merged || strings.HasPrefix(k, "merge-run/")
		}
		if !merged {
			t.Errorf("fault %v: the run with merging's oracles report %v, no merge-run/ check", f, caught)
		} else {
			t.Logf("fault %v: caught by %v", f, caught)
		}
	}
}
