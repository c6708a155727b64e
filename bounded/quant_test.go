package bounded

import (
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"certsym/internal/testprog"
	"certsym/spec"
	"certsym/spec/integer"
	"certsym/spec/syntax"
	"certsym/spec/syntax/parser"
	"certsym/sym"
)

// Tests of QuantLoop (quant.go): quantifiers executed as loops under the loop bound (xSymExe,
// Section III-B3).

// seen records what the observer is shown: per statement line, the Trunc conditions (printed)
// and the path conditions of the states with Trunc set.
type seen struct {
	prog  *syntax.Program
	trunc map[int][]string
	at    map[int]int
}

func (o *seen) At(st State, s syntax.Stmt) bool {
	o.at[s.Pos().Line]++
	if st.Trunc != nil {
		o.trunc[s.Pos().Line] = append(o.trunc[s.Pos().Line], syntax.PrintB(st.Trunc)+" | "+st.PC.String(sym.SlotNames(o.prog)))
	}
	return true
}

func quantRun(t *testing.T, src string, n int, loop bool) ([]Result, *seen, *syntax.Program) {
	t.Helper()
	p := testprog.Parse(t, src)
	b := New(p, n)
	defer b.Close()
	b.QuantLoop = loop
	o := &seen{prog: p, trunc: map[int][]string{}, at: map[int]int{}}
	b.Observer = o
	rs, err := b.SymInterp(nil)
	if err != nil {
		t.Fatal(err)
	}
	return rs, o, p
}

// describe is a result as behaviour@line [quant-cut] [over:lines]: constraint.
func describe(p *syntax.Program, r Result) string {
	line := 0
	if r.Fail != nil {
		line = r.Fail.Line()
	} else if r.At != nil {
		line = r.At.Pos().Line
	}
	s := fmt.Sprintf("%s@%d", r.Behaviour, line)
	if r.QuantCut {
		s += " quant-cut"
	}
	if r.State.Over != nil {
		var ls []string
		for o := r.State.Over; o != nil; o = o.Prev {
			ls = append(ls, fmt.Sprint(o.At.Line()))
		}
		s += " over:" + strings.Join(ls, ",")
	}
	return s + ": " + r.State.PC.String(sym.SlotNames(p))
}

func describeAll(p *syntax.Program, rs []Result) string {
	var out []string
	for _, r := range rs {
		out = append(out, describe(p, r))
	}
	return strings.Join(out, "\n")
}

// TestQuantLoopSmallRangeExact: a quantifier whose range never has more than N elements is
// decided exactly: QuantLoop gives the results it gives off, and shows no Trunc.
func TestQuantLoopSmallRangeExact(t *testing.T) {
	src := `array a[1..5];
assume 1 <= n and n <= 4;
assert forall k in 1..n: a[k] >= 0;
if exists k in 2..n: a[k] == a[k - 1] then x = 1 fi`
	on, o, p := quantRun(t, src, 4, true)
	off, _, _ := quantRun(t, src, 4, false)
	if got, want := describeAll(p, on), describeAll(p, off); got != want {
		t.Errorf("QuantLoop on a small range:\n%s\nwant (QuantLoop off):\n%s", got, want)
	}
	if len(o.trunc) != 0 {
		t.Errorf("Trunc shown on small ranges: %v", o.trunc)
	}
	if !strings.Contains(describeAll(p, on), "error@3") {
		t.Errorf("the assert's violation is missing:\n%s", describeAll(p, on))
	}
}

