package engine

import (
	"strings"
	"testing"

	"certsym/internal/testprog"
	"certsym/pathcond"
	"certsym/spec/syntax"
	"certsym/sym"
)

// succString renders a successor as "φ | store | program" with the program on one line.
func succString(e *Engine, s *State) string {
	prog := strings.ReplaceAll(strings.TrimSpace(syntax.Print(s.Prog.Stmt())), "\n", " ")
	prog = strings.Join(strings.Fields(prog), " ")
	status := ""
	if s.PC.Status == pathcond.Unsat {
		status = " (unsat)"
	}
	return s.PC.String(e.Names()) + status + " | " + sym.StoreString(s.Store, e.Names()) + " | " + prog
}

// TestExpandRules checks each rule of expand (SEMANTICS.md) on the initial state of a program.
func TestExpandRules(t *testing.T) {
	cases := []struct {
		rule, src string
		want      []string
	}{
		{"E-Skip", "skip", nil},
		{"E-Fail", "fail", nil},
		{"E-Assign", "x = y * 2 + 1", []string{"true | x = 2*y + 1, y = y | skip"}},
		{"E-Assign with a division", "x = y / (z - 1)", []string{
			"z != 1 | x = (y / (z - 1)), y = y, z = z | skip",
			"z == 1 | x = x, y = y, z = z | fail"}},
		{"E-If", "if x > 3 then y = 1 else y = 2 fi", []string{
			"x >= 4 | x = x, y = y | y = 1",
			"x <= 3 | x = x, y = y | y = 2"}},
		{"E-If with a division", "if 10 % x == 1 then skip fi", []string{
			"x != 0 and (10 % x) == 1 | x = x | skip",
			"x != 0 and (10 % x) != 1 | x = x | skip",
			"x == 0 | x = x | fail"}},
		{"E-If, constant condition", "if 1 < 2 then x = 1 else x = 2 fi", []string{
			"true | x = x | x = 1",
			"false (unsat) | x = x | x = 2"}},
		{"E-If (assert)", "assert x + y == 0", []string{
			"x + y == 0 | x = x, y = y | skip",
			"x + y != 0 | x = x, y = y | fail"}},
		{"E-While", "while x > 0 do x = x - 1 od", []string{
			"true | x = x | if x > 0 then x = x - 1; while x > 0 do x = x - 1 od else skip fi"}},
		{"E-Assume", "assume x >= 0 and x < 10", []string{"x >= 0 and x <= 9 | x = x | skip"}},
		{"E-Assume with a division", "assume x / y == 2", []string{
			"y != 0 and (x / y) == 2 | x = x, y = y | skip",
			"y == 0 | x = x, y = y | fail"}},
		{"E-Assume false", "assume false", []string{"false (unsat) |  | skip"}},
		{"E-SeqSkip", "skip; x = 1", []string{"true | x = x | x = 1"}},
		{"E-Seq", "x = 1; y = x", []string{"true | x = 1, y = y | skip; y = x"}},
		{"E-Seq, nested", "if x == 0 then y = 1; y = 2 fi; z = y", []string{
			"x == 0 | x = x, y = y, z = z | y = 1; y = 2; z = y",
			"x != 0 | x = x, y = y, z = z | skip; z = y"}},
		{"strict and", "assert false and 1 / x == 0", []string{
			"false (unsat) | x = x | skip",
			"x != 0 | x = x | fail",
			"x == 0 | x = x | fail"}},
	}
	for _, c := range cases {
		p := testprog.Parse(t, c.src)
		e := New(p, Options{})
		succ := e.Expand(e.Initial(), nil)
		var got []string
		for _, s := range succ {
			got = append(got, succString(e, s))
		}
		if strings.Join(got, "\n") != strings.Join(c.want, "\n") {
			t.Errorf("[%s] expand %q:\n got %s\nwant %s", c.rule, c.src, strings.Join(got, "\n     "), strings.Join(c.want, "\n     "))
		}
		for _, s := range succ {
			if s.Depth != 1 {
				t.Errorf("[%s] successor depth %d, want 1", c.rule, s.Depth)
			}
		}
	}
}

// TestExpandKeepsBigIntegers checks that symbolic arithmetic never wraps.
func TestExpandKeepsBigIntegers(t *testing.T) {
	p := testprog.Parse(t, "x = 9223372036854775807 + 1; y = x * x")
	e := New(p, Options{})
	st := e.Initial()
	for i := 0; i < 3; i++ {
		st = e.Expand(st, nil)[0]
	}
	if got := sym.StoreString(st.Store, e.Names()); got != "x = 9223372036854775808, y = 85070591730234615865843651857942052864" {
		t.Fatalf("store = %s", got)
	}
}
