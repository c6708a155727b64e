package main

import (
	"bytes"
	"flag"
	"fmt"
	"io"
	"strings"

	"certsym/cmd/certsym/internal/coverage"
	"certsym/cmd/certsym/internal/jsonout"
	"certsym/cmd/certsym/internal/outfile"
	"certsym/cmd/certsym/internal/record"
	"certsym/cmd/certsym/internal/report"
	"certsym/cmd/certsym/internal/sarif"
	"certsym/cmd/certsym/internal/testcase"
	"certsym/engine"
	"certsym/internal/budget"
	"certsym/spec/syntax"
	"certsym/sym"
)

// runArtifacts are the files and reports run writes besides its verdict: --tests DIR, --coverage,
// --lcov FILE, --sarif FILE and --dot FILE (with --dot-nodes N). They apply to the bug finder;
// with --loop-bound they are rejected.
type runArtifacts struct {
	tests, lcov, sarif, dot *string
	coverage                *bool
	dotNodes, maxTests      *int

	rec *record.Recorder
	cov *coverage.Report
}

// addRunArtifactFlags registers run's artifact flags on fs.
func addRunArtifactFlags(fs *flag.FlagSet) *runArtifacts {
	return &runArtifacts{
		tests:    fs.String("tests", "", "write one test case (JSON) per explored terminal path to `DIR`; certsym replay DIR reruns them"),
		maxTests: fs.Int("max-tests", 0, "write at most `N` test cases with --tests (0: no maximum); the message says how many were left out"),
		coverage: fs.Bool("coverage", false, "report the statement and branch coverage of the explored paths (text and JSON)"),
		lcov: fs.String("lcov", "", "write the coverage of the explored paths as an lcov tracefile to `FILE` "+
			"(lcov and genhtml hide its branch records unless asked: lcov --rc lcov_branch_coverage=1, genhtml --branch-coverage)"),
		sarif:    fs.String("sarif", "", "write the bugs as a SARIF 2.1.0 log to `FILE`"),
		dot:      fs.String("dot", "", "write the symbolic execution tree in Graphviz DOT to `FILE`"),
		dotNodes: fs.Int("dot-nodes", 500, "draw at most `N` states of the execution tree (--dot)"),
	}
}

// used lists the artifact flags given.
func (a *runArtifacts) used() []string {
	var u []string
	for _, f := range []struct {
		name string
		on   bool
	}{{"tests", *a.tests != ""}, {"coverage", *a.coverage}, {"lcov", *a.lcov != ""}, {"sarif", *a.sarif != ""}, {"dot", *a.dot != ""}} {
		if f.on {
			u = append(u, "--"+f.name)
		}
	}
	return u
}

// setup checks the artifact flags and installs the recorder they need in opts. ok is false after
// a usage error (reported on stderr).
func (a *runArtifacts) setup(prog *syntax.Program, bounded bool, opts *engine.Options, stderr io.Writer) bool {
	noPrune := opts.NoPrune
	u := a.used()
	if bounded && len(u) > 0 {
		fmt.Fprintf(stderr, "certsym run: %s: not available with --loop-bound (the bounded interpreter)\n", strings.Join(u, ", "))
		return false
	}
	if *a.maxTests < 0 {
		fmt.Fprintf(stderr, "certsym run: --max-tests must not be negative\n")
		return false
	}
	if *a.maxTests > 0 && *a.tests == "" {
		fmt.Fprintf(stderr, "certsym run: --max-tests applies with --tests DIR only\n")
		return false
	}
	if *a.dotNodes < 1 {
		fmt.Fprintf(stderr, "certsym run: --dot-nodes must be at least 1\n")
		return false
	}
	if len(u) == 0 {
		return true
	}
	if noPrune && (*a.tests != "" || *a.coverage || *a.lcov != "") {
		fmt.Fprintf(stderr, "certsym run: --tests, --coverage and --lcov need pruning (the satisfiability of each path): not available with --no-prune\n")
		return false
	}
	if !a.checkOutputs(stderr) {
		return false
	}
	a.rec = record.New(prog, *a.tests != "", *a.dot != "", *a.dotNodes)
	a.rec.LimitTests(*a.maxTests)
	opts.Observer = a.rec
	return true
}

// checkOutputs checks, before the run, that the output files and the test directory can be
// written (checkOutputFile, checkOutputDir): a run whose results could not be written is not
// started.
func (a *runArtifacts) checkOutputs(stderr io.Writer) bool {
	for _, f := range []struct{ flag, path string }{{"lcov", *a.lcov}, {"sarif", *a.sarif}, {"dot", *a.dot}} {
		if f.path != "" && !checkOutputFile("run", f.flag, f.path, stderr) {
			return false
		}
	}
	return *a.tests == "" || checkOutputDir("run", "tests", *a.tests, stderr)
}