// TestQuantLoopAssumeOver: an assume whose quantifier has more than N instances goes on under
// the first N (Figure 1(b): A(5) unconstrained), with Over holding the assume on that path and
// all its successors; the paths within the bound are exact and not flagged.
func TestQuantLoopAssumeOver(t *testing.T) {
	src := `array a[1..5];
assume 1 <= n and n <= 5;
assume forall k in 1..n: a[k] != 0;
x = a[n];
if x == 0 then y = 1 else y = 2 fi`
	rs, o, p := quantRun(t, src, 4, true)
	got := describeAll(p, rs)
	overNormal, exactNormal := 0, 0
	for _, r := range rs {
		if r.Behaviour != spec.Normal {
			continue
		}
		five := strings.Contains(r.State.PC.String(sym.SlotNames(p)), "n == 5")
		switch {
		case five && r.State.Over != nil && r.State.Over.At.Line() == 3 && r.State.Over.Prev == nil:
			overNormal++
		case !five && r.State.Over == nil:
			exactNormal++
		default:
			t.Errorf("normal result with the wrong flag: %s", describe(p, r))
		}
	}
	// n == 5: both branches of the if (a[5] is unconstrained, so x == 0 is possible: the false
	// alarm of Figure 1(b)); n <= 4: only the else branch (a[n] != 0 by the exact assume)
	if overNormal != 2 || exactNormal != 1 {
		t.Errorf("normal results: %d flagged (want 2), %d exact (want 1):\n%s", overNormal, exactNormal, got)
	}
	if tr := o.trunc[3]; len(tr) != 1 || !strings.HasPrefix(tr[0], "forall k in 1..4: a[k] != 0 | ") || !strings.Contains(tr[0], "n == 5") {
		t.Errorf("Trunc at the assume: %q", tr)
	}
	if len(o.trunc) != 1 {
		t.Errorf("Trunc shown beyond the assume: %v", o.trunc)
	}
	for _, r := range rs {
		if r.QuantCut {
			t.Errorf("an assume's exhaustion cut a path: %s", describe(p, r))
		}
	}
	// QuantLoop off: nothing is flagged, and x == 0 is impossible.
	off, _, _ := quantRun(t, src, 4, false)
	for _, r := range off {
		if r.State.Over != nil || r.QuantCut {
			t.Errorf("QuantLoop off flagged or cut: %s", describe(p, r))
		}
		if r.Behaviour == spec.Normal && strings.Contains(r.State.PC.String(sym.SlotNames(p)), "== 0") && !strings.Contains(r.State.PC.String(sym.SlotNames(p)), "!= 0") {
			t.Errorf("QuantLoop off: %s", describe(p, r))
		}
	}
}

// TestQuantLoopNegativeAndExists: the loop's nondeterministic value by polarity. A negated
// forall whose first N instances hold admits everything (its value may be false); an exists
// whose first N instances fail admits everything (its value may be true); an exists with a true
// instance among the first N is true exactly, and its path is not flagged, unless its body can
// fail (IMP evaluates every instance: a later one may still fail).
func TestQuantLoopNegativeAndExists(t *testing.T) {
	for _, c := range []struct{ cond, want string }{
		// n == 5 with every a[k] of 1..4 zero: the negated forall still admits the path
		{"not (forall k in 1..n: a[k] == 0) and a[1] == 0 and a[2] == 0 and a[3] == 0 and a[4] == 0", "normal over"},
		// n == 5, no zero among a[1..4]: exists may still be true (a[5])
		{"(exists k in 1..n: a[k] == 0) and a[1] != 0 and a[2] != 0 and a[3] != 0 and a[4] != 0", "normal over"},
		// the same with QuantLoop's value forced false: no normal path
		{"not (exists k in 1..n: a[k] == 0) and a[1] == 0", "no normal"},
		// an instance among the first N decides the exists: the loop stops early, no flag
		{"(exists k in 1..n: k == m) and m == 2", "normal"},
		// undecided, or decided early: one path of each
		{"exists k in 1..n: k == m", "normal, normal over"},
		// a body that reads an element can fail on a later instance: flagged even when decided
		{"(exists k in 1..n: a[k] == 0) and a[2] == 0", "normal over"},
		{"exists k in 1..n: a[k] == 0", "normal over"},
		{"forall k in 1..n: a[k] != 0", "normal over"},
	} {
		src := "array a[1..5];\nassume n == 5;\nassume " + c.cond + ";\nskip"
		rs, _, p := quantRun(t, src, 4, true)
		var kinds []string
		for _, r := range rs {
			if r.Behaviour == spec.Normal {
				k := "normal"
				if r.State.Over != nil {
					k += " over"
				}
				kinds = append(kinds, k)
			}
		}
		normal := strings.Join(kinds, ", ")
		if normal == "" {
			normal = "no normal"
		}
		if normal != c.want {
			t.Errorf("assume %s: %s, want %s:\n%s", c.cond, normal, c.want, describeAll(p, rs))
		}
	}
}

