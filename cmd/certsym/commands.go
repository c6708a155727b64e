package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"certsym/cmd/certsym/internal/buginput"
	"certsym/cmd/certsym/internal/distrun"
	"certsym/cmd/certsym/internal/flags"
	"certsym/cmd/certsym/internal/hint"
	"certsym/cmd/certsym/internal/inputs"
	"certsym/cmd/certsym/internal/jsonout"
	"certsym/cmd/certsym/internal/report"
	"certsym/cmd/certsym/internal/shard"
	"certsym/cmd/certsym/internal/watch"
	"certsym/concolic"
	"certsym/engine"
	"certsym/engine/mergesearch"
	"certsym/engine/steal"
	"certsym/internal/budget"
	"certsym/spec"
	"certsym/spec/syntax"
	"certsym/spec/syntax/parser"
	"certsym/step"
	"certsym/sym"
)

// load reads and parses FILE, or standard input for "-". It returns the source too (for the HTML
// report).
func load(file string, stderr io.Writer) (*syntax.Program, []byte, bool) {
	var src []byte
	var err error
	name := file
	if file == "-" {
		name = "<stdin>"
		src, err = io.ReadAll(stdin)
	} else {
		src, err = os.ReadFile(file)
	}
	if err != nil {
		fmt.Fprintf(stderr, "certsym: %v\n", err)
		return nil, nil, false
	}
	prog, err := parser.Parse(name, src)
	if err != nil {
		fmt.Fprintf(stderr, "%v\n", err)
		return nil, nil, false
	}
	return prog, src, true
}

func cmdParse(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("parse", flag.ContinueOnError)
	file, code, ok := oneFile(fs, args, stderr)
	if !ok {
		return code
	}
	prog, _, ok := load(file, stderr)
	if !ok {
		return exitUsage
	}
	fmt.Fprint(stdout, syntax.PrintProgram(prog))
	return 0
}

func cmdExec(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("exec", flag.ContinueOnError)
	input := addInputFlags(fs, "input values, as x=3,y=-2,a=[5,0,7] (an array as its elements from lo to hi; a missing input is 0)")
	maxSteps := flags.Count(fs, "max-steps", 10_000_000, "stop after `N` steps (or N quantifier instances evaluated)")
	limits := flags.Time(fs)
	asJSON := fs.Bool("json", false, "print one JSON object on stdout")
	file, code, ok := oneFile(fs, args, stderr)
	if !ok {
		return code
	}
	prog, _, ok := loadFor(file, *asJSON, stdout, stderr)
	if !ok {
		return exitUsage
	}
	store, ok := input.store("exec", prog, stderr)
	if !ok {
		return exitUsage
	}
	mon, stop := watch.Start(limits(), stderr, exitUnknown)
	defer stop()
	mon.Enter("execution")
	// RunFastLimited computes Run's result without rebuilding the program at each step (the
	// reproduce line of a bug found after hundreds of millions of steps replays in seconds), within
	// the bounds of run: the steps, the quantifier instances, the integer bound, and the time and
	// memory bounds and interrupts (the monitor).
	r := spec.RunFastLimited(prog, store, concreteLimits(*maxSteps, mon))
	if *asJSON {
		outcome, err := jsonout.WriteExec(stdout, prog, store, r, mon.Stop())
		if err != nil {
			fmt.Fprintf(stderr, "certsym: %v\n", err)
			return exitInternal
		}
		return map[string]int{"bug": exitBug, "step-bound": exitUnknown, "stopped": exitUnknown}[outcome] // else exitSafe
	}
	final := spec.StoreString(prog, r.Final.Store)
	steps := report.Plural(r.Steps, "step")
	switch r.Outcome {
	case spec.Final:
		fmt.Fprintf(stdout, "finished after %s\nstore: %s\n", steps, final)
		return 0
	case spec.Blocked:
		a := spec.Head(r.Final.Prog).(*syntax.Assume)
		fmt.Fprintf(stdout, "ended at the assume at %s:%s, whose condition is false (an infeasible path, not an error), after %s\nstore: %s\n",
			prog.File, loc(a), steps, final)
		return 0
	case spec.Failed:
		fmt.Fprintf(stdout, "error: %s at %s:%s after %s\nstore: %s\n", report.DescribeFail(r.Fail), prog.File, loc(r.Fail), steps, final)
		return exitBug
	}
	head := spec.Head(r.Final.Prog)
	switch r.Cut {
	case budget.CutInstances:
		fmt.Fprintf(stdout, "step bound reached (more than %s evaluated) after %s at %s:%s\nstore: %s\n",
			report.Plural(*maxSteps, "quantifier instance"), steps, prog.File, loc(head), final)
	case budget.CutIntBits:
		fmt.Fprintf(stdout, "%s after %s at %s:%s\nstore: %s\n", report.IntBound(head), steps, prog.File, loc(head), final)
	case budget.CutStop:
		fmt.Fprintf(stdout, "%s after %s at %s:%s\nstore: %s\n", mon.Stop(), steps, prog.File, loc(head), final)
	default:
		fmt.Fprintf(stdout, "step bound reached (%s) at %s:%s\nstore: %s\n", steps, prog.File, loc(head), final)
	}
	return exitUnknown
}

