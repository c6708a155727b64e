// Package verifyhtml writes the reports of certsym verify from one model (Doc, which is also the
// JSON output): the text report (WriteText) and the self-contained HTML page (Render), which
// shows the program's source with each claim's line highlighted by status and each statement's
// line marked covered or not, each developer claim with one row per primitive claim (xSymExe,
// Section VI), the summary by kind, and each path as a test with its pre- and post-state.
package verifyhtml

import (
	"fmt"
	"html"
	"strings"

	"certsym/cmd/certsym/internal/report"
	"certsym/verify"
)

// statusColour is the highlight of each status in the HTML report.
var statusColour = map[verify.Status]string{
	verify.StatusDead: "#d0d0d0", verify.StatusVerified: "#b6e3b6", verify.StatusRefuted: "#f4a6a6",
	verify.StatusFaulty: "#f7b97c", verify.StatusRefutedQ: "#f9d0d0", verify.StatusFaultyQ: "#fbe0c4",
	verify.StatusUncovered: "#c9d7f2", verify.StatusVerifiedQ: "#dff2d0", verify.StatusIndeterminate: "#f3ec9c",
}

// statusRank orders statuses from worst to best, to pick the highlight of a line with several claims.
var statusRank = map[string]int{"REFUTED": 0, "FAULTY": 1, "REFUTED?": 2, "FAULTY?": 3, "INDETERMINATE": 4,
	"UNCOVERED": 5, "VERIFIED?": 6, "VERIFIED": 7, "DEAD": 8}

// cssClass is the CSS class of a status: st-verified, st-verified-maybe for VERIFIED?, ...
func cssClass(s string) string {
	return "st-" + strings.ToLower(strings.ReplaceAll(s, "?", "-maybe"))
}

// Render is the self-contained HTML report of the verification of file (source src). A small
// script (no external resources) fills in the totals from the page itself, so a reader, or the
// test that renders the page in a headless browser, sees what the browser computed.
func Render(file string, src []byte, rep *verify.Report) string {
	return RenderDoc(file, src, Model(file, rep))
}

// RenderDoc is Render from the report's model.
func RenderDoc(file string, src []byte, d Doc) string {
	var b strings.Builder
	esc := html.EscapeString
	b.WriteString("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n")
	fmt.Fprintf(&b, "<title>certsym verify %s</title>\n<style>\n", esc(file))
	b.WriteString(`body{font-family:sans-serif;margin:1.5em;color:#222}
pre.src{font-family:monospace;border:1px solid #ccc;padding:.5em 0;line-height:1.35}
.line{display:block;padding:0 .5em}
.ln{display:inline-block;width:3em;color:#888;text-align:right;margin-right:.5em}
.cov{display:inline-block;width:1.2em;text-align:center}
.covered .cov{color:#2a7d2a}.uncovered .cov{color:#b22}
.badge{font-size:.8em;margin-left:1em;padding:0 .4em;border-radius:3px;border:1px solid #999}
table{border-collapse:collapse;margin:1em 0}td,th{border:1px solid #ccc;padding:.2em .5em;vertical-align:top;text-align:left}
tr.prim td:first-child{padding-left:1.5em;font-family:monospace}
`)
	for _, r := range verify.StatusTable { // every status, in verify's order: the page is the same on every run
		fmt.Fprintf(&b, ".%s{background:%s}\n", cssClass(r.Status.String()), statusColour[r.Status])
	}
	b.WriteString("</style></head><body>\n")
	fmt.Fprintf(&b, "<h1>certsym verify: %s</h1>\n", esc(file))
	fmt.Fprintf(&b, "<p>%s. Overall status: <strong id=\"overall\" class=\"%s\">%s</strong>. "+
		"Conclusive: <span id=\"conclusive\">%d</span> of %d claims.</p>\n",
		esc(strings.ToUpper(d.bounds()[:1])+d.bounds()[1:]), cssClass(d.Overall), d.Overall, d.Conclusive, len(d.Claims))
	for _, c := range d.Cut {
		fmt.Fprintf(&b, "<p class=\"cut\">Cut short: %s</p>\n", esc(c))
	}
	b.WriteString("<p id=\"totals\">(totals are computed by the page's script)</p>\n")
	writeSource(&b, src, d)

	b.WriteString("<h2>Claims</h2>\n<table id=\"claims\"><tr><th>Type</th><th>Claim</th><th>S</th><th>Col</th><th>Explication</th><th>Evidence</th></tr>\n")
	for i, c := range d.Claims {
		fmt.Fprintf(&b, "<tr id=\"claim-%d\" class=\"claim %s\" data-line=\"%d\" data-kind=\"%s\" data-status=\"%s\" data-token=\"%s\" data-letters=\"%s\">"+
			"<td><a href=\"#L%d\">%s claim at line %d</a></td><td><code>%s</code></td><td class=\"status\">%s</td><td>%s</td><td>%s</td><td>%s</td></tr>\n",
			i+1, cssClass(c.Status), c.Line, c.Kind, esc(c.Status), esc(c.Token), esc(c.Letters), c.Line, c.Kind, c.Line,
			esc(describe(c)), esc(c.Status), esc(c.Letters), esc(c.Explication), claimEvidence(c))
		for _, p := range c.Primitives {
			fmt.Fprintf(&b, "<tr class=\"prim %s\" data-claim=\"%d\" data-name=\"%s\" data-token=\"%s\" data-letters=\"%s\"><td>%s</td><td><code>%s</code></td><td>%s</td><td>%s</td><td>%s</td><td>%s</td></tr>\n",
				cssClass(p.Status), i+1, esc(p.Name), esc(p.Token), esc(p.Letters), esc(p.Name), esc(p.Claim), esc(p.Token), esc(p.Letters),
				esc(p.Explication), primEvidence(p))
		}
	}
	b.WriteString("</table>\n")
	writeSummaryHTML(&b, d)
	writePaths(&b, d)
	b.WriteString("<h2>Statuses</h2>\n<table id=\"legend\"><tr><th>Status</th><th>Token</th><th>Collecting summary S (first matching row)</th></tr>\n")
	for _, r := range verify.StatusTable {
		fmt.Fprintf(&b, "<tr><td class=\"%s\">%s</td><td>%s</td><td>%s</td></tr>\n", cssClass(r.Status.String()), esc(r.Status.String()), Tokens[r.Status], esc(r.Condition))
	}
	fmt.Fprintf(&b, "</table>\n<p id=\"legend-text\">%s</p>\n", esc(LegendText))
	b.WriteString(`<script>
(function(){
  var rows=document.querySelectorAll("tr.claim"), counts={};
  rows.forEach(function(r){var s=r.getAttribute("data-status");counts[s]=(counts[s]||0)+1;});
  var parts=Object.keys(counts).sort().map(function(k){return k+": "+counts[k];});
  var cov=document.querySelectorAll(".line.covered").length, unc=document.querySelectorAll(".line.uncovered").length;
  var prims=document.querySelectorAll("tr.prim").length, paths=document.querySelectorAll("tr.path").length;
  document.getElementById("totals").textContent="Rendered totals: "+rows.length+" claims ("+parts.join(", ")+"), "+prims+" primitive claims, "+paths+" paths; lines covered "+cov+", not covered "+unc+".";
})();
</script>
</body></html>
`)
	return b.String()
}

