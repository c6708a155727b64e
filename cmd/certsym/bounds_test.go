package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// The resource promises of every command, on real processes: each concrete evaluation honours the
// integer bound, the step bound, --max-memory and --timeout, and a signal, and ends with its
// reason and exit 3; every phase after the exploration polls the same monitor, so the partial
// report follows a signal or the deadline within a second; a signal delivered twice at once is
// one request; output files are checked before the run and written whole.

// finished is a certsym process run to its end (or killed at its time limit).
type finished struct {
	code           int
	stdout, stderr string
	elapsed        time.Duration
	killed         bool
}

// runLimited runs certsym with args under a 3 GB address-space limit (so that a defect that
// makes a value grow without bound fails the test instead of the machine) and kills it after
// limit.
func runLimited(t *testing.T, limit time.Duration, args ...string) finished {
	t.Helper()
	cmd := exec.Command("sh", append([]string{"-c", `ulimit -v 3000000 && exec "$@"`, "sh", certsymBinary(t)}, args...)...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	start := time.Now()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() { cmd.Wait(); close(done) }()
	f := finished{}
	select {
	case <-done:
	case <-time.After(limit):
		cmd.Process.Kill()
		<-done
		f.killed = true
	}
	f.elapsed = time.Since(start)
	f.code, f.stdout, f.stderr = cmd.ProcessState.ExitCode(), stdout.String(), stderr.String()
	return f
}

func (f finished) String() string {
	return fmt.Sprintf("exit %d after %.1fs (killed at the test's limit: %v)\nstdout: %.2000s\nstderr: %.2000s", f.code, f.elapsed.Seconds(), f.killed, f.stdout, f.stderr)
}

// squareSrc squares x for ever: its length doubles at each iteration.
const squareSrc = "x = 2;\nwhile true do x = x * x od\n"

// writeCase writes a test case of run --tests for program file prog, recorded to end normally.
func writeCase(t *testing.T, dir, prog, input string) {
	t.Helper()
	c := fmt.Sprintf(`{"certsym_test": 1, "program": %q, "program_sha256": "", "input": %s, "expected": {"outcome": "normal", "steps": 3}, "path_condition": "true"}`, prog, input)
	if err := os.WriteFile(filepath.Join(dir, "test000001.json"), []byte(c), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestConcreteIntegerBound: exec, concolic and replay stop a run whose values grow without bound
// at run's integer bound (a value of more than 2^20 bits assigned), with run's words for it and
// exit 3, for a variable and for an array element, instead of computing until the memory runs
// out.
func TestConcreteIntegerBound(t *testing.T) {
	if testing.Short() {
		t.Skip("starts processes")
	}
	sq := writeProg(t, squareSrc)
	elem := writeProg(t, "array a[0..1];\na[0] = 2;\nwhile true do a[0] = a[0] * a[0] od\n")
	input := writeProg(t, "while true do x = x * x od\n")
	cases := []struct {
		name string
		args []string
		want string
	}{
		{"exec", []string{"exec", sq}, "integer bound reached (a value of more than 1048576 bits assigned at 2:15) after 80 steps at " + sq + ":2:15"},
		{"exec element", []string{"exec", elem}, "integer bound reached (a value of more than 1048576 bits assigned at 3:15)"},
		{"exec --json", []string{"exec", sq, "--json"}, `"reason": "integer bound reached (a value of more than 1048576 bits assigned at 2:15)"`},
		{"concolic", []string{"concolic", input, "--input", "x=2"}, "outcome: integer bound reached (a value of more than 1048576 bits assigned at 1:15)"},
		{"concolic element", []string{"concolic", elem, "--input", "a=[0,0]"}, "outcome: integer bound reached (a value of more than 1048576 bits assigned at 3:15)"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := runLimited(t, 30*time.Second, c.args...)
			if f.killed || f.code != exitUnknown || !strings.Contains(f.stdout, c.want) {
				t.Errorf("want exit 3 and %q\n%s", c.want, f)
			}
		})
	}
	t.Run("replay", func(t *testing.T) {
		dir := t.TempDir()
		writeCase(t, dir, sq, "{}")
		f := runLimited(t, 30*time.Second, "replay", dir)
		if f.killed || f.code != exitUnknown || !strings.Contains(f.stdout, "STOPPED") ||
			!strings.Contains(f.stdout, "integer bound reached (a value of more than 1048576 bits assigned at 2:15)") {
			t.Errorf("want exit 3 and the test stopped at the integer bound\n%s", f)
		}
	})
}

// spinSrc counts for ever: only a bound stops it.
const spinSrc = "i = 0;\nwhile true do i = i + 1 od\n"

// TestConcreteTimeAndMemoryBounds: exec, replay and concolic honour --timeout and --max-memory
// (the bounds of run), each saying which bound stopped the run, with exit 3.
func TestConcreteTimeAndMemoryBounds(t *testing.T) {
	if testing.Short() {
		t.Skip("starts processes that run for a second")
	}
	spin := writeProg(t, spinSrc)
	// grow keeps 16 numbers of about 830,000 bits each live (2 MiB: the collector, paced to
	// stay under the bound, cannot bring the heap below it) and then spins making garbage.
	grow := writeProg(t, "array a[0..15];\nx = 3;\ni = 0;\nwhile i < 19 do x = x * x; i = i + 1 od;\ni = 0;\n"+
		"while i < 16 do a[i] = x + i; i = i + 1 od;\nwhile true do y = x + 1 od\n")
	dir := t.TempDir()
	writeCase(t, dir, spin, "{}")
	cases := []struct {
		name string
		args []string
		want string
	}{
		{"exec --timeout", []string{"exec", spin, "--max-steps", "2000000000", "--timeout", "1s"}, "time bound reached (1s) after "},
		{"exec --max-memory", []string{"exec", grow, "--max-steps", "2000000000", "--max-memory", "1"}, "memory bound reached (heap "},
		{"replay --timeout", []string{"replay", dir, "--max-steps", "2000000000", "--timeout", "1s"}, "stopped at 2:"},
		{"concolic --timeout", []string{"concolic", spin, "--input", "", "--max-steps", "1000000000", "--timeout", "1s"}, "outcome: time bound reached (1s) at "},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := runLimited(t, 30*time.Second, c.args...)
			if f.killed || f.code != exitUnknown || !strings.Contains(f.stdout, c.want) || f.elapsed > 10*time.Second {
				t.Errorf("want exit 3 and %q\n%s", c.want, f)
			}
		})
	}
}

