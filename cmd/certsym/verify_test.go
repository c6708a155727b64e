package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	htmlpkg "html"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"certsym/cmd/certsym/internal/inputs"
	"certsym/cmd/certsym/internal/verifyhtml"
	"certsym/internal/expect"
	"certsym/spec"
	"certsym/spec/syntax/parser"
	"certsym/verify"
)

// readVerifyExpectation reads what a testdata/verify program expects of certsym verify
// (internal/expect: the overall status and options in the header, each claim's status at its
// line) and checks that it is a verify expectation: an overall status and claims, no run verdict.
func readVerifyExpectation(file string) (*expect.File, error) {
	exp, err := expect.Read(file)
	if err != nil {
		return nil, err
	}
	switch {
	case exp.Overall == "":
		return nil, fmt.Errorf("%s:1: no '# expect: overall STATUS' in the header", file)
	case len(exp.Claims) == 0:
		return nil, fmt.Errorf("%s:1: no CLAIM annotation: write '# CLAIM KIND STATUS' at the end of each claim's line", file)
	case exp.Verdict != "" || len(exp.Bugs) > 0:
		return nil, fmt.Errorf("%s: a run verdict or BUG annotation in a program of certsym verify (they belong to testdata/)", file)
	}
	return exp, nil
}

// claimMismatch compares the claims certsym verify reported, in its order, with the annotated
// ones; it returns "" when they are the same, otherwise the first difference, by file:line.
func claimMismatch(file string, want, got []expect.Claim) string {
	if slices.Equal(want, got) {
		return ""
	}
	for k := 0; k < len(want) || k < len(got); k++ {
		switch {
		case k >= len(got):
			return fmt.Sprintf("%s:%d: annotated CLAIM %s %s, but verify reports no more claims (claim %d of %d annotated)", file, want[k].Line, want[k].Kind, want[k].Status, k+1, len(want))
		case k >= len(want):
			return fmt.Sprintf("%s:%d: verify reports a %s claim %s here that is not annotated (claim %d, %d annotated)", file, got[k].Line, got[k].Kind, got[k].Status, k+1, len(want))
		case want[k] != got[k]:
			return fmt.Sprintf("%s:%d: claim %d is annotated %s %s at this line, but verify reports %s %s at line %d", file, want[k].Line, k+1, want[k].Kind, want[k].Status, got[k].Kind, got[k].Status, got[k].Line)
		}
	}
	return ""
}

// verifyOut is the part of verify --json the tests read; numbers stay json.Number.
type verifyOut struct {
	Claims []struct {
		Line              int                        `json:"line"`
		Kind              string                     `json:"kind"`
		Status            string                     `json:"status"`
		Collected         []string                   `json:"collected"`
		Counterexample    map[string]json.RawMessage `json:"counterexample"`
		Replay            string                     `json:"replay"`
		OverApproximation []int                      `json:"over_approximation"`
		OverLoops         []int                      `json:"over_loops"`
		Cutoffs           []struct {
			Line    int    `json:"line"`
			Reason  string `json:"reason"`
			CFGPath []int  `json:"cfg_path"`
		} `json:"cutoffs"`
		Unhandled []struct {
			Line int    `json:"line"`
			What string `json:"what"`
		} `json:"unhandled"`
		Primitives []struct {
			Kind    string `json:"kind"`
			Token   string `json:"token"`
			Letters string `json:"letters"`
		} `json:"primitives"`
	} `json:"claims"`
	Overall string `json:"overall"`
}

// primMismatch compares the annotated rows of primitive claims (PRIM KIND TOKEN LETTERS) with
// what verify reported for their claims; "" when they agree.
func primMismatch(file string, exp *expect.File, out verifyOut) string {
	byClaim := map[int][]expect.Prim{}
	for _, p := range exp.Prims {
		byClaim[p.Claim] = append(byClaim[p.Claim], p)
	}
	for k, want := range byClaim {
		if k >= len(out.Claims) {
			return fmt.Sprintf("%s:%d: primitive claims annotated for a claim verify does not report", file, exp.Claims[k].Line)
		}
		var got []expect.Prim
		for _, p := range out.Claims[k].Primitives {
			got = append(got, expect.Prim{Claim: k, Kind: p.Kind, Token: p.Token, Letters: p.Letters})
		}
		if !slices.Equal(want, got) {
			return fmt.Sprintf("%s:%d: primitive claims annotated %v, verify reports %v", file, exp.Claims[k].Line, want, got)
		}
	}
	return ""
}

