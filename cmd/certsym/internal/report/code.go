package report

import (
	"fmt"
	"io"
	"slices"
	"sort"
	"strings"

	"certsym/spec/syntax"
	"certsym/verify"
)

// Coverage is the statement coverage of a verification, in the words of every output: the status
// of each statement (verify.Report.Code: COVERED, UNCOVERED or DEAD), of each macro call
// (verify.CallSitesOf: covered when its expansion was entered) and the UNCOVERED statements by
// the cutoff that reaches them, with the CFG chop from it (verify.Report.UncoveredBy).
type Coverage struct {
	Stmts []verify.StmtCoverage
	Calls []verify.SiteCoverage
	By    []verify.CutoffCode
}

// CodeCoverage computes the coverage of rep.
func CodeCoverage(rep *verify.Report) Coverage {
	code := rep.Code()
	return Coverage{Stmts: code, Calls: verify.CallSitesOf(code), By: rep.UncoveredBy(code)}
}

// UncoveredLines are the lines with a statement no explored path executed; a statement inlined
// from a macro counts for its call's line only when the call's expansion was never entered.
func (cov Coverage) UncoveredLines() []int {
	out := []int{}
	for _, sc := range cov.Stmts {
		if sc.Site.Line == 0 && sc.Status != verify.CodeCovered {
			out = append(out, sc.Line)
		}
	}
	for _, c := range cov.Calls {
		if c.Status != verify.CodeCovered {
			out = append(out, c.Site.Line)
		}
	}
	sort.Ints(out)
	return slices.Compact(out)
}

// StmtLines are the lines of statements (spec.LineOf), each once, in increasing order.
func StmtLines(ss []syntax.Stmt) []int {
	var out []int
	for _, s := range ss {
		if l := s.Pos().Line; l > 0 {
			out = append(out, l)
		}
	}
	sort.Ints(out)
	return slices.Compact(out)
}

// CodeJSON is the coverage in the JSON report: the statements no explored path executed, the
// macro calls, the chops from each cutoff to the statements it leaves uncovered.
type CodeJSON struct {
	Code       []CodeStmtJSON `json:"code"`
	MacroCalls []CodeCallJSON `json:"macro_calls"`
	Chops      []CodeChopJSON `json:"uncovered_chops"`
}

// CodeStmtJSON is a statement no explored path executed, DEAD or UNCOVERED.
type CodeStmtJSON struct {
	Line    int    `json:"line"`
	Column  int    `json:"column"`
	InMacro string `json:"in_macro_body,omitempty"` // line:col in the macro's body
	Status  string `json:"status"`
	CutLine int    `json:"cutoff_line,omitempty"`
	Cutoff  string `json:"cutoff,omitempty"`
}

// CodeCallJSON is a macro call with the status of its expansion.
type CodeCallJSON struct {
	Line       int    `json:"line"`
	Column     int    `json:"column"`
	Status     string `json:"status"`
	Statements int    `json:"statements"`
	Covered    int    `json:"covered"`
}

// CodeChopJSON is a cutoff with the number of statements it leaves UNCOVERED and the lines of
// the chop from it to them.
type CodeChopJSON struct {
	CutLine int    `json:"cutoff_line,omitempty"`
	Cutoff  string `json:"cutoff"`
	Stmts   int    `json:"statements"`
	Chop    []int  `json:"chop,omitempty"`
}

// JSON is the coverage for the JSON report.
func (cov Coverage) JSON() CodeJSON {
	out := CodeJSON{Code: []CodeStmtJSON{}, MacroCalls: []CodeCallJSON{}, Chops: []CodeChopJSON{}}
	for _, sc := range cov.Stmts {
		if sc.Status == verify.CodeCovered {
			continue
		}
		j := CodeStmtJSON{Line: sc.Line, Column: sc.Col, Status: sc.Status.String()}
		if sc.Site.Line != 0 {
			j.InMacro = fmt.Sprintf("%d:%d", sc.Pos.Line, sc.Pos.Col)
		}
		if sc.Cutoff != nil {
			j.CutLine, j.Cutoff = sc.Cutoff.Line, sc.Cutoff.Reason
		}
		out.Code = append(out.Code, j)
	}
	for _, c := range cov.Calls {
		out.MacroCalls = append(out.MacroCalls, CodeCallJSON{Line: c.Site.Line, Column: c.Site.Col, Status: c.Status.String(), Statements: c.Stmts, Covered: c.Covered})
	}
	for _, g := range cov.By {
		out.Chops = append(out.Chops, CodeChopJSON{CutLine: g.Cutoff.Line, Cutoff: g.Cutoff.Reason, Stmts: len(g.Stmts), Chop: StmtLines(g.Chop)})
	}
	return out
}

// WriteText writes the text report's account of the code no explored path executed, from the
// JSON model (so that the two agree): the dead statements (no cutoff reaches them: no execution
// does), the uncovered ones by the cutoff that reaches them with the lines of the CFG chop from
// it, and the macro calls.
func (c CodeJSON) WriteText(w io.Writer) {
	name := func(s CodeStmtJSON) string {
		if s.InMacro != "" {
			return fmt.Sprintf("%d:%d (macro call; body %s)", s.Line, s.Column, s.InMacro)
		}
		return fmt.Sprintf("%d:%d", s.Line, s.Column)
	}
	var dead []string
	for _, s := range c.Code {
		if s.Status == verify.CodeDead.String() {
			dead = append(dead, name(s))
		}
	}
	if len(dead) > 0 {
		fmt.Fprintf(w, "dead code (no execution reaches it): %s\n", strings.Join(dead, ", "))
	}
	for _, g := range c.Chops {
		var names []string
		for _, s := range c.Code {
			if s.Status == verify.CodeUncovered.String() && s.CutLine == g.CutLine && s.Cutoff == g.Cutoff {
				names = append(names, name(s))
			}
		}
		if g.CutLine == 0 {
			fmt.Fprintf(w, "uncovered (%s): %s\n", g.Cutoff, strings.Join(names, ", "))
			continue
		}
		var chop []string
		for _, l := range g.Chop {
			chop = append(chop, fmt.Sprint(l))
		}
		fmt.Fprintf(w, "uncovered, reached by the cutoff at line %d (%s): %s; chop from the cutoff: lines %s\n",
			g.CutLine, g.Cutoff, strings.Join(names, ", "), strings.Join(chop, ", "))
	}
	if len(c.MacroCalls) > 0 {
		var calls []string
		for _, m := range c.MacroCalls {
			calls = append(calls, fmt.Sprintf("%d:%d %s", m.Line, m.Column, m.Status))
		}
		fmt.Fprintf(w, "macro calls (covered when their expansion was entered): %s\n", strings.Join(calls, ", "))
	}
}