// TestConcreteInterrupt: SIGINT and SIGTERM stop exec, replay and concolic with their partial
// report and exit 3 (the default handling killed them without one).
func TestConcreteInterrupt(t *testing.T) {
	if testing.Short() {
		t.Skip("starts processes")
	}
	spin := writeProg(t, spinSrc)
	dir := t.TempDir()
	writeCase(t, dir, spin, "{}")
	cases := []struct {
		name string
		sig  syscall.Signal
		args []string
		want string
	}{
		{"exec", syscall.SIGINT, []string{"exec", spin, "--max-steps", "2000000000"}, "interrupted after "},
		{"exec SIGTERM", syscall.SIGTERM, []string{"exec", spin, "--max-steps", "2000000000", "--json"}, `"reason": "interrupted"`},
		{"replay", syscall.SIGINT, []string{"replay", dir, "--max-steps", "2000000000"}, "stopped at 2:"},
		{"concolic", syscall.SIGINT, []string{"concolic", spin, "--input", "", "--max-steps", "1000000000"}, "outcome: interrupted at "},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := startCertsym(t, c.args...)
			time.Sleep(500 * time.Millisecond)
			p.cmd.Process.Signal(c.sig)
			sent := time.Now()
			code := p.wait(t, 20*time.Second)
			if code != exitUnknown || !strings.Contains(p.stdout.String(), c.want) || time.Since(sent) > 2*time.Second {
				t.Errorf("exit %d %.1fs after the signal, want 3 and %q\nstdout: %.2000s\nstderr: %s", code, time.Since(sent).Seconds(), c.want, p.stdout.String(), p.stderr.String())
			}
		})
	}
}

// TestVerifyReplayStepBudget: the replays of verify's tests and counterexamples take as many steps
// as the path they replay, however long: 600 × 600 nested iterations (more than a million steps)
// verify, and with a bug refute, with no internal error.
func TestVerifyReplayStepBudget(t *testing.T) {
	if testing.Short() {
		t.Skip("replays runs of millions of steps")
	}
	const src = `assume n == 600 and m == 600;
i = 0;
s = 0;
while i < n do
  j = 0;
  while j < m do
    s = s + 1;
    j = j + 1
  od;
  i = i + 1
od;
assert s == %d
`
	for _, c := range []struct {
		sum    int
		code   int
		status string
	}{{360000, exitSafe, "overall status: VERIFIED"}, {360001, exitBug, "overall status: REFUTED"}} {
		f := writeProg(t, fmt.Sprintf(src, c.sum))
		r := runLimited(t, 120*time.Second, "verify", f, "--loop-bound", "600", "--quiet")
		if r.code != c.code || !strings.Contains(r.stdout, c.status) || strings.Contains(r.stderr, "internal error") {
			t.Errorf("assert s == %d: want exit %d and %q\n%s", c.sum, c.code, c.status, r)
		}
	}
}