func runVerifyJSON(t *testing.T, args ...string) (verifyOut, int, string, string) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	code := run(append([]string{"verify", "--json"}, args...), &stdout, &stderr)
	raw := stdout.String()
	var out verifyOut
	dec := json.NewDecoder(&stdout)
	dec.UseNumber()
	if err := dec.Decode(&out); err != nil {
		t.Fatalf("certsym verify %v: output is not one JSON object (%v): %s %s", args, err, raw, stderr.String())
	}
	if dec.More() {
		t.Fatalf("certsym verify %v: more than one JSON value on stdout", args)
	}
	return out, code, raw, stderr.String()
}

func wantExit(overall string) int {
	switch overall {
	case "VERIFIED", "DEAD":
		return exitSafe
	case "REFUTED", "FAULTY":
		return exitBug
	}
	return exitUnknown
}

// TestVerifyFigure1 runs the transcriptions of the paper's Figure 1 examples (a)-(h) and checks
// the statuses annotated at their claims' lines, and the evidence each status must come with.
func TestVerifyFigure1(t *testing.T) {
	files, _ := filepath.Glob("../../testdata/verify/fig1*.imp")
	if len(files) != 8 {
		t.Fatalf("found %d Figure 1 programs, want 8 ((a) to (h))", len(files))
	}
	seen := map[string]bool{}
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			exp, err := readVerifyExpectation(file)
			if err != nil {
				t.Fatal(err)
			}
			out, code, _, stderr := runVerifyJSON(t, append([]string{file}, exp.Options...)...)
			var got []expect.Claim
			for _, c := range out.Claims {
				got = append(got, expect.Claim{Line: c.Line, Kind: c.Kind, Status: c.Status})
				seen[c.Status] = true
				switch c.Status {
				case "REFUTED", "FAULTY":
					if len(c.Counterexample) == 0 || !strings.Contains(c.Replay, "concrete execution ends error") {
						t.Errorf("line %d %s: %s without a replayed counterexample: %+v", c.Line, c.Kind, c.Status, c)
					}
					// Replay the JSON counterexample here too: the run must fail at the claim's line.
					prog, err := parser.ParseFile(file)
					if err != nil {
						t.Fatal(err)
					}
					raw, err := json.Marshal(c.Counterexample)
					if err != nil {
						t.Fatal(err)
					}
					in, _, err := inputs.FromJSON(raw, prog)
					if err != nil {
						t.Fatalf("counterexample %s: %v", raw, err)
					}
					if r := spec.ExecBounded(prog, in, 1000); r.Behaviour != spec.Error || r.Fail.Line() != c.Line {
						t.Errorf("line %d %s: counterexample %v ends %s", c.Line, c.Kind, c.Counterexample, r.Behaviour)
					}
				case "REFUTED?", "FAULTY?":
					if len(c.Counterexample) == 0 || len(c.OverApproximation) == 0 {
						t.Errorf("line %d %s: %s without counterexample and over-approximation location", c.Line, c.Kind, c.Status)
					}
				case "UNCOVERED", "VERIFIED?":
					if len(c.Cutoffs) == 0 || len(c.Cutoffs[0].CFGPath) == 0 || c.Cutoffs[0].CFGPath[len(c.Cutoffs[0].CFGPath)-1] != c.Line {
						t.Errorf("line %d %s: %s without a cutoff and its control-flow path to the claim: %+v", c.Line, c.Kind, c.Status, c.Cutoffs)
					}
				case "INDETERMINATE":
					if len(c.Unhandled) == 0 {
						t.Errorf("line %d %s: INDETERMINATE without unhandled-theory location", c.Line, c.Kind)
					}
				}
			}
			if msg := claimMismatch(file, exp.Claims, got); msg != "" {
				t.Error(msg)
			} else if msg := primMismatch(file, exp, out); msg != "" {
				t.Error(msg)
			}
			if out.Overall != exp.Overall || code != wantExit(exp.Overall) {
				t.Errorf("overall %s (exit %d), want %s (exit %d); stderr %s", out.Overall, code, exp.Overall, wantExit(exp.Overall), stderr)
			}
		})
	}
	// The eight programs give eight statuses, (a)-(h): V?, R?, I, U, D, F, V, R. FAULTY? is none of
	// the paper's letters (verify's unit tests check UNDEFINED? on hand-built flagged states).
	for _, s := range []string{"DEAD", "VERIFIED", "REFUTED", "FAULTY", "REFUTED?", "UNCOVERED", "VERIFIED?", "INDETERMINATE"} {
		if !t.Failed() && !seen[s] {
			t.Errorf("no Figure 1 program produces %s (seen %v)", s, seen)
		}
	}
}

