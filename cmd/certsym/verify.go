package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"certsym/cmd/certsym/internal/report"
	"certsym/cmd/certsym/internal/sarif"
	"certsym/cmd/certsym/internal/verifyhtml"
	"certsym/internal/budget"
	"certsym/spec"
	"certsym/sym"
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
		Limits: limits(), Monitor: mon}
	stopSignals := watchSignals(mon, stderr)
	stopTicker := func() {}
	if !*quiet {
		stopTicker = mon.Tick(time.Second, func(p budget.Snapshot) { fmt.Fprintln(stderr, progressLine(p, false)) })
	}
	rep := verify.Verify(prog, opts)
	stopTicker()
	stopSignals()
	file = prog.File
	if *htmlFile != "" {
		if err := os.WriteFile(*htmlFile, []byte(verifyhtml.Render(file, src, rep)), 0o644); err != nil {
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
		if err := enc.Encode(verifyJSON(rep)); err != nil {
			fmt.Fprintf(stderr, "certsym: %v\n", err)
			return exitInternal
		}
	} else {
		writeVerifyText(stdout, file, rep, *full)
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

type jsonCutoff struct {
	Line    int    `json:"line,omitempty"`
	Reason  string `json:"reason"`
	Paths   int    `json:"paths,omitempty"`
	CFGPath []int  `json:"cfg_path,omitempty"`
}

type jsonUnhandled struct {
	Line int    `json:"line"`
	What string `json:"what"`
}

type jsonClaim struct {
	Line              int               `json:"line"`
	Column            int               `json:"column"`
	Kind              string            `json:"kind"`
	Claim             string            `json:"claim"`
	Division          string            `json:"division,omitempty"`
	Status            string            `json:"status"`
	Collected         []string          `json:"collected"`
	Counterexample    *report.Input     `json:"counterexample,omitempty"`
	PathCondition     string            `json:"path_condition,omitempty"`
	Replay            string            `json:"replay,omitempty"`
	Paths             int               `json:"paths"`
	Results           map[string]int    `json:"results"`
	FirstPaths        map[string]string `json:"first_paths,omitempty"`
	OverApproximation []int             `json:"over_approximation,omitempty"`
	Cutoffs           []jsonCutoff      `json:"cutoffs,omitempty"`
	Unhandled         []jsonUnhandled   `json:"unhandled,omitempty"`
}

type jsonVerify struct {
	Claims         []jsonClaim `json:"claims"`
	Overall        string      `json:"overall"`
	Reason         string      `json:"reason,omitempty"`
	Conclusive     int         `json:"conclusive"`
	Inconclusive   int         `json:"inconclusive"`
	LoopBound      int         `json:"loop_bound"`
	DepthBound     int         `json:"depth_bound"`
	Abstract       bool        `json:"abstract_nonlinear"`
	Statements     int         `json:"statements"`
	Covered        int         `json:"covered"`
	UncoveredLines []int       `json:"uncovered_lines"`
	report.CodeJSON
	Cutoffs       []jsonCutoff    `json:"cutoffs"`
	Nonlinear     []jsonUnhandled `json:"nonlinear,omitempty"`
	SolverQueries int             `json:"solver_queries"`
}

func verifyJSON(rep *verify.Report) jsonVerify {
	out := jsonVerify{Claims: []jsonClaim{}, Overall: rep.Overall.String(), Conclusive: rep.Conclusive,
		Inconclusive: len(rep.Claims) - rep.Conclusive, LoopBound: rep.Opts.LoopBound, DepthBound: rep.Opts.DepthBound,
		Abstract: rep.Opts.AbstractNonlinear, Statements: len(rep.Stmts), UncoveredLines: []int{}, Cutoffs: []jsonCutoff{},
		SolverQueries: rep.Solver.Queries, Reason: rep.Stopped}
	for _, s := range rep.Stmts {
		if rep.Covered[s] {
			out.Covered++
		}
	}
	cov := report.CodeCoverage(rep)
	out.UncoveredLines, out.CodeJSON = cov.UncoveredLines(), cov.JSON()
	for _, c := range rep.Cutoffs {
		out.Cutoffs = append(out.Cutoffs, jsonCutoff{Line: c.Line, Reason: c.Reason, Paths: c.Paths})
	}
	for _, u := range rep.Nonlinear {
		out.Nonlinear = append(out.Nonlinear, jsonUnhandled{u.Line, u.What})
	}
	for _, cl := range rep.Claims {
		jc := jsonClaim{Line: cl.Line, Column: cl.Col, Kind: cl.Kind.String(), Claim: cl.Text, Division: cl.Where, Status: cl.Status.String(),
			Collected: []string{}, Paths: cl.Paths, Results: map[string]int{}}
		for _, r := range cl.Summary.Results() {
			jc.Collected = append(jc.Collected, r.String())
			jc.Results[r.String()] = cl.Counts[r]
			if cl.Example[r] != "" {
				if jc.FirstPaths == nil {
					jc.FirstPaths = map[string]string{}
				}
				jc.FirstPaths[r.String()] = cl.Example[r]
			}
		}
		if w := cl.Counterexample(); w != nil {
			ci := report.ProgInput(rep.Prog, w.Input)
			jc.Counterexample = &ci
			jc.PathCondition, jc.Replay = w.PathCondition, w.Replay
		}
		for _, a := range cl.OverApprox {
			jc.OverApproximation = append(jc.OverApproximation, a.Line())
		}
		for _, c := range cl.Cutoffs {
			jc.Cutoffs = append(jc.Cutoffs, jsonCutoff{Line: c.Cutoff.Line, Reason: c.Cutoff.Reason, Paths: c.Cutoff.Paths, CFGPath: c.Path})
		}
		for _, u := range cl.Unhandled {
			jc.Unhandled = append(jc.Unhandled, jsonUnhandled{u.Line, u.What})
		}
		out.Claims = append(out.Claims, jc)
	}
	return out
}

var allStatuses = []verify.Status{verify.StatusDead, verify.StatusVerified, verify.StatusRefuted, verify.StatusFaulty,
	verify.StatusRefutedQ, verify.StatusFaultyQ, verify.StatusUncovered, verify.StatusVerifiedQ, verify.StatusIndeterminate}

// writeVerifyText prints the report: the claims, a summary table by kind and status in the style of
// SPARK's POGS summary, the explication of every claim, and the overall status.
func writeVerifyText(w io.Writer, file string, rep *verify.Report, full bool) {
	names := sym.SlotNames(rep.Prog)
	products := "products exact"
	if rep.Opts.AbstractNonlinear {
		products = "products abstracted (sign axioms)"
	}
	depth := "no depth bound"
	if rep.Opts.DepthBound > 0 {
		depth = fmt.Sprintf("depth bound %d", rep.Opts.DepthBound)
	}
	fmt.Fprintf(w, "certsym verify %s: explicating symbolic execution (loop bound %d, %s, %s)\n\n", file, rep.Opts.LoopBound, depth, products)
	if len(rep.Claims) == 0 {
		fmt.Fprintf(w, "The program makes no claim (no assert, no division).\n\n")
	} else {
		fmt.Fprintf(w, "%-7s %-9s %-14s %-28s %s\n", "Line:Col", "Kind", "Status", "Collected", "Claim")
		for _, cl := range rep.Claims {
			fmt.Fprintf(w, "%-7s %-9s %-14s %-28s %s\n", fmt.Sprintf("%d:%d", cl.Line, cl.Col), cl.Kind, cl.Status, cl.Summary, cl.Describe())
		}
		// POGS-style totals: one row per claim kind, one column per status present.
		var cols []verify.Status
		for _, s := range allStatuses {
			for _, cl := range rep.Claims {
				if cl.Status == s {
					cols = append(cols, s)
					break
				}
			}
		}
		fmt.Fprintf(w, "\nSummary of claims\n%-10s %5s", "Kind", "Total")
		for _, s := range cols {
			fmt.Fprintf(w, " %*s", max(len(s.String()), 4), s)
		}
		fmt.Fprintln(w)
		row := func(label string, keep func(*verify.Claim) bool) {
			n := 0
			for _, cl := range rep.Claims {
				if keep(cl) {
					n++
				}
			}
			fmt.Fprintf(w, "%-10s %5d", label, n)
			for _, s := range cols {
				k := 0
				for _, cl := range rep.Claims {
					if keep(cl) && cl.Status == s {
						k++
					}
				}
				fmt.Fprintf(w, " %*d", max(len(s.String()), 4), k)
			}
			fmt.Fprintln(w)
		}
		row("assert", func(cl *verify.Claim) bool { return cl.Kind == verify.ClaimAssert })
		row("division", func(cl *verify.Claim) bool { return cl.Kind == verify.ClaimDivision })
		if len(rep.Prog.Arrays) > 0 {
			row("index", func(cl *verify.Claim) bool { return cl.Kind == verify.ClaimIndex })
		}
		row("Totals", func(*verify.Claim) bool { return true })
		fmt.Fprintf(w, "%-10s %5s", "% Totals", "")
		for _, st := range cols {
			k := 0
			for _, cl := range rep.Claims {
				if cl.Status == st {
					k++
				}
			}
			fmt.Fprintf(w, " %*s", max(len(st.String()), 4), fmt.Sprintf("%.0f%%", 100*float64(k)/float64(len(rep.Claims))))
		}
		fmt.Fprintln(w)
	}
	fmt.Fprintf(w, "\nExplication\n")
	for _, cl := range rep.Claims {
		fmt.Fprintf(w, "\n%s:%d:%d, %s claim %s: %s\n", file, cl.Line, cl.Col, cl.Kind, cl.Describe(), cl.Status)
		fmt.Fprintf(w, "  %s\n", report.ExplainPaths(cl, full))
		if w0 := cl.Counterexample(); w0 != nil {
			fmt.Fprintf(w, "  counterexample: %s\n    path condition: %s\n    %s\n", report.InputText(w0.Input, names),
				report.Abbrev(w0.PathCondition, " and ", "conjunct", full), w0.Replay)
			if cl.Status == verify.StatusRefuted || cl.Status == verify.StatusFaulty {
				fmt.Fprintf(w, "    reproduce: %s\n", report.ReproduceInput(file, w0.Input, names))
			}
		}
		for _, a := range cl.OverApprox {
			fmt.Fprintf(w, "  over-approximation entered at the assume at line %d (its product is abstracted)\n", a.Line())
		}
		for _, c := range cl.Cutoffs {
			if c.Cutoff.Stmt == nil {
				fmt.Fprintf(w, "  cutoff: %s\n", c.Cutoff.Reason)
				continue
			}
			fmt.Fprintf(w, "  cutoff at line %d (%s, %s); control-flow path to the claim: lines %s\n",
				c.Cutoff.Line, c.Cutoff.Reason, report.Plural(c.Cutoff.Paths, "path"), report.LineList(c.Path))
		}
		for _, u := range cl.Unhandled {
			fmt.Fprintf(w, "  unhandled theory at line %d: %s\n", u.Line, u.What)
		}
	}
	fmt.Fprintln(w)
	for _, c := range rep.Cutoffs {
		if c.Stmt != nil {
			fmt.Fprintf(w, "cutoff point: line %d, %s, %s\n", c.Line, c.Reason, report.Plural(c.Paths, "path"))
		} else {
			fmt.Fprintf(w, "cutoff: %s\n", c.Reason)
		}
	}
	for _, u := range rep.Nonlinear {
		fmt.Fprintf(w, "nonlinear: line %d, %s\n", u.Line, u.What)
	}
	covered := 0
	for _, s := range rep.Stmts {
		if rep.Covered[s] {
			covered++
		}
	}
	fmt.Fprintf(w, "coverage: %d of %d statements executed on some explored path", covered, len(rep.Stmts))
	cov := report.CodeCoverage(rep)
	if un := cov.UncoveredLines(); len(un) > 0 {
		var ls []string
		for _, l := range un {
			ls = append(ls, fmt.Sprint(l))
		}
		fmt.Fprintf(w, " (never executed: line %s)", strings.Join(ls, ", "))
	}
	fmt.Fprintln(w)
	cov.WriteText(w)
	r := rep.Results
	sq := rep.Solver
	fmt.Fprintf(w, "exploration: %s (%d normal, %d error, %d infeasible, %d cut off), %s (%d sat, %d unsat, %d unknown), %.2fs\n",
		report.Plural(r[0]+r[1]+r[2]+r[3], "path"), r[spec.Normal], r[spec.Error], r[spec.Infeasible], r[spec.Incomplete],
		report.Plural(sq.Queries, "solver query"), sq.Sat, sq.Unsat, sq.Unknown, rep.Elapsed.Seconds())
	if rep.Stopped != "" {
		fmt.Fprintf(w, "stopped early: %s\n", rep.Stopped)
	}
	fmt.Fprintf(w, "\noverall status: %s\n", rep.Overall)
	n := len(rep.Claims)
	pct := 100.0
	if n > 0 {
		pct = 100 * float64(rep.Conclusive) / float64(n)
	}
	fmt.Fprintf(w, "conclusive: %d of %d claims (%.0f%%), inconclusive: %d\n", rep.Conclusive, n, pct, n-rep.Conclusive)
}
