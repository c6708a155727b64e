// Command certsym finds bugs in IMP programs by symbolic execution, runs them concretely, and
// pretty-prints them. Run certsym help for usage.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"certsym/internal/budget"
)

// Exit statuses.
const (
	exitSafe     = 0 // run: the exploration finished without a bug; exec: the run finished
	exitBug      = 1 // a confirmed bug (run) or the run reached an error (exec)
	exitUsage    = 2 // usage or syntax error
	exitUnknown  = 3 // a bound was reached, the run was interrupted or the solver answered unknown: no verdict
	exitInternal = 4 // certsym's own defect (a bug that does not replay, a crash)
)

const usage = `usage:
  certsym run FILE [--strategy S] [--max-states N] [--timeout D] [--all-bugs] [--json] [--full] [--shard I/N] [--burst K]
      find bugs by symbolic execution (exit 1 bug, 0 safe, 3 no verdict, 2 usage/syntax error);
      S: bfs (default), dfs, coverage, random-path [--seed N], generational [--seed-input x=1,y=2]
      artifacts: --tests DIR, --coverage, --lcov FILE, --sarif FILE, --dot FILE (certsym help run)
  certsym run --loop-bound N FILE [--json] [--full] [--workers N]
      bounded symbolic execution: result states grouped by behaviour
  certsym merge FILE... [--json]
      the verdict of a run from the JSON reports of its N shards (run --shard I/N --json)
  certsym exec FILE [--input x=3,y=-2,a=[5,0,7]] [--max-steps N] [--timeout D] [--json]
      run the program on one input with the concrete semantics
  certsym concolic FILE --input x=3,y=-2 [--max-steps N] [--timeout D] [--json] [--full]
      the path of one input: each branch point, its path condition and the input that flips it
  certsym parse FILE
      print the program in the core language (macros inlined)
  certsym verify FILE [--loop-bound N] [--depth-bound N] [--abstract-nonlinear] [--json] [--html FILE] [--sarif FILE] [--full] [--workers N]
      a status and its evidence for every claim (exit 0 all VERIFIED/DEAD, 1 REFUTED/FAULTY, 3 otherwise)
  certsym replay FILE|DIR [--program FILE] [--max-steps N] [--timeout D] [--json]
      rerun the test cases of run --tests on the concrete semantics (exit 1 if one differs)
  certsym help [TOPIC]   certsym completion bash   certsym --version
FILE - reads the program from standard input. Every command that runs the program stops at
--timeout, --max-memory, run's integer bound (values of more than 2^20 bits) and Ctrl-C (SIGINT)
or SIGTERM, with the partial report and exit status 3; a second signal, a second or more after
the first, exits at once.
run certsym COMMAND -h for a command's options.
`

// stdin is where FILE - is read from (a variable so that tests can set it).
var stdin io.Reader = os.Stdin

func main() {
	// A Go stack trace is never what a user should see: an unexpected panic is reported in one
	// line by run; for the runtime's fatal errors this keeps the goroutine dump out (a developer
	// gets it back with GOTRACEBACK=single or higher).
	debug.SetTraceback("none")
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// run is the whole command; it returns the exit status. A panic is certsym's own defect: it is
// reported as an internal error in one line, without a Go stack trace.
func run(args []string, stdout, stderr io.Writer) (code int) {
	defer func() {
		if r := recover(); r != nil {
			msg := strings.Join(strings.Fields(fmt.Sprint(r)), " ")
			fmt.Fprintf(stderr, "certsym: internal error: %s\n", msg)
			code = exitInternal
		}
	}()
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return exitUsage
	}
	switch args[0] {
	case "run":
		return cmdRun(args[1:], stdout, stderr)
	case "exec":
		return cmdExec(args[1:], stdout, stderr)
	case "concolic":
		return cmdConcolic(args[1:], stdout, stderr)
	case "parse":
		return cmdParse(args[1:], stdout, stderr)
	case "verify":
		return cmdVerify(args[1:], stdout, stderr)
	case "help", "-h", "--help":
		return cmdHelp(args[1:], stdout, stderr)
	case "replay":
		return cmdReplay(args[1:], stdout, stderr)
	case "merge":
		return cmdMerge(args[1:], stdout, stderr)
	case "completion":
		return cmdCompletion(args[1:], stdout, stderr)
	case "version", "--version":
		writeVersion(stdout)
		return 0
	}
	fmt.Fprintf(stderr, "certsym: unknown command %q\n%s", args[0], usage)
	return exitUsage
}

