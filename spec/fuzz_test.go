package spec

import (
	"errors"
	"testing"
)

// FuzzParse: on any input the parser returns a program or a *SyntaxError, never panics, and a
// program it returns prints to text that parses to the same tree. `go test` runs the seeds;
// `go test -fuzz FuzzParse ./spec` explores further.
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		"x = 1", "macro m(a) begin a = a + 1 end\nm(x); assert x > 0", "if (a) then skip fi",
		"while not (x < 3) do x = x - -1 od", "x = 99999999999999999999999 * -(-3) % 0",
		"assert not a <= 0 and b > 0 or c == d", "macro m begin m end\nm", "x = ((((1", "#",
		"assume x/0 == 1;", "if x then", "x = 1;; y", "\x00", "x = 1 !",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		p, err := Parse("fuzz.imp", []byte(src))
		if err != nil {
			var se *SyntaxError
			if !errors.As(err, &se) || se.Pos.Line < 1 || se.Pos.Col < 1 {
				t.Fatalf("%q: error %v is not a positioned syntax error", src, err)
			}
			return
		}
		roundTrip(t, "fuzz.imp", []byte(src))
		_ = p
	})
}
