package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// needTool returns the path of an external program the test needs. make check installs it
// (scripts/install-deps.sh); a plain go test without it skips, except under CI.
func needTool(t *testing.T, name, group string) string {
	t.Helper()
	p, err := exec.LookPath(name)
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("%s is not installed (scripts/install-deps.sh %s installs it)", name, group)
		}
		t.Skipf("%s is not installed (scripts/install-deps.sh %s installs it)", name, group)
	}
	return p
}

// A program with each kind of terminal path: a bug (x == 1), an infeasible path (x >= 2 reaches
// an assume that is false on it), and normal ends (x <= 0).
const threeEnds = `if x == 1 then
  assert y > 0
fi;
if x >= 2 then
  assume x < 0
fi;
y = 7
`

func TestTestsAndReplay(t *testing.T) {
	f := writeProg(t, threeEnds)
	dir := filepath.Join(t.TempDir(), "tests")
	code, stdout, stderr := runText("run", f, "--all-bugs", "--quiet", "--tests", dir)
	if code != exitBug {
		t.Fatalf("run: exit %d\n%s%s", code, stdout, stderr)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*.json"))
	// Terminal paths: x == 1 with y > 0 (normal) and y <= 0 (bug); x >= 2 (infeasible);
	// x <= 0 (normal). Each is one test case.
	var got []string
	for _, p := range files {
		tc, in, err := readTest(p)
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, tc.Expected.String())
		if len(in) != 2 || tc.Program != f || tc.PathCondition == "" {
			t.Errorf("%s: input %v, program %q, path condition %q", p, in, tc.Program, tc.PathCondition)
		}
	}
	sort.Strings(got)
	want := []string{"bug (assert at 2:3) after 2 steps", "infeasible (the assume at 5:3 is false) after 3 steps",
		"normal after 5 steps", "normal after 6 steps"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("test cases:\n  %s\nwant\n  %s", strings.Join(got, "\n  "), strings.Join(want, "\n  "))
	}
	if !strings.Contains(stderr, "wrote 4 test cases") {
		t.Errorf("stderr %q does not say how many test cases were written", stderr)
	}
	// Replay: all behave as recorded.
	code, out, errs := runText("replay", dir)
	if code != exitSafe || !strings.Contains(out, "4 tests replayed, 4 behave as recorded, 0 differ") {
		t.Errorf("replay: exit %d\n%s%s", code, out, errs)
	}
	// A second run writes the same files (determinism, no duplicates).
	before := map[string]string{}
	for _, p := range files {
		b, _ := os.ReadFile(p)
		before[p] = string(b)
	}
	runText("run", f, "--all-bugs", "--quiet", "--tests", dir)
	after, _ := filepath.Glob(filepath.Join(dir, "*.json"))
	if len(after) != len(files) {
		t.Errorf("second run: %d files, first %d", len(after), len(files))
	}
	for _, p := range after {
		if b, _ := os.ReadFile(p); string(b) != before[p] {
			t.Errorf("%s differs between two runs", p)
		}
	}
	// Change the program: the assert now accepts y == 0, so the bug's input (y <= 0, here 0)
	// ends normally; replay says which test differs, and exits 1.
	if err := os.WriteFile(f, []byte(strings.Replace(threeEnds, "y > 0", "y >= 0", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, _ = runText("replay", dir)
	if code != exitBug || !strings.Contains(out, "DIFFERS") || !strings.Contains(out, "recorded bug (assert at 2:3) after 2 steps, now normal after 6 steps") ||
		!strings.Contains(out, "4 tests replayed, 3 behave as recorded, 1 differ") || !strings.Contains(out, "the program has changed") {
		t.Errorf("replay on the changed program: exit %d\n%s", code, out)
	}
	// Bad test files are usage errors.
	bad := filepath.Join(t.TempDir(), "bad.json")
	os.WriteFile(bad, []byte(`{"certsym_test": 1, "program": "p.imp", "expected": {"outcome": "weird"}}`), 0o644)
	if code, _, stderr := runText("replay", bad); code != exitUsage || !strings.Contains(stderr, "expected.outcome") {
		t.Errorf("replay of a bad file: exit %d, %q", code, stderr)
	}
}

// Every printed bug ends with a command that reproduces it; running that command reaches the
// same error.
func TestBugReproduceCommand(t *testing.T) {
	f := writeProg(t, "if x > 98765432109876543210 then\n  if y < -3 then\n    z = 1 / 0\n  fi\nfi\n")
	code, stdout, _ := runText("run", f, "--quiet")
	if code != exitBug {
		t.Fatalf("exit %d\n%s", code, stdout)
	}
	lines := strings.Split(strings.TrimSpace(strings.SplitN(stdout, "verdict:", 2)[0]), "\n")
	last := lines[len(lines)-1]
	m := regexp.MustCompile(`^  reproduce: +certsym (exec .*)$`).FindStringSubmatch(last)
	if m == nil {
		t.Fatalf("the bug's last line is %q, want the command that reproduces it", last)
	}
	args := strings.Fields(m[1]) // the test's paths and inputs need no quoting
	code, out, _ := runText(args...)
	if code != exitBug || !strings.Contains(out, "error: division by zero at "+f+":3:5 ") {
		t.Errorf("%s: exit %d\n%s", m[1], code, out)
	}
	// The JSON bug carries the same command.
	var stdoutJ bytes.Buffer
	run([]string{"run", f, "--quiet", "--json"}, &stdoutJ, &bytes.Buffer{})
	var j struct{ Bugs []struct{ Reproduce string } }
	if err := json.Unmarshal(stdoutJ.Bytes(), &j); err != nil || len(j.Bugs) != 1 || j.Bugs[0].Reproduce != "certsym "+m[1] {
		t.Errorf("JSON reproduce %+v (%v), want %q", j, err, "certsym "+m[1])
	}
}

// A program with a statement no path executes and a branch direction no path takes.
const partlyCovered = `if x > 0 then
  if x < 0 then
    y = 1
  fi;
  y = 2
fi;
assert y != 3
`

func TestCoverage(t *testing.T) {
	f := writeProg(t, partlyCovered)
	lcov := filepath.Join(t.TempDir(), "cov.info")
	code, stdout, stderr := runText("run", f, "--quiet", "--coverage", "--lcov", lcov)
	if code != exitBug {
		t.Fatalf("exit %d\n%s%s", code, stdout, stderr)
	}
	// Statements: if (1), if (2), y = 1 (3), y = 2 (5), assert (7): y = 1 is never executed.
	// Branches: then/else of each if and holds/violated of the assert: the inner if's then never.
	for _, want := range []string{
		"coverage of the explored paths: statements 4/5 (80.0%), branches 5/6 (83.3%)",
		"  not executed: assign at 3:5",
		"  not taken:    then branch of the if at 2:3",
	} {
		if !strings.Contains(stdout, want+"\n") {
			t.Errorf("text output lacks %q:\n%s", want, stdout)
		}
	}
	var j struct {
		Coverage jsonCoverage `json:"coverage"`
	}
	var out bytes.Buffer
	run([]string{"run", f, "--quiet", "--coverage", "--json"}, &out, &bytes.Buffer{})
	if err := json.Unmarshal(out.Bytes(), &j); err != nil {
		t.Fatal(err)
	}
	c := j.Coverage
	if c.Statements != 5 || c.StatementsCovered != 4 || c.Branches != 6 || c.BranchesCovered != 5 || len(c.Uncovered) != 2 {
		t.Errorf("JSON coverage %+v", c)
	}
	checkLCOV(t, lcov, f, map[int]bool{1: true, 2: true, 3: false, 5: true, 7: true}, 6, 5)
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
	lcovTool := needTool(t, "lcov", "lcov")
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

func TestDOTTree(t *testing.T) {
	dot := needTool(t, "dot", "graphviz")
	f := writeProg(t, "if x > 0 then\n  y = 1\nelse\n  y = 2\nfi;\nassert y > 1\n")
	dir := t.TempDir()
	full := filepath.Join(dir, "full.dot")
	if code, out, errs := runText("run", f, "--all-bugs", "--quiet", "--dot", full); code != exitBug {
		t.Fatalf("exit %d\n%s%s", code, out, errs)
	}
	// The tree: the if (1), its two arms (2), each arm's skip and assert (4), and under each
	// assert its two successors, one of them pruned (4): 11 states.
	nodes, edges := renderDOT(t, dot, full)
	if len(nodes) != 11 || edges != 10 {
		t.Errorf("rendered %d nodes and %d edges, want 11 and 10", len(nodes), edges)
	}
	b, _ := os.ReadFile(full)
	s := string(b)
	for kind, n := range map[string]int{"(error)": 1, "(pruned)": 2, "(finished)": 1} {
		if c := strings.Count(s, kind+`", fillcolor="`+nodeColor[strings.Trim(kind, "()")]+`"`); c != n {
			t.Errorf("%d %s nodes with their color, want %d:\n%s", c, kind, n, s)
		}
	}
	if !strings.Contains(s, `[label="x > 0\npath condition += x >= 1"]`) || !strings.Contains(s, `[label="not (y > 1)"]`) {
		t.Errorf("edges are not labelled with their branch conditions:\n%s", s)
	}
	// A node limit of 4: four states and the note saying how many were left out.
	small := filepath.Join(dir, "small.dot")
	runText("run", f, "--all-bugs", "--quiet", "--dot", small, "--dot-nodes", "4")
	nodes, _ = renderDOT(t, dot, small)
	if len(nodes) != 5 || nodes[4] != "omitted" {
		t.Errorf("with --dot-nodes 4: nodes %v, want 4 states and the note", nodes)
	}
	if b, _ := os.ReadFile(small); !strings.Contains(string(b), "node limit 4 reached: 7 more states not drawn") {
		t.Errorf("the note does not count the 7 states left out:\n%s", b)
	}
	// A condition whose printed form is exponential in its size ((x + 1) squared 14 times, the
	// squares shared) is not printed: the file stays small.
	squares := "y = x + 1;\n" + strings.Repeat("y = y * y;\n", 14) + "assume y != 3\n"
	big := filepath.Join(dir, "big.dot")
	runText("run", writeProg(t, squares), "--quiet", "--no-prune", "--dot", big)
	if b, _ := os.ReadFile(big); len(b) > 20_000 || !strings.Contains(string(b), "(a condition too large to print)") ||
		!strings.Contains(string(b), "(not printed: more than 5000 symbols and operators)") {
		t.Errorf("the tree of shared squares (%d bytes) does not decline to print them:\n%.2000s", len(b), b)
	}
	// A pending state: a run stopped by --max-states leaves states unexpanded.
	loop := writeProg(t, "while x > 0 do x = x - 1 od\n")
	pend := filepath.Join(dir, "pending.dot")
	runText("run", loop, "--quiet", "--max-states", "5", "--dot", pend)
	if b, _ := os.ReadFile(pend); !strings.Contains(string(b), "(pending)") {
		t.Errorf("no pending state in a run stopped by a bound:\n%s", b)
	}
}

// renderDOT lays the graph out with Graphviz and returns its node names and edge count, as dot
// read them (the plain output format).
func renderDOT(t *testing.T, dot, path string) ([]string, int) {
	t.Helper()
	out, err := exec.Command(dot, "-Tplain", path).CombinedOutput()
	if err != nil {
		t.Fatalf("dot: %v\n%s", err, out)
	}
	var nodes []string
	edges := 0
	for _, l := range strings.Split(string(out), "\n") {
		f := strings.Fields(l)
		if len(f) > 1 && f[0] == "node" {
			nodes = append(nodes, f[1])
		}
		if len(f) > 0 && f[0] == "edge" {
			edges++
		}
	}
	return nodes, edges
}

// sarifSchema compiles the SARIF 2.1.0 schema kept in testdata.
func sarifSchema(t *testing.T) *jsonschema.Schema {
	t.Helper()
	const path = "testdata/sarif/sarif-2.1.0-rtm.5.json"
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	doc, err := jsonschema.UnmarshalJSON(f)
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	if err := c.AddResource("sarif-2.1.0.json", doc); err != nil {
		t.Fatal(err)
	}
	sch, err := c.Compile("sarif-2.1.0.json")
	if err != nil {
		t.Fatal(err)
	}
	return sch
}

// validSARIF validates a SARIF file against the schema and returns it decoded.
func validSARIF(t *testing.T, sch *jsonschema.Schema, path string) map[string]any {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	if err := sch.Validate(inst); err != nil {
		t.Fatalf("%s is not valid SARIF 2.1.0: %v\n%s", path, err, b)
	}
	var m map[string]any
	json.Unmarshal(b, &m)
	return m
}

// sarifResults returns (ruleId, level, kind, line) of each result.
func sarifResults(log map[string]any) []string {
	var out []string
	run := log["runs"].([]any)[0].(map[string]any)
	for _, r := range run["results"].([]any) {
		r := r.(map[string]any)
		reg := r["locations"].([]any)[0].(map[string]any)["physicalLocation"].(map[string]any)["region"].(map[string]any)
		out = append(out, r["ruleId"].(string)+" "+r["level"].(string)+" "+r["kind"].(string)+" "+strconv.Itoa(int(reg["startLine"].(float64))))
	}
	return out
}

func TestSARIF(t *testing.T) {
	sch := sarifSchema(t)
	// The schema is not vacuous: a log without its version is rejected.
	if err := sch.Validate(map[string]any{"runs": []any{}}); err == nil {
		t.Fatal("the schema accepts a log without version")
	}
	dir := t.TempDir()
	f := writeProg(t, "assume x >= 0 and x <= 3;\nif x == 0 then\n  fail\nfi;\ny = 10 / (x - 1);\nassert x != 2\n")
	runSarif := filepath.Join(dir, "run.sarif")
	if code, out, errs := runText("run", f, "--all-bugs", "--quiet", "--sarif", runSarif); code != exitBug {
		t.Fatalf("exit %d\n%s%s", code, out, errs)
	}
	log := validSARIF(t, sch, runSarif)
	// Nor is it lax about levels: the same log with a level SARIF does not define is rejected.
	if b, _ := os.ReadFile(runSarif); true {
		inst, _ := jsonschema.UnmarshalJSON(bytes.NewReader(bytes.Replace(b, []byte(`"level": "error"`), []byte(`"level": "fatal"`), 1)))
		if err := sch.Validate(inst); err == nil {
			t.Error("the schema accepts a result with level fatal")
		}
	}
	got := sarifResults(log)
	want := []string{"fail error fail 3", "division-by-zero error fail 5", "assert error fail 6"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("run results %v, want %v", got, want)
	}
	props := log["runs"].([]any)[0].(map[string]any)["results"].([]any)[2].(map[string]any)["properties"].(map[string]any)
	if props["pathCondition"] != "x == 2" || props["input"].(map[string]any)["x"] != 2.0 {
		t.Errorf("assert result properties %v", props)
	}
	// A run without a verdict: the invocation carries the reason, as a warning notification.
	loop := writeProg(t, "while x > 0 do x = x - 1 od;\nassert x <= 0\n")
	loopSarif := filepath.Join(dir, "loop.sarif")
	if code, _, _ := runText("run", loop, "--quiet", "--max-states", "20", "--sarif", loopSarif); code != exitUnknown {
		t.Errorf("bounded run: exit %d", code)
	}
	inv := validSARIF(t, sch, loopSarif)["runs"].([]any)[0].(map[string]any)["invocations"].([]any)[0].(map[string]any)
	notes, _ := inv["toolExecutionNotifications"].([]any)
	if len(notes) != 1 || !strings.Contains(notes[0].(map[string]any)["message"].(map[string]any)["text"].(string), "state bound reached") ||
		inv["exitCode"] != 3.0 || inv["properties"].(map[string]any)["verdict"] != "unknown" {
		t.Errorf("invocation of a run without verdict: %v", inv)
	}
	// A safe run: a valid log with no result.
	safe := writeProg(t, "x = 1;\nassert x == 1\n")
	safeSarif := filepath.Join(dir, "safe.sarif")
	runText("run", safe, "--quiet", "--sarif", safeSarif)
	if got := sarifResults(validSARIF(t, sch, safeSarif)); len(got) != 0 {
		t.Errorf("safe run results %v", got)
	}
	// verify: REFUTED and FAULTY are errors, VERIFIED a pass, an inconclusive status a note.
	v := writeProg(t, "assert x >= x;\ny = 10 / x;\nassert x > 0;\nwhile z > 0 do z = z - 1 od;\nassert z <= 0\n")
	vSarif := filepath.Join(dir, "verify.sarif")
	code, out, errs := runText("verify", v, "--quiet", "--loop-bound", "2", "--sarif", vSarif)
	if code != exitBug {
		t.Fatalf("verify: exit %d\n%s%s", code, out, errs)
	}
	got = sarifResults(validSARIF(t, sch, vSarif))
	want = []string{"claim-assert none pass 1", "claim-division error fail 2", "claim-assert error fail 3", "claim-assert note open 5"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("verify results %v, want %v\n%s", got, want, out)
	}
}

func TestExecJSONAndJSONErrors(t *testing.T) {
	f := writeProg(t, "y = 100 / x;\nassert y < 50\n")
	var out bytes.Buffer
	code := run([]string{"exec", f, "--json", "--input", "x=1"}, &out, &bytes.Buffer{})
	var j map[string]any
	if err := json.Unmarshal(out.Bytes(), &j); err != nil || code != exitBug {
		t.Fatalf("exec --json: exit %d, %v\n%s", code, err, out.String())
	}
	if j["outcome"] != "bug" || j["kind"] != "assert" || j["line"] != 2.0 || j["col"] != 1.0 || j["steps"] != 3.0 ||
		j["store"].(map[string]any)["y"] != 100.0 || j["input"].(map[string]any)["y"] != 0.0 {
		t.Errorf("exec --json %v", j)
	}
	out.Reset()
	code = run([]string{"exec", f, "--json", "--input", "x=4,y=0"}, &out, &bytes.Buffer{})
	json.Unmarshal(out.Bytes(), &j)
	if code != exitSafe || j["outcome"] != "normal" || j["store"].(map[string]any)["y"] != 25.0 {
		t.Errorf("exec --json x=4: exit %d %v", code, j)
	}
	// An assume that is false, and the step bound.
	g := writeProg(t, "x = x + 1;\n  assume x > 5;\nwhile x > 0 do x = x - 1 od\n")
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"--input", "x=1"}, exitSafe, `"outcome":"infeasible","line":2,"col":3,"steps":2`},
		{[]string{"--input", "x=9", "--max-steps", "6"}, exitUnknown, `"outcome":"step-bound","line":3,"col":16,"steps":6`},
		{[]string{"--input", "x=9"}, exitSafe, `"outcome":"normal","steps":`},
	} {
		out.Reset()
		code := run(append([]string{"exec", g, "--json"}, c.args...), &out, &bytes.Buffer{})
		var compact bytes.Buffer
		json.Compact(&compact, out.Bytes())
		if code != c.code || !strings.Contains(compact.String(), c.want) {
			t.Errorf("exec --json %v: exit %d %s, want exit %d and %s", c.args, code, compact.String(), c.code, c.want)
		}
	}
	// A syntax error with --json: the JSON error object on stdout, the positioned message on
	// stderr, exit 2; for each command with --json.
	bad := writeProg(t, "x = 1;\nif x > 0 then\n  y = 2\nod")
	for _, cmd := range []string{"run", "exec", "verify"} {
		var stdout, stderr bytes.Buffer
		args := []string{cmd, bad, "--json"}
		if cmd != "exec" {
			args = append(args, "--quiet")
		}
		code := run(args, &stdout, &stderr)
		var e jsonError
		if err := json.Unmarshal(stdout.Bytes(), &e); err != nil || code != exitUsage {
			t.Errorf("%s: exit %d, stdout %q: %v", cmd, code, stdout.String(), err)
			continue
		}
		want := jsonError{Error: "syntax", File: bad, Line: 4, Col: 1, Message: "expected 'fi' to close 'if' (or 'else'), found 'od'"}
		if e != want {
			t.Errorf("%s: JSON error %+v, want %+v", cmd, e, want)
		}
		if !strings.Contains(stderr.String(), bad+":4:1: expected 'fi'") {
			t.Errorf("%s: stderr %q lacks the positioned message", cmd, stderr.String())
		}
	}
}

func TestHelpTopics(t *testing.T) {
	for name := range commands {
		code, page, _ := runText("help", name)
		_, _, options := runText(name, "-h")
		if code != 0 || !strings.Contains(page, "  certsym "+name) {
			t.Errorf("help %s: exit %d\n%s", name, code, page)
		}
		// The page carries the command's own option list, line for line.
		for _, l := range strings.Split(options, "\n")[1:] {
			if !strings.Contains(page, l) {
				t.Errorf("help %s lacks the option line %q", name, l)
			}
		}
	}
	if code, page, _ := runText("help", "exit-codes"); code != 0 || !strings.Contains(page, "4  internal error") {
		t.Errorf("help exit-codes: %d %q", code, page)
	}
	if code, _, stderr := runText("help", "nonsense"); code != exitUsage || !strings.Contains(stderr, "unknown topic") {
		t.Errorf("help nonsense: exit %d %q", code, stderr)
	}
	if code, page, _ := runText("help"); code != 0 || !strings.Contains(page, "certsym replay FILE|DIR") || !strings.Contains(page, "help topics") {
		t.Errorf("help: exit %d\n%s", code, page)
	}
}

func TestBashCompletion(t *testing.T) {
	bash := needTool(t, "bash", "core")
	code, script, _ := runText("completion", "bash")
	if code != 0 {
		t.Fatalf("completion bash: exit %d", code)
	}
	dir := t.TempDir()
	sf := filepath.Join(dir, "certsym.bash")
	os.WriteFile(sf, []byte(script), 0o644)
	os.WriteFile(filepath.Join(dir, "prog.imp"), []byte("skip"), 0o644)
	complete := func(words ...string) string {
		t.Helper()
		var q []string
		for _, w := range words {
			q = append(q, shellQuote(w))
			if w == "" {
				q[len(q)-1] = "''"
			}
		}
		cmd := exec.Command(bash, "--norc", "-c", `source `+shellQuote(sf)+`; COMP_WORDS=(`+strings.Join(q, " ")+`); COMP_CWORD=$((${#COMP_WORDS[@]}-1)); _certsym; printf '%s\n' "${COMPREPLY[@]}"`)
		cmd.Dir = dir
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("bash: %v\n%s", err, out)
		}
		return strings.Join(strings.Fields(string(out)), " ")
	}
	cases := []struct {
		words []string
		want  string
	}{
		{[]string{"certsym", "re"}, "replay"},
		{[]string{"certsym", "run", "--st"}, "--strategy"},
		{[]string{"certsym", "run", "--strategy", ""}, "bfs dfs"},
		{[]string{"certsym", "run", "--sa"}, "--sarif"},
		{[]string{"certsym", "verify", "--sa"}, "--sarif"},
		{[]string{"certsym", "run", "--sarif", "pro"}, "prog.imp"},
		{[]string{"certsym", "exec", "pr"}, "prog.imp"},
		{[]string{"certsym", "exec", "--j"}, "--json"},
		{[]string{"certsym", "help", "exi"}, "exit-codes"},
		{[]string{"certsym", "completion", ""}, "bash"},
		{[]string{"certsym", "run", "--max-states", ""}, ""},
	}
	for _, c := range cases {
		if got := complete(c.words...); got != c.want {
			t.Errorf("completing %q: %q, want %q", c.words, got, c.want)
		}
	}
}

