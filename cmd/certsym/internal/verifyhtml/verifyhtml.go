// Package verifyhtml writes the self-contained HTML report of certsym verify --html FILE: the
// program's source with each claim's line highlighted by status and each statement's line marked
// covered or not, the evidence of every claim, and the table of statuses.
package verifyhtml

import (
	"certsym/sym"
	"fmt"
	"html"
	"strings"

	"certsym/cmd/certsym/internal/report"
	"certsym/spec"
	"certsym/verify"
)

// statusColour is the highlight of each status in the HTML report.
var statusColour = map[verify.Status]string{
	verify.StatusDead: "#d0d0d0", verify.StatusVerified: "#b6e3b6", verify.StatusRefuted: "#f4a6a6",
	verify.StatusFaulty: "#f7b97c", verify.StatusRefutedQ: "#f9d0d0", verify.StatusFaultyQ: "#fbe0c4",
	verify.StatusUncovered: "#c9d7f2", verify.StatusVerifiedQ: "#dff2d0", verify.StatusIndeterminate: "#f3ec9c",
}

// statusRank orders statuses from worst to best, to pick the highlight of a line with several claims.
var statusRank = map[verify.Status]int{
	verify.StatusRefuted: 0, verify.StatusFaulty: 1, verify.StatusRefutedQ: 2, verify.StatusFaultyQ: 3,
	verify.StatusIndeterminate: 4, verify.StatusUncovered: 5, verify.StatusVerifiedQ: 6, verify.StatusVerified: 7, verify.StatusDead: 8,
}

// cssClass is the CSS class of a status: st-verified, st-verified-maybe for VERIFIED?, ...
func cssClass(s verify.Status) string {
	return "st-" + strings.ToLower(strings.ReplaceAll(s.String(), "?", "-maybe"))
}

