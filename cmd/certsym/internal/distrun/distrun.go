// Package distrun is the command line of distributed runs (package distrib): certsym worker URL,
// a worker process, and certsym run --distributed URL FILE, the coordinator, which prints the
// report of run --workers.
package distrun

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
	"time"

	"certsym/cmd/certsym/internal/buginput"
	"certsym/cmd/certsym/internal/flags"
	"certsym/cmd/certsym/internal/jsonout"
	"certsym/cmd/certsym/internal/report"
	"certsym/distrib"
	"certsym/engine"
	"certsym/internal/budget"
	"certsym/internal/fault"
	"certsym/spec/syntax"
	"certsym/spec/syntax/parser"
)

// The outcomes the commands return; package main maps them to exit statuses.
const (
	Bug      = "bug"
	Safe     = "safe"
	Unknown  = "unknown"
	Usage    = "usage"
	Internal = "internal"
	Done     = "done" // worker: ended by a signal or its idle time
)

// FaultEnv names the fault a faults build of certsym worker switches on (internal/fault), for
// the tests that show the kill test catches it.
const FaultEnv = "CERTSYM_FAULT"

// Prepare parses a run's program and makes the renderer of its bugs: each as run prints it
// (buginput.Record), the input repaired the same way.
func Prepare(spec *distrib.Spec) (*syntax.Program, distrib.Renderer, error) {
	name := spec.File
	if name == "-" {
		name = "<stdin>"
	}
	prog, err := parser.Parse(name, []byte(spec.Source))
	if err != nil {
		return nil, nil, err
	}
	return prog, renderer(prog, spec.File), nil
}

// renderer renders the bugs of prog (named file in the records) as run prints them.
func renderer(prog *syntax.Program, file string) distrib.Renderer {
	bugs := buginput.New(prog, "")
	return func(_ *engine.Engine, b *engine.Bug) (json.RawMessage, error) {
		bugs.Repair(b)
		rec, err := bugs.Record(file, b)
		if err != nil {
			return nil, err
		}
		return json.Marshal(&rec)
	}
}