func TestVersion(t *testing.T) {
	code, out, _ := runText("--version")
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	if !strings.Contains(out, "go: "+runtime.Version()+" ") || !regexp.MustCompile(`(?m)^certsym \S+$`).MatchString(out) ||
		!regexp.MustCompile(`(?m)^revision: \S`).MatchString(out) {
		t.Errorf("--version:\n%s", out)
	}
	// The Z3 version is the library's own: the one pkg-config reports for libz3-dev.
	pc, err := exec.Command("pkg-config", "--modversion", "z3").Output()
	if err != nil {
		t.Fatalf("pkg-config: %v", err)
	}
	if want := "z3: " + strings.TrimSpace(string(pc)); !strings.Contains(out, want) {
		t.Errorf("--version does not say %q:\n%s", want, out)
	}
	if _, out2, _ := runText("version"); out2 != out {
		t.Errorf("version and --version differ")
	}
}

// TestVersionStamped builds certsym with VCS stamping in a git clone (not a worktree, where the
// Go toolchain stamps nothing) and checks that --version names the checked-out revision.
func TestVersionStamped(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(filepath.Join(root, ".git")); err != nil || !fi.IsDir() {
		t.Skip("not a git clone (a worktree or an export): the Go toolchain stamps no revision")
	}
	head, err := exec.Command("git", "-C", root, "rev-parse", "HEAD").Output()
	if err != nil {
		t.Skipf("git rev-parse: %v", err)
	}
	bin := filepath.Join(t.TempDir(), "certsym")
	build := exec.Command("go", "build", "-buildvcs=true", "-o", bin, "./cmd/certsym")
	build.Dir = root
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	out, err := exec.Command(bin, "--version").Output()
	if err != nil {
		t.Fatal(err)
	}
	if want := "revision: " + strings.TrimSpace(string(head)); !strings.Contains(string(out), want) {
		t.Errorf("--version:\n%s\nwant a line starting %q", out, want)
	}
}

