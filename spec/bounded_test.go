package spec

import (
	"fmt"
	"strings"
	"testing"

	"certsym/spec/syntax"
	"certsym/spec/syntax/parser"
)

// TestExecBoundedVisit: the visits are the statements started, in order, with a loop once per
// evaluation of its condition; the run with the smaller limit visits a prefix of the run with the
// larger one, ending at the loop it cuts off.
func TestExecBoundedVisit(t *testing.T) {
	p, err := parser.Parse("t", []byte("i = 0;\nwhile i < n do\n  i = i + 1\nod;\nassert i > 1;\ny = 1"))
	if err != nil {
		t.Fatal(err)
	}
	run := func(limit int) (BoundedResult, string) {
		var visits []string
		r := ExecBoundedVisit(p, store(p, map[string]int64{"n": 3}), limit, func(s syntax.Stmt) {
			visits = append(visits, fmt.Sprintf("%T@%d", s, s.Pos().Line))
		})
		return r, strings.Join(visits, " ")
	}
	r2, v2 := run(2)
	r9, v9 := run(9)
	if want := "*syntax.Assign@1 *syntax.While@2 *syntax.Assign@3 *syntax.While@2 *syntax.Assign@3 *syntax.While@2"; r2.Behaviour != Incomplete || v2 != want {
		t.Errorf("limit 2: %s, visits %s, want %s", r2.Behaviour, v2, want)
	}
	if want := v2 + " *syntax.Assign@3 *syntax.While@2 *syntax.Assert@5 *syntax.Skip@5 *syntax.Assign@6"; r9.Behaviour != Normal || v9 != want {
		t.Errorf("limit 9: %s, visits %s, want %s", r9.Behaviour, v9, want)
	}
	if r := ExecBounded(p, store(p, map[string]int64{"n": 3}), 9); r.Behaviour != r9.Behaviour || fmt.Sprint(r.Store) != fmt.Sprint(r9.Store) {
		t.Errorf("ExecBounded and ExecBoundedVisit differ: %v, %v", r, r9)
	}
}