// nestedSrc is two nested loops over unbounded n and m: with a high loop bound, a million branch
// states and a thousand paths, each with a test whose replay runs up to loop bound squared
// iterations.
const nestedSrc = `i = 0;
while i < n do
  j = 0;
  while j < m do
    j = j + 1
  od;
  i = i + 1
od;
assert i >= 0
`

// TestVerifyLaterPhasesBounded: verify's replay of the tests and its rendering poll the monitor:
// the deadline (--timeout) and the first SIGINT give the partial report within a second, saying
// which phase was cut, where the replays went on for a minute (--timeout) or the process exited
// without a report (SIGINT). The run of --loop-bound 1000 on two nested loops explores until the
// state bound (a million branch states) and then replays its tests for longer than it explored
// (3.5 s, then 6.5 s, on the 2-core machine when quiet). The signal is sent once the progress line
// shows the replay; the deadline is set from when that line came, so that it falls in the replay
// on a machine of any speed (a fixed deadline of 5 s fell after the end of the whole run on a
// quiet machine, before the end of the exploration on a loaded one).
func TestVerifyLaterPhasesBounded(t *testing.T) {
	if testing.Short() {
		t.Skip("starts processes that run for seconds")
	}
	f := writeProg(t, nestedSrc)
	// SIGINT during the replay of the tests.
	start := time.Now()
	p := startCertsym(t, "verify", f, "--loop-bound", "1000", "--json")
	p.waitLine(t, "replay of the tests", 120*time.Second)
	replayShown := time.Since(start)
	p.cmd.Process.Signal(os.Interrupt)
	sent := time.Now()
	code := p.wait(t, 30*time.Second)
	var out struct {
		Overall string   `json:"overall"`
		Reason  string   `json:"reason"`
		Cut     []string `json:"cut"`
	}
	err := json.Unmarshal(p.stdout.Bytes(), &out)
	if err != nil || code != exitUnknown || len(out.Cut) == 0 || !strings.HasPrefix(out.Cut[0], "interrupted: the replay of the tests: ") ||
		time.Since(sent) > 1500*time.Millisecond {
		t.Errorf("SIGINT: exit %d %.1fs after the signal, report %+v (%v); want exit 3 and the partial report within a second, the replay cut\nstderr:\n%s",
			code, time.Since(sent).Seconds(), out, err, p.stderr.String())
	}
	// The deadline a second after the progress line showed the replay (the line comes within a
	// second of the replay's start, which then lasts about twice as long as the exploration).
	timeout := (replayShown + time.Second).Round(100 * time.Millisecond)
	r := runLimited(t, timeout+60*time.Second, "verify", f, "--loop-bound", "1000", "--timeout", timeout.String(), "--quiet")
	if r.killed || r.code != exitUnknown || r.elapsed > timeout+2*time.Second || !strings.Contains(r.stdout, "overall status:") ||
		!strings.Contains(r.stdout, "cut short: time bound reached ("+timeout.String()+"): the replay of the tests") {
		t.Errorf("--timeout %v: want the partial report, the replay cut, exit 3, within 1 s of the deadline\n%s", timeout, r)
	}
}

