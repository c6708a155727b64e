package engine

import (
	"testing"

	"certsym/internal/testprog"
	"certsym/pathcond"
	"certsym/spec"
	"certsym/spec/syntax"
	"certsym/spec/syntax/parser"
	"certsym/sym"
)

// TestExpandTracksConcreteRuns is the exhaustiveness and precision of expand along concrete
// runs: from a concrete input v, at every step exactly one symbolic successor's new conjunct
// holds under v (the others are false), and that successor concretizes under v to the concrete
// successor: same store, same program. A successor known unsatisfiable must not be the one v
// follows, and every witness must satisfy its path condition.
func TestExpandTracksConcreteRuns(t *testing.T) {
	if testing.Short() {
		t.Skip("short mode: expand against concrete runs of the corpus from random inputs; make check runs it")
	}
	f := testprog.InputFuzzer(42)
	const runsPerProgram, maxSteps = 12, 3000
	for _, file := range testprog.Corpus(t) {
		p, err := parser.ParseFile(file)
		if err != nil {
			t.Fatal(err)
		}
		for run := 0; run < runsPerProgram; run++ {
			in := testprog.RandomInput(f, p.Slots())
			trackRun(t, file, p, in, maxSteps)
		}
	}
}

func trackRun(t *testing.T, file string, p *syntax.Program, in spec.Store, maxSteps int) {
	t.Helper()
	e := New(p, Options{})
	defer e.Close()
	cur := e.Initial()
	conc := spec.State{Store: in, Prog: p.Body}
	for step := 0; step < maxSteps; step++ {
		fail := func(format string, args ...any) {
			t.Helper()
			t.Fatalf("%s, input %s, step %d: "+format, append([]any{file, spec.StoreString(p, in), step}, args...)...)
		}
		if got, want := cur.ErrorOf(), spec.IsError(conc.Prog); got != want {
			fail("symbolic error %v, concrete error %v", got, want)
		}
		succ := e.Expand(cur, nil)
		next, out := spec.Step(conc)
		var follow []*State
		for _, s := range succ {
			// The successor's path condition is its parent's with conjuncts added: the new
			// conjuncts must hold together.
			holds := true
			n := s.PC
			for ; n != cur.PC && n.Parent != nil && n.Depth > cur.PC.Depth; n = n.Parent {
				holds = holds && n.Conj.Eval(in)
			}
			if n != cur.PC {
				fail("successor path condition does not extend its parent's")
			}
			if s.PC.Status == pathcond.Sat && !s.PC.Formula().Eval(s.PC.Witness) {
				fail("witness %s does not satisfy %s", spec.StoreString(p, s.PC.Witness), s.PC.String(e.Names()))
			}
			if holds {
				follow = append(follow, s)
			}
		}
		if out != spec.Stepped {
			if len(follow) != 0 {
				fail("concrete run ends (%v) but a symbolic successor's condition holds", out)
			}
			return
		}
		if len(follow) != 1 {
			fail("%d symbolic successors hold, want exactly 1", len(follow))
		}
		s := follow[0]
		if s.PC.Status == pathcond.Unsat {
			fail("the successor the input follows is marked unsatisfiable: %s", s.PC.String(e.Names()))
		}
		for i, v := range e.terms.Concretize(s.Store, in) {
			if !v.Equal(next.Store[i]) {
				fail("slot %s: symbolic %s, concrete %s (store %s)", e.Names()[i], v, next.Store[i], sym.StoreString(s.Store, e.Names()))
			}
		}
		if a, b := syntax.Print(s.Prog.Stmt()), syntax.Print(next.Prog); a != b {
			fail("programs differ:\nsymbolic:\n%s\nconcrete:\n%s", a, b)
		}
		if step%97 == 0 && !s.PC.Formula().Eval(in) {
			fail("path condition %s false under the input", s.PC.String(e.Names()))
		}
		cur, conc = s, next
	}
}