// Render is the self-contained HTML report: the source with each claim's line highlighted by
// status and each statement's line marked covered or not, then the evidence of each claim. A
// small script (no external resources) fills in the totals from the page itself, so a reader, or
// the test that renders the page in a headless browser, sees what the browser computed.
func Render(file string, src []byte, rep *verify.Report) string {
	var b strings.Builder
	esc := html.EscapeString
	names := sym.SlotNames(rep.Prog)
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
`)
	for _, r := range verify.StatusTable { // every status, in verify's order: the page is the same on every run
		fmt.Fprintf(&b, ".%s{background:%s}\n", cssClass(r.Status), statusColour[r.Status])
	}
	b.WriteString("</style></head><body>\n")
	fmt.Fprintf(&b, "<h1>certsym verify: %s</h1>\n", esc(file))
	depth := "no depth bound"
	if rep.Opts.DepthBound > 0 {
		depth = fmt.Sprintf("depth bound %d", rep.Opts.DepthBound)
	}
	fmt.Fprintf(&b, "<p>Loop bound %d, %s, products %s. Overall status: <strong id=\"overall\" class=\"%s\">%s</strong>. "+
		"Conclusive: <span id=\"conclusive\">%d</span> of %d claims.</p>\n",
		rep.Opts.LoopBound, depth, map[bool]string{true: "abstracted (sign axioms)", false: "exact"}[rep.Opts.AbstractNonlinear],
		cssClass(rep.Overall), rep.Overall, rep.Conclusive, len(rep.Claims))
	b.WriteString("<p id=\"totals\">(totals are computed by the page's script)</p>\n")

	// Per line: claims and coverage.
	lineClaims := map[int][]*verify.Claim{}
	index := map[*verify.Claim]int{}
	for i, cl := range rep.Claims {
		lineClaims[cl.Line] = append(lineClaims[cl.Line], cl)
		index[cl] = i + 1
	}
	lineCov := map[int]string{}
	for _, s := range rep.Stmts {
		l := spec.LineOf(s)
		if rep.Covered[s] {
			if lineCov[l] == "" {
				lineCov[l] = "covered"
			}
		} else {
			lineCov[l] = "uncovered"
		}
	}
	b.WriteString("<h2>Source</h2>\n<pre class=\"src\">")
	lines := strings.Split(strings.TrimRight(string(src), "\n"), "\n")
	for i, text := range lines {
		n := i + 1
		classes := []string{"line"}
		mark := " "
		switch lineCov[n] {
		case "covered":
			classes, mark = append(classes, "covered"), "✓"
		case "uncovered":
			classes, mark = append(classes, "uncovered"), "✗"
		}
		attrs := ""
		badges := ""
		if cls := lineClaims[n]; len(cls) > 0 {
			worst := cls[0].Status
			for _, cl := range cls {
				if statusRank[cl.Status] < statusRank[worst] {
					worst = cl.Status
				}
				badges += fmt.Sprintf("<a class=\"badge %s\" href=\"#claim-%d\">%s %s</a>", cssClass(cl.Status), index[cl], cl.Kind, cl.Status)
			}
			classes = append(classes, "claim-line", cssClass(worst))
			attrs = fmt.Sprintf(" data-status=\"%s\"", esc(worst.String()))
		}
		fmt.Fprintf(&b, "<span id=\"L%d\" class=\"%s\" data-line=\"%d\"%s><span class=\"ln\">%d</span><span class=\"cov\" title=\"%s\">%s</span>%s%s</span>",
			n, strings.Join(classes, " "), n, attrs, n, lineCov[n], mark, esc(text), badges)
	}
	b.WriteString("</pre>\n")
	covered := 0
	for _, s := range rep.Stmts {
		if rep.Covered[s] {
			covered++
		}
	}
	fmt.Fprintf(&b, "<p id=\"coverage\">Statement coverage: %d of %d statements executed on some explored path.</p>\n", covered, len(rep.Stmts))

	b.WriteString("<h2>Claims</h2>\n<table id=\"claims\"><tr><th>Line</th><th>Kind</th><th>Claim</th><th>Status</th><th>Collected</th><th>Evidence</th></tr>\n")
	for _, cl := range rep.Claims {
		var ev []string
		ev = append(ev, esc(report.ExplainPaths(cl, true)))
		if w := cl.Counterexample(); w != nil {
			ev = append(ev, "counterexample: <code class=\"cex\">"+esc(report.InputText(w.Input, names))+"</code>; path condition <code>"+
				esc(w.PathCondition)+"</code>; "+esc(w.Replay))
		}
		for _, a := range cl.OverApprox {
			ev = append(ev, fmt.Sprintf("over-approximation entered at the assume at line %d", a.Line()))
		}
		for _, c := range cl.Cutoffs {
			if c.Cutoff.Stmt == nil {
				ev = append(ev, "cutoff: "+esc(c.Cutoff.Reason))
				continue
			}
			ev = append(ev, fmt.Sprintf("cutoff at line %d (%s, %s); control-flow path: lines %s",
				c.Cutoff.Line, esc(c.Cutoff.Reason), report.Plural(c.Cutoff.Paths, "path"), esc(report.LineList(c.Path))))
		}
		for _, u := range cl.Unhandled {
			ev = append(ev, fmt.Sprintf("unhandled theory at line %d: %s", u.Line, esc(u.What)))
		}
		fmt.Fprintf(&b, "<tr id=\"claim-%d\" class=\"claim %s\" data-line=\"%d\" data-kind=\"%s\" data-status=\"%s\"><td><a href=\"#L%d\">%d</a></td><td>%s</td><td><code>%s</code></td><td class=\"status\">%s</td><td>%s</td><td>%s</td></tr>\n",
			index[cl], cssClass(cl.Status), cl.Line, cl.Kind, esc(cl.Status.String()), cl.Line, cl.Line, cl.Kind, esc(cl.Describe()), esc(cl.Status.String()),
			esc(cl.Summary.String()), strings.Join(ev, "<br>"))
	}
	b.WriteString("</table>\n")
	b.WriteString("<h2>Statuses</h2>\n<table id=\"legend\"><tr><th>Status</th><th>Collecting summary S (first matching row)</th></tr>\n")
	for _, r := range verify.StatusTable {
		fmt.Fprintf(&b, "<tr><td class=\"%s\">%s</td><td>%s</td></tr>\n", cssClass(r.Status), esc(r.Status.String()), esc(r.Condition))
	}
	b.WriteString("</table>\n")
	b.WriteString(`<script>
(function(){
  var rows=document.querySelectorAll("tr.claim"), counts={};
  rows.forEach(function(r){var s=r.getAttribute("data-status");counts[s]=(counts[s]||0)+1;});
  var parts=Object.keys(counts).sort().map(function(k){return k+": "+counts[k];});
  var cov=document.querySelectorAll(".line.covered").length, unc=document.querySelectorAll(".line.uncovered").length;
  document.getElementById("totals").textContent="Rendered totals: "+rows.length+" claims ("+parts.join(", ")+"); lines covered "+cov+", not covered "+unc+".";
})();
</script>
</body></html>
`)
	return b.String()
}
