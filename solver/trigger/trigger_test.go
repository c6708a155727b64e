package trigger

import (
	"strings"
	"testing"

	"certsym/internal/testprog"
	"certsym/spec/syntax"
	"certsym/sym"
)

// TestIndices: the indices of the reads outside every quantifier, in order, each once (a
// constant index once whatever array it reads), reads inside a quantifier and variables left
// out, and at most max of them.
func TestIndices(t *testing.T) {
	p := testprog.Parse(t, "array a[0..9];\narray b[5..7];\nassume a[2] + b[6] > a[i] + a[2] * a[i + 1] and a[j] == b[6] and (forall k in 0..n: a[k] > a[i]) and x > 0 and b[2 + 4] > 0")
	ts := sym.NewTermsFor(p)
	fs := []*sym.Formula{ts.SubstB(p.Body.(*syntax.Assume).Cond, ts.Syms())}
	names := sym.SlotNames(p)
	show := func(ts []*sym.Term) string {
		var out []string
		for _, t := range ts {
			out = append(out, t.String(names))
		}
		return strings.Join(out, ", ")
	}
	if got, want := show(Indices(fs, p, 10)), "2, 6, i, i + 1, j"; got != want {
		t.Errorf("indices %s, want %s", got, want)
	}
	if got, want := show(Indices(fs, p, 3)), "2, 6, i"; got != want {
		t.Errorf("at most 3: %s, want %s", got, want)
	}
}