// TestRunLaterPhasesBounded: run's phases after the exploration poll the monitor too: the
// rendering of a bounded run's result states, and the writing of the test cases, are cut once
// the report is due, and the report says so.
func TestRunLaterPhasesBounded(t *testing.T) {
	if testing.Short() {
		t.Skip("starts processes that run for seconds")
	}
	// Hundreds of thousands of result states, each with a constraint of up to 3,000 conjuncts:
	// rendering them all took half a minute after the deadline.
	f := writeProg(t, "i = 0;\nwhile i < n do\n  if a > i then x = x + 1 fi;\n  i = i + 1\nod\n")
	r := runLimited(t, 60*time.Second, "run", f, "--loop-bound", "3000", "--max-states", "300000", "--timeout", "4s", "--quiet")
	if r.killed || r.code != exitUnknown || r.elapsed > 6*time.Second || !strings.Contains(r.stdout, "verdict: unknown") ||
		!strings.Contains(r.stdout, "cut short: time bound reached (4s): the rendering of the report: ") {
		t.Errorf("run --loop-bound --timeout 4s: want the partial report within a second of the deadline\n%s", r)
	}
	dir := filepath.Join(t.TempDir(), "tests")
	search := writeProg(t, "i = 0;\nwhile i < n do if x == i then y = 1 fi; i = i + 1 od\n")
	r = runLimited(t, 60*time.Second, "run", search, "--max-states", "0", "--timeout", "3s", "--tests", dir, "--quiet")
	if r.killed || r.code != exitUnknown || r.elapsed > 5*time.Second || !strings.Contains(r.stdout, "verdict: unknown (time bound reached") {
		t.Errorf("run --tests --timeout 3s: want the partial report within a second of the deadline\n%s", r)
	}
	if leftovers, _ := filepath.Glob(filepath.Join(dir, ".*tmp*")); len(leftovers) > 0 {
		t.Errorf("temporary files left in the test directory: %v", leftovers)
	}
}

// TestInterruptAbandonsTheQuery: an interrupt during a Z3 query on a product of fifty factors,
// which Z3 does not interrupt, gives the partial report: the query is abandoned after its grace.
// (A run that does not stop at all is the watch's to end: cmd/certsym/internal/watch.)
func TestInterruptAbandonsTheQuery(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a process")
	}
	f := writeProg(t, "x = "+strings.Repeat("y * ", 49)+"y;\nassert x != 3")
	p := startCertsym(t, "run", f, "--json")
	p.waitLine(t, "in a query for", 20*time.Second)
	p.cmd.Process.Signal(os.Interrupt)
	code := p.wait(t, 20*time.Second)
	if code != exitUnknown || !strings.Contains(p.stdout.String(), `"reason": "interrupted"`) || strings.Contains(p.stderr.String(), "did not stop") {
		t.Errorf("exit %d, stdout:\n%s\nstderr:\n%s", code, p.stdout.String(), p.stderr.String())
	}
}

// TestSignalTwiceAtOnce: GNU timeout signals certsym and then its process group, so certsym gets
// the signal twice at once; that is one request, and the partial report is printed every time.
// Many tries, with SIGINT and SIGTERM, with run and verify.
func TestSignalTwiceAtOnce(t *testing.T) {
	if testing.Short() {
		t.Skip("starts many processes")
	}
	timeoutCmd, err := exec.LookPath("timeout")
	if err != nil {
		t.Skip("no timeout command")
	}
	search := writeProg(t, searchSrc)
	wide := writeProg(t, wideSrc)
	bin := certsymBinary(t)
	type try struct {
		sig  string
		args []string
		want string
	}
	var tries []try
	for i := range 25 {
		sig := []string{"INT", "TERM"}[i%2]
		tries = append(tries, try{sig, []string{"run", search, "--max-states", "0"}, "verdict: unknown (interrupted)"})
		if i%5 == 0 {
			tries = append(tries, try{sig, []string{"verify", wide, "--loop-bound", "40000", "--max-states", "0"}, "stopped early: interrupted"})
		}
	}
	failures := make(chan string, len(tries))
	sem := make(chan struct{}, 2)
	for _, tr := range tries {
		sem <- struct{}{}
		go func() {
			defer func() { <-sem }()
			cmd := exec.Command(timeoutCmd, append([]string{"--preserve-status", "-s", tr.sig, "1", bin}, tr.args...)...)
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			cmd.Run()
			if code := cmd.ProcessState.ExitCode(); code != exitUnknown || !strings.Contains(stdout.String(), tr.want) {
				failures <- fmt.Sprintf("timeout -s %s 1 certsym %s: exit %d, stdout %q, stderr %q", tr.sig, tr.args[0], code, stdout.String(), stderr.String())
			}
		}()
	}
	for range cap(sem) {
		sem <- struct{}{}
	}
	close(failures)
	for f := range failures {
		t.Error(f)
	}
}