func describe(c Claim) string {
	if c.Division != "" {
		return c.Claim + " (in " + c.Division + ")"
	}
	return c.Claim
}

// writeSource writes the source with each claim's line highlighted by the worst status of its
// claims and each statement's line marked covered or not.
func writeSource(b *strings.Builder, src []byte, d Doc) {
	esc := html.EscapeString
	lineClaims := map[int][]int{}
	for i, c := range d.Claims {
		lineClaims[c.Line] = append(lineClaims[c.Line], i)
	}
	lineCov := map[int]string{}
	for _, l := range d.CoveredLines {
		lineCov[l] = "covered"
	}
	for _, l := range d.UncoveredLines {
		lineCov[l] = "uncovered"
	}
	b.WriteString("<h2>Source</h2>\n<pre class=\"src\">")
	for i, text := range strings.Split(strings.TrimRight(string(src), "\n"), "\n") {
		n := i + 1
		classes := []string{"line"}
		mark := " "
		switch lineCov[n] {
		case "covered":
			classes, mark = append(classes, "covered"), "✓"
		case "uncovered":
			classes, mark = append(classes, "uncovered"), "✗"
		}
		attrs, badges := "", ""
		if cls := lineClaims[n]; len(cls) > 0 {
			worst := d.Claims[cls[0]].Status
			for _, k := range cls {
				c := d.Claims[k]
				if statusRank[c.Status] < statusRank[worst] {
					worst = c.Status
				}
				badges += fmt.Sprintf("<a class=\"badge %s\" href=\"#claim-%d\">%s %s</a>", cssClass(c.Status), k+1, c.Kind, c.Status)
			}
			classes = append(classes, "claim-line", cssClass(worst))
			attrs = fmt.Sprintf(" data-status=\"%s\"", esc(worst))
		}
		fmt.Fprintf(b, "<span id=\"L%d\" class=\"%s\" data-line=\"%d\"%s><span class=\"ln\">%d</span><span class=\"cov\" title=\"%s\">%s</span>%s%s</span>",
			n, strings.Join(classes, " "), n, attrs, n, lineCov[n], mark, esc(text), badges)
	}
	b.WriteString("</pre>\n")
	fmt.Fprintf(b, "<p id=\"coverage\">Statement coverage: %d of %d statements executed on some explored path.</p>\n", d.Covered, d.Statements)
}