// The bounded interpreter's bugs and verify's REFUTED and FAULTY counterexamples end with a
// reproducing command too; each reaches an error when run.
func TestReproduceLinesBoundedAndVerify(t *testing.T) {
	f := writeProg(t, "assert x >= x;\ny = 10 / x;\nassert x > 0;\nwhile z > 0 do z = z - 1 od;\nassert z <= 0\n")
	for _, args := range [][]string{{"run", f, "--loop-bound", "2", "--quiet"}, {"verify", f, "--quiet"}} {
		code, stdout, _ := runText(args...)
		if code != exitBug {
			t.Fatalf("%v: exit %d\n%s", args, code, stdout)
		}
		cmds := regexp.MustCompile(`(?m)^ +reproduce: certsym (exec .*)$`).FindAllStringSubmatch(stdout, -1)
		// Two errors: the division by x (x == 0) and the assert x > 0 (x < 0); in verify, the
		// division claim FAULTY and the assert REFUTED.
		if want := 2; len(cmds) != want {
			t.Errorf("%v: %d reproduce lines, want %d\n%s", args, len(cmds), want, stdout)
		}
		for _, m := range cmds {
			if code, out, _ := runText(strings.Fields(m[1])...); code != exitBug || !strings.HasPrefix(out, "error: ") {
				t.Errorf("%s: exit %d\n%s", m[1], code, out)
			}
		}
	}
	var out bytes.Buffer
	run([]string{"run", f, "--loop-bound", "2", "--quiet", "--json"}, &out, &bytes.Buffer{})
	if !strings.Contains(out.String(), `"reproduce": "certsym exec `+f+` --input x=0,y=0,z=0"`) {
		t.Errorf("run --loop-bound --json lacks the reproduce command:\n%s", out.String())
	}
}

