package pathcond

import (
	"strings"
	"testing"

	"certsym/internal/testprog"
	"certsym/sym"
)

// TestPCStringKeepsOperandsOfOtherVariables: inside a quantifier, two operands of an or that read
// the quantifier's variable in different places are both printed. Printed alone, each names its
// own quantifier's variable k1 and leaves the outer one under its binder's number (here 1 too),
// so the two read the same; the duplicate test compares them with each variable named after its
// binder (RawString), and keeps both.
func TestPCStringKeepsOperandsOfOtherVariables(t *testing.T) {
	p := testprog.Parse(t, "x = x;\n")
	ts := sym.NewTermsFor(p)
	f := condOf(t, p, ts, "forall i in 0..x: ((exists j in 0..x: j >= i) or (exists j in 0..x: i >= j))")
	got := extendAll(len(p.Vars), f).String(p.Vars)
	if n := strings.Count(got, "exists"); n != 2 {
		t.Fatalf("the path condition prints %q: %d operands with exists, want 2", got, n)
	}
}