// interruptGrace is how long an interrupted run, or one whose time bound has passed, has to print
// its partial report before it exits without one. Every phase polls the monitor and the report is
// due budget.WrapUp after the stop, so only a computation that polls nothing (a solver query
// Z3 does not interrupt) takes that long.
const interruptGrace = 2 * time.Second

// repeatWindow is how long after a first signal another one is taken as the same request: GNU
// timeout, and a terminal's Ctrl-C, signal the process and then its process group, so that
// certsym receives the same signal twice at once.
const repeatWindow = time.Second

// watchSignals makes SIGINT and SIGTERM interrupt the run m watches: the first one calls
// m.Interrupt (the search stops and the running solver query is cut short, the later phases
// complete the partial report within budget.WrapUp, and the command exits 3 with the reason
// "interrupted"); another one within repeatWindow of the first is the same request, and a
// later one exits at once. When the run has not stopped interruptGrace after the interrupt, or
// after its time bound (m's deadline), it exits without a report, saying what was running. The
// returned function restores the default handling (it may be called more than once).
func watchSignals(m *budget.Monitor, stderr io.Writer) (stop func()) {
	sigs := make(chan os.Signal, 4)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	done := make(chan struct{})
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		var deadline <-chan time.Time
		if d := m.Deadline(); !d.IsZero() {
			t := time.NewTimer(time.Until(d) + interruptGrace)
			defer t.Stop()
			deadline = t.C
		}
		var first time.Time
		var grace <-chan time.Time
		var tick <-chan time.Time
		for {
			select {
			case <-done:
				return
			case s := <-sigs:
				switch {
				case first.IsZero():
					first = time.Now()
					fmt.Fprintf(stderr, "certsym: %s: stopping, the partial report follows (again to exit at once)\n", sigName(s))
					m.Interrupt()
					grace = time.After(interruptGrace)
					// A query that started between the check of the interrupt flag and the flag
					// being set missed the context interrupt: interrupt again until the run returns.
					t := time.NewTicker(20 * time.Millisecond)
					defer t.Stop()
					tick = t.C
				case time.Since(first) < repeatWindow:
					// the same request, delivered twice (to the process, then to its group)
				default:
					fmt.Fprintf(stderr, "certsym: %s again: exiting without a report\n", sigName(s))
					os.Exit(exitUnknown)
				}
			case <-grace:
				fmt.Fprintf(stderr, "certsym: the run did not stop within %v of the interrupt: %s: exiting without a report\n", interruptGrace, running(m))
				os.Exit(exitUnknown)
			case <-deadline:
				fmt.Fprintf(stderr, "certsym: the run did not stop within %v of its time bound: %s: exiting without a report\n", interruptGrace, running(m))
				os.Exit(exitUnknown)
			case <-tick:
				m.Interrupt()
			}
		}
	}()
	var once sync.Once
	return func() {
		once.Do(func() {
			signal.Stop(sigs)
			close(done)
			<-finished
		})
	}
}

// running says what the run m watches is doing: its phase, and the solver query under way.
func running(m *budget.Monitor) string {
	what := "the " + m.Phase()
	if m.Phase() == "" {
		what = "the run"
	}
	if q := m.Snapshot().InQuery; q > 0 {
		return fmt.Sprintf("%s is in a solver query that has run for %.1fs (Z3 does not poll for interrupts in some computations, such as the preprocessing of large products)", what, q.Seconds())
	}
	return what + " is still running, outside the solver (one step of it did not finish)"
}

func sigName(s os.Signal) string {
	if s == os.Interrupt {
		return "interrupt"
	}
	return "terminated"
}

// parseArgs parses flags placed before or after the positional arguments and returns the
// positional ones. A lone "-" is a positional argument (standard input).
func parseArgs(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		args = fs.Args()
		if len(args) == 0 {
			return pos, nil
		}
		pos = append(pos, args[0])
		args = args[1:]
	}
}

// oneFile parses the flags of a command that takes one FILE. When it returns ok false, the
// command ends with status code: 0 after -h (the flag package printed the options), 2 otherwise.
func oneFile(fs *flag.FlagSet, args []string, stderr io.Writer) (file string, code int, ok bool) {
	fs.SetOutput(stderr)
	pos, err := parseArgs(fs, args)
	if errors.Is(err, flag.ErrHelp) {
		return "", 0, false
	}
	if err != nil {
		return "", exitUsage, false
	}
	if len(pos) != 1 {
		fmt.Fprintf(stderr, "certsym %s: expected one FILE, found %d argument(s)%s\n", fs.Name(), len(pos), listArgs(pos))
		return "", exitUsage, false
	}
	return pos[0], 0, true
}