func TestArtifactFlagErrors(t *testing.T) {
	f := writeProg(t, "assert x > 0\n")
	dir := t.TempDir()
	for _, c := range []struct {
		args []string
		msg  string
	}{
		{[]string{"run", f, "--loop-bound", "2", "--tests", dir}, "--tests: not available with --loop-bound"},
		{[]string{"run", f, "--loop-bound", "2", "--sarif", filepath.Join(dir, "s"), "--coverage"}, "--coverage, --sarif: not available with --loop-bound"},
		{[]string{"run", f, "--no-prune", "--coverage"}, "not available with --no-prune"},
		{[]string{"run", f, "--dot", filepath.Join(dir, "t.dot"), "--dot-nodes", "0"}, "--dot-nodes must be at least 1"},
		{[]string{"run", f, "--quiet", "--lcov", filepath.Join(dir, "no", "such", "dir", "c.info")}, "--lcov:"},
		{[]string{"replay", filepath.Join(dir, "missing")}, "no such file"},
		{[]string{"replay", dir}, "no test case (.json) in this directory"},
		{[]string{"completion", "zsh"}, "expected one shell: bash"},
	} {
		code, _, stderr := runText(c.args...)
		if code != exitUsage || !strings.Contains(stderr, c.msg) {
			t.Errorf("certsym %v: exit %d, stderr %q; want exit 2 and %q", c.args, code, stderr, c.msg)
		}
	}
	// --dot and --sarif work with --no-prune: the unsatisfiable states are drawn as explored.
	if code, _, stderr := runText("run", f, "--quiet", "--no-prune", "--dot", filepath.Join(dir, "np.dot")); code != exitBug {
		t.Errorf("--no-prune --dot: exit %d %s", code, stderr)
	}
}

