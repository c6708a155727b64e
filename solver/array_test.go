package solver

import (
	"strings"
	"testing"

	"certsym/internal/testprog"
	"certsym/pathcond"
	"certsym/spec"
	"certsym/spec/integer"
	"certsym/spec/syntax"
	"certsym/sym"
)

// arrayProg parses src and returns it with its term factory.
func arrayProg(t testing.TB, src string) (*syntax.Program, *sym.Terms) {
	t.Helper()
	p := testprog.Parse(t, src)
	return p, sym.NewTermsFor(p)
}

// extendAll is the path condition of fs built by Extend from the root.
func extendAll(n int, fs ...*sym.Formula) *pathcond.PC {
	phi := pathcond.RootPC(n)
	for _, f := range fs {
		phi = pathcond.Extend(phi, f, n)
	}
	return phi
}

// condOf is S(b) ∧ S(D(b)) for a condition of the program p at the identity store.
func condOf(t testing.TB, p *syntax.Program, ts *sym.Terms, cond string) *sym.Formula {
	t.Helper()
	q := testprog.Parse(t, progDecls(p)+"assume "+cond)
	v, d, _, _ := ts.CondKinds(lastAssume(q.Body).Cond, ts.Syms())
	return sym.And(d, v)
}

// progDecls are p's array declarations and a use of each variable (same numbering).
func progDecls(p *syntax.Program) string {
	var b strings.Builder
	for _, a := range p.Arrays {
		b.WriteString("array " + a.Name + "[" + integer.Of(a.Lo).String() + ".." + integer.Of(a.Hi).String() + "];\n")
	}
	for _, x := range p.Vars {
		b.WriteString(x + " = " + x + ";\n")
	}
	return b.String()
}

// TestZ3ArrayEncoding checks the Z3 encoding: element symbols are (select A j), so reads at
// symbolic indices and element symbols agree, store chains are encoded, and models are read back
// element by element into a flat store that satisfies the path condition.
func TestZ3ArrayEncoding(t *testing.T) {
	p, ts := arrayProg(t, "array a[0..4]; i = i; j = j; x = x")
	sv := New(p, Options{})
	n := p.Slots()
	c := func(s string) *sym.Formula { return condOf(t, p, ts, s) }
	// a[i] == 5 and i == 2 and a[2] != 5: unsat (the read at i is the element a[2])
	if got := sv.Check(extendAll(n, c("a[i] == 5"), c("i == 2"), c("a[2] != 5"))); got != pathcond.Unsat {
		t.Errorf("a[i] == 5, i == 2, a[2] != 5: %v, want unsat", got)
	}
	// aliasing through a store chain: store(store(a, i, 1), j, 2)[i] != 1 needs i == j
	arr := ts.Syms()[len(p.Vars)].ArrayValue()
	i, j := ts.Syms()[0], ts.Syms()[1]
	st := ts.Store(ts.Store(arr, i, sym.Const(integer.Of(1))), j, sym.Const(integer.Of(2)))
	alias := sym.Pred(sym.FNe, sym.Sub(ts.Select(st, i), sym.Const(integer.Of(1))))
	phi := extendAll(n, c("i >= 0 and i <= 4"), c("j >= 0 and j <= 4"), alias)
	if got := sv.Check(phi); got != pathcond.Sat {
		t.Fatalf("aliasing: %v, want sat", got)
	}
	if w := phi.Witness; len(w) != n || !w[0].Equal(w[1]) || !phi.Formula().Eval(w) {
		t.Errorf("aliasing: witness %s, want i == j satisfying the path condition", spec.StoreString(p, w))
	}
	if got := sv.Check(pathcond.Extend(phi, c("i != j"), n)); got != pathcond.Unsat {
		t.Errorf("aliasing with i != j: %v, want unsat", got)
	}
	// the model of the elements is read back for the whole array
	phi = extendAll(n, c("a[0] == 7 and a[4] == -3 and a[i] == 11"))
	if sv.Check(phi) != pathcond.Sat || !phi.Witness[len(p.Vars)].Equal(integer.Of(7)) || !phi.Witness[n-1].Equal(integer.Of(-3)) {
		t.Errorf("model %v, want a[0] = 7 and a[4] = -3", phi.Witness)
	}
}

// TestQuantInstantiation checks the solver's decision of quantified conjuncts: unsat through an
// instance, sat with a model checked by exact evaluation, an existential through a fresh
// constant, and unknown (never unsat, never sat) when the rounds of instantiation run out.
func TestQuantInstantiation(t *testing.T) {
	p, ts := arrayProg(t, "array a[0..9]; n = n; x = x")
	n := p.Slots()
	c := func(s string) *sym.Formula { return condOf(t, p, ts, s) }
	sv := New(p, Options{})
	phi := extendAll(n, c("n >= 3 and n <= 9"), c("forall k in 0..n: a[k] == 0"))
	if !phi.Quantified() {
		t.Fatal("a forall over 0..n did not make a quantified path condition")
	}
	if got := sv.Check(pathcond.Extend(phi, c("a[3] != 0"), n)); got != pathcond.Unsat {
		t.Errorf("forall k in 0..n: a[k] == 0, n >= 3, a[3] != 0: %v, want unsat", got)
	}
	psi := pathcond.Extend(phi, c("a[n] == 0 and x == a[2]"), n)
	if got := sv.Check(psi); got != pathcond.Sat || !psi.Formula().Eval(psi.Witness) {
		t.Errorf("sat case: %v, witness %v", got, psi.Witness)
	}
	ex := extendAll(n, c("n >= 0 and n <= 9"), c("exists k in 0..n: a[k] == 42"), c("a[0] != 42"))
	if got := sv.Check(ex); got != pathcond.Sat || !ex.Formula().Eval(ex.Witness) {
		t.Errorf("exists: %v, witness %v", got, ex.Witness)
	}
	if got := sv.Check(pathcond.Extend(ex, c("forall k in 0..9: a[k] < 42"), n)); got != pathcond.Unsat {
		t.Errorf("exists k: a[k] == 42 under forall k: a[k] < 42: %v, want unsat", got)
	}
	// x in 0..199 and x differs from every k in 0..199 (a range too large to expand): unsat, but
	// each round of instantiation excludes one more value: the rounds run out, unknown.
	unk := extendAll(n, c("x >= 0 and x <= 199"), c("forall k in 0..199: x != k"))
	if got := sv.Check(unk); got != pathcond.Unknown || !strings.Contains(unk.Reason, "instantiation") {
		t.Errorf("200 instances needed: %v (%s), want unknown", got, unk.Reason)
	}
}