func listArgs(pos []string) string {
	if len(pos) == 0 {
		return ""
	}
	return ": " + strings.Join(pos, " ")
}

// setFlags returns the names of the flags given on the command line.
func setFlags(fs *flag.FlagSet) map[string]bool {
	m := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { m[f.Name] = true })
	return m
}

// durationFlag is a duration flag that must not be negative and must carry a unit.
type durationFlag struct{ d *time.Duration }

func newDuration(fs *flag.FlagSet, name string, value time.Duration, usage string) *time.Duration {
	d := new(time.Duration)
	*d = value
	fs.Var(durationFlag{d}, name, usage)
	return d
}

func (f durationFlag) String() string {
	if f.d == nil || *f.d == 0 { // 0 is "no bound": the usage text says so
		return ""
	}
	return f.d.String()
}

func (f durationFlag) Set(s string) error {
	d, err := time.ParseDuration(s)
	if err != nil {
		if _, nerr := strconv.ParseFloat(s, 64); nerr == nil {
			return fmt.Errorf("a duration needs a unit, e.g. %ss or %sms", s, s)
		}
		return fmt.Errorf("expected a duration such as 30s, 1m30s or 500ms")
	}
	if d < 0 {
		return fmt.Errorf("must not be negative")
	}
	*f.d = d
	return nil
}

// countFlag is an integer flag that must not be negative.
type countFlag struct{ n *int }

func newCount(fs *flag.FlagSet, name string, value int, usage string) *int {
	n := new(int)
	*n = value
	fs.Var(countFlag{n}, name, usage)
	return n
}

func (f countFlag) String() string {
	if f.n == nil || *f.n == 0 {
		return ""
	}
	return strconv.Itoa(*f.n)
}

func (f countFlag) Set(s string) error {
	n, err := strconv.ParseInt(s, 0, strconv.IntSize)
	if err != nil {
		return fmt.Errorf("expected a whole number")
	}
	if n < 0 {
		return fmt.Errorf("must not be negative")
	}
	*f.n = int(n)
	return nil
}

// The default bounds of each solver query (--query-timeout, --rlimit).
const (
	defaultQueryTimeout = 10 * time.Second
	defaultRLimit       = 50_000_000
)

// addBudgetFlags declares the budget flags of run and verify (--max-states, --timeout,
// --max-memory, --query-timeout, --rlimit) on fs, with the usage texts of the state bound and
// the query timeout the command gives (what a state is, what an unanswered query becomes). The
// returned function reads them, after parsing, as one budget.Limits.
func addBudgetFlags(fs *flag.FlagSet, statesUsage, queryUsage string) func() budget.Limits {
	maxStates := newCount(fs, "max-states", 1_000_000, statesUsage)
	timeMem := addTimeFlags(fs)
	queryTimeout := newDuration(fs, "query-timeout", defaultQueryTimeout, queryUsage)
	rlimit := fs.Uint("rlimit", defaultRLimit, "Z3 resource limit of each solver query (0: none)")
	return func() budget.Limits {
		lim := timeMem()
		lim.MaxStates, lim.QueryTimeout, lim.RLimit = *maxStates, *queryTimeout, *rlimit
		return lim
	}
}

// addTimeFlags declares --timeout and --max-memory, the bounds of every command that runs the
// program (run, verify, exec, concolic, replay), on fs; the returned function reads them, after
// parsing, as a budget.Limits (Timeout and MaxMemory).
func addTimeFlags(fs *flag.FlagSet) func() budget.Limits {
	timeout := newDuration(fs, "timeout", 0, "stop after this `duration`, e.g. 30s (0: no bound)")
	maxMem := fs.Uint64("max-memory", 4096, "stop when the heap exceeds this many `MiB` (0: no bound)")
	return func() budget.Limits { return budget.Limits{Timeout: *timeout, MaxMemory: *maxMem << 20} }
}

// watch makes the monitor of one command bounded by lim (its time and memory bounds, which every
// phase polls) and handles SIGINT, SIGTERM and the deadline for it (watchSignals). stop restores
// the default handling of the signals; call it once the report is printed.
func watch(lim budget.Limits, stderr io.Writer) (mon *budget.Monitor, stop func()) {
	mon = budget.NewMonitor()
	mon.SetLimits(lim)
	return mon, watchSignals(mon, stderr)
}

// stopFunc is spec.Limits.Stop for a run that mon watches.
func stopFunc(mon *budget.Monitor) func() bool {
	return func() bool { return mon.Stop() != "" }
}
