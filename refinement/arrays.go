// The targeted array programs of the mutation check, and the step replay's comparison of the
// engine's array terms with the reference's (arrays and bounded quantifiers).

package refinement

import (
	"fmt"

	"certsym/engine"
	"certsym/refinement/checker"
	"certsym/refinement/conv"
	"certsym/refinement/refclient"
	"certsym/spec/integer"
	"certsym/spec/syntax/parser"
)

// compareArrays compares the engine's array terms of successor s with the reference's, element
// by element under the witness and the random valuations (step-replay/store-array).
func (c *unitChecker) compareArrays(st *engine.State, i int, s *engine.State, r refclient.SymSucc) {
	if len(c.U.Prog.Arrays) == 0 {
		return
	}
	for _, v := range c.Valuations(s.PC.Witness) {
		for k, a := range c.U.Prog.Arrays {
			if k >= len(r.Arrays) || len(c.Names)+k >= len(s.Store) {
				c.Report("step-replay/store-array", "", st.Depth, "state %s, successor %d: array %s missing", checker.StateString(st, c.Slots), i, a.Name)
				return
			}
			t := s.Store[len(c.Names)+k].ArrayValue()
			if t == nil {
				c.Report("step-replay/store-array", "", st.Depth, "state %s, successor %d: no array term for %s", checker.StateString(st, c.Slots), i, a.Name)
				return
			}
			for j := a.Lo; j <= a.Hi; j++ {
				eng := conv.ArrayRead(t, integer.Of(j), v)
				if ref := refclient.EvalArr(r.Arrays[k], integer.Of(j), v); !ref.Equal(eng) {
					c.Report("step-replay/store-array", c.InputString(v), st.Depth, "state %s, successor %d: under %s element %s[%d] is %s in the engine, %s in the reference",
						checker.StateString(st, c.Slots), i, c.InputString(v), a.Name, j, eng, ref)
					return
				}
			}
		}
	}
}

// arrayTargets are fixed array programs, each aimed at one way an engine goes wrong with arrays
// and quantifiers (the mutation check runs them first): the upper bound of a range check, a read
// after a store at another symbolic index, an empty quantifier range (constant and symbolic),
// a model read back element by element, aliasing, / and % indices, nested quantifiers; and two
// for certsym verify: an assume whose quantifier runs out of the loop limit 2, so that
// the states after it, past one more branch, are flagged (xSymExe's flag g) and the final assert,
// valid, can only be FALSE? (REFUTED?); and an assert undefined for x = 0 and false for x = 1 on
// one state: UNDEFINED there (FAULTY), the supporting claim x != 0 being FALSE and taking
// precedence over the defining claim's FALSE (CHECKCLAIM of xSymExe, Section IV-C).
var arrayTargets = []string{
	"array a[1..3];\ny = a[x];\nif y > 2 then skip else fail fi\n",
	"array a[1..3];\na[x] = 1;\na[y] = 2;\nassert a[x] == 1\n",
	"array a[-2..2];\nassert forall k in 3..2: a[k] > 0;\nassert exists k in 2..-1: a[k] > 0 or x > 0\n",
	"array a[0..3];\nassume forall k in x + 1..x: a[k] > 0;\nif a[1] == 5 then fail else skip fi\n",
	"array a[1..4];\narray b[-3..-3];\nif a[2] == 7 and a[4] == -3 and b[-3] == 2 then fail else skip fi\n",
	"array a[-3..1];\na[x / 2] = a[x % 3] + 1;\nassert forall k in -3..1: exists j in -3..1: a[k] <= a[j]\n",
	"array a[1..3];\nassume forall k in 1..3: a[k] > 0;\nif a[1] > 5 then x = 1 else x = 2 fi;\nassert a[3] > 0\n",
	"assume x >= 0;\nassume x <= 1;\nassert 10 / x > 20\n",
}

// ArrayTargetUnits parses the targeted array programs.
func ArrayTargetUnits() ([]*Unit, error) {
	var out []*Unit
	for i, src := range arrayTargets {
		name := fmt.Sprintf("array-target-%d", i)
		p, err := parser.Parse(name, []byte(src))
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		out = append(out, &Unit{Name: name, Seed: -1, Prog: p, RefBody: p.Body, Text: src})
	}
	return out, nil
}
