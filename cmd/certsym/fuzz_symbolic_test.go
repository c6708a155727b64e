package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// symbolicSeeds adds the seed programs (every testdata program when fuzzing, a sample in a plain go test: seedEvery)
// and programs at the bounds: a loop that never ends, a squaring, a quantifier over a symbolic range,
// a nonlinear query.
func symbolicSeeds(f *testing.F) {
	for i, src := range seedSources(f) {
		if seedEvery(i) {
			f.Add(src, uint8(i))
		}
	}
	f.Add([]byte("x = 3;\nwhile true do x = x * x od"), uint8(0))
	f.Add([]byte("while x != 0 do x = x - 1 od;\nassert y / x > 0"), uint8(1))
	f.Add([]byte("assume n > 0;\nassume n < 3;\nassert forall k in 0..n * 1000: k * k >= 0"), uint8(2))
	f.Add([]byte(fermatSrc), uint8(3))
	f.Add([]byte("array a[0..3];\na[i] = a[i + 1] / x; assert forall k in 0..3: a[k] >= 0"), uint8(4))
}

// writeSrc writes a fuzz input to a program file in a fresh directory and returns both.
func writeSrc(t *testing.T, src []byte) (dir, file string) {
	dir = t.TempDir()
	file = filepath.Join(dir, "p.imp")
	if err := os.WriteFile(file, src, 0o644); err != nil {
		t.Fatal(err)
	}
	return dir, file
}

// runReport is what the fuzz targets read of run --json.
type runReport struct {
	Verdict string `json:"verdict"`
	Bugs    []struct {
		Line      int    `json:"line"`
		Column    int    `json:"column"`
		Kind      string `json:"kind"`
		Steps     int    `json:"steps"`
		Reproduce string `json:"reproduce"`
	} `json:"bugs"`
	Reason string   `json:"reason"`
	Cut    []string `json:"cut"`
}

// fuzzRunJSON runs certsym run --json with args (FILE among them) and returns its status and report;
// ok is false for a program that does not parse (exit 2, checked).
func fuzzRunJSON(t *testing.T, args []string) (code int, rep runReport, ok bool) {
	t.Helper()
	code, out, errs := cliWithin(t, append(append([]string{"run"}, args...), "--json", "--quiet"), nil)
	noInternalError(t, "run", code, errs)
	if code == exitUsage {
		if !strings.Contains(out, `"error": "syntax"`) {
			t.Fatalf("run %v: exit 2 without a syntax error: %s %s", args, out, errs)
		}
		return code, rep, false
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("run %v: exit %d, stdout is not one JSON object (%v): %q\nstderr: %s", args, code, err, out, errs)
	}
	want := map[string]int{"bug": exitBug, "safe": exitSafe, "unknown": exitUnknown}[rep.Verdict]
	if rep.Verdict == "safe" && len(rep.Cut) > 0 {
		want = exitUnknown
	}
	if code != want || (rep.Verdict == "bug") != (len(rep.Bugs) > 0) {
		t.Fatalf("run %v: exit %d with verdict %q and %d bugs", args, code, rep.Verdict, len(rep.Bugs))
	}
	return code, rep, true
}

// FuzzReplay feeds arbitrary text to certsym run with --all-bugs and --tests (60 states, 100 ms
// per query, 1 s, 512 MiB), then replays what it reported: each bug's reproduce line, run as it
// is printed, reaches an error of the bug's kind at the bug's position after the bug's steps
// (a bug of run is one the concrete semantics confirms); and certsym replay on the test cases
// written (2000 steps each) prints one JSON object, finds none that differs (they were recorded
// by the same program) and exits 0, or 3 when a bound stopped some; the directory holds only
// the test cases, no temporary file left.
//
// go test -run '^$' -fuzz '^FuzzReplay$' -parallel 1 ./cmd/certsym explores further (make fuzz).
func FuzzReplay(f *testing.F) {
	symbolicSeeds(f)
	f.Fuzz(func(t *testing.T, src []byte, _ uint8) {
		dir, file := writeSrc(t, src)
		tests := filepath.Join(dir, "tests")
		_, rep, ok := fuzzRunJSON(t, append([]string{file, "--all-bugs", "--tests", tests}, symBudget...))
		if !ok {
			return
		}
		for _, b := range rep.Bugs {
			r := reproduce(t, b.Reproduce, nil, "--timeout", "5s")
			if r.Outcome != "bug" || r.Kind != b.Kind || r.Line != b.Line || r.Col != b.Column || r.Steps != b.Steps {
				t.Fatalf("%s: %s %s at %d:%d after %d steps; run reported %s at %d:%d after %d steps",
					b.Reproduce, r.Outcome, r.Kind, r.Line, r.Col, r.Steps, b.Kind, b.Line, b.Column, b.Steps)
			}
		}
		entries, err := os.ReadDir(tests)
		if os.IsNotExist(err) {
			return // no terminal path explored within the budget
		}
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, e := range entries {
			if strings.HasPrefix(e.Name(), ".") || !strings.HasSuffix(e.Name(), ".json") {
				t.Fatalf("run --tests left %s in its directory", e.Name())
			}
			n++
		}
		if n == 0 {
			return
		}
		code, out, errs := cliWithin(t, append([]string{"replay", tests, "--json", "--max-steps", strconv.Itoa(fuzzSteps)}, concreteBudget...), nil)
		noInternalError(t, "replay", code, errs)
		var rr struct {
			Replayed int    `json:"replayed"`
			Differ   int    `json:"differ"`
			Stopped  int    `json:"stopped"`
			Cut      string `json:"cut"`
			Results  []struct {
				File   string `json:"file"`
				Status string `json:"status"`
			} `json:"results"`
		}
		if err := json.Unmarshal([]byte(out), &rr); err != nil {
			t.Fatalf("replay: exit %d, stdout is not one JSON object (%v): %q\nstderr: %s", code, err, out, errs)
		}
		stopped := 0
		for _, r := range rr.Results {
			switch r.Status {
			case "ok":
			case "stopped":
				stopped++
			default:
				t.Fatalf("replay: %s %s: a test case run --tests just wrote does not replay\n%s", r.File, r.Status, out)
			}
		}
		want := exitSafe
		if stopped > 0 || rr.Cut != "" {
			want = exitUnknown
		}
		if code != want || rr.Differ != 0 || rr.Stopped != stopped || rr.Replayed != len(rr.Results) || (rr.Cut == "" && rr.Replayed != n) {
			t.Fatalf("replay of %d test cases: exit %d, replayed %d, differ %d, stopped %d (%d counted), cut %q", n, code, rr.Replayed, rr.Differ, rr.Stopped, stopped, rr.Cut)
		}
	})
}

