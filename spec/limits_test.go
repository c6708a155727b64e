package spec

import (
	"testing"

	"certsym/internal/budget"
)

// TestRunLimits: the resource bounds of Limits stop RunFastLimited in the state where they are
// reached, the state Run reaches in as many steps: the integer bound (a variable or an element
// about to be assigned a value of more bits) and Stop (asked once in 1,024 steps).
func TestRunLimits(t *testing.T) {
	const bits = 1000
	for _, c := range []struct {
		src  string
		line int // the loop's assignment
	}{
		{"x = 2;\nwhile true do x = x * x od", 2},
		{"array a[0..1];\na[1] = 2;\nwhile true do a[1] = a[1] * a[1] od", 3},
	} {
		p := mustParse(t, c.src)
		r := RunFastLimited(p, make(Store, p.Slots()), Limits{Steps: -1, Instances: -1, IntBits: bits})
		if r.Outcome != Stepped || r.Cut != budget.CutIntBits || Head(r.Final.Prog).Pos().Line != c.line {
			t.Errorf("%q: %s, cut %d at line %d", c.src, r.Outcome, r.Cut, Head(r.Final.Prog).Pos().Line)
		}
		for _, v := range r.Final.Store {
			if v.BitLen() > bits {
				t.Errorf("%q: a value of %d bits was assigned", c.src, v.BitLen())
			}
		}
		if d := diffResult(Run(p, make(Store, p.Slots()), r.Steps), r); d != "" {
			t.Errorf("%q: not Run's state after %d steps: %s", c.src, r.Steps, d)
		}
	}
	// Stop answers true at its third question: a run of a million steps ends after 3 × 1,024 - 1.
	p := mustParse(t, "i = 0;\nwhile i < 1000000 do i = i + 1 od")
	n := 0
	r := RunFastLimited(p, make(Store, 1), Limits{Steps: -1, Instances: -1, Stop: func() bool { n++; return n == 3 }})
	if r.Outcome != Stepped || r.Cut != budget.CutStop || r.Steps != 3*1024-1 {
		t.Errorf("Stop: %s, cut %d after %d steps", r.Outcome, r.Cut, r.Steps)
	}
	if d := diffResult(Run(p, make(Store, 1), r.Steps), r); d != "" {
		t.Errorf("Stop: not Run's state after %d steps: %s", r.Steps, d)
	}
}