// TestVerifyHarness checks the claim check of TestVerifyFigure1 (readVerifyExpectation, then
// claimMismatch on what verify reports): claims annotated at the wrong line make it fail, naming
// the line; correct annotations pass.
func TestVerifyHarness(t *testing.T) {
	check := func(src string) (string, string) {
		f := writeProg(t, src)
		exp, err := readVerifyExpectation(f)
		if err != nil {
			return f, err.Error()
		}
		out, _, _, _ := runVerifyJSON(t, append([]string{f}, exp.Options...)...)
		var got []expect.Claim
		for _, c := range out.Claims {
			got = append(got, expect.Claim{Line: c.Line, Kind: c.Kind, Status: c.Status})
		}
		return f, claimMismatch(f, exp.Claims, got)
	}
	const head = "# expect: overall REFUTED\nassume x >= 0;\n"
	if _, msg := check(head + "assert 10 / (x + 1) >= 0;  # CLAIM assert VERIFIED\ny = 10 / x  # CLAIM division REFUTED\n"); msg != "" {
		t.Fatalf("correct annotations fail the check: %s", msg)
	}
	f, msg := check(head + "assert 10 / (x + 1) >= 0;  # CLAIM assert FAULTY\ny = 10 / x  # CLAIM division VERIFIED\n")
	if want := f + ":3: claim 1 is annotated assert FAULTY at this line, but verify reports assert VERIFIED at line 3"; msg != want {
		t.Errorf("statuses on the wrong lines: the check says %q, want %q", msg, want)
	}
	f, msg = check(head + "assert x >= 0;\ny = 10 / x;  # CLAIM assert VERIFIED\nassert x > 0  # CLAIM division REFUTED\n")
	if msg == "" || !strings.HasPrefix(msg, f+":") {
		t.Errorf("claims a line below their statements: the check says %q", msg)
	}
	f, msg = check("# expect: line 3 assert VERIFIED\n# expect: overall VERIFIED\nassert true\n")
	if want := f + ":1: the header gives a line number: write '# CLAIM assert VERIFIED' at the end of line 3"; msg != want {
		t.Errorf("old header: the check says %q, want %q", msg, want)
	}
}

// TestVerifyWithoutAbstraction: the claim of (c) is inconclusive only because of
// --abstract-nonlinear (the paper's solver); Z3 decides it exactly without it.
func TestVerifyWithoutAbstraction(t *testing.T) {
	for _, f := range []string{"fig1c_fait.imp"} {
		out, code, _, _ := runVerifyJSON(t, "../../testdata/verify/"+f)
		if out.Overall != "VERIFIED" || code != exitSafe {
			t.Errorf("%s without --abstract-nonlinear: %s (exit %d)", f, out.Overall, code)
		}
	}
}

// TestVerifyJSONIntegers: counterexample values are JSON numbers with all their digits.
func TestVerifyJSONIntegers(t *testing.T) {
	f := writeProg(t, "assume x > 123456789012345678901234567890;\nassert x != 123456789012345678901234567891")
	out, code, raw, _ := runVerifyJSON(t, f)
	if code != exitBug || len(out.Claims) != 1 || out.Claims[0].Status != "REFUTED" {
		t.Fatalf("exit %d, %+v", code, out)
	}
	if got := string(out.Claims[0].Counterexample["x"]); got != "123456789012345678901234567891" {
		t.Errorf("counterexample x = %s", got)
	}
	if !regexp.MustCompile(`"counterexample": \{\s*"x": 123456789012345678901234567891\s*\}`).MatchString(raw) {
		t.Errorf("counterexample not written as a bare JSON number:\n%s", raw)
	}
	if !strings.HasPrefix(raw, "{\n  \"version\": 3,\n  \"claims\": [") {
		t.Errorf("JSON does not start with its version and the claims: %.60s", raw)
	}
}

