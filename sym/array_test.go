package sym

import (
	"math/rand"
	"strings"
	"testing"

	"certsym/internal/testprog"
	"certsym/spec"
	"certsym/spec/integer"
	"certsym/spec/syntax"
)

// arrayProg parses src and returns it with its term factory.
func arrayProg(t *testing.T, src string) (*syntax.Program, *Terms) {
	t.Helper()
	p := testprog.Parse(t, src)
	return p, NewTermsFor(p)
}

// TestSelectStoreSimplification checks the array terms of the design: a read at a constant index
// of the initial array is the element's symbol, a store at a constant index replaces an earlier
// one there, a read walks the chain past stores at provably different indices and stops at the
// first store it cannot decide, and a symbolic index is never split.
func TestSelectStoreSimplification(t *testing.T) {
	p, ts := arrayProg(t, "array a[1..3]; i = i; j = j")
	names := ts.Names()
	s := ts.Syms()
	a := s[len(p.Vars)].ArrayValue()
	i, j := s[0], s[1]
	c := func(v int64) *Term { return Const(integer.Of(v)) }
	if got := ts.Select(a, c(2)); got.Sym() != a.Arr.Offset+1 || got.String(names) != "a[2]" {
		t.Errorf("a[2] of the initial array is %s, want the symbol a[2]", got.String(names))
	}
	if got := ts.Select(a, c(7)).String(names); got != "a[7]" || ts.Select(a, c(7)).Sym() >= 0 {
		t.Errorf("a[7] (out of the bounds) is %s, want a select atom", got)
	}
	// store(store(a, 2, i), 2, j): the first store is gone
	b := ts.Store(ts.Store(a, c(2), i), c(2), j)
	if got := b.String(names); got != "store(a, 2, j)" {
		t.Errorf("two stores at 2: %s, want store(a, 2, j)", got)
	}
	// store(store(store(a, 1, 5), i, 6), 1, 7): the store at 1 under the symbolic one is removed too
	b = ts.Store(ts.Store(ts.Store(a, c(1), c(5)), i, c(6)), c(1), c(7))
	if got := b.String(names); got != "store(store(a, i, 6), 1, 7)" {
		t.Errorf("stores at 1, i, 1: %s", got)
	}
	if got := ts.Select(b, c(1)).String(names); got != "7" {
		t.Errorf("read at 1: %s, want 7", got)
	}
	if got := ts.Select(b, c(3)).String(names); got != "store(a, i, 6)[3]" {
		t.Errorf("read at 3 stops at the symbolic store: %s", got)
	}
	if got := ts.Select(b, i).String(names); got != "store(store(a, i, 6), 1, 7)[i]" {
		t.Errorf("read at i: %s", got)
	}
	// i and i + 1 differ under every valuation: the read at i + 1 passes the store at i
	d := ts.Store(a, i, c(6))
	if got := ts.Select(d, add(i, c(1))).String(names); got != "a[i + 1]" {
		t.Errorf("read at i + 1 after a store at i: %s", got)
	}
	if got := ts.Select(d, i).String(names); got != "6" {
		t.Errorf("read at i after a store at i: %s", got)
	}
	// the same read twice is the same atom (interned): their difference folds to 0
	if got := sub(ts.Select(d, j), ts.Select(d, j)); len(got.monos) != 0 {
		t.Errorf("a[j] - a[j] = %s, want 0", got.String(names))
	}
	// evaluation under a valuation: the chain, then the initial elements
	v := []integer.Int{integer.Of(2), integer.Of(3), integer.Of(10), integer.Of(20), integer.Of(30)}
	if got := ts.Select(b, j).Eval(v); !got.Equal(integer.Of(30)) {
		t.Errorf("store(store(a, i, 6), 1, 7)[j] at i = 2, j = 3: %s, want 30", got)
	}
	if got := ts.Select(b, i).Eval(v); !got.Equal(integer.Of(6)) {
		t.Errorf("store(store(a, i, 6), 1, 7)[i] at i = 2: %s, want 6", got)
	}
}

// firstFailureExprs are conditions whose definedness and first failures are compared with the
// concrete evaluation (their array reads may be out of range, divisors zero, ranges empty or
// symbolic).
var firstFailureExprs = []string{
	"a[i] > 0",
	"a[i] / x > a[j]",
	"x / a[i] == 1",
	"a[a[i]] == j",
	"a[i / x] < a[j % y]",
	"(a[i] > 0) and (10 / x > 0)",
	"not (x / y > a[j]) or a[i] == 0",
	"forall k in 0..3: a[k] >= 0",
	"forall k in i..j: a[k] / x > 0",
	"exists k in x..y: a[k] == k",
	"forall k in 0..i: a[k] > 0 and 10 / (k - 2) > 0",
	"exists k in i..j: forall m in k..j: a[m] / (m - x) >= 0",
	"forall k in 0..j: 1 / y > 0",
}

