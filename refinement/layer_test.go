package refinement

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"certsym/refinement/boundedcheck"
	"certsym/refinement/checker"
	"certsym/refinement/gen"
	"certsym/refinement/prover"
	"certsym/refinement/refclient"
	"certsym/spec"
	"certsym/spec/integer"
	"certsym/spec/syntax"
	"certsym/spec/syntax/parser"
)

// TestGeneratorReproducible: a seed gives the same program every time; the text parses, and
// printing the parsed program gives the text back (so the engine runs the generated tree).
func TestGeneratorReproducible(t *testing.T) {
	for seed := int64(0); seed < 200; seed++ {
		a, err := gen.Generate(seed, gen.Default)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := gen.Generate(seed, gen.Default)
		if a.Text != b.Text {
			t.Fatalf("seed %d: two generations differ", seed)
		}
		u, err := GeneratedUnit(seed, gen.Default)
		if err != nil {
			t.Fatal(err)
		}
		if refclient.Canon(u.Prog.Body) != refclient.Canon(u.RefBody) {
			t.Fatalf("seed %d: parsed program differs from the generated one:\n%s\n%s", seed, refclient.Canon(u.Prog.Body), refclient.Canon(u.RefBody))
		}
	}
}

// TestGeneratorBias: the generator produces the constructs it is meant to stress.
func TestGeneratorBias(t *testing.T) {
	var all strings.Builder
	for seed := int64(0); seed < 300; seed++ {
		g, _ := gen.Generate(seed, gen.Default)
		all.WriteString(g.Text)
	}
	s := all.String()
	for _, want := range []string{"while", "assume", "assert", "% -", "/ -", "/ 0", "9223372036854775808", "100000000000000000000", " * x", "fail", " - "} {
		if !strings.Contains(s, want) {
			t.Errorf("300 generated programs never contain %q", want)
		}
	}
}

// TestProtocolEval: the JSON encoding and spec.Eval agree with the reference's eval on random
// expressions (the layer's own plumbing, checked against the reference).
func TestProtocolEval(t *testing.T) {
	needRef(t)
	ref, err := refclient.Start(refclient.DefaultPath())
	if err != nil {
		t.Fatal(err)
	}
	defer ref.Close()
	f := gen.AExprFuzzer(7, gen.Default)
	names := gen.Vars
	for i := 0; i < 300; i++ {
		var a syntax.AExpr
		f.Fuzz(&a)
		// number the variables as in the store below
		idx := map[string]int{}
		for k, n := range names {
			idx[n] = k
		}
		var number func(syntax.AExpr)
		number = func(e syntax.AExpr) {
			switch e := e.(type) {
			case *syntax.Var:
				e.Index = idx[e.Name]
			case *syntax.Neg:
				number(e.X)
			case *syntax.BinA:
				number(e.L)
				number(e.R)
			case *syntax.Num:
			default:
				panic(fmt.Sprintf("an expression %T from the fuzzer", e))
			}
		}
		number(a)
		store := []integer.Int{integer.Of(int64(i%7 - 3)), integer.Of(int64(i%5 - 2)), integer.Of(0), integer.Of(-7)}
		want, wok := spec.Eval(a, store)
		got, gok, err := ref.Eval(checker.ConcStore(names, store), names, a)
		if err != nil {
			t.Fatal(err)
		}
		if wok != gok || (wok && !want.Equal(got)) {
			t.Fatalf("%s under %v: spec.Eval %v (defined %v), reference %v (defined %v)", syntax.PrintA(a), store, want, wok, got, gok)
		}
		if wok && !refclient.EvalA(a, store).Equal(want) {
			t.Fatalf("%s: total evaluation %v, spec.Eval %v", syntax.PrintA(a), refclient.EvalA(a, store), want)
		}
	}
}