func TestVerifyTextAndErrors(t *testing.T) {
	f := writeProg(t, "i = 0;\nwhile i < n do\n  i = i + 1\nod;\nassert i >= 0;\nassert 10 / n > 0")
	code, stdout, stderr := runText("verify", f, "--loop-bound", "2")
	if code != exitBug {
		t.Errorf("exit %d, stderr %s", code, stderr)
	}
	for _, want := range []string{"Summary of claims", "VERIFIED?", "FAULTY", "cutoff at line 2", "control-flow path to the claim: lines 2 -> 5",
		"counterexample: ", "overall status: FAULTY", "conclusive: ", "coverage: ", "  DIVISION@6           R   TFC      Failing Path (2@6), Paths (0,1), Cutoff Path (3)",
		"Explicit       2", "Legend. S: D DEAD", "Path 0 (first at line 5): input "} {
		if !strings.Contains(stdout, want) {
			t.Errorf("text report lacks %q:\n%s", want, stdout)
		}
	}
	for _, args := range [][]string{{"verify"}, {"verify", f, "--loop-bound", "-1"}, {"verify", f, "--bogus"}, {"verify", f, f}} {
		if code, _, stderr := runText(args...); code != exitUsage || strings.Contains(stderr, "goroutine") {
			t.Errorf("%v: exit %d, stderr %s", args, code, stderr)
		}
	}
	bad := writeProg(t, "assert x >")
	if code, _, stderr := runText("verify", bad); code != exitUsage || !strings.Contains(stderr, ":1:") {
		t.Errorf("syntax error: exit %d, stderr %s", code, stderr)
	}
	if code, _, stderr := runText("verify", "/nonexistent.imp"); code != exitUsage || stderr == "" {
		t.Errorf("missing file: exit %d", code)
	}
	code, stdout, stderr = runText("verify", "../../engine/testdata/gcd.imp", "--loop-bound", "60", "--max-memory", "1", "--quiet")
	if code != exitUnknown || !strings.Contains(stdout, "cutoff: memory bound reached (heap") || stderr != "" {
		t.Errorf("--max-memory 1 --quiet: exit %d:\n%s\nstderr: %s", code, stdout, stderr)
	}
	noClaims := writeProg(t, "x = 1")
	if code, stdout, _ := runText("verify", noClaims); code != exitSafe || !strings.Contains(stdout, "no claim") {
		t.Errorf("no claims: exit %d: %s", code, stdout)
	}
}

