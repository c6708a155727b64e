package spec

import "testing"

// TestRunLimits: the resource bounds of Limits stop Run's, RunFast's and ExecBounded's runs at
// the same state, with their Cut: the integer bound (a variable or an element assigned a value of
// more bits, before the assignment), and Stop (asked once in a while, during the steps, the
// loop iterations and the quantifier instances).
func TestRunLimits(t *testing.T) {
	parse := func(src string) *Program {
		p, err := Parse("p.imp", []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	const bits = 1000
	for _, c := range []struct {
		src  string
		line int // the loop's assignment
	}{
		{"x = 2;\nwhile true do x = x * x od", 2},
		{"array a[0..1];\na[1] = 2;\nwhile true do a[1] = a[1] * a[1] od", 3},
	} {
		src := c.src
		p := parse(src)
		lim := Limits{Steps: -1, Instances: -1, IntBits: bits}
		ref, fast := RunLimited(p, make(Store, p.Slots()), lim), RunFastLimited(p, make(Store, p.Slots()), lim)
		if d := diffResult(ref, fast); d != "" || ref.Cut != CutIntBits || fast.Cut != CutIntBits {
			t.Errorf("%q: Run cut %d, RunFast cut %d: %s", src, ref.Cut, fast.Cut, d)
		}
		for _, v := range fast.Final.Store {
			if v.BitLen() > bits {
				t.Errorf("%q: a value of %d bits was assigned", src, v.BitLen())
			}
		}
		switch h := Head(fast.Final.Prog).(type) {
		case *Assign, *ArrAssign:
			if LineOf(h) != c.line {
				t.Errorf("%q: stopped at line %d", src, LineOf(h))
			}
		default:
			t.Errorf("%q: stopped at %T", src, h)
		}
		if r := ExecBoundedLimited(p, make(Store, p.Slots()), 1<<30, nil, nil, lim); r.Cut != CutIntBits || r.Behaviour != Incomplete {
			t.Errorf("%q: ExecBounded: %+v", src, r)
		}
	}
	// Stop answers true at its third question: a run of a million steps ends early, each at the
	// same state.
	p := parse("i = 0;\nwhile i < 1000000 do i = i + 1 od")
	stopAt := func() func() bool {
		n := 0
		return func() bool { n++; return n >= 3 }
	}
	ref := RunLimited(p, make(Store, 1), Limits{Steps: -1, Instances: -1, Stop: stopAt()})
	fast := RunFastLimited(p, make(Store, 1), Limits{Steps: -1, Instances: -1, Stop: stopAt()})
	if d := diffResult(ref, fast); d != "" || ref.Cut != CutStop || ref.Steps != 3*stopEvery {
		t.Errorf("Stop: Run cut %d after %d steps, RunFast: %s", ref.Cut, ref.Steps, d)
	}
	if r := ExecBoundedLimited(p, make(Store, 1), 1<<30, nil, nil, Limits{Instances: -1, Stop: stopAt()}); r.Cut != CutStop || r.At == nil {
		t.Errorf("ExecBounded Stop: %+v", r)
	}
	// Inside one step: a quantifier of a trillion instances.
	q := parse("assert forall k in 0..1000000000000: k + x >= 0")
	st := State{make(Store, 1), q.Body}
	if next, out, cut := StepLimited(st, Limits{Instances: -1, Stop: stopAt()}); cut != CutStop || out != Stepped || next.Prog != st.Prog {
		t.Errorf("StepLimited: cut %d, outcome %s", cut, out)
	}
	if r := ExecBoundedLimited(q, make(Store, 1), 1, nil, nil, Limits{Instances: -1, Stop: stopAt()}); r.Cut != CutStop || r.At == nil {
		t.Errorf("ExecBounded quantifier Stop: %+v", r)
	}
}
