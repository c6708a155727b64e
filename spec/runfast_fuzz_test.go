package spec

import (
	"math/rand"
	"testing"

	"certsym/spec/syntax/parser"
)

// FuzzRunFast: on any program the parser accepts that has no quantifier (Run evaluates every
// instance of one, however large its range), RunFast's results are Run's from the zero input and
// from a few small inputs, under every step bound up to 60, stopping once a value passes 4096
// bits. `go test` runs the seeds; `go test -fuzz FuzzRunFast ./spec` explores further.
func FuzzRunFast(f *testing.F) {
	for _, s := range []string{
		"x = 1", "while x < 3 do x = x + 1 od; assert x == 3", "if x < 0 then fail else y = 1 / x fi",
		"array a[0..2];\ni = 0; while i < 5 do a[i] = i; i = i + 1 od",
		"assume x > 0; while x != 1 do if x % 2 == 0 then x = x / 2 else x = 3 * x + 1 fi od",
		"skip; skip; (skip); if true then skip; skip else skip fi; assert false",
		"macro m(v) begin v = v * v end\nx = 3; m(x); m(x); m(x); assert x < 1000",
		"while true do x = x * x + 2 od", "assert 1 / 0 == 0", "array a[1..1];\nx = a[x]",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		p, err := parser.Parse("fuzz.imp", []byte(src))
		if err != nil || hasQuant(p) {
			return
		}
		r := rand.New(rand.NewSource(int64(len(src))))
		ins := []Store{make(Store, p.Slots()), randomStore(r, p, false), randomStore(r, p, true)}
		for _, in := range ins {
			for k := 0; k <= 60; k++ {
				ref, fast := Run(p, in, k), RunFast(p, in, k)
				if d := diffResult(ref, fast); d != "" {
					t.Fatalf("%q from %s, step bound %d: Run and RunFast differ: %s", src, StoreString(p, in), k, d)
				}
				if ref.Outcome != Stepped || bigValue(ref.Final.Store) {
					break
				}
			}
		}
	})
}

// bigValue reports whether a value of s has more than 4096 bits.
func bigValue(s Store) bool {
	for _, v := range s {
		if v.BitLen() > 4096 {
			return true
		}
	}
	return false
}
