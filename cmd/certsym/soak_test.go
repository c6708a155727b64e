package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"certsym/refinement/gen"
	"certsym/spec/syntax"
	"certsym/spec/syntax/parser"
)

// The soak (make soak): random programs through every command of certsym as real processes, each
// stopped at a random moment by its own --timeout or by SIGINT, as `timeout -s INT` would. It
// runs only when CERTSYM_SOAK is set (a plain go test skips it): a thousand programs take a
// quarter of an hour. SOAK_N programs (default 1000) from SOAK_SEED (default: drawn, and printed);
// SOAK_FAIL_AFTER (default 10s) is how late after its deadline or signal a run may end before the
// soak fails (the target is 1 s; the summary reports how many were later than that).

// soakStopWindow is the window in which the deadline or the signal of a run falls: half of them
// in its first eighth (most runs of the small random programs end within 100 ms).
const soakStopWindow = 800 * time.Millisecond

// soakTarget is how soon after its deadline or signal a run should end: the soak counts the runs
// later than that.
const soakTarget = time.Second

// soakCall is one certsym process of the soak and what became of it.
type soakCall struct {
	cmd  string   // the command's name in the summary
	args []string // the arguments
	// deadline is the --timeout given (0: none), signal when SIGINT is sent after the start (0:
	// none); stop is the earlier of the two.
	deadline, signal, stop time.Duration
	// What happened: the exit status, the outputs, the time from the start to the end.
	code           int
	stdout, stderr []byte
	took           time.Duration
	early          bool // the signal killed the process before certsym handled signals
	afterReport    bool // the signal killed the process after it printed its report
	killed         bool // the soak killed the process, 60 s after its start
}

// late is how long after its stop (deadline or signal) the call ended; ok is false when it
// ended before (or had no stop).
func (c *soakCall) late() (time.Duration, bool) {
	if c.stop == 0 || c.took <= c.stop {
		return 0, false
	}
	return c.took - c.stop, true
}

// soakStats gathers the calls of one command.
type soakStats struct {
	runs, beforeStop, early, afterReport, overTarget int
	lates                                            []time.Duration
	latestEarly                                      time.Duration // the latest signal that came before certsym handled signals
}

