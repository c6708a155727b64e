package main

import (
	"flag"
	"fmt"
	"io"

	"certsym/cmd/certsym/internal/flags"
	"certsym/cmd/certsym/internal/jsonout"
	"certsym/cmd/certsym/internal/pathout"
	"certsym/cmd/certsym/internal/watch"
	"certsym/concolic"
	"certsym/engine"
	"certsym/sym"
)

// cmdConcolic is certsym concolic FILE --input ...: the path of one input, its branch points and
// the inputs that flip them.
func cmdConcolic(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("concolic", flag.ContinueOnError)
	input := addInputFlags(fs, "the input whose path to trace, as x=3,y=-2 (required, or --input-file; a variable not given is 0)")
	maxSteps := flags.Count(fs, "max-steps", concolic.DefaultMaxSteps, "stop the run after `N` steps (or N quantifier instances evaluated)")
	asJSON := fs.Bool("json", false, "print one JSON object on stdout")
	full := fs.Bool("full", false, "print path conditions and stores whole (the text output abbreviates long ones)")
	queryTimeout := flags.Duration(fs, "query-timeout", flags.DefaultQueryTimeout, "bound each solver query to this `duration` (0: none); an unanswered query is reported unknown")
	rlimit := fs.Uint("rlimit", flags.DefaultRLimit, "Z3 resource limit of each solver query (0: none)")
	limits := flags.Time(fs)
	file, code, ok := oneFile(fs, args, stderr)
	if !ok {
		return code
	}
	if !input.given(setFlags(fs)) {
		fmt.Fprintf(stderr, "certsym concolic: --input is required (or --input-file): the input whose path to trace, e.g. --input x=1,y=2 (a variable not given is 0)\n")
		return exitUsage
	}
	if *maxSteps == 0 {
		fmt.Fprintf(stderr, "certsym concolic: --max-steps must be at least 1\n")
		return exitUsage
	}
	prog, _, ok := loadFor(file, *asJSON, stdout, stderr)
	if !ok {
		return exitUsage
	}
	store, ok := input.store("concolic", prog, stderr)
	if !ok {
		return exitUsage
	}
	lim := limits()
	mon, stop := watch.Start(lim, stderr, exitUnknown)
	defer stop()
	mon.Enter("concolic run and its flips")
	opts := concolic.Options{MaxSteps: *maxSteps, Monitor: mon}
	opts.Limits.QueryTimeout, opts.Limits.RLimit = *queryTimeout, *rlimit
	p, err := concolic.Trace(prog, store, opts)
	if err != nil {
		fmt.Fprintf(stderr, "certsym: %v\n", err)
		return exitInternal
	}
	mon.Enter("rendering of the report")
	due := func() string {
		if mon.Overdue() {
			return mon.Stop()
		}
		return ""
	}
	if *asJSON {
		obj := pathout.Object(p, sym.SlotNames(prog), due)
		if err := jsonout.Write(stdout, obj); err != nil {
			fmt.Fprintf(stderr, "certsym: %v\n", err)
			return exitInternal
		}
		return concolicExit(p, len(obj.Cut) > 0)
	}
	cut := pathout.WriteText(stdout, prog.File, p, sym.SlotNames(prog), *full, due)
	return concolicExit(p, cut)
}

// concolicExit is concolic's exit status, exec's for the run's outcome: 0 finished or blocked, 1
// error, 3 stopped by a bound; 3 also when the report was cut short (cut: flips not asked, branch
// points not shown).
func concolicExit(p *concolic.Path, cut bool) int {
	if cut && p.Outcome != concolic.Error {
		return exitUnknown
	}
	switch p.Outcome {
	case concolic.Finished, concolic.Blocked:
		return exitSafe
	case concolic.Error:
		return exitBug
	}
	return exitUnknown
}

// strategyNames lists the strategies --strategy accepts: the engine's (those engine.ParseStrategy
// knows among the candidates) and generational (package concolic).
func strategyNames() []string {
	var out []string
	for _, s := range []string{"bfs", "dfs", "coverage", "random-path"} {
		if _, err := engine.ParseStrategy(s); err == nil {
			out = append(out, s)
		}
	}
	return append(out, "generational")
}
