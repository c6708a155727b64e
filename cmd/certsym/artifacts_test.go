package main

import (
	"bytes"
	"certsym/cmd/certsym/internal/coverage"
	"certsym/cmd/certsym/internal/help"
	"certsym/cmd/certsym/internal/jsonout"
	"certsym/cmd/certsym/internal/report"
	"certsym/cmd/certsym/internal/testcase"
	"certsym/internal/testprog"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"
)

// TestTestsAndReplay: run --tests writes a test case per terminal path and says so, replay
// reruns them, a second run writes the same files, and replay tells a test whose program has
// changed under it. (What each case records, and the checks of a test file, are tested in
// internal/testcase.)
func TestTestsAndReplay(t *testing.T) {
	const src = "if x == 1 then\n  assert y > 0\nfi;\ny = 7\n"
	f := writeProg(t, src)
	dir := filepath.Join(t.TempDir(), "tests")
	code, stdout, stderr := runText("run", f, "--all-bugs", "--quiet", "--tests", dir)
	if code != exitBug {
		t.Fatalf("run: exit %d\n%s%s", code, stdout, stderr)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*.json"))
	// Terminal paths: x == 1 with y > 0 (normal) and y <= 0 (bug), x != 1 (normal).
	for _, p := range files {
		if tc, _, err := testcase.Read(p); err != nil || tc.ProgramFile(p) != f {
			t.Errorf("%s: %v, program %+v", p, err, tc)
		}
	}
	if len(files) != 3 || !strings.Contains(stderr, "wrote 3 test cases") {
		t.Errorf("%d test case files; stderr %q does not say 3 were written", len(files), stderr)
	}
	// Replay: all behave as recorded.
	code, out, errs := runText("replay", dir)
	if code != exitSafe || !strings.Contains(out, "3 tests replayed, 3 behave as recorded, 0 differ") {
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
	if err := os.WriteFile(f, []byte(strings.Replace(src, "y > 0", "y >= 0", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, _ = runText("replay", dir)
	if code != exitBug || !strings.Contains(out, "DIFFERS") || !strings.Contains(out, "recorded bug (assert at 2:3) after 2 steps, now normal after") ||
		!strings.Contains(out, "3 tests replayed, 2 behave as recorded, 1 differs") || !strings.Contains(out, "the program has changed") {
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

// TestCoverage: run --coverage prints the coverage, run --coverage --json carries it, run --lcov
// writes a tracefile. (The coverage itself, and the tracefile read by lcov, are tested in
// internal/coverage.)
func TestCoverage(t *testing.T) {
	f := writeProg(t, "if x > 5 then\n  if x < 3 then\n    z = 1\n  fi\nfi\n")
	lcov := filepath.Join(t.TempDir(), "cov.info")
	code, stdout, stderr := runText("run", f, "--quiet", "--coverage", "--lcov", lcov)
	if code != exitSafe {
		t.Fatalf("exit %d\n%s%s", code, stdout, stderr)
	}
	// Statements: if (1), if (2), z = 1 (3), which no path executes; branches: then and else of
	// each if, the inner if's then never taken.
	want := "coverage of the explored paths: statements 2/3 (66.7%), branches 3/4 (75.0%)\n" +
		"  not taken:    then branch of the if at 2:3\n  not executed: assign at 3:5\n"
	if !strings.HasSuffix(stdout, want) {
		t.Errorf("text output does not end with the coverage %q:\n%s", want, stdout)
	}
	var j struct {
		Coverage coverage.JSON `json:"coverage"`
	}
	var out bytes.Buffer
	run([]string{"run", f, "--quiet", "--coverage", "--json"}, &out, &bytes.Buffer{})
	if err := json.Unmarshal(out.Bytes(), &j); err != nil {
		t.Fatal(err)
	}
	if c := j.Coverage; c.Statements != 3 || c.StatementsCovered != 2 || c.Branches != 4 || c.BranchesCovered != 3 || len(c.Uncovered) != 2 {
		t.Errorf("JSON coverage %+v", c)
	}
	// The tracefile's records are checked, with lcov itself, in internal/coverage: here, that
	// --lcov writes one for the program, with the branch records of its 2 branching statements.
	abs, _ := filepath.Abs(f)
	if b, err := os.ReadFile(lcov); err != nil || !strings.HasPrefix(string(b), "TN:certsym\nSF:"+abs+"\n") ||
		strings.Count(string(b), "BRDA:") != 4 || !strings.HasSuffix(string(b), "end_of_record\n") {
		t.Errorf("--lcov file (%v):\n%s", err, b)
	}
}

// TestDOTAndSARIFFiles: --dot and --sarif write their files (their contents are checked in
// internal/dot and internal/sarif); the SARIF invocation carries the command line and its exit
// status.
func TestDOTAndSARIFFiles(t *testing.T) {
	f := writeProg(t, "while x > 0 do x = x - 1 od;\nassert x <= 0\n")
	dir := t.TempDir()
	dotFile, sarifFile := filepath.Join(dir, "t.dot"), filepath.Join(dir, "r.sarif")
	if code, out, errs := runText("run", f, "--quiet", "--max-states", "20", "--dot", dotFile, "--sarif", sarifFile); code != exitUnknown {
		t.Fatalf("exit %d\n%s%s", code, out, errs)
	}
	if b, err := os.ReadFile(dotFile); err != nil || !strings.HasPrefix(string(b), "digraph certsym {") || !strings.Contains(string(b), "(pending)") {
		t.Errorf("--dot file (%v):\n%s", err, b)
	}
	var log struct {
		Runs []struct {
			Invocations []struct {
				CommandLine         string
				ExecutionSuccessful bool
				ExitCode            int
			}
		}
	}
	b, err := os.ReadFile(sarifFile)
	if err == nil {
		err = json.Unmarshal(b, &log)
	}
	want := "certsym run " + f + " --quiet --max-states 20 --dot " + dotFile + " --sarif " + sarifFile
	if err != nil || len(log.Runs) != 1 || len(log.Runs[0].Invocations) != 1 {
		t.Fatalf("--sarif file (%v):\n%s", err, b)
	}
	if inv := log.Runs[0].Invocations[0]; inv.CommandLine != want || !inv.ExecutionSuccessful || inv.ExitCode != exitUnknown {
		t.Errorf("SARIF invocation %+v, want command line %q, successful, exit 3", inv, want)
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
		var e jsonout.Error
		if err := json.Unmarshal(stdout.Bytes(), &e); err != nil || code != exitUsage {
			t.Errorf("%s: exit %d, stdout %q: %v", cmd, code, stdout.String(), err)
			continue
		}
		want := jsonout.Error{Error: "syntax", File: bad, Line: 4, Col: 1, Message: "expected 'fi' to close 'if' (or 'else'), found 'od'"}
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
	bash := testprog.NeedTool(t, "bash", "core")
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
			q = append(q, report.ShellQuote(w))
			if w == "" {
				q[len(q)-1] = "''"
			}
		}
		cmd := exec.Command(bash, "--norc", "-c", `source `+report.ShellQuote(sf)+`; COMP_WORDS=(`+strings.Join(q, " ")+`); COMP_CWORD=$((${#COMP_WORDS[@]}-1)); _certsym; printf '%s\n' "${COMPREPLY[@]}"`)
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
		// the engine's strategies (bfs dfs, and coverage random-path once the engine has them),
		// then generational
		{[]string{"certsym", "run", "--strategy", ""}, strings.Join(strategyNames(), " ")},
		{[]string{"certsym", "run", "--strategy", "g"}, "generational"},
		{[]string{"certsym", "con"}, "concolic"},
		{[]string{"certsym", "concolic", "--in"}, "--input --input-file"},
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
		t.Skip("short mode: builds the binary; make check runs it")
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
	// y is assigned before it is read: the command leaves it out (exec gives it 0).
	if !strings.Contains(out.String(), `"reproduce": "certsym exec `+f+` --input x=0,z=0"`) {
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
	if testing.Short() {
		t.Skip("short mode: every testdata program run for up to 2 s, its test cases replayed; make check runs it")
	}
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
			tc, _, _ := testcase.Read(p)
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
	groff := testprog.NeedTool(t, "groff", "man")
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
		for _, l := range strings.Split(book().Options(name), "\n") {
			if m := help.FlagLine.FindStringSubmatch(l); m != nil && !strings.Contains(text, "--"+m[1]) {
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