func TestSoak(t *testing.T) {
	if os.Getenv("CERTSYM_SOAK") == "" {
		t.Skip("the soak runs under make soak (CERTSYM_SOAK=1): minutes of real processes")
	}
	n := soakEnvInt(t, "SOAK_N", 1000)
	seed := int64(soakEnvInt(t, "SOAK_SEED", int(time.Now().UnixNano()%1_000_000_000)))
	failAfter := 10 * time.Second
	if s := os.Getenv("SOAK_FAIL_AFTER"); s != "" {
		d, err := time.ParseDuration(s)
		if err != nil {
			t.Fatalf("SOAK_FAIL_AFTER: %v", err)
		}
		failAfter = d
	}
	bin := certsymBinary(t)
	rng := rand.New(rand.NewSource(seed))
	fmt.Printf("soak: %d programs from seed %d (reproduce: make soak N=%d SEED=%d)\n", n, seed, n, seed)
	stats := map[string]*soakStats{}
	var failures []string
	fail := func(prog int, c *soakCall, format string, a ...any) {
		msg := fmt.Sprintf("program %d (seed %d): certsym %s (deadline %v, signal %v): %s", prog, seed+int64(prog), strings.Join(c.args, " "),
			c.deadline, c.signal, fmt.Sprintf(format, a...))
		failures = append(failures, msg)
		t.Error(msg)
	}
	started := time.Now()
	for i := 0; i < n; i++ {
		g, err := gen.Generate(seed+int64(i), gen.Default)
		if err != nil {
			t.Fatal(err)
		}
		dir := t.TempDir()
		prog := filepath.Join(dir, "p.imp")
		if err := os.WriteFile(prog, []byte(g.Text), 0o644); err != nil {
			t.Fatal(err)
		}
		parsed, err := parser.Parse(prog, []byte(g.Text))
		if err != nil {
			t.Fatalf("program %d (seed %d) does not parse: %v\n%s", i, seed+int64(i), err, g.Text)
		}
		input := soakInput(rng, parsed.Vars, parsed.Arrays)
		out := func(name string) string { return filepath.Join(dir, name) }
		budget := []string{"--json", "--quiet", "--max-states", "5000", "--query-timeout", "500ms"}
		strategies := []string{"dfs", "coverage", "random-path", "generational"}
		calls := []*soakCall{
			{cmd: "run", args: append([]string{"run", prog, "--tests", out("tests"), "--sarif", out("run.sarif"), "--lcov", out("run.info"),
				"--dot", out("run.dot"), "--coverage"}, budget...)},
			{cmd: "run --strategy", args: append([]string{"run", prog, "--strategy", strategies[rng.Intn(len(strategies))]}, budget...)},
			{cmd: "run --loop-bound", args: append([]string{"run", prog, "--loop-bound", "3"}, budget...)},
			{cmd: "run --shard", args: append([]string{"run", prog, "--shard", "0/2"}, budget...)},
			{cmd: "run --shard", args: append([]string{"run", prog, "--shard", "1/2"}, budget...)},
			{cmd: "exec", args: []string{"exec", prog, "--json", "--input", input, "--max-steps", "1000000"}},
			{cmd: "concolic", args: []string{"concolic", prog, "--json", "--input", input, "--max-steps", "20000", "--query-timeout", "500ms"}},
			{cmd: "verify", args: append([]string{"verify", prog, "--loop-bound", "2", "--html", out("verify.html"), "--sarif", out("verify.sarif")}, budget...)},
		}
		var shards []string
		var first *soakCall // the first shard
		for k, c := range calls {
			if c.cmd == "run --shard" && first != nil {
				// certsym merge wants shards run with the same options: the same deadline, or
				// none; the signal is drawn anew.
				c.deadline, c.signal, c.stop = first.deadline, 0, first.deadline
				if c.deadline > 0 {
					c.args = append(c.args, "--timeout", c.deadline.String())
				}
				if c.deadline == 0 || rng.Intn(2) == 0 {
					c.signal = time.Duration(rng.Int63n(int64(soakStopWindow))) + time.Millisecond
					if c.stop == 0 || c.signal < c.stop {
						c.stop = c.signal
					}
				}
			} else {
				soakStop(rng, c)
			}
			if c.cmd == "run --shard" && first == nil {
				first = c
			}
			soakExec(t, bin, c)
			if !soakCheck(c, func(format string, a ...any) { fail(i, c, format, a...) }) {
				continue
			}
			if c.cmd == "run --shard" {
				f := out(fmt.Sprintf("shard%d.json", k))
				if err := os.WriteFile(f, c.stdout, 0o644); err != nil {
					t.Fatal(err)
				}
				shards = append(shards, f)
			}
		}
		// The commands that read what the others wrote: replay the test cases, merge the shards.
		if files, _ := filepath.Glob(out("tests/*.json")); len(files) > 0 {
			c := &soakCall{cmd: "replay", args: []string{"replay", out("tests"), "--json", "--max-steps", "1000000"}}
			soakStop(rng, c)
			soakExec(t, bin, c)
			soakCheck(c, func(format string, a ...any) { fail(i, c, format, a...) })
			calls = append(calls, c)
		}
		if len(shards) == 2 {
			// merge reads two small files and runs nothing: it has no --timeout, only the signal.
			c := &soakCall{cmd: "merge", args: append([]string{"merge", "--json"}, shards...)}
			soakStop(rng, c)
			c.args, c.deadline, c.stop = c.args[:4], 0, c.signal
			soakExec(t, bin, c)
			soakCheck(c, func(format string, a ...any) { fail(i, c, format, a...) })
			calls = append(calls, c)
		}
		// The output files: none half-written, no temporary file left.
		if msg := soakOutputs(dir); msg != "" {
			fail(i, calls[0], "%s", msg)
		}
		for _, c := range calls {
			st := stats[c.cmd]
			if st == nil {
				st = &soakStats{}
				stats[c.cmd] = st
			}
			st.runs++
			switch l, ok := c.late(); {
			case c.early:
				st.early++
				st.latestEarly = max(st.latestEarly, c.signal)
			case c.afterReport:
				st.afterReport++
			case !ok:
				st.beforeStop++
			default:
				st.lates = append(st.lates, l)
				if l > soakTarget {
					st.overTarget++
				}
				if l > failAfter {
					fail(i, c, "ended %v after its deadline or signal (the soak fails past %v)", l.Round(time.Millisecond), failAfter)
				}
			}
		}
		if (i+1)%50 == 0 {
			fmt.Printf("soak: %d programs, %v\n", i+1, time.Since(started).Round(time.Second))
		}
	}
	fmt.Print(soakSummary(stats, n, seed, time.Since(started)))
	if len(failures) > 0 {
		t.Errorf("%d failures", len(failures))
	}
}

