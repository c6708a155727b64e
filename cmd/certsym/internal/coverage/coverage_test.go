package coverage_test

import (
	"bufio"
	"bytes"
	"certsym/cmd/certsym/internal/coverage"
	"certsym/cmd/certsym/internal/record"
	"certsym/engine"
	"certsym/internal/testprog"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// A program with a statement no path executes and a branch direction no path takes.
const partlyCovered = `if x > 0 then
  if x < 0 then
    y = 1
  fi;
  y = 2
fi;
assert y != 3
`

// TestCoverage computes the coverage of a run of the bug finder, as run --coverage --lcov does
// (the recorder observing the engine), and checks its text, its JSON object and its lcov
// tracefile.
func TestCoverage(t *testing.T) {
	prog := testprog.Parse(t, partlyCovered)
	rec := record.New(prog, false, false, 1)
	if _, err := engine.New(prog, engine.Options{Observer: rec}).FindBugs(nil); err != nil {
		t.Fatal(err)
	}
	rec.Finish()
	cv := rec.Coverage()
	var text bytes.Buffer
	cv.WriteText(&text)
	// Statements: if (1), if (2), y = 1 (3), y = 2 (5), assert (7): y = 1 is never executed.
	// Branches: then/else of each if and holds/violated of the assert: the inner if's then never.
	want := "coverage of the explored paths: statements 4/5 (80.0%), branches 5/6 (83.3%)\n" +
		"  not taken:    then branch of the if at 2:3\n" +
		"  not executed: assign at 3:5\n"
	if text.String() != want {
		t.Errorf("text:\n%s\nwant\n%s", text.String(), want)
	}
	c := cv.JSON()
	if c.Statements != 5 || c.StatementsCovered != 4 || c.Branches != 6 || c.BranchesCovered != 5 || len(c.Uncovered) != 2 {
		t.Errorf("JSON coverage %+v", c)
	}
	dir := t.TempDir()
	src, lcov := filepath.Join(dir, "p.imp"), filepath.Join(dir, "cov.info")
	var b bytes.Buffer
	if err := cv.WriteLCOV(&b, src); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(src, []byte(partlyCovered), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(lcov, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	checkLCOV(t, lcov, src, map[int]bool{1: true, 2: true, 3: false, 5: true, 7: true}, 6, 5)
}

// checkLCOV parses an lcov tracefile record by record and checks it against the expected line
// coverage and branch counts; with lcov installed, lcov itself must read it and agree.
func checkLCOV(t *testing.T, path, src string, lines map[int]bool, brf, brh int) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	abs, _ := filepath.Abs(src)
	da := map[int]int{}
	branches, hitBranches := 0, 0
	fields := map[string]string{}
	sc := bufio.NewScanner(bytes.NewReader(b))
	ended := false
	for sc.Scan() {
		l := sc.Text()
		if l == "end_of_record" {
			ended = true
			continue
		}
		key, val, ok := strings.Cut(l, ":")
		if !ok || ended {
			t.Fatalf("lcov line %q: not a record, or after end_of_record", l)
		}
		switch key {
		case "TN", "SF", "BRF", "BRH", "LF", "LH":
			fields[key] = val
		case "DA":
			p := strings.Split(val, ",")
			n, e1 := strconv.Atoi(p[0])
			h, e2 := strconv.Atoi(p[1])
			if len(p) != 2 || e1 != nil || e2 != nil {
				t.Fatalf("bad DA %q", l)
			}
			da[n] = h
		case "BRDA":
			p := strings.Split(val, ",")
			if len(p) != 4 {
				t.Fatalf("bad BRDA %q", l)
			}
			branches++
			if p[3] != "-" && p[3] != "0" {
				hitBranches++
			}
		default:
			t.Fatalf("unknown lcov record %q", l)
		}
	}
	if !ended || fields["SF"] != abs {
		t.Errorf("lcov: ended %v, SF %q want %q", ended, fields["SF"], abs)
	}
	if len(da) != len(lines) {
		t.Errorf("lcov DA lines %v, want %v", da, lines)
	}
	lh := 0
	for l, hit := range lines {
		if (da[l] > 0) != hit {
			t.Errorf("lcov line %d: %d hits, want covered %v", l, da[l], hit)
		}
		if hit {
			lh++
		}
	}
	if branches != brf || hitBranches != brh || fields["BRF"] != strconv.Itoa(brf) || fields["BRH"] != strconv.Itoa(brh) ||
		fields["LF"] != strconv.Itoa(len(lines)) || fields["LH"] != strconv.Itoa(lh) {
		t.Errorf("lcov summary %v, %d/%d branches; want %d/%d", fields, hitBranches, branches, brh, brf)
	}
	lcovTool := testprog.NeedTool(t, "lcov", "lcov")
	out, err := exec.Command(lcovTool, "--summary", path, "--rc", "lcov_branch_coverage=1").CombinedOutput()
	if err != nil {
		t.Fatalf("lcov --summary: %v\n%s", err, out)
	}
	wantLines := regexp.MustCompile(`lines\.*: [0-9.]+% \(` + strconv.Itoa(lh) + ` of ` + strconv.Itoa(len(lines)) + ` lines\)`)
	wantBranches := regexp.MustCompile(`branches\.*: [0-9.]+% \(` + strconv.Itoa(brh) + ` of ` + strconv.Itoa(brf) + ` branches\)`)
	if !wantLines.Match(out) || !wantBranches.Match(out) {
		t.Errorf("lcov --summary does not read the expected counts:\n%s", out)
	}
	// genhtml (of the lcov package) renders it, the source lines included.
	html := t.TempDir()
	if out, err := exec.Command(filepath.Join(filepath.Dir(lcovTool), "genhtml"), "--branch-coverage", "-q", "-o", html, path).CombinedOutput(); err != nil {
		t.Fatalf("genhtml: %v\n%s", err, out)
	}
	page, err := os.ReadFile(filepath.Join(html, filepath.Base(filepath.Dir(abs)), filepath.Base(abs)+".gcov.html"))
	if err != nil || !bytes.Contains(page, []byte("lineNoCov")) || !bytes.Contains(page, []byte("lineCov")) {
		t.Errorf("genhtml's source page lacks covered and uncovered lines (%v)", err)
	}
}

// An element assignment is a statement of its own: the coverage counts it and the lcov tracefile
// gives its line.
const elementAssign = `array a[0..2];
assume i >= 0 and i <= 2;
a[i] = 5;
x = a[0]
`

// TestCoverageElementAssign: the statements of a program with an element assignment are the
// assume, the element assignment and the assignment, each executed once, each line in the
// tracefile.
func TestCoverageElementAssign(t *testing.T) {
	prog := testprog.Parse(t, elementAssign)
	rec := record.New(prog, false, false, 1)
	if _, err := engine.New(prog, engine.Options{Observer: rec}).FindBugs(nil); err != nil {
		t.Fatal(err)
	}
	rec.Finish()
	cv := rec.Coverage()
	var text bytes.Buffer
	cv.WriteText(&text)
	want := "coverage of the explored paths: statements 3/3 (100.0%), branches 0/0 (100.0%)\n"
	if text.String() != want {
		t.Errorf("text:\n%s\nwant\n%s", text.String(), want)
	}
	var b bytes.Buffer
	if err := cv.WriteLCOV(&b, "p.imp"); err != nil {
		t.Fatal(err)
	}
	var records []string
	for _, l := range strings.Split(b.String(), "\n") {
		if strings.HasPrefix(l, "DA:") || strings.HasPrefix(l, "LF:") || strings.HasPrefix(l, "LH:") {
			records = append(records, l)
		}
	}
	if got, want := strings.Join(records, " "), "DA:2,1 DA:3,1 DA:4,1 LF:3 LH:3"; got != want {
		t.Errorf("line records of the tracefile %q, want %q:\n%s", got, want, b.String())
	}
}

// TestCoverageElementAssignNotExecuted: an element assignment no path reaches is reported as not
// executed, under its own name, and its line is an uncovered line of the tracefile.
func TestCoverageElementAssignNotExecuted(t *testing.T) {
	const src = "array a[0..2];\nassume x > 0;\nif x < 0 then\n  a[1] = x\nfi\n"
	prog := testprog.Parse(t, src)
	rec := record.New(prog, false, false, 1)
	if _, err := engine.New(prog, engine.Options{Observer: rec}).FindBugs(nil); err != nil {
		t.Fatal(err)
	}
	rec.Finish()
	cv := rec.Coverage()
	c := cv.JSON()
	want := []coverage.Uncovered{{Line: 3, Col: 1, Statement: "if", Branch: "then"}, {Line: 4, Col: 3, Statement: "element assignment"}}
	if c.Statements != 3 || c.StatementsCovered != 2 || !reflect.DeepEqual(c.Uncovered, want) {
		t.Errorf("JSON coverage %+v, want 2 of 3 statements, uncovered %+v", c, want)
	}
	dir := t.TempDir()
	file, lcov := filepath.Join(dir, "p.imp"), filepath.Join(dir, "cov.info")
	var b bytes.Buffer
	if err := cv.WriteLCOV(&b, file); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(file, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(lcov, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	checkLCOV(t, lcov, file, map[int]bool{2: true, 3: true, 4: false}, 2, 1)
}

// TestCoverageInvariant: a loop's invariant clause is a statement of its own with the two
// directions of an assert, holds and violated; the loop's test is executed at every arrival at its
// head that gets past the clause (by the loop that runs, While.Loop). The counts are of symbolic
// states: with n in 0..2 the head is reached by 3 states (before 0, 1 and 2 iterations).
func TestCoverageInvariant(t *testing.T) {
	const src = "assume n >= 0 and n <= 2;\ni = 0;\nwhile i < n\n  invariant i <= n\ndo\n  i = i + 1\nod\n"
	prog := testprog.Parse(t, src)
	rec := record.New(prog, false, false, 1)
	if _, err := engine.New(prog, engine.Options{Observer: rec}).FindBugs(nil); err != nil {
		t.Fatal(err)
	}
	rec.Finish()
	cv := rec.Coverage()
	var text bytes.Buffer
	cv.WriteText(&text)
	want := "coverage of the explored paths: statements 5/5 (100.0%), branches 3/4 (75.0%)\n" +
		"  not taken:    violated branch of the invariant at 4:3\n"
	if text.String() != want {
		t.Errorf("text:\n%s\nwant\n%s", text.String(), want)
	}
	var b bytes.Buffer
	if err := cv.WriteLCOV(&b, "p.imp"); err != nil {
		t.Fatal(err)
	}
	for _, rec := range []string{"DA:3,3\n", "DA:4,3\n", "DA:6,2\n", "BRDA:4,3,0,3\n", "BRDA:4,3,1,0\n"} {
		if !strings.Contains(b.String(), rec) {
			t.Errorf("the tracefile lacks %q:\n%s", rec, b.String())
		}
	}
}