// Worker is certsym worker URL: it takes jobs from the broker until SIGINT or SIGTERM (the job in
// hand goes back to the queue) or, with --idle, until none has come for that long.
func Worker(args []string, stdout, stderr io.Writer) string {
	fs := flag.NewFlagSet("worker", flag.ContinueOnError)
	name := fs.String("name", "", "this worker's `name` in the results and messages (default: HOST-PID)")
	idle := flags.Duration(fs, "idle", 0, "end after this `duration` without a job (0: run until SIGINT or SIGTERM)")
	wait := flags.Duration(fs, "connect-wait", time.Minute, "keep trying to reach the broker for this `duration`")
	quiet := fs.Bool("quiet", false, "no line per problem on stderr")
	pos, err := flags.Parse(fs, args, stderr)
	if errors.Is(err, flag.ErrHelp) {
		return "help"
	}
	if err != nil {
		return Usage
	}
	if len(pos) != 1 {
		fmt.Fprintf(stderr, "certsym worker: expected the broker's URL (nats://host:4222), found %d argument(s)\n", len(pos))
		return Usage
	}
	if *name == "" {
		host, _ := os.Hostname()
		*name = fmt.Sprintf("%s-%d", host, os.Getpid())
	}
	if f := os.Getenv(FaultEnv); f != "" {
		flt, ok := fault.Parse(f)
		if !ok || !fault.Enabled {
			fmt.Fprintf(stderr, "certsym worker: %s=%s: not a fault this binary can switch on (a build with -tags faults can)\n", FaultEnv, f)
			return Usage
		}
		fault.Switch(flt)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	b, err := distrib.Dial(pos[0], "certsym worker "+*name, *wait)
	if err != nil {
		fmt.Fprintf(stderr, "certsym worker: %v\n", err)
		return Unknown
	}
	defer b.Close()
	w := &distrib.Worker{B: b, Name: *name, Prepare: Prepare, Idle: *idle}
	if !*quiet {
		w.Log = stderr
	}
	if err := w.Run(ctx); err != nil && ctx.Err() == nil {
		fmt.Fprintf(stderr, "certsym worker: %v\n", err)
		return Unknown
	}
	return Done
}

// Run is certsym run --distributed URL FILE: the coordinator of the run of prog (read from file,
// its text src) with opts, on the broker of df. It prints run --workers's report (the bugs
// confirmed by the coordinator's own engine, distrib.Confirmer), text or (asJSON) JSON, and
// returns its outcome. mon is the command's monitor (signals, time bound).
func Run(df flags.DistributedFlags, file string, src []byte, prog *syntax.Program, opts engine.Options, mon *budget.Monitor,
	asJSON, full, quiet bool, stdout, stderr io.Writer) string {
	start := time.Now()
	b, err := distrib.Dial(*df.URL, "certsym run --distributed", 10*time.Second)
	if err != nil {
		fmt.Fprintf(stderr, "certsym run: --distributed: %v\n", err)
		return Unknown
	}
	defer b.Close()
	c := &distrib.Coordinator{B: b, Lease: *df.Lease, Mon: mon, Timeout: opts.Timeout, MaxStates: opts.MaxStates,
		Spec: distrib.Spec{File: file, Source: string(src), AllBugs: opts.AllBugs, NoPrune: opts.NoPrune,
			QueryTimeout: opts.QueryTimeout, RLimit: opts.RLimit, Budget: *df.Split},
		Prog: prog, Render: renderer(prog, file)}
	if !quiet {
		c.Progress = func(p distrib.Progress) {
			fmt.Fprintf(stderr, "certsym: %.0fs, %s done of %d known, %s expanded\n", p.Elapsed.Seconds(),
				report.Plural(p.Done, "job"), p.Jobs, report.Plural(p.States, "state"))
		}
	}
	rep, err := c.Run(context.Background())
	if err != nil {
		fmt.Fprintf(stderr, "certsym: %v\n", err)
		return Internal
	}
	var recs []buginput.Record
	for _, raw := range rep.Bugs {
		var r buginput.Record
		if err := json.Unmarshal(raw, &r); err != nil {
			fmt.Fprintf(stderr, "certsym: a bug record that does not read: %v\n", err)
			return Internal
		}
		recs = append(recs, r)
	}
	t := rep.Totals
	if asJSON {
		out := jsonout.Run{Verdict: rep.Verdict, States: t.States, Bugs: []jsonout.Bug{}, Reason: rep.Reason, SolverQueries: t.Queries}
		for _, r := range recs {
			out.Bugs = append(out.Bugs, jsonout.Bug{Line: r.Line, Column: r.Column, Kind: r.Kind, PathCondition: r.PathCondition,
				Input: r.InputJSON, AssignedBeforeRead: r.AssignedBeforeRead, Store: r.Store, Steps: r.Steps, Reproduce: r.Reproduce})
		}
		if err := jsonout.Write(stdout, out); err != nil {
			fmt.Fprintf(stderr, "certsym: %v\n", err)
			return Internal
		}
	} else {
		for i := range recs {
			recs[i].WriteText(stdout, full)
		}
		report.Summary{Verdict: rep.Verdict, Reason: rep.Reason, Bugs: len(recs), Expanded: t.States, Pruned: t.Pruned,
			Depth: rep.MaxDepth, Queries: t.Queries, Sat: t.Sat, Unsat: t.Unsat, Unknown: t.Unknown,
			Seconds: time.Since(start).Seconds()}.WriteText(stdout)
	}
	if !quiet {
		fmt.Fprintf(stderr, "certsym: distributed run: %s\n", report.Plural(rep.Jobs, "job"))
	}
	return rep.Verdict
}

// AddFlags declares run's options of a distributed run on fs (flags.Distributed with distrib's
// defaults).
func AddFlags(fs *flag.FlagSet) flags.DistributedFlags {
	return flags.Distributed(fs, distrib.DefaultLease, distrib.DefaultBudget)
}

// notDistributed are the options of run that a distributed run does not take, and why.
var notDistributed = map[string]string{
	"loop-bound": "the bounded interpreter", "strategy": "only the breadth-first search is distributed", "seed": "", "seed-input": "",
	"shard": "a static partition of its own", "shard-level": "", "burst": "the concrete fast path changes the breadth-first order",
	"workers": "each worker process expands its job alone", "merge": "a job is a subtree of paths, which merging joins", "solver-time": "a bound on one process's solver",
	"tests": "the artifacts record one process's states", "max-tests": "", "coverage": "", "lcov": "", "sarif": "", "dot": "",
}

// Check reports whether the options given (set: their names) suit a distributed run, and says
// why not on stderr. strategy is run --strategy's value (bfs may be given).
func Check(set map[string]bool, strategy string, stderr io.Writer) bool {
	if !set["distributed"] {
		for _, f := range []string{"lease", "split"} {
			if set[f] {
				fmt.Fprintf(stderr, "certsym run: --%s applies with --distributed only\n", f)
				return false
			}
		}
		return true
	}
	for f, why := range notDistributed {
		if set[f] && !(f == "strategy" && strategy == "bfs") {
			if why != "" {
				why = " (" + why + ")"
			}
			fmt.Fprintf(stderr, "certsym run: --%s does not apply with --distributed%s\n", f, why)
			return false
		}
	}
	return true
}