// soakEnvInt reads a whole number from the environment (def when unset).
func soakEnvInt(t *testing.T, name string, def int) int {
	s := os.Getenv(name)
	if s == "" {
		return def
	}
	v, err := strconv.Atoi(s)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return v
}

// soakInput draws an input for the variables and arrays of a program: small values, as --input
// text.
func soakInput(rng *rand.Rand, vars []string, arrays []*syntax.Array) string {
	var kv []string
	for _, v := range vars {
		kv = append(kv, fmt.Sprintf("%s=%d", v, rng.Intn(21)-10))
	}
	for _, a := range arrays {
		elems := make([]string, a.Size())
		for j := range elems {
			elems[j] = strconv.Itoa(rng.Intn(11) - 5)
		}
		kv = append(kv, a.Name+"=["+strings.Join(elems, ",")+"]")
	}
	return strings.Join(kv, ",")
}

// soakStop draws how c is stopped: by its own --timeout, by SIGINT from the soak, or by both,
// at a moment within soakStopWindow of its start.
func soakStop(rng *rand.Rand, c *soakCall) {
	draw := func() time.Duration {
		w := int64(soakStopWindow)
		if rng.Intn(2) == 0 {
			w /= 8
		}
		return time.Duration(rng.Int63n(w)) + time.Millisecond
	}
	switch rng.Intn(3) {
	case 0:
		c.deadline = draw()
	case 1:
		c.signal = draw()
	default:
		c.deadline, c.signal = draw(), draw()
	}
	if c.deadline > 0 {
		c.args = append(c.args, "--timeout", c.deadline.String())
	}
	c.stop = c.deadline
	if c.signal > 0 && (c.stop == 0 || c.signal < c.stop) {
		c.stop = c.signal
	}
}

