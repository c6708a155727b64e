package verifyhtml

import (
	"fmt"
	"io"
	"strings"

	"certsym/cmd/certsym/internal/report"
	"certsym/verify"
)

// header is the first line of the text report and the HTML page's description of the bounds.
func (d *Doc) bounds() string {
	products := "products exact"
	if d.Abstract {
		products = "products abstracted (sign axioms)"
	}
	depth := "no depth bound"
	if d.DepthBound > 0 {
		depth = fmt.Sprintf("depth bound %d", d.DepthBound)
	}
	if d.InvariantLoops {
		return fmt.Sprintf("loops with invariant clauses by their invariants, the others loop bound %d, %s, %s", d.LoopBound, depth, products)
	}
	return fmt.Sprintf("loop bound %d, %s, %s", d.LoopBound, depth, products)
}

// statusOrder are the statuses in the order of the interpretation table (the summary's columns).
func statusOrder() []verify.Status {
	var out []verify.Status
	for _, r := range verify.StatusTable {
		out = append(out, r.Status)
	}
	return out
}

// WriteText prints the report d of the verification of file: the overall status first; each
// developer claim with its overall status and its primitive claims' rows (type, status token,
// collected letters, explication), then its evidence; the summary by kind with the totals; the
// cutoff points, coverage and the exploration's counts; last, the paths listed (the first ones,
// verify.Options.MaxPaths), each as a test, with how many are not. Path conditions are
// abbreviated unless full.
func WriteText(w io.Writer, file string, d Doc, full bool) {
	fmt.Fprintf(w, "certsym verify %s: explicating symbolic execution (%s)\n\n", file, d.bounds())
	writeVerdict(w, d)
	fmt.Fprintln(w)
	if len(d.Claims) == 0 {
		fmt.Fprintf(w, "The program makes no claim (no assert, no division, no element access).\n\n")
	}
	for i, c := range d.Claims {
		origin := "implicit"
		if c.Explicit {
			origin = "explicit"
		}
		what := c.Claim
		if c.Division != "" {
			what += " (in " + c.Division + ")"
		}
		fmt.Fprintf(w, "Claim %d, %s:%d:%d, %s claim %s: %s (%s)\n", i+1, file, c.Line, c.Column, c.Kind, what, c.Status, origin)
		fmt.Fprintf(w, "  %-20s %-3s %-8s %s\n", "Type", "S", "Col", "Explication")
		for _, p := range c.Primitives {
			fmt.Fprintf(w, "  %-20s %-3s %-8s %s\n", p.Name, p.Token, p.Letters, p.Explication)
		}
		fmt.Fprintf(w, "  Overall Status: %s (collected %s; %s)\n", c.Token, c.Letters, c.Explication)
		writeClaimEvidence(w, c, full)
		writePrimEvidence(w, c)
		fmt.Fprintln(w)
	}
	if len(d.Claims) > 0 {
		writeSummary(w, d)
		fmt.Fprintf(w, "\nLegend. %s\n\n", LegendText)
	}
	for _, c := range d.Cutoffs {
		if c.Line > 0 {
			fmt.Fprintf(w, "cutoff point: line %d, %s, %s (partial path %d)\n", c.Line, c.Reason, report.Plural(c.Paths, "path"), c.Path)
		} else {
			fmt.Fprintf(w, "cutoff: %s\n", c.Reason)
		}
	}
	for _, u := range d.Nonlinear {
		fmt.Fprintf(w, "nonlinear: line %d, %s\n", u.Line, u.What)
	}
	fmt.Fprintf(w, "coverage: %d of %d statements executed on some explored path", d.Covered, d.Statements)
	if len(d.UncoveredLines) > 0 {
		var ls []string
		for _, l := range d.UncoveredLines {
			ls = append(ls, fmt.Sprint(l))
		}
		fmt.Fprintf(w, " (never executed: line %s)", strings.Join(ls, ", "))
	}
	fmt.Fprintln(w)
	d.CodeJSON.WriteText(w)
	r, sq := d.Results, d.solver
	fmt.Fprintf(w, "exploration: %s, by how each ended (%d normal, %d error, %d infeasible, %d cut off), %s (%d sat, %d unsat, %d unknown), %.2fs\n",
		report.Plural(r[0]+r[1]+r[2]+r[3], "symbolic path"), r[0], r[1], r[2], r[3],
		report.Plural(sq.Queries, "solver query"), sq.Sat, sq.Unsat, sq.Unknown, d.elapsed)
	if d.Reason != "" {
		fmt.Fprintf(w, "stopped early: %s\n", d.Reason)
	}
	for _, c := range d.Cut {
		fmt.Fprintf(w, "cut short: %s\n", c)
	}
	writeTextPaths(w, d, full)
}

