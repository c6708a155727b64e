package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
	"time"

	"certsym/engine"
	"certsym/spec"
)

func load(file string, stderr io.Writer) (*spec.Program, bool) {
	prog, err := spec.ParseFile(file)
	if err != nil {
		fmt.Fprintf(stderr, "%v\n", err)
		return nil, false
	}
	return prog, true
}

func cmdParse(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("parse", flag.ContinueOnError)
	file, code, ok := oneFile(fs, args, stderr)
	if !ok {
		return code
	}
	prog, ok := load(file, stderr)
	if !ok {
		return exitUsage
	}
	fmt.Fprint(stdout, spec.PrintProgram(prog))
	return 0
}

func cmdExec(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("exec", flag.ContinueOnError)
	input := fs.String("input", "", "input values, as x=3,y=-2 (a missing input is 0)")
	maxSteps := fs.Int("max-steps", 10_000_000, "stop after `N` steps")
	asJSON := fs.Bool("json", false, "print one JSON object on stdout")
	file, code, ok := oneFile(fs, args, stderr)
	if !ok {
		return code
	}
	prog, ok := loadFor(file, *asJSON, stdout, stderr)
	if !ok {
		return exitUsage
	}
	store := make(spec.Store, len(prog.Vars))
	given := map[string]bool{}
	if *input != "" {
		for _, kv := range strings.Split(*input, ",") {
			name, val, found := strings.Cut(strings.TrimSpace(kv), "=")
			i := prog.VarIndex(strings.TrimSpace(name))
			if !found {
				fmt.Fprintf(stderr, "certsym exec: --input: expected NAME=INTEGER, found %q\n", kv)
				return exitUsage
			}
			if i < 0 {
				fmt.Fprintf(stderr, "certsym exec: --input: the program has no variable %q (variables: %s)\n", name, strings.Join(prog.Vars, ", "))
				return exitUsage
			}
			v, okv := spec.ParseInt(strings.TrimSpace(val))
			if !okv {
				fmt.Fprintf(stderr, "certsym exec: --input: %s: expected an integer, found %q\n", name, val)
				return exitUsage
			}
			store[i] = v
			given[prog.Vars[i]] = true
		}
	}
	var zero []string
	for _, v := range prog.Vars {
		if !given[v] {
			zero = append(zero, v)
		}
	}
	if len(zero) > 0 {
		fmt.Fprintf(stderr, "certsym exec: no input given for %s: using 0\n", strings.Join(zero, ", "))
	}
	r := spec.Run(prog, store, *maxSteps)
	if *asJSON {
		return writeExecJSON(stdout, stderr, prog, store, r)
	}
	final := engine.InputString(r.Final.Store, prog.Vars)
	switch r.Outcome {
	case spec.Final:
		fmt.Fprintf(stdout, "finished after %d steps\nstore: %s\n", r.Steps, final)
		return 0
	case spec.Blocked:
		fmt.Fprintf(stdout, "ended at the assume at line %d, whose condition is false (an infeasible path, not an error), after %d steps\nstore: %s\n",
			spec.Head(r.Final.Prog).(*spec.Assume).Line(), r.Steps, final)
		return 0
	case spec.Failed:
		fmt.Fprintf(stdout, "error: %s at line %d after %d steps\nstore: %s\n", describeFail(r.Fail), r.Fail.Line(), r.Steps, final)
		return exitBug
	}
	fmt.Fprintf(stdout, "step bound reached (%d steps) at line %d\nstore: %s\n", r.Steps, spec.LineOf(spec.Head(r.Final.Prog)), final)
	return exitUnknown
}

func describeFail(f *spec.Fail) string {
	switch f.Kind {
	case spec.FailAssert:
		return "assertion violated"
	case spec.FailDivZero:
		return "division by zero"
	}
	return "fail reached"
}

// jsonBug is one bug in run --json.
type jsonBug struct {
	Line          int                    `json:"line"`
	Kind          string                 `json:"kind"`
	PathCondition string                 `json:"path_condition"`
	Input         map[string]json.Number `json:"input"`
	Store         string                 `json:"store"`
	Steps         int                    `json:"steps,omitempty"`
	Reproduce     string                 `json:"reproduce"`
}

// inputJSON is a concrete input as a JSON object: each variable's value as a number token with
// all its digits (never through float64).
func inputJSON(in spec.Store, names []string) map[string]json.Number {
	m := make(map[string]json.Number, len(in))
	for i, v := range in {
		m[names[i]] = json.Number(v.String())
	}
	return m
}

// jsonRun is the single object run --json prints.
type jsonRun struct {
	Verdict       string    `json:"verdict"`
	States        int       `json:"states"`
	Bugs          []jsonBug `json:"bugs"`
	Reason        string    `json:"reason,omitempty"`
	SolverQueries int       `json:"solver_queries"`

	Coverage *jsonCoverage `json:"coverage,omitempty"` // run --coverage (coverage.go)
}

