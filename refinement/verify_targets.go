package refinement

import (
	"fmt"

	"certsym/spec/syntax/parser"
)

// verifyTargets are fixed programs for the checks of certsym verify that random programs reach
// only now and then (the mutation check runs them first, and the normal run checks them too):
//
//   - a program of ten independent branches before its claims (2^10 paths), whose exploration
//     the state bound of the layer's verify runs (or their time bound) stops: the valid assert
//     after the branches is VERIFIED? and the assert under the branch that every condition takes
//     is UNCOVERED, never VERIFIED or DEAD (verify/stopped);
//   - two claims whose results mix an exact result with a possibly spurious one past an
//     over-approximated assume (the assert follows from the whole assume, not from its first two
//     instances): {FALSE, FALSE?} (REFUTED) and {UNDEFINED, FALSE?} (FAULTY), where a status
//     table in another order gives REFUTED? (verify/status);
//   - nested loops whose inner loop always runs past the loop limit: the cutoff of the inner
//     loop reaches the assert before it only through the outer loop's back edge, so the assert,
//     valid, is VERIFIED? and a run beyond the limit meets it again (verify/cutoff).
var verifyTargets = []string{
	"s = 0;\nif x > 0 then s = s + 1 fi;\nif y > 0 then s = s + 1 fi;\nif z > 0 then s = s + 1 fi;\nif w > 0 then s = s + 1 fi;\n" +
		"if x - y > 0 then s = s + 1 fi;\nif z - w > 0 then s = s + 1 fi;\nif x + z > 0 then s = s + 1 fi;\nif y + w > 0 then s = s + 1 fi;\n" +
		"if x - w > 0 then s = s + 1 fi;\nif y - z > 0 then s = s + 1 fi;\nassert s <= 10;\nif s == 10 then assert x > 0 fi\n",
	"if x > 0 then assume forall k in 0..3: y > k fi;\nassert y > 2\n",
	"if w > 0 then assume forall k in 0..3: y > k; z = 1 else z = 0 fi;\nassert y / z > 2\n",
	"o = 0;\nwhile o < 2 do\n  assert o <= 1;\n  j = 0;\n  while j < 3 do j = j + 1 od;\n  o = o + 1\nod\n",
}

// VerifyTargetUnits parses the targeted verify programs.
func VerifyTargetUnits() ([]*Unit, error) {
	var out []*Unit
	for i, src := range verifyTargets {
		name := fmt.Sprintf("verify-target-%d", i)
		p, err := parser.Parse(name, []byte(src))
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		out = append(out, &Unit{Name: name, Seed: -1, Prog: p, RefBody: p.Body, Text: src})
	}
	return out, nil
}
