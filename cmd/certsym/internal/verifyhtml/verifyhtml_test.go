package verifyhtml

import (
	"strings"
	"testing"

	"certsym/internal/testprog"
	"certsym/verify"
)

// TestRender checks the page of a verification with REFUTED and VERIFIED claims and a line no path reaches:
// each claim's row with its status and evidence, the highlight of each claim's line (the worst
// status of the line), the coverage marks, and that the same report gives the same page, byte
// for byte (the page is rendered in a browser by cmd/certsym's TestVerifyHTMLInChromium).
func TestRender(t *testing.T) {
	src := "assert x >= x;\ny = 10 / x;\nif x < 0 then\n  assert x <= 0\nelse\n  skip\nfi;\nassume 1 < 0;\nz = 1\n"
	prog := testprog.Parse(t, src)
	rep := verify.Verify(prog, verify.Options{LoopBound: 2})
	page := Render("p.imp", []byte(src), rep)
	for _, want := range []string{
		"<title>certsym verify p.imp</title>",
		`id="L1" class="line covered claim-line st-verified" data-line="1" data-status="VERIFIED"`,
		`id="L2" class="line covered claim-line st-refuted" data-line="2" data-status="REFUTED"`,
		`id="L9" class="line uncovered" data-line="9"`,
		`data-line="2" data-kind="division" data-status="REFUTED"`,
		`<code class="cex">x=0, y=0, z=0</code>`,
		"Statement coverage: ",
		".st-indeterminate{background:#f3ec9c}",
	} {
		if !strings.Contains(page, want) {
			t.Errorf("the page lacks %q:\n%s", want, page)
		}
	}
	for i := 0; i < 5; i++ {
		if again := Render("p.imp", []byte(src), rep); again != page {
			t.Fatalf("a second rendering of the same report differs")
		}
	}
}
