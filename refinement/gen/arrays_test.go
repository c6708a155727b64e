package gen

import (
	"fmt"
	"testing"

	"certsym/spec/syntax/parser"
)

func TestArrayProgramsParse(t *testing.T) {
	n := 0
	for s := int64(1); s <= 400; s++ {
		g, err := Generate(s, Default)
		if err != nil {
			t.Fatal(err)
		}
		if g.Arrays == nil {
			continue
		}
		n++
		if _, err := parser.Parse("g", []byte(g.Text)); err != nil {
			t.Fatalf("seed %d: %v\n%s", s, err, g.Text)
		}
		if n <= 2 && testing.Verbose() {
			fmt.Println(g.Text)
		}
	}
	if n < 80 || n > 160 {
		t.Fatalf("%d array programs of 400", n)
	}
}