// concreteLimits are the bounds of a concrete run of exec, replay and concolic: maxSteps steps
// and as many quantifier instances, the integer bound of run (step.MaxIntBits), and mon's time
// and memory bounds and interrupts.
func concreteLimits(maxSteps int, mon *budget.Monitor) spec.Limits {
	return spec.Limits{Steps: maxSteps, Instances: maxSteps, IntBits: step.MaxIntBits, Stop: watch.StopFunc(mon)}
}

func cmdRun(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("run", flag.ContinueOnError)
	strategy := fs.String("strategy", "bfs", fmt.Sprintf("search `strategy`: %s (bfs is the complete one; generational is SAGE's concolic search, package concolic)",
		strings.Join(strategyNames(), ", ")))
	seedInput := fs.String("seed-input", "", "the first input of --strategy generational, as x=3,y=-2 (default: every variable 0)")
	seed := fs.Int64("seed", 1, "the random seed of --strategy random-path")
	limits := flags.Budget(fs, "stop after `N` states expanded (0: no bound)", "bound each solver query to this `duration` (0: none)")
	noPrune := fs.Bool("no-prune", false, "keep states whose path condition is unsatisfiable")
	allBugs := fs.Bool("all-bugs", false, "go on after the first bug and report each error (statement and kind) once")
	asJSON := fs.Bool("json", false, "print one JSON object on stdout")
	full := fs.Bool("full", false, "print path conditions and stores whole (the text output abbreviates long ones; JSON is always whole)")
	quiet := fs.Bool("quiet", false, "no progress reports")
	loopBound := flags.Count(fs, "loop-bound", 0, "use the bounded interpreter: each loop may iterate at most `N` times each time it is entered")
	art := addRunArtifactFlags(fs)
	sh, burst := shard.AddFlags(fs), addBurstFlag(fs)
	dist := distrun.AddFlags(fs)
	workers, merging := flags.Workers(fs, flags.RunWorkersUsage), flags.Merge(fs)
	file, code, ok := oneFile(fs, args, stderr)
	if !ok {
		return code
	}
	set := setFlags(fs)
	if !distrun.Check(set, *strategy, stderr) {
		return exitUsage
	}
	if set["loop-bound"] {
		for _, f := range []string{"strategy", "all-bugs", "seed-input", "seed"} {
			if set[f] {
				fmt.Fprintf(stderr, "certsym run: --%s does not apply with --loop-bound (the bounded interpreter explores every path up to the bound and reports every error)\n", f)
				return exitUsage
			}
		}
	}
	generational := *strategy == "generational"
	var strat engine.Strategy
	if !generational {
		var err error
		if strat, err = engine.ParseStrategy(*strategy); err != nil {
			fmt.Fprintf(stderr, "certsym run: --strategy: unknown strategy %q (expected one of %s)\n", *strategy, strings.Join(strategyNames(), ", "))
			return exitUsage
		}
	}
	if set["seed-input"] && !generational {
		fmt.Fprintf(stderr, "certsym run: --seed-input applies to --strategy generational only\n")
		return exitUsage
	}
	if set["seed"] && *strategy != "random-path" {
		fmt.Fprintf(stderr, "certsym run: --seed applies to --strategy random-path only\n")
		return exitUsage
	}
	if generational {
		if set["no-prune"] {
			fmt.Fprintf(stderr, "certsym run: --no-prune does not apply to --strategy generational (its runs are concrete: every path it runs is feasible)\n")
			return exitUsage
		}
		var bad []string
		for _, u := range art.used() {
			if u != "--sarif" {
				bad = append(bad, u)
			}
		}
		if len(bad) > 0 {
			fmt.Fprintf(stderr, "certsym run: %s: not available with --strategy generational (they record the symbolic search's states; --sarif is)\n", strings.Join(bad, ", "))
			return exitUsage
		}
	}
	prog, src, ok := loadFor(file, *asJSON, stdout, stderr)
	if !ok {
		return exitUsage
	}
	opts := engine.Options{Strategy: strat, Limits: limits(), NoPrune: *noPrune, AllBugs: *allBugs, Seed: *seed, Workers: workers()}
	if !art.setup(prog, set["loop-bound"], &opts, stderr) || !sh.Setup(set, &opts, stderr) || !burst.setup(set, &opts, stderr) {
		return exitUsage
	}
	var merged *mergesearch.Searcher // --merge's frontier, its counters printed after the run's
	if on, ok := merging(set, stderr); !ok {
		return exitUsage
	} else if on {
		opts.Merge = mergesearch.Option(&merged)
	}
	var seedStore spec.Store
	if set["seed-input"] {
		if seedStore, ok = parseInput("run", "seed-input", *seedInput, prog, stderr); !ok {
			return exitUsage
		}
	}
	// The monitor watches every phase: the exploration, the writing of the artifacts and the
	// rendering of the report poll it, and the signals interrupt it until the report is printed.
	mon, stopSignals := watch.Start(opts.Limits, stderr, exitUnknown)
	defer stopSignals()
	opts.Monitor = mon
	mon.Enter("exploration")
	if set["distributed"] {
		return outcomeStatus[distrun.Run(dist, file, src, prog, opts, mon, *asJSON, *full, *quiet, stdout, stderr)]
	}
	stopTicker := func() {}
	if !*quiet {
		stopTicker = mon.Tick(time.Second, func(p budget.Snapshot) { fmt.Fprintln(stderr, report.Progress(p, !set["loop-bound"])) })
	}
	// finished ends the progress reports once the engine's work is done.
	finished := stopTicker
	defer finished()
	if set["loop-bound"] {
		return runBounded(prog, *loopBound, opts, finished, *asJSON, *full, stdout, stderr)
	}
	names := sym.SlotNames(prog)
	start := time.Now()
	// A bug's input: the values its path condition leaves free set to 0, the variables assigned
	// before they are read named apart, and an input too long for a command line written to a file.
	bugs := buginput.New(prog, *art.tests)
	reproduce := func(b *engine.Bug) (string, string) {
		cmd, note, err := bugs.Reproduce(file, b)
		if err != nil {
			fmt.Fprintf(stderr, "certsym: the input of the bug at %s:%s: %v\n", prog.File, loc(b.Fail), err)
		}
		return cmd, note
	}
	onBug := func(b *engine.Bug) {
		bugs.Repair(b)
		if *asJSON {
			return
		}
		rec, err := bugs.Record(file, b)
		if err != nil {
			fmt.Fprintf(stderr, "certsym: the input of the bug at %s:%s: %v\n", prog.File, loc(b.Fail), err)
		}
		rec.WriteText(stdout, *full)
	}
	var rep *engine.Report
	var err error
	var tip string // the partial report's advice (package hint)
	if generational {
		rep, err = concolic.Generational(prog, concolic.GenOptions{SeedInput: seedStore, Limits: opts.Limits, AllBugs: opts.AllBugs,
			Monitor: mon, OnBug: onBug})
	} else if set["workers"] && steal.Applies(opts) {
		// The partitioned run (package engine/steal): the single run's report for every N.
		var res *steal.Result
		if res, err = steal.Run(prog, steal.Options{Options: opts}, onBug); err == nil {
			rep = res.Report
		}
	} else {
		eng := engine.New(prog, opts)
		rep, err = eng.FindBugs(sh.Wrap(eng, onBug))
		tip = hint.Burst(eng, rep, opts)
		eng.Close() // the first bug may end the run before the stream does
	}
	finished()
	if err != nil {
		fmt.Fprintf(stderr, "certsym: %v\n", err)
		return exitInternal
	}
	for _, b := range rep.Bugs {
		bugs.Repair(b) // each once: those onBug was shown are repaired already
	}
	if code := art.write(file, src, args, rep, prog, mon, stderr); code != 0 {
		return code
	}
	cuts := mon.Cuts()
	if *asJSON {
		out := jsonout.Run{Verdict: rep.Verdict.String(), States: rep.Stats.Expanded, Bugs: []jsonout.Bug{},
			Reason: rep.Reason, SolverQueries: rep.Stats.Solver.Queries, Coverage: art.coverageJSON(), Cut: cuts}
		for _, b := range rep.Bugs {
			p := b.Fail.Pos()
			cmd, _ := reproduce(b)
			out.Bugs = append(out.Bugs, jsonout.Bug{Line: p.Line, Column: p.Col, Kind: b.Kind(), PathCondition: b.State.PC.String(names),
				Input: report.InputJSON(b.Input, names), AssignedBeforeRead: bugs.Irrelevant(), Store: sym.StoreString(b.State.Store, names),
				Steps: b.Replay.Steps, Reproduce: cmd})
		}
		if err := jsonout.Write(stdout, sh.Report(out, rep, opts, file, src)); err != nil {
			fmt.Fprintf(stderr, "certsym: %v\n", err)
			return exitInternal
		}
	} else {
		s := rep.Stats
		sum := report.Summary{Verdict: rep.Verdict.String(), Reason: rep.Reason, Bugs: len(rep.Bugs), Expanded: s.Expanded, Pruned: s.Pruned,
			Depth: s.MaxDepth, Queries: s.Solver.Queries, Sat: s.Solver.Sat, Unsat: s.Solver.Unsat, Unknown: s.Solver.Unknown,
			Seconds: time.Since(start).Seconds()}
		if generational {
			sum.WriteVerdict(stdout)
			fmt.Fprintf(stdout, "\n%s executed in all runs (as states), %s generated, %s unsat, longest run %s, %s (%d sat, %d unsat, %d unknown), %.2fs\n",
				report.Plural(s.Expanded, "concrete step"), report.Plural(s.Produced, "child input"), report.Plural(s.Pruned, "branch side"), report.Plural(s.MaxDepth, "step"),
				report.Plural(s.Solver.Queries, "solver query"), s.Solver.Sat, s.Solver.Unsat, s.Solver.Unknown, time.Since(start).Seconds())
		} else {
			sum.WriteText(stdout)
		}
		if merged != nil {
			fmt.Fprintln(stdout, merged)
		}
		art.writeCoverageText(stdout)
		sh.Text(stdout)
		for _, c := range cuts {
			fmt.Fprintf(stdout, "cut short: %s\n", c)
		}
		if tip != "" {
			fmt.Fprintln(stdout, tip)
		}
	}
	switch {
	case rep.Verdict == engine.VerdictBug:
		return exitBug
	case rep.Verdict == engine.VerdictSafe && len(cuts) == 0:
		return exitSafe
	}
	return exitUnknown
}