// TestQuantLoopCutElsewhere: in an assert, an if and a while condition, a quantifier with more
// than N instances cuts the path at the statement (QuantCut), after the observer saw Trunc, the
// condition over the first N instances; the case within the bound runs exactly.
func TestQuantLoopCutElsewhere(t *testing.T) {
	for _, c := range []struct {
		stmt  string
		trunc string
	}{
		{"assert forall k in 1..n: a[k] >= 0", "forall k in 1..4: a[k] >= 0"},
		{"if exists k in 1..n: a[k] == 0 then x = 1 fi", "exists k in 1..4: a[k] == 0"},
		{"while forall k in m..n: a[k] > x do x = x + 1 od", "forall k in m..m + 3: a[k] > x"},
		{"assert forall k in 1..n / d: a[k] >= 0", "forall k in 1..n / d - (n / d - 4): a[k] >= 0"},
	} {
		src := "array a[1..5];\nassume 1 <= n and n <= 5 and m == 1 and d == 1 and x == 0;\n" + c.stmt
		rs, o, p := quantRun(t, src, 4, true)
		// the valuation n = v, m = 1, d = 1, x = 0, every element 1
		at := func(v int64) []integer.Int {
			in := make([]integer.Int, p.Slots())
			for i := range in {
				in[i] = integer.Of(1)
			}
			for i, name := range p.Vars {
				switch name {
				case "n":
					in[i] = integer.Of(v)
				case "x":
					in[i] = integer.Int{}
				}
			}
			return in
		}
		cuts := 0
		for _, r := range rs {
			phi := r.State.PC.Formula()
			if r.QuantCut {
				cuts++
				if r.Behaviour != spec.Incomplete || r.Cut != CutNone || r.At.Pos().Line != 3 || !phi.Eval(at(5)) || phi.Eval(at(4)) {
					t.Errorf("%s: cut result %s", c.stmt, describe(p, r))
				}
			} else if phi.Eval(at(5)) && r.Behaviour != spec.Incomplete {
				t.Errorf("%s: a path past the exhausted quantifier: %s", c.stmt, describe(p, r))
			}
		}
		if cuts != 1 {
			t.Errorf("%s: %d quantifier cuts, want 1:\n%s", c.stmt, cuts, describeAll(p, rs))
		}
		tr := o.trunc[3]
		if len(tr) != 1 || !strings.HasPrefix(tr[0], c.trunc+" | ") {
			t.Errorf("%s: Trunc %q, want %q", c.stmt, tr, c.trunc)
		}
		if off, _, _ := quantRun(t, src, 4, false); strings.Contains(describeAll(p, off), "quant-cut") {
			t.Errorf("%s: QuantLoop off cut a path", c.stmt)
		}
	}
}

// TestQuantLoopNested: a quantifier whose range uses a bound variable is decided exactly; the
// outer one is split.
func TestQuantLoopNested(t *testing.T) {
	src := "array a[1..5];\nassume 1 <= n and n <= 5;\nassert forall i in 1..n: exists j in 1..i: a[j] == i"
	_, o, _ := quantRun(t, src, 4, true)
	if tr := o.trunc[3]; len(tr) != 1 || !strings.HasPrefix(tr[0], "forall i in 1..4: exists j in 1..i: a[j] == i | ") {
		t.Errorf("Trunc %q", tr)
	}
}