// cutNote says where the exploration cut off path p, the partial path of a cutoff point, and by
// which bound ("cut off there by the loop bound 3").
func cutNote(p Path) string {
	bound, _, _ := strings.Cut(p.CutReason, ":")
	if p.CutAt == p.Line {
		return "cut off there by the " + bound
	}
	return fmt.Sprintf("cut off at line %d by the %s", p.CutAt, bound)
}

// writeVerdict prints the overall status and the conclusive ratio, and for a program without
// claims what the status rests on.
func writeVerdict(w io.Writer, d Doc) {
	fmt.Fprintf(w, "overall status: %s\n", d.Overall)
	switch {
	case len(d.Claims) > 0:
	case d.Reason != "":
		fmt.Fprintf(w, "  the program makes no claim, but the exploration was stopped early (%s): paths were left unexplored\n", d.Reason)
	default:
		fmt.Fprintf(w, "  the program makes no claim: nothing can fail\n")
	}
	n := len(d.Claims)
	pct := 100.0
	if n > 0 {
		pct = 100 * float64(d.Conclusive) / float64(n)
	}
	fmt.Fprintf(w, "conclusive: %d of %d claims (%.0f%%), inconclusive: %d\n", d.Conclusive, n, pct, d.Inconclusive)
	if len(d.Cut) > 0 {
		fmt.Fprintf(w, "the report is partial: %s cut short (below)\n", report.Plural(len(d.Cut), "phase"))
	}
}

// writeTextPaths prints the paths listed, each as a test, and how many paths are not listed.
func writeTextPaths(w io.Writer, d Doc, full bool) {
	if d.PathCount == 0 {
		return
	}
	listed := fmt.Sprintf("all %d listed", d.PathCount)
	if len(d.Paths) < d.PathCount {
		listed = fmt.Sprintf("the first %d of %d listed", len(d.Paths), d.PathCount)
	}
	fmt.Fprintf(w, "\nPaths, numbered where each first reaches a claim or a cutoff point (the ids the explications cite; %s).\n", listed)
	fmt.Fprintf(w, "  A numbered path runs from the start to that point, and the exploration's symbolic paths continue it; its test\n")
	fmt.Fprintf(w, "  (a counterexample of a claim that fails on the path, else a model of the path's condition) runs to its end\n")
	fmt.Fprintf(w, "  on the bounded concrete semantics: its input, how the run ends, the final store.\n")
	for _, p := range d.Paths {
		fmt.Fprintf(w, "  Path %d (first at line %d", p.ID, p.Line)
		if p.CutAt > 0 {
			fmt.Fprintf(w, "; %s", cutNote(p))
		}
		fmt.Fprint(w, "): ")
		if p.InputText == "" {
			fmt.Fprintf(w, "%s\n", p.Ends)
		} else {
			fmt.Fprintf(w, "input %s; ends %s; final %s\n", p.InputText, p.Ends, p.FinalText)
		}
		fmt.Fprintf(w, "    path condition: %s\n", report.Abbrev(p.PathCondition, " and ", "conjunct", full))
	}
	if more := d.PathCount - len(d.Paths); more > 0 {
		fmt.Fprintf(w, "  … %d more %s not listed (--paths N lists the first N, --all-paths every one)\n", more, report.Nouns(more, "path"))
	}
}