// TestTestsReplayOnTestdata writes the test cases of every testdata program's first few hundred
// states (at most 2s each) and replays them; each query is bounded by Z3's resource limit rather
// than a time limit, so that the answers depend less on the machine's load: each terminal path symbolic execution predicts (normal, bug or
// infeasible, at its place, after its number of steps) is what the concrete semantics does on the
// path's model.
func TestTestsReplayOnTestdata(t *testing.T) {
	files, _ := filepath.Glob("../../testdata/*.imp")
	if len(files) < 40 {
		t.Fatalf("found %d programs in testdata/", len(files))
	}
	total := 0
	kinds := map[string]int{}
	for _, f := range files {
		dir := filepath.Join(t.TempDir(), "tests")
		code, _, stderr := runText("run", f, "--all-bugs", "--quiet", "--max-states", "300", "--timeout", "2s", "--query-timeout", "0", "--rlimit", "5000000", "--tests", dir)
		if code == exitUsage || code == exitInternal {
			t.Errorf("%s: exit %d: %s", f, code, stderr)
			continue
		}
		paths, _ := filepath.Glob(filepath.Join(dir, "*.json"))
		if len(paths) == 0 {
			continue // no path ended within the bound (an infinite loop)
		}
		code, out, errs := runText("replay", dir)
		if code != exitSafe {
			t.Errorf("%s: replay exit %d\n%s%s", f, code, out, errs)
		}
		total += len(paths)
		for _, p := range paths {
			tc, _, _ := readTest(p)
			kinds[tc.Expected.Outcome]++
		}
	}
	if total < 500 || kinds["normal"] == 0 || kinds["bug"] == 0 || kinds["infeasible"] == 0 {
		t.Errorf("only %d test cases replayed (%v)", total, kinds)
	}
	t.Logf("%d test cases replayed: %v", total, kinds)
}

// TestManPage renders certsym help --man with groff, warnings on, and checks that every option of
// every command is on the page.
func TestManPage(t *testing.T) {
	groff := needTool(t, "groff", "man")
	code, page, _ := runText("help", "--man")
	if code != 0 {
		t.Fatalf("help --man: exit %d", code)
	}
	cmd := exec.Command(groff, "-man", "-Tascii", "-P-cbou", "-ww")
	cmd.Stdin = strings.NewReader(page)
	var out, warn bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &warn
	if err := cmd.Run(); err != nil || warn.Len() > 0 {
		t.Fatalf("groff: %v\n%s", err, warn.String())
	}
	text := out.String()
	for name := range commands {
		for _, l := range strings.Split(commandOptions(name), "\n") {
			if m := flagLine.FindStringSubmatch(l); m != nil && !strings.Contains(text, "--"+m[1]) {
				t.Errorf("the man page lacks %s --%s", name, m[1])
			}
		}
	}
	for _, want := range []string{"CERTSYM(1)", "EXIT STATUS", "4  internal error", "certsym replay FILE|DIR"} {
		if !strings.Contains(text, want) {
			t.Errorf("the man page lacks %q", want)
		}
	}
}
