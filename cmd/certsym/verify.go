package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"time"

	"certsym/cmd/certsym/internal/sarif"
	"certsym/cmd/certsym/internal/verifyhtml"
	"certsym/internal/budget"
	"certsym/verify"
)

// cmdVerify is certsym verify: explicating symbolic execution, a status and its evidence for
// every claim (verify.Verify).
func cmdVerify(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("verify", flag.ContinueOnError)
	loopBound := newCount(fs, "loop-bound", 3, "each loop may start at most `N` iterations each time it is entered")
	depthBound := newCount(fs, "depth-bound", 0, "cut off paths with more than `N` branch decisions (0: no bound)")
	abstract := fs.Bool("abstract-nonlinear", false, "encode products of two symbolic terms as an uninterpreted function with sign axioms")
	asJSON := fs.Bool("json", false, "print one JSON object on stdout")
	htmlFile := fs.String("html", "", "also write a self-contained HTML report to `FILE`")
	sarifFile := fs.String("sarif", "", "also write the claims as a SARIF 2.1.0 log to `FILE`")
	limits := addBudgetFlags(fs, "stop after `N` branch states (0: no bound); unexplored paths count as cutoffs",
		"bound each solver query to this `duration` (an unanswered query is DONTKNOW)")
	quiet := fs.Bool("quiet", false, "no progress reports")
	full := fs.Bool("full", false, "print path conditions whole (the text output abbreviates long ones; JSON is always whole)")
	workers := addWorkersFlag(fs, verifyWorkersUsage)
	file, code, ok := oneFile(fs, args, stderr)
	if !ok {
		return code
	}
	prog, src, ok := loadFor(file, *asJSON, stdout, stderr)
	if !ok {
		return exitUsage
	}
	mon := budget.NewMonitor()
	opts := verify.Options{LoopBound: *loopBound, DepthBound: *depthBound, AbstractNonlinear: *abstract,
		Limits: limits(), Monitor: mon, Workers: workers()}
	stopSignals := watchSignals(mon, stderr)
	stopTicker := func() {}
	if !*quiet {
		stopTicker = mon.Tick(time.Second, func(p budget.Snapshot) { fmt.Fprintln(stderr, progressLine(p, false)) })
	}
	rep := verify.Verify(prog, opts)
	stopTicker()
	stopSignals()
	file = prog.File
	doc := verifyhtml.Model(file, rep) // the one model of the JSON, text and HTML reports
	if *htmlFile != "" {
		if err := os.WriteFile(*htmlFile, []byte(verifyhtml.RenderDoc(file, src, doc)), 0o644); err != nil {
			fmt.Fprintf(stderr, "certsym verify: --html: %v\n", err)
			return exitUsage
		}
	}
	if *sarifFile != "" {
		if err := sarif.FromVerify(file, invocation("verify", args, verifyExit(rep)), rep).WriteFile(*sarifFile); err != nil {
			fmt.Fprintf(stderr, "certsym verify: --sarif: %v\n", err)
			return exitUsage
		}
	}
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		enc.SetEscapeHTML(false)
		if err := enc.Encode(doc); err != nil {
			fmt.Fprintf(stderr, "certsym: %v\n", err)
			return exitInternal
		}
	} else {
		verifyhtml.WriteText(stdout, file, doc, *full)
	}
	if len(rep.ReplayErrors) > 0 {
		for _, e := range rep.ReplayErrors {
			fmt.Fprintf(stderr, "certsym: internal error: a counterexample did not replay: %s\n", e)
		}
		return exitInternal
	}
	return verifyExit(rep)
}

// verifyExit is the exit status of a verification: 0 when every claim is VERIFIED or DEAD, 1 when
// some claim is REFUTED or FAULTY, 3 otherwise, and 3 after an interrupt (the report is partial,
// even for a program without claims).
func verifyExit(rep *verify.Report) int {
	if rep.Stopped == "interrupted" {
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
