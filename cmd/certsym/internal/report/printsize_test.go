package report

import (
	"testing"

	"certsym/engine"
	"certsym/internal/testprog"
)

// PrintSize counts the printed form of a term that doubles at each step without printing it.
func TestPrintSizeOfSharedTerms(t *testing.T) {
	src := "y = x + 1;\n"
	for i := 0; i < 22; i++ {
		src += "y = y * y;\n" // the printed form doubles; the term grows by one atom
	}
	src += "if y == 7 then fail fi"
	prog := testprog.Parse(t, src)
	e := engine.New(prog, engine.Options{NoPrune: true}) // no solver: the error state's path condition is all we want
	var deep *engine.State
	for {
		st, ok := e.NextState()
		if !ok {
			break
		}
		if st.ErrorOf() != nil {
			deep = st
		}
	}
	if deep == nil {
		t.Fatal("no error state")
	}
	if n := PrintSize(deep.PC.Conjuncts(), 1_000_000); n != 1_000_001 {
		t.Errorf("PrintSize = %d, want past the limit", n)
	}
	small := testprog.Parse(t, "if x + 2 > 0 then fail fi")
	e = engine.New(small, engine.Options{})
	for {
		st, ok := e.NextState()
		if !ok {
			break
		}
		if st.ErrorOf() != nil {
			if n, s := PrintSize(st.PC.Conjuncts(), 100), st.PC.String(small.Vars); n > 100 || len(s) == 0 {
				t.Errorf("PrintSize(%q) = %d", s, n)
			}
		}
	}
}
