// Command certsym finds bugs in IMP programs by symbolic execution, runs them concretely, and
// pretty-prints them. Run certsym help for usage.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"strconv"
	"strings"
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
// --max-memory, --query-timeout, --rlimit, --solver-time) on fs, with the usage texts of the
// state bound and the query timeout the command gives (what a state is, what an unanswered query
// becomes). The returned function reads them, after parsing, as one budget.Limits.
func addBudgetFlags(fs *flag.FlagSet, statesUsage, queryUsage string) func() budget.Limits {
	maxStates := newCount(fs, "max-states", 1_000_000, statesUsage)
	timeMem := addTimeFlags(fs)
	queryTimeout := newDuration(fs, "query-timeout", defaultQueryTimeout, queryUsage)
	rlimit := fs.Uint("rlimit", defaultRLimit, "Z3 resource limit of each solver query (0: none)")
	solverTime := newDuration(fs, "solver-time", 0, "bound the time of all solver queries together to this `duration`; once it is spent, the queries that need Z3 answer unknown and the search goes on without it (0: none)")
	return func() budget.Limits {
		lim := timeMem()
		lim.MaxStates, lim.QueryTimeout, lim.RLimit, lim.SolverTime = *maxStates, *queryTimeout, *rlimit, *solverTime
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