// verifyReport is what the fuzz targets read of verify --json.
type verifyReport struct {
	Overall string   `json:"overall"`
	Reason  string   `json:"reason"`
	Cut     []string `json:"cut"`
	Claims  []struct {
		Line      int    `json:"line"`
		Column    int    `json:"column"`
		Kind      string `json:"kind"`
		Status    string `json:"status"`
		Reproduce string `json:"reproduce"`
	} `json:"claims"`
	ReplayErrors []string `json:"replay_errors"`
}

// FuzzVerify feeds arbitrary text to certsym verify, with a loop bound of 1 to 3 drawn by the
// fuzzer, 60 branch states, 100 ms per query, 1 s, 512 MiB, --html and --sarif. The report is one
// JSON object and the exit status the one of its overall status (0 VERIFIED or DEAD, 1 REFUTED
// or FAULTY, 3 otherwise or when interrupted or cut short); the SARIF log is JSON of version
// 2.1.0 and the HTML report whole, or neither is there when the run was cut short before them;
// the reproduce line of each REFUTED or FAULTY claim reaches an error on its line; and when
// verify proves the program (exit 0), run finds no bug in it.
//
// go test -run '^$' -fuzz '^FuzzVerify$' -parallel 1 ./cmd/certsym explores further (make fuzz).
func FuzzVerify(f *testing.F) {
	symbolicSeeds(f)
	f.Fuzz(func(t *testing.T, src []byte, lb uint8) {
		dir, file := writeSrc(t, src)
		html, sarifLog := filepath.Join(dir, "r.html"), filepath.Join(dir, "r.sarif")
		args := append([]string{"verify", file, "--json", "--quiet", "--loop-bound", strconv.Itoa(1 + int(lb%3)),
			"--html", html, "--sarif", sarifLog}, symBudget...)
		code, out, errs := cliWithin(t, args, nil)
		noInternalError(t, "verify", code, errs)
		if code == exitUsage {
			if !strings.Contains(out, `"error": "syntax"`) {
				t.Fatalf("verify: exit 2 without a syntax error: %s %s", out, errs)
			}
			return
		}
		var v verifyReport
		if err := json.Unmarshal([]byte(out), &v); err != nil {
			t.Fatalf("verify: exit %d, stdout is not one JSON object (%v): %q\nstderr: %s", code, err, out, errs)
		}
		want := exitUnknown
		switch v.Overall {
		case "VERIFIED", "DEAD":
			want = exitSafe
		case "REFUTED", "FAULTY":
			want = exitBug
		}
		if v.Reason == "interrupted" || len(v.Cut) > 0 {
			want = exitUnknown
		}
		if code != want || len(v.ReplayErrors) > 0 {
			t.Fatalf("verify: exit %d with overall %s, reason %q, cut %q, replay errors %q", code, v.Overall, v.Reason, v.Cut, v.ReplayErrors)
		}
		checkArtifact(t, sarifLog, func(b []byte) bool {
			var s struct {
				Version string `json:"version"`
			}
			return json.Unmarshal(b, &s) == nil && s.Version == "2.1.0"
		})
		checkArtifact(t, html, func(b []byte) bool { return strings.HasSuffix(strings.TrimSpace(string(b)), "</html>") })
		for _, c := range v.Claims {
			if c.Status != "REFUTED" && c.Status != "FAULTY" {
				continue
			}
			r := reproduce(t, c.Reproduce, nil, "--timeout", "5s")
			if r.Outcome != "bug" || r.Line != c.Line {
				t.Fatalf("%s: %s at line %d; verify's claim %s at line %d is %s", c.Reproduce, r.Outcome, r.Line, c.Kind, c.Line, c.Status)
			}
		}
		if code == exitSafe {
			if rc, rep, _ := fuzzRunJSON(t, append([]string{file}, symBudget...)); rc == exitBug {
				t.Fatalf("verify proves every claim, run finds a bug: %s at %d:%d (%s)", rep.Bugs[0].Kind, rep.Bugs[0].Line, rep.Bugs[0].Column, rep.Bugs[0].Reproduce)
			}
		}
		if entries, _ := os.ReadDir(dir); len(entries) > 3 {
			var names []string
			for _, e := range entries {
				names = append(names, e.Name())
			}
			t.Fatalf("verify left files besides its reports: %v", names)
		}
	})
}

// checkArtifact checks an output file when it is there: whole (ok says so of its bytes).
func checkArtifact(t *testing.T, path string, ok func([]byte) bool) {
	t.Helper()
	b, err := os.ReadFile(path)
	if os.IsNotExist(err) {
		return
	}
	if err != nil || !ok(b) {
		t.Fatalf("%s: not a whole file (%v): %.200q", path, err, b)
	}
}