// write writes the artifact files after a run and prepares the coverage report, each file whole
// or not at all (writeFileAtomic). It polls mon: once the partial report is due (an interrupt,
// the time or memory bound), the test cases not written yet and the files after them are left
// out, and mon's cuts say so. It returns 0, or the exit status of a failure (reported on
// stderr).
func (a *runArtifacts) write(file string, src []byte, args []string, rep *engine.Report, prog *syntax.Program, mon *budget.Monitor, stderr io.Writer) int {
	if a.rec == nil {
		return 0
	}
	mon.Enter("writing of the artifacts")
	a.rec.Finish()
	if *a.coverage || *a.lcov != "" {
		a.cov = a.rec.Coverage()
	}
	fail := func(flag string, err error) int {
		fmt.Fprintf(stderr, "certsym run: --%s: %v\n", flag, err)
		return exitUsage
	}
	var skipped []string
	due := func(flag string) bool {
		if mon.Due() {
			skipped = append(skipped, "--"+flag)
			return true
		}
		return false
	}
	defer func() {
		if len(skipped) > 0 {
			mon.Cut(fmt.Sprintf("%s: the writing of the artifacts: %s not written", mon.Stop(), strings.Join(skipped, ", ")))
		}
	}()
	if *a.tests != "" && !due("tests") {
		set := a.rec.TestCases(file, src)
		paths, err := testcase.Write(*a.tests, set, mon.Due)
		if err != nil {
			return fail("tests", err)
		}
		msg := fmt.Sprintf("certsym: wrote %s to %s (certsym replay %s)", report.Plural(len(paths), "test case"), *a.tests, report.ShellQuote(*a.tests))
		if set.Dups > 0 || set.NoModel > 0 {
			msg += fmt.Sprintf("; %d duplicate paths left out, %d paths without a model (solver unknown) left out", set.Dups, set.NoModel)
		}
		if set.Over > 0 {
			msg += fmt.Sprintf("; %s over --max-tests %d left out", report.Plural(set.Over, "test case"), *a.maxTests)
		}
		fmt.Fprintln(stderr, msg)
		if len(paths) < len(set.Cases) {
			mon.Cut(fmt.Sprintf("%s: the writing of the test cases: %d of %d written", mon.Stop(), len(paths), len(set.Cases)))
		}
	}
	if *a.lcov != "" && !due("lcov") {
		var b bytes.Buffer
		if err := a.cov.WriteLCOV(&b, file); err != nil {
			return fail("lcov", err)
		}
		if err := outfile.Write(*a.lcov, b.Bytes()); err != nil {
			return fail("lcov", err)
		}
	}
	if *a.dot != "" && !due("dot") {
		var b bytes.Buffer
		if err := a.rec.Tree().Write(&b, sym.SlotNames(prog)); err != nil {
			return fail("dot", err)
		}
		if err := outfile.Write(*a.dot, b.Bytes()); err != nil {
			return fail("dot", err)
		}
	}
	if *a.sarif != "" && !due("sarif") {
		exit := exitUnknown
		switch rep.Verdict {
		case engine.VerdictBug:
			exit = exitBug
		case engine.VerdictSafe:
			exit = exitSafe
		}
		if err := sarif.FromRun(file, invocation("run", args, exit), rep, sym.SlotNames(prog)).WriteFile(*a.sarif); err != nil {
			return fail("sarif", err)
		}
	}
	return 0
}

// coverageJSON is the coverage object of run --json, or nil without --coverage.
func (a *runArtifacts) coverageJSON() *coverage.JSON {
	if a.cov == nil || !*a.coverage {
		return nil
	}
	return a.cov.JSON()
}

// writeCoverageText prints the coverage report of run --coverage.
func (a *runArtifacts) writeCoverageText(w io.Writer) {
	if a.cov != nil && *a.coverage {
		a.cov.WriteText(w)
	}
}

// invocation is what a SARIF log says of the command certsym name args that exits with exit.
func invocation(name string, args []string, exit int) sarif.Invocation {
	return sarif.Invocation{Version: moduleVersion(), CommandLine: append([]string{"certsym", name}, args...), ExitCode: exit,
		Successful: exit != exitInternal && exit != exitUsage}
}

// loadFor is load for a command with a --json flag: the error still goes to stderr as load
// writes it, and with asJSON it is also printed on stdout as a jsonout.Error.
func loadFor(file string, asJSON bool, stdout, stderr io.Writer) (*syntax.Program, []byte, bool) {
	return loadChecked(file, asJSON, stdout, stderr, nil)
}

// loadChecked is loadFor that also rejects, as a syntax error, a program for which check (when
// not nil) returns an error.
func loadChecked(file string, asJSON bool, stdout, stderr io.Writer, check func(*syntax.Program) error) (*syntax.Program, []byte, bool) {
	var msg bytes.Buffer
	prog, src, ok := load(file, io.MultiWriter(stderr, &msg))
	if ok && check != nil {
		if err := check(prog); err != nil {
			fmt.Fprintf(io.MultiWriter(stderr, &msg), "%v\n", err)
			prog, src, ok = nil, nil, false
		}
	}
	if ok || !asJSON {
		return prog, src, ok
	}
	jsonout.Write(stdout, jsonout.ErrorOf(strings.TrimSpace(msg.String())))
	return nil, nil, false
}
