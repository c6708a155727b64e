// Package flags holds the option types and option groups the certsym commands share: durations
// that carry a unit and counts that are not negative, the bounds of every command that runs the
// program (--timeout, --max-memory), the budget of the symbolic ones (--max-states,
// --query-timeout, --rlimit, --solver-time), --workers and run --merge; and the parsing of a command's options (Parse).
package flags

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"runtime"
	"strconv"
	"time"

	"certsym/internal/budget"
)

// durationFlag is the value of a duration flag (Duration) that must not be negative and must carry a unit.
type durationFlag struct{ d *time.Duration }

// Duration declares on fs a duration flag, which must carry a unit and not be negative, and
// returns where its value is stored.
func Duration(fs *flag.FlagSet, name string, value time.Duration, usage string) *time.Duration {
	d := new(time.Duration)
	*d = value
	fs.Var(durationFlag{d}, name, usage)
	return d
}

// String is the flag's value as the option list shows it: "" for 0 (no bound).
func (f durationFlag) String() string {
	if f.d == nil || *f.d == 0 { // 0 is "no bound": the usage text says so
		return ""
	}
	return f.d.String()
}

// Set parses a duration with its unit; a bare number or a negative duration is an error.
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

// countFlag is the value of an integer flag (Count) that must not be negative.
type countFlag struct{ n *int }

// Count declares on fs an integer flag, which must not be negative, and returns where its value
// is stored.
func Count(fs *flag.FlagSet, name string, value int, usage string) *int {
	n := new(int)
	*n = value
	fs.Var(countFlag{n}, name, usage)
	return n
}

// String is the flag's value as the option list shows it: "" for 0.
func (f countFlag) String() string {
	if f.n == nil || *f.n == 0 {
		return ""
	}
	return strconv.Itoa(*f.n)
}

// Set parses a whole number (decimal, or with a 0x, 0o or 0b prefix); a negative one is an error.
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
	DefaultQueryTimeout = 10 * time.Second
	DefaultRLimit       = 50_000_000
)

// Budget declares the budget flags of run and verify (--max-states, --timeout,
// --max-memory, --query-timeout, --rlimit, --solver-time) on fs, with the usage texts of the state bound and
// the query timeout the command gives (what a state is, what an unanswered query becomes). The
// returned function reads them, after parsing, as one budget.Limits.
func Budget(fs *flag.FlagSet, statesUsage, queryUsage string) func() budget.Limits {
	maxStates := Count(fs, "max-states", 1_000_000, statesUsage)
	timeMem := Time(fs)
	queryTimeout := Duration(fs, "query-timeout", DefaultQueryTimeout, queryUsage)
	rlimit := fs.Uint("rlimit", DefaultRLimit, "Z3 resource limit of each solver query (0: none)")
	solverTime := Duration(fs, "solver-time", 0, "bound the time of all solver queries together to this `duration`; once it is spent, the queries that need Z3 answer unknown and the search goes on without it (0: none)")
	return func() budget.Limits {
		lim := timeMem()
		lim.MaxStates, lim.QueryTimeout, lim.RLimit, lim.SolverTime = *maxStates, *queryTimeout, *rlimit, *solverTime
		return lim
	}
}

// Time declares --timeout and --max-memory, the bounds of every command that runs the
// program (run, verify, exec, concolic, replay), on fs; the returned function reads them, after
// parsing, as a budget.Limits (Timeout and MaxMemory), and sets the garbage collector's pace for
// the memory bound (budget.PaceGC).
func Time(fs *flag.FlagSet) func() budget.Limits {
	timeout := Duration(fs, "timeout", 0, "stop after this `duration`, e.g. 30s (0: no bound)")
	maxMem := fs.Uint64("max-memory", 4096, "stop when the heap exceeds this many `MiB` (0: no bound)")
	return func() budget.Limits {
		lim := budget.Limits{Timeout: *timeout, MaxMemory: *maxMem << 20}
		budget.PaceGC(lim.MaxMemory)
		return lim
	}
}

// Workers declares --workers on fs with the given usage text: run --workers
// (the partitioned run of package engine/steal when given, else engine.Options.Workers,
// engine/parallel.go; with --loop-bound, bounded.Interp.RunWorkers and
// the rendering of the result states) and verify --workers (verify.Options.Workers). The returned
// function reads it after parsing, 0 (the default) as the number of cores.
func Workers(fs *flag.FlagSet, usage string) func() int {
	n := Count(fs, "workers", 0, usage)
	return func() int {
		if *n == 0 {
			return runtime.NumCPU()
		}
		return *n
	}
}