// TestVerifyHTMLInChromium renders the HTML report in headless Chromium and checks what the
// browser shows: the rendered DOM (after the page's script ran) has each claim with its status,
// the source lines highlighted, coverage marks and the totals the script computed.
func TestVerifyHTMLInChromium(t *testing.T) {
	chromium, err := exec.LookPath("chromium")
	if err != nil {
		if _, e := os.Stat("/usr/bin/chromium"); e == nil {
			chromium = "/usr/bin/chromium"
		} else if os.Getenv("CI") == "true" {
			t.Fatal("chromium is not installed (scripts/install-deps.sh browser installs it)")
		} else {
			t.Skip("chromium is not installed")
		}
	}
	dir := t.TempDir()
	report := filepath.Join(dir, "report.html")
	src := "../../testdata/verify/loop_verified_maybe.imp"
	exp, err := readVerifyExpectation(src)
	if err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	if code := run(append([]string{"verify", src, "--html", report}, exp.Options...), &stdout, &stderr); code != exitUnknown {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	other := filepath.Join(dir, "refuted.html")
	if code := run([]string{"verify", "../../testdata/verify/div_faulty.imp", "--html", other}, &stdout, &stderr); code != exitBug {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	render := func(file string) string {
		ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
		defer cancel()
		cmd := exec.CommandContext(ctx, chromium, "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
			"--disable-component-update", "--disable-sync", "--no-first-run", "--user-data-dir="+filepath.Join(dir, "profile"),
			"--virtual-time-budget=2000", "--dump-dom", "file://"+file)
		var out, errb bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errb
		if err := cmd.Run(); err != nil {
			t.Fatalf("chromium: %v\n%s", err, errb.String())
		}
		return out.String()
	}
	dom := render(report)
	for _, want := range []string{
		`id="L13" class="line covered claim-line st-verified-maybe" data-line="13" data-status="VERIFIED?"`,
		`id="L8" class="line covered claim-line st-verified" data-line="8" data-status="VERIFIED"`,
		`class="claim st-verified-maybe" data-line="13" data-kind="assert" data-status="VERIFIED?"`,
		"control-flow path: lines 10 -&gt; 13",
		"Rendered totals: 2 claims (VERIFIED: 1, VERIFIED?: 1), 2 primitive claims, 6 paths; lines covered 5, not covered 0.",
		`<tr id="path-1" class="path" data-path="1"><td>1</td><td><code class="pre">n=3, i=0</code></td><td>normal</td><td><code class="post">n=3, i=3</code></td>`,
		`id="overall" class="st-verified-maybe">VERIFIED?</strong>`,
	} {
		if !strings.Contains(dom, want) {
			t.Errorf("rendered DOM lacks %q:\n%s", want, dom)
		}
	}
	dom = render(other)
	for _, want := range []string{
		`data-line="9" data-kind="assert" data-status="FAULTY" data-token="F" data-letters="U"`,
		`<tr class="prim st-refuted" data-claim="1" data-name="DIVISION@9" data-token="R" data-letters="F">`,
		`<tr class="prim st-verified" data-claim="1" data-name="ASSERT@9" data-token="V" data-letters="T">`,
		`class="line covered claim-line st-faulty"`,
		`<code class="cex">x=0</code>`,
		`<code class="pre">x=0</code></td><td>error (division-by-zero at line 9)</td><td><code class="post">x=0</code>`,
		"Rendered totals: 1 claims (FAULTY: 1), 2 primitive claims, 1 paths",
	} {
		if !strings.Contains(dom, want) {
			t.Errorf("rendered DOM lacks %q:\n%s", want, dom)
		}
	}
}

// TestExpectStatusesAreVerifys checks that the statuses the testdata annotations accept
// (internal/expect, which sits below verify in the import graph and so keeps its own list) are
// exactly verify's statuses, in verify's order.
func TestExpectStatusesAreVerifys(t *testing.T) {
	for i, name := range expect.Statuses {
		s, ok := verify.ParseStatus(name)
		if !ok || int(s) != i {
			t.Errorf("expect.Statuses[%d] = %q, verify.ParseStatus gives %v, %v", i, name, s, ok)
		}
	}
	if last := verify.StatusIndeterminate; int(last) != len(expect.Statuses)-1 {
		t.Errorf("verify's last status %v is number %d; expect.Statuses has %d", last, last, len(expect.Statuses))
	}
}

// TestVerifyArrays runs the verify programs with arrays (testdata/verify/arr_*.imp) and
// checks the statuses annotated at their claims' lines (index claims among them) and the overall
// status.
func TestVerifyArrays(t *testing.T) { checkVerifyPrograms(t, "arr_*.imp") }

// TestVerifyInvariants runs the verify programs with loop invariants (testdata/verify/inv_*.imp)
// and checks the statuses annotated at their clauses' lines (invariant claims) and the overall
// status.
func TestVerifyInvariants(t *testing.T) { checkVerifyPrograms(t, "inv_*.imp") }

// TestVerifyInvariantMode runs the programs of verify --loops invariant
// (testdata/verify/invmode_*.imp) and checks the statuses annotated in them, the evidence each
// status needs in this mode (a REFUTED claim's counterexample fails at the claim's line on the
// concrete semantics from the program's start; a REFUTED? claim names a loop run by its
// invariant; a VERIFIED claim has no cutoff), and that the summing loop's assert is only
// VERIFIED? when its loop is unrolled.
func TestVerifyInvariantMode(t *testing.T) {
	checkVerifyPrograms(t, "invmode_*.imp")
	files, _ := filepath.Glob("../../testdata/verify/invmode_*.imp")
	seen := map[string]bool{}
	for _, file := range files {
		exp, err := readVerifyExpectation(file)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Contains(exp.Options, "invariant") {
			t.Errorf("%s: a program of the invariant mode without --loops invariant in its options", file)
		}
		out, _, _, _ := runVerifyJSON(t, append([]string{file, "--quiet"}, exp.Options...)...)
		prog, err := parser.ParseFile(file)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range out.Claims {
			seen[c.Status] = true
			switch c.Status {
			case "REFUTED":
				raw, _ := json.Marshal(c.Counterexample)
				in, _, err := inputs.FromJSON(raw, prog)
				if err != nil {
					t.Fatalf("%s:%d: counterexample %s: %v", file, c.Line, raw, err)
				}
				if r := spec.ExecBounded(prog, in, 1000); r.Behaviour != spec.Error || r.Fail.Line() != c.Line {
					t.Errorf("%s:%d: REFUTED, but its counterexample %s ends %s", file, c.Line, raw, r.Behaviour)
				}
			case "REFUTED?":
				if len(c.Counterexample) == 0 || len(c.OverLoops) == 0 {
					t.Errorf("%s:%d: REFUTED? without a counterexample and the loop run by its invariant: %+v", file, c.Line, c)
				}
			case "VERIFIED":
				if len(c.Cutoffs) > 0 {
					t.Errorf("%s:%d: VERIFIED with cutoffs %+v", file, c.Line, c.Cutoffs)
				}
			}
		}
	}
	for _, st := range []string{"VERIFIED", "REFUTED", "REFUTED?"} {
		if !seen[st] {
			t.Errorf("no claim of the invariant mode's programs is %s", st)
		}
	}
	// Unrolled, the loop over an input up to 1000 is cut off by the loop bound: the assert after it
	// can only be VERIFIED?.
	out, _, _, _ := runVerifyJSON(t, "../../testdata/verify/invmode_sum.imp", "--quiet")
	last := out.Claims[len(out.Claims)-1]
	if last.Kind != "assert" || last.Status != "VERIFIED?" || len(last.Cutoffs) == 0 {
		t.Errorf("invmode_sum.imp unrolled: the assert is %s %s with cutoffs %+v, want VERIFIED? with a cutoff", last.Kind, last.Status, last.Cutoffs)
	}
	// A mode that is neither: a usage error.
	var stdout, stderr bytes.Buffer
	if code := run([]string{"verify", "--loops", "widen", "../../testdata/verify/invmode_sum.imp"}, &stdout, &stderr); code != exitUsage ||
		!strings.Contains(stderr.String(), "want unroll or invariant") {
		t.Errorf("verify --loops widen: exit %d, stderr %q; want %d and the modes named", code, stderr.String(), exitUsage)
	}
}

// checkVerifyPrograms runs the programs of testdata/verify matching pattern and checks the claims
// and primitive claims annotated in them and their overall status.
func checkVerifyPrograms(t *testing.T, pattern string) {
	files, _ := filepath.Glob("../../testdata/verify/" + pattern)
	if len(files) == 0 {
		t.Fatalf("no verify program %s", pattern)
	}
	for _, file := range files {
		exp, err := readVerifyExpectation(file)
		if err != nil {
			t.Fatal(err)
		}
		out, code, _, stderr := runVerifyJSON(t, append([]string{file}, exp.Options...)...)
		var got []expect.Claim
		for _, c := range out.Claims {
			got = append(got, expect.Claim{Line: c.Line, Kind: c.Kind, Status: c.Status})
		}
		if msg := claimMismatch(file, exp.Claims, got); msg != "" {
			t.Error(msg)
		} else if msg := primMismatch(file, exp, out); msg != "" {
			t.Error(msg)
		}
		if out.Overall != exp.Overall || code != wantExit(exp.Overall) {
			t.Errorf("%s: overall %s (exit %d), want %s; stderr %s", file, out.Overall, code, exp.Overall, stderr)
		}
	}
}

// TestVerifyReportsAgree checks that the three outputs of certsym verify say the same (they are
// rendered from one model, verifyhtml.Doc): for every program of testdata/verify, each claim's
// status and each primitive claim's row (type, status token, collected letters, explication) of
// the JSON output are in the text report and in the HTML page, and so are the summary by kind
// and each path's test (input, end, final store).
func TestVerifyReportsAgree(t *testing.T) {
	files, _ := filepath.Glob("../../testdata/verify/*.imp")
	for _, file := range files {
		exp, err := readVerifyExpectation(file)
		if err != nil {
			t.Fatal(err)
		}
		html := filepath.Join(t.TempDir(), "r.html")
		var js, txt, errb bytes.Buffer
		// One run gives the JSON and the HTML; the text is rendered from the JSON's model by the
		// renderer the command uses. (Two verify runs in one process can pick different Z3 models
		// for the same query, fig1b's FALSE? counterexample, though separate processes agree.)
		run(append([]string{"verify", "--json", "--quiet", "--html", html, file}, exp.Options...), &js, &errb)
		page, err := os.ReadFile(html)
		if err != nil {
			t.Fatal(err)
		}
		var d verifyhtml.Doc
		if err := json.Unmarshal(js.Bytes(), &d); err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		if d.Version != verifyhtml.Version || len(d.Claims) == 0 {
			t.Fatalf("%s: version %d, %d claims", file, d.Version, len(d.Claims))
		}
		verifyhtml.WriteText(&txt, file, d, true)
		text, h := txt.String(), string(page)
		has := func(where, s, what string) {
			if !strings.Contains(s, what) {
				t.Errorf("%s: the %s report lacks %q", file, where, what)
			}
		}
		esc := htmlpkg.EscapeString
		for i, c := range d.Claims {
			has("text", text, fmt.Sprintf("Claim %d, %s:%d:%d, ", i+1, file, c.Line, c.Column))
			has("text", text, fmt.Sprintf("  Overall Status: %s (collected %s; %s)\n", c.Token, c.Letters, c.Explication))
			has("HTML", h, fmt.Sprintf(`data-line="%d" data-kind="%s" data-status="%s" data-token="%s" data-letters="%s"`, c.Line, c.Kind, c.Status, esc(c.Token), c.Letters))
			for _, p := range c.Primitives {
				has("text", text, fmt.Sprintf("  %-20s %-3s %-8s %s\n", p.Name, p.Token, p.Letters, p.Explication))
				has("HTML", h, fmt.Sprintf(`data-claim="%d" data-name="%s" data-token="%s" data-letters="%s"><td>%s</td><td><code>%s</code></td><td>%s</td><td>%s</td><td>%s</td>`,
					i+1, p.Name, esc(p.Token), p.Letters, p.Name, esc(p.Claim), esc(p.Token), p.Letters, esc(p.Explication)))
				for _, e := range p.Evidence {
					if e.Result != "CUTOFF" {
						has("text", text, fmt.Sprintf("  %s %s: %s\n", p.Name, e.Result, verifyhtml.PrimEvidenceText(e)))
						has("HTML", h, esc(e.Result+": "+verifyhtml.PrimEvidenceText(e)))
					}
				}
			}
		}
		for _, row := range d.Summary {
			line := fmt.Sprintf("%-10s %5d", strings.ToUpper(row.Kind[:1])+row.Kind[1:], row.Total)
			cells := fmt.Sprintf(`<tr class="kind" data-kind="%s"><td>%s</td><td>%d</td>`, row.Kind, row.Kind, row.Total)
			for _, r := range verify.StatusTable {
				line += fmt.Sprintf(" %4d", row.Statuses[r.Status.String()])
				cells += fmt.Sprintf("<td>%d</td>", row.Statuses[r.Status.String()])
			}
			has("text", text, line+"\n")
			has("HTML", h, cells+"</tr>")
		}
		for _, p := range d.Paths {
			if p.InputText == "" {
				continue
			}
			cut := ""
			if bound, _, _ := strings.Cut(p.CutReason, ":"); p.CutAt == p.Line {
				cut = "; cut off there by the " + bound
			} else if p.CutAt > 0 {
				cut = fmt.Sprintf("; cut off at line %d by the %s", p.CutAt, bound)
			}
			has("text", text, fmt.Sprintf("  Path %d (first at line %d%s): input %s; ends %s; final %s\n", p.ID, p.Line, cut, p.InputText, p.Ends, p.FinalText))
			has("HTML", h, fmt.Sprintf(`<td><code class="pre">%s</code></td><td>%s</td><td><code class="post">%s</code></td>`, esc(p.InputText), esc(p.Ends), esc(p.FinalText)))
		}
		has("text", text, "overall status: "+d.Overall+"\n")
		has("HTML", h, fmt.Sprintf(`<strong id="overall" class="st-%s">%s</strong>`, strings.ToLower(strings.ReplaceAll(d.Overall, "?", "-maybe")), esc(d.Overall)))
	}
}