// TestFirstFailureAgainstConcrete checks S(D(b)), S(F_div(b)) and S(F_idx(b)) against the concrete
// evaluation with typed errors on random stores: D holds iff the evaluation succeeds, F_div iff
// its first error is a division by zero, F_idx iff it is an index out of range; and S(b) is its
// value when defined.
func TestFirstFailureAgainstConcrete(t *testing.T) {
	r := rand.New(rand.NewSource(13))
	for _, cond := range firstFailureExprs {
		p, ts := arrayProg(t, "array a[0..4];\nassert "+cond)
		b := p.Body.(*syntax.Assert).Cond
		v, d, fdiv, fidx := ts.CondKinds(b, ts.Syms())
		for run := 0; run < 300; run++ {
			in := make(spec.Store, p.Slots())
			for k := range in {
				in[k] = integer.Of(int64(r.Intn(9) - 3))
			}
			val, kind, ok := spec.EvalBKind(b, in, nil)
			where := cond + " at " + spec.StoreString(p, in)
			if got := d.Eval(in); got != ok {
				t.Fatalf("%s: D = %v, evaluation defined %v (D is %s)", where, got, ok, d.String(ts.Names()))
			}
			if got, want := fdiv.Eval(in), !ok && kind == syntax.FailDivZero; got != want {
				t.Fatalf("%s: F_div = %v, want %v", where, got, want)
			}
			if got, want := fidx.Eval(in), !ok && kind == syntax.FailIndex; got != want {
				t.Fatalf("%s: F_idx = %v, want %v", where, got, want)
			}
			if ok && v.Eval(in) != val {
				t.Fatalf("%s: S(b) = %v, value %v", where, !val, val)
			}
		}
	}
}

// TestWriteKinds checks the element assignment's store and first failures (i, then e, then the
// range check of the write) against spec.EvalArrAssign.
func TestWriteKinds(t *testing.T) {
	r := rand.New(rand.NewSource(7))
	for _, stmt := range []string{"a[i] = 1", "a[i / x] = a[j]", "a[a[i]] = 10 / a[j]", "a[i] = a[i + 1] - a[i]"} {
		p, ts := arrayProg(t, "array a[-1..3];\n"+stmt)
		s := p.Body.(*syntax.ArrAssign)
		store, d, fdiv, fidx := ts.WriteKinds(s.Arr, s.I, s.A, ts.Syms())
		for run := 0; run < 300; run++ {
			in := make(spec.Store, p.Slots())
			for k := range in {
				in[k] = integer.Of(int64(r.Intn(7) - 2))
			}
			slot, val, kind, ok := spec.EvalArrAssign(s, in)
			where := stmt + " at " + spec.StoreString(p, in)
			if d.Eval(in) != ok || fdiv.Eval(in) != (!ok && kind == syntax.FailDivZero) || fidx.Eval(in) != (!ok && kind == syntax.FailIndex) {
				t.Fatalf("%s: D %v F_div %v F_idx %v, concrete ok %v kind %v", where, d.Eval(in), fdiv.Eval(in), fidx.Eval(in), ok, kind)
			}
			if !ok {
				continue
			}
			want := append(spec.Store(nil), in...)
			want[slot] = val
			got := ts.Concretize(store, in)
			for k := range want {
				if !got[k].Equal(want[k]) {
					t.Fatalf("%s: slot %s is %s symbolically, %s concretely", where, ts.Names()[k], got[k], want[k])
				}
			}
		}
	}
}

// TestQuantExpansion checks that a quantifier over a constant range of at most MaxExpand elements
// is expanded, and that a larger or symbolic range stays quantified.
func TestQuantExpansion(t *testing.T) {
	for _, c := range []struct {
		cond  string
		quant bool
	}{
		{"forall k in 0..3: a[k] > 0", false},
		{"forall k in 0..63: k >= 0 and a[0] > k", false},
		{"forall k in 0..64: a[0] > k", true},
		{"forall k in 0..n: a[0] > k", true},
		{"exists k in 3..1: a[k] > 0", false}, // empty: false
	} {
		p, ts := arrayProg(t, "array a[0..3];\nassume "+c.cond)
		v, _, _, _ := ts.CondKinds(p.Body.(*syntax.Assume).Cond, ts.Syms())
		if got := v.quantified(); got != c.quant {
			t.Errorf("%s: quantified %v, want %v (%s)", c.cond, got, c.quant, v.String(ts.Names()))
		}
	}
}

// extendAll is the path condition of fs built by Extend from the root.
func extendAll(n int, fs ...*Formula) *PC {
	phi := RootPC(n)
	for _, f := range fs {
		phi = Extend(phi, f, n)
	}
	return phi
}

