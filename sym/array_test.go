package sym

import (
	"math/rand"
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
		if got := v.Quantified(); got != c.quant {
			t.Errorf("%s: quantified %v, want %v (%s)", c.cond, got, c.quant, v.String(ts.Names()))
		}
	}
}