// TestQuantTriggers: a universal clause is instantiated at the witness of an outer existential
// and at the indices the query reads outside its quantifiers, so that the claims an invariant
// over all elements proves are decided in one round, where the values refuting the models
// exclude one element a round and run out of rounds (the first two cases were unknown so).
func TestQuantTriggers(t *testing.T) {
	p, ts := arrayProg(t, "array a[0..19]; n = n; m = m; i = i")
	n := p.Slots()
	c := func(s string) *sym.Formula { return condOf(t, p, ts, s) }
	sv := New(p, Options{})
	defer sv.Close()
	inv := extendAll(n, c("n >= 0 and n <= 20"), c("forall k in 0..n - 1: a[k] <= m"))
	// an assert over a constant range, negated: a disjunction of twenty element reads
	all := pathcond.Extend(pathcond.Extend(inv, c("n == 20"), n), sym.Not(c("forall k in 0..19: a[k] <= m")), n)
	if got := sv.Check(all); got != pathcond.Unsat {
		t.Errorf("the clause at twenty elements: %v (%s), want unsat", got, all.Reason)
	}
	// over a symbolic range, negated: an existential, its witness a fresh constant
	ex := pathcond.Extend(inv, sym.Not(c("forall k in 0..n - 1: a[k] <= m + 1")), n)
	if got := sv.Check(ex); got != pathcond.Unsat {
		t.Errorf("the clause at the existential's witness: %v (%s), want unsat", got, ex.Reason)
	}
	// a read at a symbolic index
	rd := pathcond.Extend(inv, c("i >= 0 and i < n and a[i] > m"), n)
	if got := sv.Check(rd); got != pathcond.Unsat {
		t.Errorf("the clause at a read's index: %v (%s), want unsat", got, rd.Reason)
	}
	// and a satisfiable one stays satisfiable, its model checked by exact evaluation
	ok := pathcond.Extend(inv, c("i >= n and i <= 19 and a[i] > m"), n)
	if got := sv.Check(ok); got != pathcond.Sat || !ok.Formula().Eval(ok.Witness) {
		t.Errorf("sat case: %v (%s), witness %v", got, ok.Reason, ok.Witness)
	}
}

// TestSolverOpaqueSelect: the solver decides what the deciders leave open about a select atom
// (TestDecidersOpaqueSelect): a[i] >= 5 and a[i] < 5 is unsatisfiable.
func TestSolverOpaqueSelect(t *testing.T) {
	p, ts := arrayProg(t, "array a[0..4]; i = i; j = j")
	n := p.Slots()
	c := func(s string) *sym.Formula { return condOf(t, p, ts, s) }
	phi := extendAll(n, c("a[i] >= 5"))
	sv := New(p, Options{})
	if got := sv.Check(pathcond.Extend(phi, c("a[i] < 5"), n)); got != pathcond.Unsat {
		t.Errorf("a[i] >= 5 and a[i] < 5: %v, want unsat", got)
	}
}

// lastAssume is the last statement of a sequence, an assume.
func lastAssume(s syntax.Stmt) *syntax.Assume {
	for {
		seq, ok := s.(*syntax.Seq)
		if !ok {
			return s.(*syntax.Assume)
		}
		s = seq.Second
	}
}

// TestLargeArrayElementsOnUse: a chain for a program with an array of 65,536 elements makes a Z3
// constant per variable and per array, and an element's symbol only when a formula uses it, so
// building the chain costs nothing per element (made eagerly, the 65,536 selects took seconds on
// the caller's goroutine, where no time bound is polled).
func TestLargeArrayElementsOnUse(t *testing.T) {
	p, ts := arrayProg(t, "array a[0..65535]; i = i")
	c := New(p, Options{})
	defer c.Close()
	if len(c.enc.syms) != len(p.Vars) || len(c.enc.elems) != 0 {
		t.Fatalf("a new chain has %d variable constants and %d element symbols, want %d and 0", len(c.enc.syms), len(c.enc.elems), len(p.Vars))
	}
	cond := func(s string) *sym.Formula { return condOf(t, p, ts, s) }
	phi := extendAll(p.Slots(), cond("a[5] > 3 and i >= 0 and i < 10"), cond("a[i] == 9"))
	if got := c.Check(phi); got != pathcond.Sat {
		t.Fatalf("%v (%s), want sat", got, phi.Reason)
	}
	if n := len(c.enc.elems); n < 1 || n > 2 {
		t.Errorf("%d element symbols made for a query reading a[5] and a[i], want 1 or 2", n)
	}
}
