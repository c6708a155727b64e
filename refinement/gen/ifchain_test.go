package gen

import (
	"math/rand"
	"strings"
	"testing"

	"certsym/spec/syntax"
	"certsym/spec/syntax/parser"
)

// TestIfChains: about IfChainShare in 100 generated programs start with a chain of ifs, whose
// text parses; a chain of n has n ifs on the inputs, each with two branches that join.
func TestIfChains(t *testing.T) {
	chains := 0
	for seed := int64(0); seed < 400; seed++ {
		if withIfChain(seed) == nil {
			continue
		}
		chains++
		g, err := Generate(seed, Default)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := parser.Parse("chain", []byte(g.Text)); err != nil {
			t.Fatalf("seed %d: %v\n%s", seed, err, g.Text)
		}
	}
	if chains < 400*IfChainShare/200 || chains > 400*IfChainShare*2/100 {
		t.Errorf("%d of 400 programs start with a chain of ifs, want about %d", chains, 400*IfChainShare/100)
	}
	c := IfChain(rand.New(rand.NewSource(1)), 9)
	text := syntax.Print(c)
	if n := strings.Count(text, "if "); n != 9 {
		t.Errorf("a chain of 9 has %d ifs:\n%s", n, text)
	}
	p, err := parser.Parse("chain", []byte(text))
	if err != nil {
		t.Fatalf("%v\n%s", err, text)
	}
	ifs := 0
	syntax.Inspect(p.Body, func(n syntax.Node) bool {
		if _, ok := n.(*syntax.If); ok {
			ifs++
		}
		return true
	})
	if ifs != 9 {
		t.Errorf("the parsed chain has %d ifs, want 9", ifs)
	}
}