// writeClaimEvidence prints the evidence of a developer claim's results (Section V).
func writeClaimEvidence(w io.Writer, c Claim, full bool) {
	if c.Paths > 0 {
		var parts []string
		for _, r := range c.Collected {
			if r == "CUTOFF" {
				continue
			}
			parts = append(parts, fmt.Sprintf("%s %d (first on the path %s)", r, c.Results[r], report.Abbrev(c.FirstPaths[r], " and ", "conjunct", full)))
		}
		fmt.Fprintf(w, "  evaluated %s on explored paths: %s\n", report.Plural(c.Paths, "time"), strings.Join(parts, "; "))
	} else if len(c.Cutoffs) > 0 {
		fmt.Fprintf(w, "  no explored path reaches the claim; cut-off paths may\n")
	} else {
		fmt.Fprintf(w, "  no explored path reaches the claim, and no cutoff can: dead code\n")
	}
	for _, e := range c.Evidence {
		switch e.Result {
		case "TRUE":
			if e.InputText != "" {
				fmt.Fprintf(w, "  test (TRUE, path %d): %s; %s\n", e.Path, e.InputText, e.Replay)
			} else {
				fmt.Fprintf(w, "  TRUE on path %d: %s\n", e.Path, e.Replay)
			}
		case "DONTKNOW":
			fmt.Fprintf(w, "  DONTKNOW on path %d\n", e.Path)
		}
	}
	if c.CounterexampleText != "" {
		fmt.Fprintf(w, "  counterexample: %s\n    path condition: %s\n    %s\n", c.CounterexampleText,
			report.Abbrev(c.PathCondition, " and ", "conjunct", full), c.Replay)
		if c.Reproduce != "" {
			fmt.Fprintf(w, "    reproduce: %s\n", c.Reproduce)
		}
	}
	for _, l := range c.OverApproximation {
		fmt.Fprintf(w, "  over-approximation: the quantifier bound ran out in the assume at line %d (flag g)\n", l)
	}
	for _, l := range c.OverLoops {
		fmt.Fprintf(w, "  over-approximation: the loop at line %d runs by its invariant, its modified variables any values that satisfy it (flag g)\n", l)
	}
	for _, ct := range c.Cutoffs {
		if ct.Line == 0 {
			fmt.Fprintf(w, "  cutoff: %s\n", ct.Reason)
			continue
		}
		fmt.Fprintf(w, "  cutoff at line %d (%s, %s, partial path %d); control-flow path to the claim: lines %s\n",
			ct.Line, ct.Reason, report.Plural(ct.Paths, "path"), ct.Path, report.LineList(ct.CFGPath))
	}
	for _, u := range c.Unhandled {
		fmt.Fprintf(w, "  unhandled theory at line %d: %s\n", u.Line, u.What)
	}
}

// writeSummary prints the summary by kind (Section VI, Figure 3): the explicit claims (asserts),
// the implicit ones (the statements' checks) and the totals, with the count of each status.
func writeSummary(w io.Writer, d Doc) {
	fmt.Fprintf(w, "Summary of claims\n%-10s %5s", "Kind", "Total")
	for _, s := range statusOrder() {
		fmt.Fprintf(w, " %4s", Tokens[s])
	}
	fmt.Fprintln(w)
	for _, row := range d.Summary {
		fmt.Fprintf(w, "%-10s %5d", strings.ToUpper(row.Kind[:1])+row.Kind[1:], row.Total)
		for _, s := range statusOrder() {
			fmt.Fprintf(w, " %4d", row.Statuses[s.String()])
		}
		fmt.Fprintln(w)
	}
	total := d.Summary[len(d.Summary)-1]
	fmt.Fprintf(w, "%-10s %5s", "% Total", "")
	for _, s := range statusOrder() {
		fmt.Fprintf(w, " %4s", fmt.Sprintf("%.0f%%", 100*float64(total.Statuses[s.String()])/float64(total.Total)))
	}
	fmt.Fprintln(w)
}

// writePrimEvidence prints the drill-down of Section V: for each primitive claim, the first
// evidence of each of its results (the path, the test or counterexample input, what the replay
// showed, the over-approximation and unhandled-theory locations).
func writePrimEvidence(w io.Writer, c Claim) {
	for _, p := range c.Primitives {
		for _, e := range p.Evidence {
			if e.Result == "CUTOFF" {
				continue
			}
			fmt.Fprintf(w, "  %s %s: %s", p.Name, e.Result, PrimEvidenceText(e))
			fmt.Fprintln(w)
		}
	}
}

// PrimEvidenceText is the first evidence of one result of a primitive claim, as the text and
// HTML reports write it.
func PrimEvidenceText(e Evidence) string {
	s := fmt.Sprintf("%s, first on path %d", report.Plural(e.Count, "evaluation"), e.Path)
	if e.InputText != "" {
		s += ", input " + e.InputText
	}
	if e.Replay != "" {
		s += "; " + e.Replay
	}
	for _, l := range e.Over {
		s += fmt.Sprintf("; over-approximation at line %d", l)
	}
	for _, u := range e.Unhandled {
		s += fmt.Sprintf("; unhandled theory at line %d: %s", u.Line, u.What)
	}
	return s
}