// TestQuantLoopGhost: ghost mode with QuantLoop on the programs above and the corpus programs
// with quantifiers, from random inputs: the ghost input still concretizes on every path that
// does not over-approximate (ρ satisfies the constraint, ρ∘σ is the concrete store, the
// behaviour is the concrete one), and an input the over-approximation admits though the
// concrete run ends at the assume is let go, not reported as a ghost failure.
func TestQuantLoopGhost(t *testing.T) {
	srcs := []string{
		"array a[1..5];\nassume 1 <= n and n <= 5;\nassume forall k in 1..n: a[k] != 0;\nx = a[n];\nif x == 0 then y = 1 else y = 2 fi",
		"array a[1..5];\nassume 1 <= n and n <= 5;\nassert forall k in 1..n: a[k] >= 0",
		"array a[1..5];\nassume 1 <= n and n <= 5;\nif exists k in 1..n: a[k] == 0 then x = 1 fi;\nassert x == 0",
		"array a[1..5];\nassume n >= 1 and n <= 5;\nassume not (forall k in 1..n: a[k] == 0) and (exists k in 1..n: a[k] > 2);\nassert a[1] != 0",
	}
	// Figure 1(b)'s situation, input by input: n = 5 with a[5] = 0 is admitted by the
	// over-approximated assume though its concrete run is infeasible there (the ghost is let go);
	// n = 5 with a[5] != 0 stays on the ghost path, flagged, to the end; n = 3 is exact.
	p0 := testprog.Parse(t, srcs[0])
	for _, c := range []struct {
		in    []int64 // n, x, y, a[1..5]
		ghost bool    // a result keeps the ghost
		over  bool    // and it is flagged
	}{
		{[]int64{5, 0, 0, 1, 1, 1, 1, 0}, false, false},
		{[]int64{5, 0, 0, 1, 1, 1, 1, 7}, true, true},
		{[]int64{3, 0, 0, 1, 1, 1, 0, 0}, true, false},
	} {
		b := New(p0, 4)
		defer b.Close()
		b.QuantLoop = true
		in := make(spec.Store, len(c.in))
		for i, v := range c.in {
			in[i] = integer.Of(v)
		}
		rs, err := b.SymInterp(in)
		if err != nil {
			t.Fatalf("input %s: %v", spec.StoreString(p0, in), err)
		}
		var mine []Result
		for _, r := range rs {
			if r.State.Ghost != nil {
				mine = append(mine, r)
			}
		}
		if c.ghost != (len(mine) == 1) || (c.ghost && c.over != (mine[0].State.Over != nil)) {
			t.Errorf("input %s: %d results on the ghost path (want ghost %v, flagged %v):\n%s", spec.StoreString(p0, in), len(mine), c.ghost, c.over, describeAll(p0, mine))
		}
	}
	files := testprog.Corpus(t)
	progs := []*syntax.Program{}
	for _, s := range srcs {
		progs = append(progs, testprog.Parse(t, s))
	}
	for _, f := range files {
		if data, err := os.ReadFile(f); err == nil && (strings.Contains(string(data), "forall") || strings.Contains(string(data), "exists")) {
			p, err := parser.ParseFile(f)
			if err != nil {
				t.Fatal(err)
			}
			progs = append(progs, p)
		}
	}
	fz := testprog.InputFuzzer(11)
	checks := 0
	for i, p := range progs {
		for _, n := range []int{0, 1, 4} {
			b := New(p, n)
			b.QuantLoop = true
			b.MaxStates = 3000
			b.RLimit, b.QueryTimeout = 20_000_000, 10*time.Second
			inputs := []spec.Store{}
			for run := 0; run < 6; run++ {
				in := testprog.RandomInput(fz, p.Slots())
				// small values, so that the assumes on n and the zero tests hold often
				for j := range in {
					in[j] = integer.Of(int64(run+j) % 6)
				}
				inputs = append(inputs, in, testprog.RandomInput(fz, p.Slots()))
			}
			for _, in := range inputs {
				if _, err := b.SymInterp(in); err != nil {
					t.Fatalf("program %d, loop limit %d, input %s: %v", i, n, spec.StoreString(p, in), err)
				}
				checks += b.GhostChecks
			}
			b.Close()
		}
	}
	if checks == 0 {
		t.Fatal("no ghost check ran")
	}
	t.Logf("%d programs, %d ghost checks", len(progs), checks)
}
