package main

import (
	"flag"
	"fmt"
	"io"
	"time"

	"certsym/cmd/certsym/internal/flags"
	"certsym/cmd/certsym/internal/jsonout"
	"certsym/cmd/certsym/internal/outfile"
	"certsym/cmd/certsym/internal/report"
	"certsym/cmd/certsym/internal/sarif"
	"certsym/cmd/certsym/internal/verifyhtml"
	"certsym/cmd/certsym/internal/watch"
	"certsym/internal/budget"
	"certsym/verify"
)

// cmdVerify is certsym verify: explicating symbolic execution, a status and its evidence for
// every claim (verify.Verify).
func cmdVerify(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("verify", flag.ContinueOnError)
	loopBound := flags.Count(fs, "loop-bound", 3, "each loop may start at most `N` iterations each time it is entered")
	depthBound := flags.Count(fs, "depth-bound", 0, "cut off paths with more than `N` branch decisions (0: no bound)")
	invLoops := false
	fs.Func("loops", "how loops with invariant clauses run: `MODE` unroll (default; up to --loop-bound) or invariant (by the invariant transition)", func(v string) error {
		switch v {
		case "unroll", "invariant":
			invLoops = v == "invariant"
			return nil
		}
		return fmt.Errorf("want unroll or invariant, got %q", v)
	})
	abstract := fs.Bool("abstract-nonlinear", false, "encode products of two symbolic terms as an uninterpreted function with sign axioms")
	asJSON := fs.Bool("json", false, "print one JSON object on stdout")
	htmlFile := fs.String("html", "", "also write a self-contained HTML report to `FILE`")
	sarifFile := fs.String("sarif", "", "also write the claims as a SARIF 2.1.0 log to `FILE`")
	limits := flags.Budget(fs, "stop after `N` branch states (0: no bound); unexplored paths count as cutoffs",
		"bound each solver query to this `duration` (an unanswered query is DONTKNOW)")
	quiet := fs.Bool("quiet", false, "no progress reports")
	full := fs.Bool("full", false, "print path conditions whole (the text output abbreviates long ones; JSON is always whole)")
	maxPaths := flags.Count(fs, "paths", verifyhtml.DefaultPaths,
		"list the first `N` paths, each with its test, in the text, JSON and HTML reports; the others are only counted (0: every path)")
	allPaths := fs.Bool("all-paths", false, fmt.Sprintf("list every path (as --paths 0); the first %d have a test", verify.MaxPathTests))
	workers := flags.Workers(fs, flags.VerifyWorkersUsage)
	file, code, ok := oneFile(fs, args, stderr)
	if !ok {
		return code
	}
	if (*htmlFile != "" && !checkOutputFile("verify", "html", *htmlFile, stderr)) ||
		(*sarifFile != "" && !checkOutputFile("verify", "sarif", *sarifFile, stderr)) {
		return exitUsage
	}
	prog, src, ok := loadFor(file, *asJSON, stdout, stderr)
	if !ok {
		return exitUsage
	}
	lim := limits()
	// The monitor watches every phase: the exploration (with the claim checks and their
	// replays), the replay of the tests, the rendering of the report and the writing of the
	// files poll it, and the signals interrupt it until the report is printed.
	mon, stopSignals := watch.Start(lim, stderr, exitUnknown)
	defer stopSignals()
	opts := verify.Options{LoopBound: *loopBound, DepthBound: *depthBound, AbstractNonlinear: *abstract,
		InvariantLoops: invLoops, Limits: lim, Monitor: mon, Workers: workers(), MaxPaths: *maxPaths}
	if *allPaths {
		opts.MaxPaths = 0
	}
	stopTicker := func() {}
	if !*quiet {
		stopTicker = mon.Tick(time.Second, func(p budget.Snapshot) { fmt.Fprintln(stderr, report.Progress(p, false)+phaseNote(mon)) })
	}
	defer stopTicker()
	rep := verify.Verify(prog, opts)
	file = prog.File
	mon.Enter("rendering of the report")
	doc := verifyhtml.ModelWithin(file, rep, func() string {
		if mon.Overdue() {
			return mon.Stop()
		}
		return ""
	}) // the one model of the JSON, text and HTML reports
	stopTicker()
	mon.Enter("writing of the report files")
	if *htmlFile != "" {
		if err := outfile.Write(*htmlFile, []byte(verifyhtml.RenderDoc(file, src, doc))); err != nil {
			fmt.Fprintf(stderr, "certsym verify: --html: %v\n", err)
			return exitUsage
		}
	}
	if *sarifFile != "" {
		if err := sarif.FromVerify(file, invocation("verify", args, verifyExit(rep, doc)), rep).WriteFile(*sarifFile); err != nil {
			fmt.Fprintf(stderr, "certsym verify: --sarif: %v\n", err)
			return exitUsage
		}
	}
	if *asJSON {
		if err := jsonout.Write(stdout, doc); err != nil {
			fmt.Fprintf(stderr, "certsym: %v\n", err)
			return exitInternal
		}
	} else {
		verifyhtml.WriteText(stdout, file, doc, *full)
	}
	if len(rep.ReplayErrors) > 0 {
		for _, e := range rep.ReplayErrors {
			fmt.Fprintf(stderr, "certsym: internal error: %s\n", e)
		}
		return exitInternal
	}
	return verifyExit(rep, doc)
}

// phaseNote names the phase of a progress line after the exploration ("" during it).
func phaseNote(mon *budget.Monitor) string {
	if p := mon.Phase(); p != "" && p != "exploration" {
		return ", " + p
	}
	return ""
}

// verifyExit is the exit status of a verification: 0 when every claim is VERIFIED or DEAD, 1 when
// some claim is REFUTED or FAULTY, 3 otherwise, and 3 after an interrupt or when a phase was cut
// short (the report doc is partial, even for a program without claims).
func verifyExit(rep *verify.Report, doc verifyhtml.Doc) int {
	if rep.Stopped == "interrupted" || len(doc.Cut) > 0 {
		return exitUnknown
	}
	switch rep.Overall {
	case verify.StatusVerified, verify.StatusDead:
		return exitSafe
	case verify.StatusRefuted, verify.StatusFaulty:
		return exitBug
	}
	return exitUnknown
}
