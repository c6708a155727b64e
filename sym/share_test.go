package sym

import (
	"fmt"
	"strings"
	"testing"

	"certsym/spec/integer"
)

// squares is (x + 1) squared n times: n atoms, whose written form has 2^n copies of x + 1.
func squares(ts *Terms, n int) *Term {
	y := add(ts.Syms()[0], Const(integer.Of(1)))
	for i := 0; i < n; i++ {
		y = ts.Mul(y, y)
	}
	return y
}

// TestStringSharesDeepSquares: a 60-deep chain of squarings, whose expansion has 2^60 copies of
// x + 1, is written in a line per atom: each shared atom named once, inner first, the term, the
// formula and the store that hold it alike.
func TestStringSharesDeepSquares(t *testing.T) {
	ts := NewTerms([]string{"x"})
	names := ts.Names()
	y := squares(ts, 60)
	var defs []string
	defs = append(defs, "$1 = (x + 1) * (x + 1)")
	for k := 2; k <= 59; k++ {
		defs = append(defs, fmt.Sprintf("$%d = $%d * $%d", k, k-1, k-1))
	}
	let := "let " + strings.Join(defs, "; ") + " in "
	for _, c := range []struct{ what, got, want string }{
		{"term", y.String(names), let + "($59 * $59)"},
		{"formula", Pred(FEq, sub(y, Const(integer.Of(7)))).String(names), let + "($59 * $59) == 7"},
		{"store", StoreString([]*Term{y}, names), "x = " + let + "($59 * $59)"},
		{"atom", y.monos[0].a.String(names), let + "($59 * $59)"},
	} {
		if c.got != c.want {
			t.Errorf("%s: %.300s..., want %.300s...", c.what, c.got, c.want)
		}
		if len(c.got) > 2000 {
			t.Errorf("%s: %d characters", c.what, len(c.got))
		}
	}
}

// TestStringSmallUnchanged: a term within ExpandLimit is written whole, exactly as the plain
// writer writes it; the first one over it is written with names. n squarings of x + 1 expand to
// 2^(n+1) - 1 atoms: 4095 for n = 11, within the limit, 8191 for n = 12, over it.
func TestStringSmallUnchanged(t *testing.T) {
	ts := NewTerms([]string{"x"})
	names := ts.Names()
	if got, want := squares(ts, 2).String(names), "(((x + 1) * (x + 1)) * ((x + 1) * (x + 1)))"; got != want {
		t.Errorf("two squarings: %s, want %s", got, want)
	}
	for n := 1; n <= 13; n++ {
		y := squares(ts, n)
		var b strings.Builder
		y.write(&printer{b: &b, names: names, binds: map[int]int{}})
		got := y.String(names)
		if n <= 11 && got != b.String() {
			t.Errorf("%d squarings: %.100s, want the plain %.100s", n, got, b.String())
		}
		if n > 11 && !strings.HasPrefix(got, "let $1 = (x + 1) * (x + 1); ") {
			t.Errorf("%d squarings: %.100s, want names", n, got)
		}
	}
}

// TestStringSharesStores: a store chain whose values read the chain before them twice is a DAG
// of linear size with an exponential expansion; its rendering names the shared stores.
func TestStringSharesStores(t *testing.T) {
	p, ts := arrayProg(t, "array a[0..3]; i = i; j = j")
	names := ts.Names()
	s := ts.Syms()
	a := s[len(p.Vars)].ArrayValue()
	i, j := s[0], s[1]
	for k := 0; k < 40; k++ {
		a = ts.Store(a, i, add(ts.Select(a, j), ts.Select(a, add(j, Const(integer.Of(1))))))
	}
	got := ts.Select(a, j).String(names)
	if !strings.HasPrefix(got, "let $1 = ") || len(got) > 20000 {
		t.Errorf("%d characters: %.300s", len(got), got)
	}
}

// TestEachAtomShared: EachAtom visits each distinct atom of a DAG once, inner first, on a 60-deep
// chain of squarings (2^60 occurrences of the first atom) and on a 40-deep chain of stores each
// of whose values reads the chain before it twice; HasMul and FirstMul, which walk with it, answer
// at once.
func TestEachAtomShared(t *testing.T) {
	ts := NewTerms([]string{"x"})
	y := squares(ts, 60)
	var seen []*Atom
	y.EachAtom(func(a *Atom) {
		if len(seen) > 1000 {
			t.Fatalf("more than 1000 visits")
		}
		seen = append(seen, a)
	})
	if len(seen) != 60 || seen[59] != y.monos[0].a || seen[0].L.monos[0].a.Kind != AtomSym {
		t.Errorf("squarings: %d visits, want the 60 atoms inner first", len(seen))
	}
	f := Pred(FGe, sub(y, Const(integer.Of(7))))
	if !f.HasMul() || f.FirstMul() != seen[0] {
		t.Errorf("squarings: HasMul %v, FirstMul %p, want true, the innermost product %p", f.HasMul(), f.FirstMul(), seen[0])
	}

	p, ats := arrayProg(t, "array a[0..3]; i = i; j = j")
	s := ats.Syms()
	a := s[len(p.Vars)].ArrayValue()
	i, j := s[0], s[1]
	for k := 0; k < 40; k++ {
		a = ats.Store(a, i, add(ats.Select(a, j), ats.Select(a, add(j, Const(integer.Of(1))))))
	}
	n := 0
	ats.Select(a, j).EachAtom(func(a *Atom) {
		if n++; n > 1000 {
			t.Fatalf("more than 1000 visits")
		}
	})
	if n == 0 || n > 2*40+1 {
		t.Errorf("stores: %d visits, want at most two selects a store and the read", n)
	}
}