// parseInput reads an input given as x=3,y=-2,a=[5,0,7] for prog (inputs.Parse; flag is the
// flag's name, cmd the command's, for the messages): a value for each variable named, 0 for the
// others, and on stderr the names of those left 0 that the program may read before assigning
// them. ok is false after a usage error (reported on stderr).
func parseInput(cmd, flag, text string, prog *syntax.Program, stderr io.Writer) (spec.Store, bool) {
	store, given, err := inputs.Parse(text, prog)
	if err != nil {
		fmt.Fprintf(stderr, "certsym %s: --%s: %v\n", cmd, flag, err)
		return nil, false
	}
	if zero := inputs.Missing(prog, given); len(zero) > 0 {
		fmt.Fprintf(stderr, "certsym %s: no input given for %s: using 0\n", cmd, strings.Join(zero, ", "))
	}
	return store, true
}

// inputFlags are --input TEXT and --input-file FILE of exec and concolic: the input of the run,
// given on the command line or, too long for one, in a file.
type inputFlags struct{ text, file *string }

// addInputFlags registers --input (with its usage) and --input-file on fs.
func addInputFlags(fs *flag.FlagSet, usage string) inputFlags {
	return inputFlags{fs.String("input", "", usage),
		fs.String("input-file", "", "read the input from `FILE`: a JSON object as the input of --json, {\"x\": 3, \"a\": [5, 0, 7]} (a missing input is 0)")}
}