// condOf is S(b) ∧ S(D(b)) for a condition of the program p at the identity store.
func condOf(t *testing.T, p *syntax.Program, ts *Terms, cond string) *Formula {
	t.Helper()
	q := testprog.Parse(t, progDecls(p)+"assume "+cond)
	v, d, _, _ := ts.CondKinds(lastAssume(q.Body).Cond, ts.Syms())
	return And(d, v)
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
	sv := NewSolverFor(p)
	n := p.Slots()
	c := func(s string) *Formula { return condOf(t, p, ts, s) }
	// a[i] == 5 and i == 2 and a[2] != 5: unsat (the read at i is the element a[2])
	if got := sv.Check(extendAll(n, c("a[i] == 5"), c("i == 2"), c("a[2] != 5"))); got != Unsat {
		t.Errorf("a[i] == 5, i == 2, a[2] != 5: %v, want unsat", got)
	}
	// aliasing through a store chain: store(store(a, i, 1), j, 2)[i] != 1 needs i == j
	arr := ts.Syms()[len(p.Vars)].ArrayValue()
	i, j := ts.Syms()[0], ts.Syms()[1]
	st := ts.Store(ts.Store(arr, i, Const(integer.Of(1))), j, Const(integer.Of(2)))
	alias := Pred(FNe, sub(ts.Select(st, i), Const(integer.Of(1))))
	phi := extendAll(n, c("i >= 0 and i <= 4"), c("j >= 0 and j <= 4"), alias)
	if got := sv.Check(phi); got != Sat {
		t.Fatalf("aliasing: %v, want sat", got)
	}
	if w := phi.Witness; len(w) != n || !w[0].Equal(w[1]) || !phi.Formula().Eval(w) {
		t.Errorf("aliasing: witness %s, want i == j satisfying the path condition", spec.StoreString(p, w))
	}
	if got := sv.Check(Extend(phi, c("i != j"), n)); got != Unsat {
		t.Errorf("aliasing with i != j: %v, want unsat", got)
	}
	// the model of the elements is read back for the whole array
	phi = extendAll(n, c("a[0] == 7 and a[4] == -3 and a[i] == 11"))
	if sv.Check(phi) != Sat || !phi.Witness[len(p.Vars)].Equal(integer.Of(7)) || !phi.Witness[n-1].Equal(integer.Of(-3)) {
		t.Errorf("model %v, want a[0] = 7 and a[4] = -3", phi.Witness)
	}
}

// TestQuantInstantiation checks the solver's decision of quantified conjuncts: unsat through an
// instance, sat with a model checked by exact evaluation, an existential through a fresh
// constant, and unknown (never unsat, never sat) when the rounds of instantiation run out.
func TestQuantInstantiation(t *testing.T) {
	p, ts := arrayProg(t, "array a[0..9]; n = n; x = x")
	n := p.Slots()
	c := func(s string) *Formula { return condOf(t, p, ts, s) }
	sv := NewSolverFor(p)
	phi := extendAll(n, c("n >= 3 and n <= 9"), c("forall k in 0..n: a[k] == 0"))
	if !phi.quant {
		t.Fatal("a forall over 0..n did not make a quantified path condition")
	}
	if got := sv.Check(Extend(phi, c("a[3] != 0"), n)); got != Unsat {
		t.Errorf("forall k in 0..n: a[k] == 0, n >= 3, a[3] != 0: %v, want unsat", got)
	}
	psi := Extend(phi, c("a[n] == 0 and x == a[2]"), n)
	if got := sv.Check(psi); got != Sat || !psi.Formula().Eval(psi.Witness) {
		t.Errorf("sat case: %v, witness %v", got, psi.Witness)
	}
	ex := extendAll(n, c("n >= 0 and n <= 9"), c("exists k in 0..n: a[k] == 42"), c("a[0] != 42"))
	if got := sv.Check(ex); got != Sat || !ex.Formula().Eval(ex.Witness) {
		t.Errorf("exists: %v, witness %v", got, ex.Witness)
	}
	if got := sv.Check(Extend(ex, c("forall k in 0..9: a[k] < 42"), n)); got != Unsat {
		t.Errorf("exists k: a[k] == 42 under forall k: a[k] < 42: %v, want unsat", got)
	}
	// x in 0..199 and x differs from every k in 0..199 (a range too large to expand): unsat, but
	// each round of instantiation excludes one more value: the rounds run out, unknown.
	unk := extendAll(n, c("x >= 0 and x <= 199"), c("forall k in 0..199: x != k"))
	if got := sv.Check(unk); got != Unknown || !strings.Contains(unk.Reason, "instantiation") {
		t.Errorf("200 instances needed: %v (%s), want unknown", got, unk.Reason)
	}
}

// TestDecidersOpaqueSelect checks that the bounds and linear facts treat select atoms as unknown
// symbols: a bound on a[i] is no bound on a symbol, and a[i] >= 0 does not decide a[j] >= 0.
func TestDecidersOpaqueSelect(t *testing.T) {
	p, ts := arrayProg(t, "array a[0..4]; i = i; j = j")
	n := p.Slots()
	c := func(s string) *Formula { return condOf(t, p, ts, s) }
	phi := extendAll(n, c("a[i] >= 5"))
	if phi.pure {
		t.Error("a bound on a[i] kept the path condition pure")
	}
	if next := Extend(phi, c("a[j] >= 5"), n); next == phi || next.Status == Unsat {
		t.Error("a[i] >= 5 decided a[j] >= 5")
	}
	if next := Extend(phi, c("a[i] < 5"), n); next == phi {
		t.Error("a[i] < 5 taken as implied")
	}
	sv := NewSolverFor(p)
	if got := sv.Check(Extend(phi, c("a[i] < 5"), n)); got != Unsat {
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
