package refinement

import (
	"fmt"

	"certsym/spec/syntax/parser"
)

// proveTargets are fixed programs for the checks of certsym prove (refinement/provecheck) that
// random programs, which carry no invariant clauses, reach only through the clause true:
//
//   - a loop that writes an array: the transition must havoc the array, or the exit successor's
//     store keeps its old elements (prove/exhaustive-store);
//   - a loop with clauses that hold but do not follow from the negated condition alone: the exit
//     successor must assume them (prove/exit-invariant);
//   - a loop whose clause is not preserved and which some input violates: the proof must fail,
//     or a proved program's random runs reach the violation (prove/proved-safe).
var proveTargets = []string{
	"array a[0..3];\ni = 0;\nwhile i <= 3 do\n  a[i] = 0;\n  i = i + 1\nod;\nassert a[0] == 0\n",
	"assume n >= 0 and n <= 8;\ni = 0;\np = 1;\nwhile i < n\n  invariant i >= 0\n  invariant p >= 1\ndo\n  p = p * 2;\n  i = i + 1\nod;\nassert p >= 1\n",
	"i = 0;\nwhile i < n\n  invariant i <= 2\ndo\n  i = i + 1\nod\n",
}

// ProveTargetUnits parses the targeted prove programs.
func ProveTargetUnits() ([]*Unit, error) {
	var out []*Unit
	for i, src := range proveTargets {
		name := fmt.Sprintf("prove-target-%d", i)
		p, err := parser.Parse(name, []byte(src))
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		out = append(out, &Unit{Name: name, Seed: -1, Prog: p, RefBody: p.Body, Text: src})
	}
	return out, nil
}
