package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// Terms share their subterms: x = x * x sixty times makes sixty product atoms whose written form
// has 2^60 copies of x. verify walks, renders and replays such programs in time linear in the
// program: its claim checks, its notes on products and its reports (text, JSON, HTML, SARIF)
// visit each shared subterm once, and the replays of its tests stop at the integer bound.

// integerBound is the reason of a replay stopped by the integer bound in the squarings programs.
const integerBound = "integer bound reached (a value of more than 1048576 bits assigned at 21:1)"

// verifyJSON is the part of verify's JSON report these tests read.
type verifyJSON struct {
	Claims []struct {
		Status   string `json:"status"`
		Evidence []struct {
			Replay    string `json:"replay"`
			Unhandled []struct {
				What string `json:"what"`
			} `json:"unhandled"`
		} `json:"evidence"`
	} `json:"claims"`
	Paths []struct {
		PathCondition string `json:"path_condition"`
		Ends          string `json:"ends"`
	} `json:"paths"`
}

// reasons is every replay and unhandled-theory note of the claims' evidence, one per line.
func (v verifyJSON) reasons() string {
	var b strings.Builder
	for _, c := range v.Claims {
		for _, e := range c.Evidence {
			b.WriteString(e.Replay + "\n")
			for _, u := range e.Unhandled {
				b.WriteString(u.What + "\n")
			}
		}
	}
	return b.String()
}

// TestVerifySharedProducts: verify on sixty squarings of an input before a reachable fail ends
// at once with the claim INDETERMINATE and exit 3: the counterexample's replay is stopped by the
// integer bound, which the text, JSON, HTML and SARIF reports state.
func TestVerifySharedProducts(t *testing.T) {
	if testing.Short() {
		t.Skip("starts processes")
	}
	f := writeProg(t, squaringsSrc)
	dir := t.TempDir()
	html, sarif := filepath.Join(dir, "r.html"), filepath.Join(dir, "r.sarif")
	r := runLimited(t, 30*time.Second, "verify", f, "--json", "--html", html, "--sarif", sarif, "--quiet")
	var out verifyJSON
	err := json.Unmarshal([]byte(r.stdout), &out)
	if r.killed || r.code != exitUnknown || err != nil || len(out.Claims) != 1 || out.Claims[0].Status != "INDETERMINATE" ||
		!strings.Contains(out.reasons(), "the counterexample's replay was cut short: "+integerBound) {
		t.Fatalf("want the claim INDETERMINATE for the integer bound, exit 3 (%v)\n%s", err, r)
	}
	for _, file := range []string{html, sarif} {
		b, err := os.ReadFile(file)
		if err != nil || !strings.Contains(string(b), "INDETERMINATE") {
			t.Errorf("%s: want the claim's status (%v)", file, err)
		}
	}
	r = runLimited(t, 30*time.Second, "verify", f, "--quiet")
	if r.killed || r.code != exitUnknown || !strings.Contains(r.stdout, "the counterexample's replay was cut short: "+integerBound) {
		t.Errorf("text report: want the integer bound stated, exit 3\n%s", r)
	}
}

// TestVerifyReplayIntegerBound: the replay of a path's test keeps the integer bound: after sixty
// squarings of an input, the path's test ends "no test" with the reason. The claim x > 0 is a
// polynomial of degree 2^60, which the solver leaves undecided (exit 3); the claim y + 1 > y is
// decided without it (VERIFIED, exit 0), and the path's test is cut all the same.
func TestVerifyReplayIntegerBound(t *testing.T) {
	if testing.Short() {
		t.Skip("starts processes")
	}
	squarings := "assume x > 1;\n" + strings.Repeat("x = x * x;\n", 60)
	for _, c := range []struct {
		claim, status, reason string
		code                  int
	}{
		{"x > 0", "INDETERMINATE", "over the solver's limit of 64", exitUnknown},
		{"y + 1 > y", "VERIFIED", "not replayed: the replay was cut short (" + integerBound + ")", exitSafe},
	} {
		r := runLimited(t, 30*time.Second, "verify", writeProg(t, squarings+"assert "+c.claim+"\n"), "--json", "--quiet")
		var out verifyJSON
		err := json.Unmarshal([]byte(r.stdout), &out)
		if r.killed || r.code != c.code || err != nil || len(out.Claims) != 1 || out.Claims[0].Status != c.status ||
			!strings.Contains(out.reasons(), c.reason) || len(out.Paths) != 1 ||
			out.Paths[0].Ends != "no test: its replay was cut short ("+integerBound+")" {
			t.Errorf("assert %s: want %s (%q), the path's test cut at the integer bound, exit %d (%v)\n%s",
				c.claim, c.status, c.reason, c.code, err, r)
		}
	}
}

// TestVerifySharedPathCondition: a path condition over sixty squarings is written with its
// shared subterms named in a let, each once: the report is small, the text report with --full
// says the same as the JSON, and without it shows the first definitions and the condition.
func TestVerifySharedPathCondition(t *testing.T) {
	if testing.Short() {
		t.Skip("starts processes")
	}
	f := writeProg(t, strings.Repeat("x = x * x;\n", 60)+"if x > 5 then fail else skip fi\n")
	r := runLimited(t, 30*time.Second, "verify", f, "--json", "--quiet")
	var out verifyJSON
	err := json.Unmarshal([]byte(r.stdout), &out)
	if r.killed || r.code != exitUnknown || err != nil || len(out.Paths) != 1 {
		t.Fatalf("want one path, exit 3 (%v)\n%s", err, r)
	}
	pc := out.Paths[0].PathCondition
	if !strings.HasPrefix(pc, "let $1 = x * x; $2 = $1 * $1; ") || !strings.Contains(pc, "$59 = $58 * $58 in ") || len(pc) > 2000 {
		t.Errorf("want the path condition with its 59 shared products named once, got %d bytes: %.3000s", len(pc), pc)
	}
	r = runLimited(t, 30*time.Second, "verify", f, "--full", "--quiet")
	if r.killed || r.code != exitUnknown || !strings.Contains(r.stdout, "path condition: "+pc+"\n") {
		t.Errorf("--full text report: want the path condition %q\n%s", pc, r)
	}
	// Abbreviated, the text keeps the first definitions and the condition itself.
	r = runLimited(t, 30*time.Second, "verify", f, "--quiet")
	want := "path condition: let $1 = x * x; $2 = $1 * $1; "
	if r.killed || r.code != exitUnknown || !strings.Contains(r.stdout, want) ||
		!strings.Contains(r.stdout, " more definitions) in ($59 * $59) >= 6 (--full prints it whole)\n") {
		t.Errorf("text report: want the path condition abbreviated to its first definitions and its body\n%s", r)
	}
}