func cmdRun(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("run", flag.ContinueOnError)
	strategy := fs.String("strategy", "bfs", "search strategy: bfs (complete) or dfs")
	maxStates := fs.Int("max-states", 1_000_000, "stop after `N` states expanded (0: no bound)")
	timeout := fs.Duration("timeout", 0, "stop after this `duration`, e.g. 30s (0: no bound)")
	maxMem := fs.Uint64("max-memory", 4096, "stop when the heap exceeds this many `MiB` (0: no bound)")
	queryTimeout := fs.Duration("query-timeout", 10*time.Second, "bound on each solver query")
	rlimit := fs.Uint("rlimit", 50_000_000, "Z3 resource limit of each solver query (0: none)")
	noPrune := fs.Bool("no-prune", false, "keep states whose path condition is unsatisfiable")
	allBugs := fs.Bool("all-bugs", false, "go on after the first bug and report each error (statement and kind) once")
	asJSON := fs.Bool("json", false, "print one JSON object on stdout")
	quiet := fs.Bool("quiet", false, "no progress reports")
	loopBound := fs.Int("loop-bound", -1, "use the bounded interpreter: each loop may iterate at most `N` times each time it is entered")
	art := addRunArtifactFlags(fs)
	file, code, ok := oneFile(fs, args, stderr)
	if !ok {
		return code
	}
	strat, err := engine.ParseStrategy(*strategy)
	if err != nil {
		fmt.Fprintf(stderr, "certsym run: --strategy: %v\n", err)
		return exitUsage
	}
	if *maxStates < 0 {
		fmt.Fprintf(stderr, "certsym run: --max-states must not be negative\n")
		return exitUsage
	}
	prog, ok := loadFor(file, *asJSON, stdout, stderr)
	if !ok {
		return exitUsage
	}
	opts := engine.Options{Strategy: strat, MaxStates: *maxStates, Timeout: *timeout, MaxMemory: *maxMem << 20,
		QueryTimeout: *queryTimeout, RLimit: *rlimit, NoPrune: *noPrune, AllBugs: *allBugs}
	if !art.setup(prog, *loopBound >= 0, &opts, stderr) {
		return exitUsage
	}
	if *loopBound >= 0 {
		var progress func(engine.BProgress)
		if !*quiet {
			progress = boundedProgress(stderr)
		}
		return runBounded(prog, *loopBound, opts, progress, *asJSON, stdout, stderr)
	}
	if !*quiet {
		opts.Progress = func(p engine.Progress) {
			fmt.Fprintf(stderr, "certsym: %.0fs: %d states expanded, %d pending, depth %d, %d solver queries, %d bugs\n",
				p.Elapsed.Seconds(), p.Expanded, p.Pending, p.Depth, p.Queries, p.Bugs)
		}
	}
	e := engine.New(prog, opts)
	names := prog.Vars
	start := time.Now()
	onBug := func(b *engine.Bug) {
		if *asJSON {
			return
		}
		fmt.Fprintf(stdout, "BUG: %s at line %d\n", describeFail(b.Fail), b.Line())
		fmt.Fprintf(stdout, "  path condition: %s\n", b.State.PC.String(names))
		fmt.Fprintf(stdout, "  input:          %s\n", engine.InputString(b.Input, names))
		fmt.Fprintf(stdout, "  symbolic store: %s\n", engine.StoreString(b.State.Store, names))
		fmt.Fprintf(stdout, "  confirmed:      the concrete run of this input reaches the error after %d steps\n", b.Replay.Steps)
		fmt.Fprintf(stdout, "  reproduce:      %s\n", reproduceCommand(file, b, names))
	}
	rep, err := e.FindBugs(onBug)
	if err != nil {
		var re *engine.ReplayError
		if errors.As(err, &re) {
			fmt.Fprintf(stderr, "certsym: %v\n", err)
			return exitInternal
		}
		fmt.Fprintf(stderr, "certsym: %v\n", err)
		return exitInternal
	}
	if code := art.write(file, args, rep, prog, stderr); code != 0 {
		return code
	}
	if *asJSON {
		out := jsonRun{Verdict: rep.Verdict.String(), States: rep.Stats.Expanded, Bugs: []jsonBug{},
			Reason: rep.Reason, SolverQueries: rep.Stats.Solver.Queries, Coverage: art.coverageJSON()}
		for _, b := range rep.Bugs {
			out.Bugs = append(out.Bugs, jsonBug{Line: b.Line(), Kind: b.Kind(), PathCondition: b.State.PC.String(names),
				Input: inputJSON(b.Input, names), Store: engine.StoreString(b.State.Store, names), Steps: b.Replay.Steps,
				Reproduce: reproduceCommand(file, b, names)})
		}
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		enc.SetEscapeHTML(false)
		if err := enc.Encode(out); err != nil {
			fmt.Fprintf(stderr, "certsym: %v\n", err)
			return exitInternal
		}
	} else {
		s := rep.Stats
		fmt.Fprintf(stdout, "verdict: %s", rep.Verdict)
		switch rep.Verdict {
		case engine.VerdictSafe:
			fmt.Fprint(stdout, " (the exploration finished: no error state is reachable)")
		case engine.VerdictUnknown:
			fmt.Fprintf(stdout, " (%s)", rep.Reason)
		}
		fmt.Fprintf(stdout, "\n%d states expanded, %d pruned, depth %d, %d solver queries (%d sat, %d unsat, %d unknown), %.2fs\n",
			s.Expanded, s.Pruned, s.MaxDepth, s.Solver.Queries, s.Solver.Sat, s.Solver.Unsat, s.Solver.Unknown, time.Since(start).Seconds())
		art.writeCoverageText(stdout)
	}
	switch rep.Verdict {
	case engine.VerdictBug:
		return exitBug
	case engine.VerdictSafe:
		return exitSafe
	}
	return exitUnknown
}
