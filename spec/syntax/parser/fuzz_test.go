package parser_test

import (
	"errors"
	"testing"

	"certsym/spec"
	"certsym/spec/syntax/parser"
)

// FuzzParse: on any input the parser returns a program or a *SyntaxError, never panics, a
// program it returns prints to text that parses to the same tree, and its first steps run. `go test` runs the seeds;
// `go test -fuzz FuzzParse ./spec/syntax/parser` explores further.
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		"x = 1", "macro m(a) begin a = a + 1 end\nm(x); assert x > 0", "if (a) then skip fi",
		"while not (x < 3) do x = x - -1 od", "x = 99999999999999999999999 * -(-3) % 0",
		"assert not a <= 0 and b > 0 or c == d", "macro m begin m end\nm", "x = ((((1", "#",
		"assume x/0 == 1;", "if x then", "x = 1;; y", "\x00", "x = 1 !",
		"array a[1..5];\na[i] = a[i + 1] / x; assert forall k in 1..4: a[k] <= a[k + 1]",
		"array a[-3..3]; array b[0..0];\nassert exists k in -3..3: a[k] == b[0] and forall j in k..3: a[j] >= a[k] or x",
		"macro m(v, i) begin v[i] = v[i] + 1 end\narray a[0..1];\nm(a, 0); m(a, x + 1)",
		"array a[1..0]; skip", "array a[x..2]; skip", "array a[0..70000]; skip", "array a[0..1]; array a[0..1]; skip",
		"array a[0..1];\na = 1", "x[0] = 1", "assert forall x in 0..1: x > y; x = 1", "assert forall k in 0..1: forall k in 0..1: true",
		"array a[0..1];\nassert forall a in 0..1: true", "a[", "assert forall k in 0..: k", "x = 1 . 2", "array a[0..9223372036854775807]; skip",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		p, err := parser.Parse("fuzz.imp", []byte(src))
		if err != nil {
			var se *parser.SyntaxError
			if !errors.As(err, &se) || se.Pos.Line < 1 || se.Pos.Col < 1 {
				t.Fatalf("%q: error %v is not a positioned syntax error", src, err)
			}
			return
		}
		parser.RoundTrip(t, "fuzz.imp", []byte(src))
		// The concrete semantics does not panic either: up to 20 steps from the zero input (the
		// step bound also bounds quantifier instances), stopping once a value passes 4096 bits
		// (a program that squares a number at each step would not finish otherwise).
		for k := 1; k <= 20; k++ {
			r := spec.RunFastLimited(p, make(spec.Store, p.Slots()), spec.Limits{Steps: k, Instances: 20})
			if r.Outcome != spec.Stepped || bigValue(r.Final.Store) {
				break
			}
		}
	})
}

// bigValue reports whether a value of s has more than 4096 bits.
func bigValue(s spec.Store) bool {
	for _, v := range s {
		if v.BitLen() > 4096 {
			return true
		}
	}
	return false
}
