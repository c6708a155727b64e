package spec

import (
	"fmt"
	"math/rand"
	"path/filepath"
	"testing"

	"certsym/internal/budget"
	"certsym/spec/syntax"
	"certsym/spec/syntax/parser"
)

// hugeQuantSrc evaluates a quantifier of 10^12 instances at line 2: no bound on instances, and it
// runs for hours.
const hugeQuantSrc = "x = 1;\nassert forall k in 0..1000000000000: k * k >= 0;\nx = 2"

// TestExecBoundedLimits: each bound of ExecBoundedLimited's Limits stops the run Incomplete at the
// statement that would pass it, in the store before it, with the bound as Cut: the quantifier
// instances (counted over the run), the integer bound (a variable or an element), and Stop (asked
// once in 1,024 statements and instances, also inside one quantifier).
func TestExecBoundedLimits(t *testing.T) {
	const bits = 1000
	cases := []struct {
		name string
		src  string
		n    int
		lim  Limits
		cut  budget.Cut
		line int // of At
		x    int64
	}{
		{"instances", hugeQuantSrc, 3, Limits{Instances: 1000}, budget.CutInstances, 2, 1},
		{"instances over the run", "x = 0;\nwhile x < 10 do assert forall k in 0..99: k >= 0; x = x + 1 od", 20,
			Limits{Instances: 550}, budget.CutInstances, 2, 5},
		{"integer bound", "x = 2;\nwhile true do\n  x = x * x\nod", 100, Limits{Instances: -1, IntBits: bits}, budget.CutIntBits, 3, 0},
		{"integer bound, element", "array a[0..1];\na[1] = 2;\nwhile true do\n  a[1] = a[1] * a[1]\nod", 100,
			Limits{Instances: -1, IntBits: bits}, budget.CutIntBits, 4, 0},
		{"stop in a quantifier", hugeQuantSrc, 3, Limits{Instances: -1, Stop: func() bool { return true }}, budget.CutStop, 2, 1},
	}
	for _, c := range cases {
		p := mustParse(t, c.src)
		r := ExecBoundedLimited(p, make(Store, p.Slots()), c.n, c.lim, nil, nil)
		if r.Behaviour != Incomplete || r.Cut != c.cut || r.At == nil || r.At.Pos().Line != c.line || r.Quant {
			t.Errorf("%s: %s, cut %d at %v", c.name, r.Behaviour, r.Cut, r.At)
			continue
		}
		for _, v := range r.Store {
			if v.BitLen() > bits {
				t.Errorf("%s: a value of %d bits was assigned", c.name, v.BitLen())
			}
		}
		if c.x != 0 && StoreString(p, r.Store) != fmt.Sprintf("x=%d", c.x) {
			t.Errorf("%s: store %s, want x=%d", c.name, StoreString(p, r.Store), c.x)
		}
	}
	// Stop answers true at its third question: 3 × 1,024 statements and instances.
	p := mustParse(t, "i = 0;\nwhile i < 1000000 do i = i + 1 od")
	asked := 0
	r := ExecBoundedLimited(p, make(Store, 1), 2_000_000, Limits{Instances: -1, Stop: func() bool { asked++; return asked == 3 }}, nil, nil)
	if r.Behaviour != Incomplete || r.Cut != budget.CutStop || asked != 3 {
		t.Errorf("Stop: %s, cut %d, asked %d times", r.Behaviour, r.Cut, asked)
	}
}