// given reports whether either flag is among the flags set.
func (f inputFlags) given(set map[string]bool) bool { return set["input"] || set["input-file"] }

// store is the input the flags give for prog (parseInput), 0 for every slot without them. ok is
// false after a usage error (reported on stderr): both flags given, an unreadable file, a file
// that is not a JSON object, or a bad input.
func (f inputFlags) store(cmd string, prog *syntax.Program, stderr io.Writer) (spec.Store, bool) {
	if *f.file == "" {
		return parseInput(cmd, "input", *f.text, prog, stderr)
	}
	if *f.text != "" {
		fmt.Fprintf(stderr, "certsym %s: --input and --input-file exclude each other\n", cmd)
		return nil, false
	}
	b, err := os.ReadFile(*f.file)
	if err != nil {
		fmt.Fprintf(stderr, "certsym %s: --input-file: %v\n", cmd, err)
		return nil, false
	}
	text := strings.TrimSpace(string(b))
	if !strings.HasPrefix(text, "{") {
		fmt.Fprintf(stderr, "certsym %s: --input-file %s: expected a JSON object, as {\"x\": 3, \"a\": [5, 0, 7]}\n", cmd, *f.file)
		return nil, false
	}
	return parseInput(cmd, "input-file "+*f.file, text, prog, stderr)
}
