package havoc

import (
	"slices"
	"testing"

	"certsym/internal/testprog"
	"certsym/spec"
	"certsym/spec/integer"
)

// TestModsAndHavoc: the modifies set of a loop body is the variables it assigns and the arrays
// it writes, in branches and nested loops too, each once; the havocked store concretizes, under
// the valuation Fresh sets, to the given store on the modified variables and arrays and keeps
// the others' symbols.
func TestModsAndHavoc(t *testing.T) {
	p := testprog.Parse(t, `array a[0..2];
while x < 3 do
  if y > 0 then x = x + 1 else a[0] = 1 fi;
  while z < 2 do x = x + 2; z = z + 1 od
od`)
	set := Of(p.Body)
	x, y, z := slices.Index(p.Vars, "x"), slices.Index(p.Vars, "y"), slices.Index(p.Vars, "z")
	if !slices.Equal(set.Vars, []int{x, z}) || !slices.Equal(set.Arrays, []int{0}) {
		t.Fatalf("modifies set %+v, want vars [%d %d] and array [0]", set, x, z)
	}
	lay := NewLayout(p, []Set{set}, 2)
	h := lay.Havoc(lay.Terms.Syms(), set, 1)
	if h[y] != lay.Terms.Syms()[y] {
		t.Errorf("y, not modified, was havocked")
	}
	v := make([]integer.Int, lay.Ext.Slots())
	s := make(spec.Store, p.Slots())
	for i := range s {
		s[i] = integer.Of(int64(10 + i))
	}
	got := lay.Terms.Concretize(h, lay.Fresh(v, s, set, 1))
	a := p.Arrays[0].Offset
	for _, i := range []int{x, z, a, a + 1, a + 2} { // x, z and a's elements
		if got[i].Cmp(s[i]) != 0 {
			t.Errorf("slot %d: the havocked store concretizes to %v, want %v", i, got[i], s[i])
		}
	}
}
