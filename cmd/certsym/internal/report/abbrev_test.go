package report

import (
	"fmt"
	"strings"
	"testing"
)

// letText is the let form of sixty squarings of x, as sym writes a term over ExpandLimit, before
// the body.
func letText() string {
	defs := []string{"$1 = x * x"}
	for k := 2; k <= 59; k++ {
		defs = append(defs, fmt.Sprintf("$%d = $%d * $%d", k, k-1, k-1))
	}
	return "let " + strings.Join(defs, "; ") + " in "
}

// TestAbbrevLet: a conjunct or store value in let form keeps its first definitions, the count of
// the others and its body (what it says); another long item is cut with the count of characters.
func TestAbbrevLet(t *testing.T) {
	let := letText()
	for _, c := range []struct {
		s, sep, noun, prefix, suffix string
	}{
		{let + "($59 * $59) >= 6", " and ", "conjunct", "let $1 = x * x; $2 = $1 * $1; ",
			"; ... (35 more definitions) in ($59 * $59) >= 6 (--full prints it whole)"},
		{"x = " + let + "($59 * $59), y = 3", ", ", "variable", "x = let $1 = x * x; ",
			"; ... (35 more definitions) in ($59 * $59), ... (1 more variable; --full prints them all)"},
		{let + "($59 * $59) >= " + strings.Repeat("9", 500), " and ", "conjunct", "let $1 = x * x; ",
			"; ... (48 more definitions) in ($59 * $59) >= " + strings.Repeat("9", 185) + "... (315 more characters) (--full prints it whole)"},
		{"x >= " + strings.Repeat("9", 500), " and ", "conjunct", "x >= 999",
			"... (105 more characters) (--full prints it whole)"},
	} {
		got := Abbrev(c.s, c.sep, c.noun, false)
		if !strings.HasPrefix(got, c.prefix) || !strings.HasSuffix(got, c.suffix) || len(got) > TextBudget+100 {
			t.Errorf("Abbrev(%.60q...): %q, want %q ... %q, about %d characters", c.s, got, c.prefix, c.suffix, TextBudget)
		}
		if whole := Abbrev(c.s, c.sep, c.noun, true); whole != c.s {
			t.Errorf("full: %.60q..., want the item whole", whole)
		}
	}
}
