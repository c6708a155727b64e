package inputs

import (
	"strings"
	"testing"

	"certsym/internal/testprog"
)

// TestReadBeforeWritten: a variable is an input when some path reads it before assigning it; an
// if assigns what both branches assign (a branch that fails assigns everything), a while loop
// nothing (its body may not run); a loop's invariant clauses are read on entry, before the body.
func TestReadBeforeWritten(t *testing.T) {
	for _, c := range []struct{ src, want string }{
		{"y = 1;\nx = y + 1", ""},
		{"x = x + 1", "x"},
		{"if a > 0 then t = 1 else t = 2 fi;\nu = t", "a"},
		{"if a > 0 then t = 1 fi;\nu = t", "a t"},
		{"if a > 0 then t = 1 else fail fi;\nu = t", "a"},
		{"i = 0;\nwhile i < n do s = s + i; i = i + 1 od", "n s"},
		{"while i < 3 do t = 1; i = i + 1 od;\nassume t > 0", "i t"},
		{"assert b > 0;\nb = 1", "b"},
		{"i = 0;\nwhile i < 3 invariant i >= 0 and s >= 0 do s = 1; i = i + 1 od", "s"},
		{"i = 0; s = 0;\nwhile i < 3 invariant s == 2 * i do s = s + 2; i = i + 1 od", ""},
	} {
		prog := testprog.Parse(t, c.src)
		read := ReadBeforeWritten(prog)
		var got []string
		for i, v := range prog.Vars {
			if read[i] {
				got = append(got, v)
			}
		}
		if strings.Join(got, " ") != c.want {
			t.Errorf("%q: read before written %v, want %q", c.src, got, c.want)
		}
	}
}