// claimEvidence is the evidence of a developer claim (Section V).
func claimEvidence(c Claim) string {
	esc := html.EscapeString
	var ev []string
	if c.CounterexampleText != "" {
		ev = append(ev, "counterexample: <code class=\"cex\">"+esc(c.CounterexampleText)+"</code>; path condition <code>"+
			esc(c.PathCondition)+"</code>; "+esc(c.Replay))
	}
	for _, e := range c.Evidence {
		if e.Result == "TRUE" && e.InputText != "" {
			ev = append(ev, fmt.Sprintf("test (TRUE, <a href=\"#path-%d\">path %d</a>): <code class=\"test\">%s</code>; %s", e.Path, e.Path, esc(e.InputText), esc(e.Replay)))
		}
	}
	for _, l := range c.OverApproximation {
		ev = append(ev, fmt.Sprintf("over-approximation: the quantifier bound ran out in the assume at line %d (flag g)", l))
	}
	for _, l := range c.OverLoops {
		ev = append(ev, fmt.Sprintf("over-approximation: the loop at line %d runs by its invariant, its modified variables any values that satisfy it (flag g)", l))
	}
	for _, ct := range c.Cutoffs {
		if ct.Line == 0 {
			ev = append(ev, "cutoff: "+esc(ct.Reason))
			continue
		}
		ev = append(ev, fmt.Sprintf("cutoff at line %d (%s, %s, partial <a href=\"#path-%d\">path %d</a>); control-flow path: lines %s",
			ct.Line, esc(ct.Reason), report.Plural(ct.Paths, "path"), ct.Path, ct.Path, esc(report.LineList(ct.CFGPath))))
	}
	for _, u := range c.Unhandled {
		ev = append(ev, fmt.Sprintf("unhandled theory at line %d: %s", u.Line, esc(u.What)))
	}
	return strings.Join(ev, "<br>")
}

// primEvidence is the first evidence of each result of a primitive claim (PrimEvidenceText).
func primEvidence(p Prim) string {
	var ev []string
	for _, e := range p.Evidence {
		if e.Result != "CUTOFF" {
			ev = append(ev, html.EscapeString(e.Result+": "+PrimEvidenceText(e)))
		}
	}
	return strings.Join(ev, "<br>")
}

// writeSummaryHTML writes the summary by kind with the totals.
func writeSummaryHTML(b *strings.Builder, d Doc) {
	if len(d.Claims) == 0 {
		return
	}
	b.WriteString("<h2>Summary</h2>\n<table id=\"summary\"><tr><th>Kind</th><th>Total</th>")
	for _, s := range statusOrder() {
		fmt.Fprintf(b, "<th>%s</th>", html.EscapeString(Tokens[s]))
	}
	b.WriteString("</tr>\n")
	for _, row := range d.Summary {
		fmt.Fprintf(b, "<tr class=\"kind\" data-kind=\"%s\"><td>%s</td><td>%d</td>", row.Kind, row.Kind, row.Total)
		for _, s := range statusOrder() {
			fmt.Fprintf(b, "<td>%d</td>", row.Statuses[s.String()])
		}
		b.WriteString("</tr>\n")
	}
	b.WriteString("</table>\n")
}

// writePaths writes each path listed as a test: its input (pre-state) and the final store of its
// bounded concrete replay (post-state), and how many paths are not listed.
func writePaths(b *strings.Builder, d Doc) {
	if len(d.Paths) == 0 {
		return
	}
	esc := html.EscapeString
	b.WriteString("<h2>Paths</h2>\n<table id=\"paths\"><tr><th>Path</th><th>Pre-state (input)</th><th>Ends</th><th>Post-state</th><th>Lines</th><th>Path condition</th></tr>\n")
	for _, p := range d.Paths {
		var lines []string
		for _, l := range p.Lines {
			lines = append(lines, fmt.Sprint(l))
		}
		cut := ""
		if p.CutAt > 0 {
			cut = " (" + esc(cutNote(p)) + ")"
		}
		fmt.Fprintf(b, "<tr id=\"path-%d\" class=\"path\" data-path=\"%d\"><td>%d%s</td><td><code class=\"pre\">%s</code></td><td>%s</td><td><code class=\"post\">%s</code></td><td>%s</td><td><code>%s</code></td></tr>\n",
			p.ID, p.ID, p.ID, cut, esc(p.InputText), esc(p.Ends), esc(p.FinalText), strings.Join(lines, " "), esc(p.PathCondition))
	}
	b.WriteString("</table>\n")
	if more := d.PathCount - len(d.Paths); more > 0 {
		fmt.Fprintf(b, "<p id=\"paths-more\">%d more %s not listed (certsym verify --paths N lists the first N, --all-paths every one).</p>\n",
			more, report.Nouns(more, "path"))
	}
}
