//go:build faults

package infer

import (
	"testing"

	"certsym/internal/fault"
	"certsym/internal/testprog"
	"certsym/spec"
	"certsym/spec/syntax"
)

// TestHoudiniFaultCaught switches on houdini-keeps-entry-refuted and requires the check of the
// inferred invariants against sampled loop-head states (CheckStates) to catch it: a candidate
// refuted on entry (i >= 1, false when the loop is entered with i = 0) survives the faulty
// fixpoint, and a sampled state breaks it. With the fault off the same run passes the check.
//
// The oracle is concrete: a candidate false in a sampled state where i is 0 (the loop's entry:
// i = 0 precedes it) is refuted on entry, one false in another sampled state is not preserved.
func TestHoudiniFaultCaught(t *testing.T) {
	defer func() { fault.Active = fault.None }()
	prog := testprog.Parse(t, sum2)
	w := Loops(prog)[0]
	p := w.Pos()
	i := prog.VarIndex("i")
	states := Sample(prog, SampleOptions{Seed: 7})
	oracle := func(s Set) ([]Refutation, error) {
		var out []Refutation
		for _, c := range s[w] {
			for _, st := range states[w] {
				if v, ok := spec.EvalB(c.Cond, st); !ok || !v {
					out = append(out, Refutation{Loop: w, Cand: c, Entry: st[i].IsZero()})
					break
				}
			}
		}
		return out, nil
	}
	for _, f := range []fault.Fault{fault.None, fault.HoudiniKeepsEntryRefuted} {
		fault.Active = f
		set := Set{w: []*Candidate{
			newCand(cmp(p, syntax.Ge, variable(prog, p, i), num(p, 1)), FromBound),
			newCand(cmp(p, syntax.Ge, variable(prog, p, i), num(p, 0)), FromBound),
		}}
		inv, _, err := Houdini(set, oracle, 0)
		if err != nil {
			t.Fatal(err)
		}
		v := CheckStates(inv, Sample(prog, SampleOptions{Seed: 8}))
		switch {
		case f == fault.None && len(v) > 0:
			t.Errorf("no fault: the check fails: %v", v[0])
		case f != fault.None && len(v) == 0:
			t.Errorf("fault %s missed: kept %d invariants", f, inv.Size())
		case f != fault.None:
			t.Logf("fault %s caught by infer/states: %v", f, v[0])
		}
	}
}