// TestOutputPathsCheckedFirst: an output file or directory that cannot be written is a usage error
// before the run starts (nothing run, exit 2), not a failure after it that replaces the verdict.
func TestOutputPathsCheckedFirst(t *testing.T) {
	if testing.Short() {
		t.Skip("starts processes")
	}
	long := writeProg(t, searchSrc) // a million states before the state bound
	notDir := writeProg(t, "x = 1")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"run", long, "--sarif", "/nonexistent/x.sarif"}, "--sarif: cannot write /nonexistent/x.sarif"},
		{[]string{"run", long, "--lcov", "/nonexistent/x.info"}, "--lcov: cannot write"},
		{[]string{"run", long, "--dot", os.TempDir()}, "--dot: " + os.TempDir() + " is a directory, not a file"},
		{[]string{"run", long, "--tests", notDir}, "--tests: " + notDir + " is not a directory"},
		{[]string{"run", long, "--tests", filepath.Join(notDir, "sub")}, "--tests: " + notDir + " is not a directory"},
		{[]string{"verify", long, "--html", "/nonexistent/x.html", "--loop-bound", "100000"}, "--html: cannot write"},
		{[]string{"verify", long, "--sarif", "/nonexistent/x.sarif", "--loop-bound", "100000"}, "--sarif: cannot write"},
	} {
		f := runLimited(t, 30*time.Second, append(c.args, "--quiet")...)
		if f.code != exitUsage || f.elapsed > 2*time.Second || f.stdout != "" || !strings.Contains(f.stderr, c.want) {
			t.Errorf("%v: want exit 2 at once, no report, and %q\n%s", c.args, c.want, f)
		}
	}
}

// TestOutputFilesReplacedWhole: the output files are written to a temporary name in their
// directory and renamed over the file, so a reader (or an interrupted run) never sees half of
// one: the file at the path is a new one (another inode), and no temporary file is left.
func TestOutputFilesReplacedWhole(t *testing.T) {
	f := writeProg(t, "if x == 1 then\n  assert y > 0\nfi;\ny = 7\n")
	dir := t.TempDir()
	outs := map[string]string{"sarif": filepath.Join(dir, "x.sarif"), "lcov": filepath.Join(dir, "x.info"), "dot": filepath.Join(dir, "x.dot"),
		"html": filepath.Join(dir, "x.html"), "vsarif": filepath.Join(dir, "v.sarif"), "test": filepath.Join(dir, "tests", "test000001.json")}
	inodes := map[string]uint64{}
	for name, p := range outs {
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte("old"), 0o644); err != nil {
			t.Fatal(err)
		}
		fi, _ := os.Stat(p)
		inodes[name] = fi.Sys().(*syscall.Stat_t).Ino
	}
	if code, stdout, stderr := runText("run", f, "--quiet", "--all-bugs", "--sarif", outs["sarif"], "--lcov", outs["lcov"], "--dot", outs["dot"],
		"--tests", filepath.Join(dir, "tests")); code != exitBug {
		t.Fatalf("run: exit %d\n%s%s", code, stdout, stderr)
	}
	if code, stdout, stderr := runText("verify", f, "--quiet", "--html", outs["html"], "--sarif", outs["vsarif"]); code != exitBug {
		t.Fatalf("verify: exit %d\n%s%s", code, stdout, stderr)
	}
	for name, p := range outs {
		b, err := os.ReadFile(p)
		fi, _ := os.Stat(p)
		if err != nil || string(b) == "old" || len(b) == 0 {
			t.Errorf("%s: not rewritten (%v)", name, err)
		} else if fi.Sys().(*syscall.Stat_t).Ino == inodes[name] {
			t.Errorf("%s: written in place (same inode), not replaced whole", name)
		}
	}
	all, _ := filepath.Glob(filepath.Join(dir, "*"))
	tests, _ := filepath.Glob(filepath.Join(dir, "tests", "*"))
	if len(all) != 6 || len(tests) != 3 {
		t.Errorf("files left: %v %v", all, tests)
	}
}

// TestRunHighDegreeBranch: a branch on a polynomial of astronomical degree (x squared sixty times)
// ends run with the solver's reason, exit 3, at once: neither the witness checks of the path
// conditions nor the solver's repair evaluate such a polynomial on a model.
func TestRunHighDegreeBranch(t *testing.T) {
	if testing.Short() {
		t.Skip("starts processes")
	}
	src := "assume x > 1;\n" + strings.Repeat("x = x * x;\n", 60) + "if x == 7 then fail fi\n"
	f := runLimited(t, 30*time.Second, "run", writeProg(t, src))
	want := "over the solver's limit of 64"
	if f.killed || f.code != exitUnknown || !strings.Contains(f.stdout, want) {
		t.Errorf("want exit 3 and %q\n%s", want, f)
	}
}