// TestBoundedNotExhaustive: bounded loop unrolling is precise but not exhaustive, and the
// exhaustiveness oracle shows it: with loop limit 2, the run of n = 5 (five iterations) is
// covered by no result of the bounded interpreter.
func TestBoundedNotExhaustive(t *testing.T) {
	needRef(t)
	src := "i = 0;\nwhile i < n do\n  i = i + 1\nod;\nassert i == n or n < 0\n"
	p, err := parser.Parse("loop.imp", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	u := &Unit{Name: "loop.imp", Seed: -1, Prog: p, RefBody: p.Body, Text: src}
	in := func(n int64) []integer.Int {
		v := make([]integer.Int, len(p.Vars))
		v[p.VarIndex("n")] = integer.Of(n)
		return v
	}
	cex, err := boundedcheck.Exhaustive(refclient.DefaultPath(), u, 2, [][]integer.Int{in(-1), in(0), in(2), in(5)})
	if err != nil {
		t.Fatal(err)
	}
	if len(cex) != 1 || !strings.Contains(cex[0], "n=5") {
		t.Fatalf("want exactly the counterexample n=5, got %q", cex)
	}
	t.Logf("counterexample found, as expected: %s", cex[0])
	// With a limit above the iterations needed, every run is covered.
	cex, err = boundedcheck.Exhaustive(refclient.DefaultPath(), u, 6, [][]integer.Int{in(-1), in(0), in(2), in(5)})
	if err != nil {
		t.Fatal(err)
	}
	if len(cex) != 0 {
		t.Fatalf("loop limit 6 should cover runs of at most 5 iterations: %q", cex)
	}
}

// TestProver: the layer's own Z3 encoding decides validity right, and its truncating total
// division and remainder agree with integer.Int's Quo and Rem (x / 0 = 0, x % 0 = x).
func TestProver(t *testing.T) {
	p := prover.New(1_000_000, 2*time.Second)
	names := []string{"x"}
	x := &syntax.Var{Name: "x"}
	n := func(v int64) syntax.AExpr { return &syntax.Num{Val: integer.Of(v)} }
	if v, _ := p.Equivalent(&syntax.Cmp{Op: syntax.Gt, L: x, R: n(0)}, &syntax.Cmp{Op: syntax.Ge, L: x, R: n(1)}, names); v != prover.Valid {
		t.Fatalf("x > 0 <=> x >= 1: %v", v)
	}
	v, m := p.Equivalent(&syntax.Cmp{Op: syntax.Gt, L: x, R: n(0)}, &syntax.Cmp{Op: syntax.Ge, L: x, R: n(0)}, names)
	if v != prover.Invalid || !m[0].IsZero() {
		t.Fatalf("x > 0 <=> x >= 0: %v %v, want invalid with x = 0", v, m)
	}
	if v, _ := p.Model(&syntax.BinB{Op: syntax.And, L: &syntax.Cmp{Op: syntax.Gt, L: x, R: n(0)}, R: &syntax.Cmp{Op: syntax.Lt, L: x, R: n(1)}}, names); v != prover.Invalid {
		t.Fatalf("0 < x < 1 has no model: %v", v)
	}
	vals := []int64{-7, -2, -1, 0, 1, 2, 7, 9}
	for _, a := range vals {
		for _, b := range vals {
			l, r := integer.Of(a), integer.Of(b)
			for _, op := range []syntax.AOp{syntax.Div, syntax.Mod} {
				want := l.Quo(r)
				if op == syntax.Mod {
					want = l.Rem(r)
				}
				e := &syntax.BinA{Op: op, L: n(a), R: n(b)}
				if v, _ := p.EqualTerms([]syntax.AExpr{e}, []syntax.AExpr{&syntax.Num{Val: want}}, names); v != prover.Valid {
					t.Fatalf("%s = %s: %v", syntax.PrintA(e), want, v)
				}
				if got := refclient.EvalA(e, nil); !got.Equal(want) {
					t.Fatalf("EvalA(%s) = %s, want %s", syntax.PrintA(e), got, want)
				}
			}
		}
	}
}

// TestBoundedStopped: bounded runs that the state budget stops (here after 6 branch states)
// give stopped paths, and every concrete run is covered by a result or by a stopped path (the
// postcondition of Why3's sym_interp), with no mismatch of any other check.
func TestBoundedStopped(t *testing.T) {
	needRef(t)
	defer func(n int) { checker.BoundedMaxStates = n }(checker.BoundedMaxStates)
	checker.BoundedMaxStates = 6
	units, err := LoadFiles("../engine/testdata/gcd.imp", "../testdata/loop_symbolic_bound_unknown.imp")
	if err != nil {
		t.Fatal(err)
	}
	sum, err := Run(DefaultConfig(), units)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range sum.Details {
		t.Log(m.String())
	}
	if sum.Mismatches != 0 {
		t.Fatalf("%d mismatches", sum.Mismatches)
	}
	if sum.BoundedStoppedRuns == 0 {
		t.Fatalf("no concrete run was checked against a stopped bounded run")
	}
	t.Logf("%d concrete runs checked against stopped bounded runs", sum.BoundedStoppedRuns)
}