// TestLimiterStep: a Limiter stops a small-step run at the step that would pass a bound (the
// state stays the one before it), and its EvalBKind within the instances left; a run within the
// bounds is Step's, step by step.
func TestLimiterStep(t *testing.T) {
	p := mustParse(t, hugeQuantSrc)
	l := NewLimiter(Limits{Instances: 1000})
	st := State{make(Store, 1), p.Body}
	var cut budget.Cut
	for i := 0; i < 10 && cut == budget.NotCut; i++ {
		var next State
		next, _, cut = l.Step(st)
		if cut == budget.NotCut {
			st = next
		}
	}
	if h := Head(st.Prog); cut != budget.CutInstances || h.Pos().Line != 2 || StoreString(p, st.Store) != "x=1" {
		t.Errorf("instances: cut %d at line %d, store %s", cut, h.Pos().Line, StoreString(p, st.Store))
	}
	q := Head(st.Prog).(*syntax.Assert).Cond
	if _, _, _, c := NewLimiter(Limits{Instances: -1, Stop: func() bool { return true }}).EvalBKind(q, st.Store, nil); c != budget.CutStop {
		t.Errorf("Stop inside a quantifier: cut %d", c)
	}
	if _, _, _, c := (*Limiter)(nil).EvalBKind(mustParse(t, "assert forall k in 0..9: k >= 0").Body.(*syntax.Assert).Cond, nil, nil); c != budget.NotCut {
		t.Errorf("a nil Limiter cut an evaluation: %d", c)
	}
	sq := mustParse(t, "x = 2;\nwhile true do\n  x = x * x\nod")
	l = NewLimiter(Limits{Instances: -1, IntBits: 1000})
	st = State{make(Store, 1), sq.Body}
	for cut = budget.NotCut; cut == budget.NotCut; {
		var next State
		if next, _, cut = l.Step(st); cut == budget.NotCut {
			st = next
		}
	}
	if h := Head(st.Prog); cut != budget.CutIntBits || h.Pos().Line != 3 || st.Store[0].BitLen() > 1000 {
		t.Errorf("integer bound: cut %d at line %d, x of %d bits", cut, h.Pos().Line, st.Store[0].BitLen())
	}
}

// TestLimitedRunsWithinBounds: on every program of testdata/ and engine/testdata/ from random
// inputs, a run no bound stops is the unbounded one: ExecBoundedLimited's result is ExecBounded's,
// and a small-step run through a Limiter takes Step's steps.
func TestLimitedRunsWithinBounds(t *testing.T) {
	var files []string
	for _, g := range []string{"../testdata/*.imp", "../engine/testdata/*.imp"} {
		fs, _ := filepath.Glob(g)
		files = append(files, fs...)
	}
	if len(files) < 100 {
		t.Fatalf("found %d corpus programs, expected the corpus (more than 100)", len(files))
	}
	r := rand.New(rand.NewSource(29))
	lim := Limits{Instances: 1 << 40, IntBits: 1 << 40, Stop: func() bool { return false }}
	for _, f := range files {
		p, err := parser.ParseFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for i := 0; i < 4; i++ {
			in := randomStore(r, p, !hasQuant(p))
			want, got := ExecBounded(p, in, 3), ExecBoundedLimited(p, in, 3, lim, nil, nil)
			if got.Behaviour != want.Behaviour || got.Fail != want.Fail || got.At != want.At || got.Cut != budget.NotCut ||
				StoreString(p, got.Store) != StoreString(p, want.Store) {
				t.Fatalf("%s from %s: ExecBoundedLimited %s at %v, ExecBounded %s at %v", f, StoreString(p, in), got.Behaviour, got.At, want.Behaviour, want.At)
			}
			st, lst, l := State{in, p.Body}, State{in, p.Body}, NewLimiter(lim)
			for n := 0; n < 2000; n++ {
				next, out := Step(st)
				lnext, lout, cut := l.Step(lst)
				if out != lout || cut != budget.NotCut || StoreString(p, next.Store) != StoreString(p, lnext.Store) || !sameProg(next.Prog, lnext.Prog) {
					t.Fatalf("%s from %s, step %d: Step %s, the Limiter's %s (cut %d)", f, StoreString(p, in), n, out, lout, cut)
				}
				if out != Stepped {
					break
				}
				st, lst = next, lnext
			}
		}
	}
}