// soakExec runs c as a process of bin, sends SIGINT at c.signal, and records how it ended. A
// process that has not ended 60 s after its start is killed (and fails the check: a hang).
func soakExec(t *testing.T, bin string, c *soakCall) {
	cmd := exec.Command(bin, c.args...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	start := time.Now()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var timers []*time.Timer
	if c.signal > 0 {
		timers = append(timers, time.AfterFunc(c.signal, func() { cmd.Process.Signal(os.Interrupt) }))
	}
	timers = append(timers, time.AfterFunc(60*time.Second, func() { cmd.Process.Kill() }))
	cmd.Wait()
	c.took = time.Since(start)
	for _, tm := range timers {
		tm.Stop()
	}
	c.stdout, c.stderr = stdout.Bytes(), stderr.Bytes()
	ws := cmd.ProcessState.Sys().(syscall.WaitStatus)
	c.code = cmd.ProcessState.ExitCode()
	// certsym catches the signals from the first line of main to its end (package catch): a
	// SIGINT can end the process only before main (while the system loads it and the runtime
	// starts), as it ends any program; early counts those.
	if ws.Signaled() && ws.Signal() == syscall.SIGINT && c.signal > 0 {
		c.early, c.afterReport = len(c.stdout) == 0, json.Valid(c.stdout)
	}
	c.killed = ws.Signaled() && ws.Signal() == syscall.SIGKILL
}

// soakCheck checks how a call ended; report is called for each failure. It returns whether the
// call printed its report (its stdout is then one JSON object).
func soakCheck(c *soakCall, report func(format string, a ...any)) bool {
	switch {
	case c.early:
		return false
	case c.afterReport:
		return true
	case c.killed:
		report("still running 60 s after its start: killed (stderr: %s)", soakTail(c.stderr))
		return false
	case c.code < 0:
		report("ended by a signal (stdout %.200q, stderr: %s)", c.stdout, soakTail(c.stderr))
		return false
	case bytes.Contains(c.stderr, []byte("internal error")) || c.code == exitInternal:
		report("exit %d, internal error: %s", c.code, soakTail(c.stderr))
		return false
	case bytes.Contains(c.stderr, []byte("exiting without a report")):
		report("exit %d without a report: %s", c.code, soakTail(c.stderr))
		return false
	case c.code != exitSafe && c.code != exitBug && c.code != exitUnknown:
		report("exit %d: %s", c.code, soakTail(c.stderr))
		return false
	}
	var obj map[string]any
	if err := json.Unmarshal(c.stdout, &obj); err != nil {
		report("exit %d, stdout is not one JSON object (%v): %.300q\nstderr: %s", c.code, err, c.stdout, soakTail(c.stderr))
		return false
	}
	return true
}

// soakTail is the end of a process's stderr, for a message.
func soakTail(b []byte) string {
	s := strings.TrimSpace(string(b))
	if len(s) > 600 {
		s = "..." + s[len(s)-600:]
	}
	return s
}

// soakOutputs checks the output files of one program's calls in dir: no temporary file left
// (internal/outfile writes a temporary file and renames it), and each file there whole: the JSON
// files (test cases, SARIF logs, shard reports) parse, the HTML report ends with </html>, the DOT
// graph with its closing brace, the lcov tracefile with end_of_record. It returns what is wrong.
func soakOutputs(dir string) string {
	var bad []string
	filepath.Walk(dir, func(path string, fi os.FileInfo, err error) error {
		if err != nil || fi.IsDir() {
			return err
		}
		name := fi.Name()
		if strings.HasPrefix(name, ".") {
			bad = append(bad, "temporary file left: "+path)
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			bad = append(bad, err.Error())
			return nil
		}
		whole := true
		switch filepath.Ext(name) {
		case ".json", ".sarif":
			whole = json.Valid(b)
		case ".html":
			whole = bytes.HasSuffix(bytes.TrimSpace(b), []byte("</html>"))
		case ".dot":
			whole = bytes.HasPrefix(b, []byte("digraph")) && bytes.HasSuffix(bytes.TrimSpace(b), []byte("}"))
		case ".info":
			whole = soakLcovWhole(b)
		case ".imp":
		default:
			bad = append(bad, "unexpected file: "+path)
		}
		if !whole {
			bad = append(bad, fmt.Sprintf("%s is not whole (%d bytes, ending %q)", path, len(b), soakEnd(b)))
		}
		return nil
	})
	return strings.Join(bad, "; ")
}

func soakEnd(b []byte) string {
	if len(b) > 60 {
		return string(b[len(b)-60:])
	}
	return string(b)
}

// soakLcovWhole says whether an lcov tracefile is whole: every record ends with end_of_record.
func soakLcovWhole(b []byte) bool {
	sc := bufio.NewScanner(bytes.NewReader(b))
	open := false
	for sc.Scan() {
		switch l := sc.Text(); {
		case l == "end_of_record":
			open = false
		case l != "":
			open = true
		}
	}
	return !open && len(b) > 0
}

// soakSummary prints the runs and, per command, the median and worst time from the deadline or
// signal to the end, over the runs that were still going then.
func soakSummary(stats map[string]*soakStats, n int, seed int64, took time.Duration) string {
	var b strings.Builder
	total, measured, over, early, after := 0, 0, 0, 0, 0
	var latestEarly time.Duration
	var names []string
	for k, st := range stats {
		names = append(names, k)
		total += st.runs
		measured += len(st.lates)
		over += st.overTarget
		early += st.early
		after += st.afterReport
		latestEarly = max(latestEarly, st.latestEarly)
	}
	sort.Strings(names)
	fmt.Fprintf(&b, "soak summary: %d programs (seed %d), %d runs in %v; %d still running at their deadline or signal, %d of them ended more than %v after it; %d ended by a SIGINT that came before certsym handled signals (the latest %v after the start), %d by one after the report\n",
		n, seed, total, took.Round(time.Second), measured, over, soakTarget, early, latestEarly.Round(time.Millisecond), after)
	fmt.Fprintf(&b, "%-18s %6s %9s %6s %9s %9s %7s\n", "command", "runs", "measured", "early", "median", "worst", ">1s")
	for _, k := range names {
		st := stats[k]
		med, worst := "-", "-"
		if len(st.lates) > 0 {
			sort.Slice(st.lates, func(i, j int) bool { return st.lates[i] < st.lates[j] })
			med = st.lates[len(st.lates)/2].Round(time.Millisecond).String()
			worst = st.lates[len(st.lates)-1].Round(time.Millisecond).String()
		}
		fmt.Fprintf(&b, "%-18s %6d %9d %6d %9s %9s %7d\n", k, st.runs, len(st.lates), st.early, med, worst, st.overTarget)
	}
	return b.String()
}