// RunWorkersUsage and VerifyWorkersUsage are the usage texts of run --workers and verify --workers.
const (
	RunWorkersUsage = "explore on `N` workers that share the tree by work stealing (0: the number of cores; docs/parallelism.md): the verdict, bugs and counters " +
		"of the single run, the same for every N, each bug's input found by replaying its path (it may differ from a run's without --workers). " +
		"bfs runs without --burst, --shard, --merge and the artifact flags use them; the others, and runs without --workers, expand states ahead on the cores " +
		"with the output of one; with --loop-bound they replay the errors' inputs and render the result states"
	VerifyWorkersUsage = "render the paths' conditions and replay their tests on `N` parallel workers (0: the number of cores); " +
		"the output is the same for every N (the exploration and the claims' solver queries stay sequential)"
)

// MergeUsage is the usage text of run --merge.
const MergeUsage = "merge the states of each breadth-first depth that have the same remaining program, and a state one " +
	"step deeper into the state of the depth it catches up with (state merging, " +
	"against the path explosion of branches that join); bfs only, on one goroutine; a finished run's verdict and bugs are those of the run without it, " +
	"each bug confirmed and reported on its input's own path (docs/merging.md)"

// Merge declares run --merge on fs (state merging, package engine/mergesearch). The returned
// function reads it after parsing, with set the flags given: on says whether to merge, and ok is
// false after a usage error (reported on stderr): --merge with a strategy other than bfs, with the
// bounded interpreter (--loop-bound), with bursts or shards, or with the artifacts that describe
// paths one by one (--tests, --dot: a merged state is many paths).
func Merge(fs *flag.FlagSet) func(set map[string]bool, stderr io.Writer) (on, ok bool) {
	merge := fs.Bool("merge", false, MergeUsage)
	return func(set map[string]bool, stderr io.Writer) (bool, bool) {
		if !*merge {
			return false, true
		}
		if s := fs.Lookup("strategy"); s != nil && s.Value.String() != "bfs" {
			fmt.Fprintf(stderr, "certsym run: --merge applies to --strategy bfs only (it merges the states of one breadth-first depth), not %s\n", s.Value)
			return false, false
		}
		for _, f := range []struct{ name, why string }{
			{"loop-bound", "the bounded interpreter does not merge states"},
			{"burst", "a burst takes many steps in one pick: the depths of a level no longer meet"},
			{"shard", "the shards partition the paths, which merging joins"},
			{"tests", "a merged state stands for many paths, not one test case"},
			{"dot", "the states of a merged run form no tree"},
		} {
			if set[f.name] {
				fmt.Fprintf(stderr, "certsym run: --merge does not combine with --%s (%s)\n", f.name, f.why)
				return false, false
			}
		}
		return true, true
	}
}

// Parse parses the options of the command certsym NAME (fs.Name()) in args, placed before or
// after the positional arguments, and returns the positional ones (a lone "-", standard input,
// is one). After -h it prints the list of options on stderr and returns flag.ErrHelp. After a
// bad option it prints one line on stderr, the error and where the options are described, and
// returns the error: the list of options, dozens of lines, would push the error out of sight.
func Parse(fs *flag.FlagSet, args []string, stderr io.Writer) ([]string, error) {
	fs.SetOutput(io.Discard) // the flag package's own messages: the error is printed below
	fs.Usage = func() {}
	var pos []string
	for {
		err := fs.Parse(args)
		switch {
		case errors.Is(err, flag.ErrHelp):
			fmt.Fprintf(stderr, "Usage of %s:\n", fs.Name())
			fs.SetOutput(stderr)
			fs.PrintDefaults()
			return nil, err
		case err != nil:
			fmt.Fprintf(stderr, "certsym %s: %v (see certsym help %s)\n", fs.Name(), err, fs.Name())
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

// DistributedFlags are run's options of a distributed run (package distrib): --distributed URL,
// the broker; --lease, how long a job taken by a worker that stops answering waits before it is
// given to another; --split, the states a worker expands in a job before it splits off the rest.
type DistributedFlags struct {
	URL   *string
	Lease *time.Duration
	Split *int
}

// Distributed declares the options of a distributed run on fs, with their defaults (the
// package distrib's DefaultLease and DefaultBudget, passed in).
func Distributed(fs *flag.FlagSet, lease time.Duration, split int) DistributedFlags {
	return DistributedFlags{
		URL:   fs.String("distributed", "", "coordinate a run on the workers (certsym worker URL) of the NATS JetStream broker at `URL` (nats://host:4222); the report is the single run's (docs/distributed.md)"),
		Lease: Duration(fs, "lease", lease, "with --distributed: a job taken by a worker that stops answering goes to another after this `duration` (the broker's AckWait)"),
		Split: Count(fs, "split", split, "with --distributed: a worker explores `N` states of a job, then hands the pending ones back as new jobs"),
	}
}
