package verify

import (
	"certsym/spec/syntax"
	"certsym/cfg"
)

// CodeStatus is what verify established about one statement of the program: whether some
// explored path executed it, and if none did, whether the bounds may be the reason.
type CodeStatus uint8

// The statuses of code, after the paper's rule for claims (xSymExe, Section II-A on Figure 1(d)
// and (e), and Section III-B2): a statement no explored path executed is DEAD when no cutoff
// point reaches it in the control-flow graph, UNCOVERED when one does.
const (
	// CodeCovered: some explored path executed the statement.
	CodeCovered CodeStatus = iota
	// CodeUncovered: no explored path executed it, and a cutoff point (a loop bound, the depth
	// bound, a quantifier bound, or the budget that stopped the exploration) reaches it: higher
	// bounds may cover it.
	CodeUncovered
	// CodeDead: no explored path executed it and no cutoff point reaches it: no execution of
	// the program does (every path that could reach it was explored and found infeasible).
	CodeDead
)

func (s CodeStatus) String() string { return [...]string{"COVERED", "UNCOVERED", "DEAD"}[s] }

// StmtCoverage is the coverage of one statement (Report.Code).
type StmtCoverage struct {
	Stmt syntax.Stmt
	// Line and Col are where reports place the statement (syntax.Loc.Where: the outermost macro
	// call for a statement inlined from a macro); Pos is its own position (in the macro's body
	// for an inlined statement) and Site the call's (zero unless inlined). Two calls of one
	// macro give two statements with the same Pos and different Sites.
	Line, Col int
	Pos, Site syntax.Pos
	Status    CodeStatus
	// Cutoff is, for UNCOVERED, the first cutoff of Report.Cutoffs that reaches the statement
	// (a cutoff with no statement, the budget's stop, reaches every statement).
	Cutoff *Cutoff
	cfg    *cfg.Graph
}

// Chop is, for an UNCOVERED statement whose cutoff has a program point, the CFG chop from the
// cutoff point to the statement: the statements on some control-flow path from one to the other
// (both included), in source order; nil otherwise. Each call searches the graph: for the chop of
// many statements, cfg.Graph.Chop takes them all at once (UncoveredBy).
func (sc StmtCoverage) Chop() []syntax.Stmt {
	if sc.Status != CodeUncovered || sc.Cutoff == nil || sc.Cutoff.Stmt == nil || sc.cfg == nil {
		return nil
	}
	return sc.cfg.Chop(sc.Cutoff.Stmt, sc.Stmt)
}

// Path is, for an UNCOVERED statement whose cutoff has a program point, the lines of a shortest
// control-flow path from the cutoff point to the statement (as ClaimCutoff.Path); nil otherwise.
func (sc StmtCoverage) Path() []int {
	if sc.Status != CodeUncovered || sc.Cutoff == nil || sc.Cutoff.Stmt == nil || sc.cfg == nil {
		return nil
	}
	return pathLines(sc.cfg.Path(sc.Cutoff.Stmt, sc.Stmt))
}

// pathLines is the lines of a control-flow path, repeated lines once.
func pathLines(path []syntax.Stmt) []int {
	var lines []int
	for _, s := range path {
		if l := s.Pos().Line; l > 0 && (len(lines) == 0 || lines[len(lines)-1] != l) {
			lines = append(lines, l)
		}
	}
	return lines
}

// Code returns the coverage of every statement counted for coverage (Report.Stmts: every
// statement but sequences and skips), in program order: COVERED when an explored path executed
// it, otherwise UNCOVERED when a cutoff point reaches it in the control-flow graph (with the
// first such cutoff), DEAD when none does. This is the paper's rule for claims applied to code
// (xSymExe, Section II-A, Figure 1(d) and (e); cutoff impact by CFG reachability, Section III-B2).
// Dead code matters beyond testing: avionics software certified under DO-178C may not contain
// any, which is why the paper reports it apart from code the bounds merely left uncovered.
//
// The cost is linear in the size of the program: one sweep of the control-flow graph per cutoff
// point, each stopping at the statements an earlier cutoff already reaches.
func (rep *Report) Code() []StmtCoverage {
	by := rep.cutoffReach()
	var budget *Cutoff
	for _, c := range rep.Cutoffs {
		if c.Stmt == nil {
			budget = c
			break
		}
	}
	out := make([]StmtCoverage, 0, len(rep.Stmts))
	for _, s := range rep.Stmts {
		l := s.Location()
		w := l.Pos()
		sc := StmtCoverage{Stmt: s, Line: w.Line, Col: w.Col, Pos: l.P, Site: l.Site, cfg: rep.CFG}
		switch {
		case rep.Covered[s]:
			sc.Status = CodeCovered
		case by[s] != nil:
			sc.Status, sc.Cutoff = CodeUncovered, by[s]
		case budget != nil:
			sc.Status, sc.Cutoff = CodeUncovered, budget
		default:
			sc.Status = CodeDead
		}
		out = append(out, sc)
	}
	return out
}

// cutoffReach maps each statement a cutoff point reaches in the CFG to the first such cutoff of
// rep.Cutoffs (cfg.Graph.Owners).
func (rep *Report) cutoffReach() map[syntax.Stmt]*Cutoff {
	by := map[syntax.Stmt]*Cutoff{}
	if rep.CFG == nil {
		return by
	}
	starts := make([]syntax.Stmt, len(rep.Cutoffs))
	for i, cut := range rep.Cutoffs {
		starts[i] = cut.Stmt
	}
	for s, i := range rep.CFG.Owners(starts) {
		by[s] = rep.Cutoffs[i]
	}
	return by
}

// CutoffCode is a cutoff point with the statements it makes UNCOVERED (those it is the first
// cutoff to reach, Report.Code) and the CFG chop from it to them.
type CutoffCode struct {
	Cutoff *Cutoff
	Stmts  []StmtCoverage
	// Chop is the statements on some control-flow path from the cutoff point to one of Stmts
	// (cfg.Graph.Chop), nil for a cutoff with no program point (the budget's stop).
	Chop []syntax.Stmt
}

// UncoveredBy groups the UNCOVERED statements of code (Report.Code) by their cutoff, in the
// order of Report.Cutoffs, with one chop per cutoff: time linear in the program per cutoff.
func (rep *Report) UncoveredBy(code []StmtCoverage) []CutoffCode {
	at := map[*Cutoff]int{}
	var out []CutoffCode
	for _, c := range rep.Cutoffs {
		at[c] = len(out)
		out = append(out, CutoffCode{Cutoff: c})
	}
	for _, sc := range code {
		if i, ok := at[sc.Cutoff]; ok && sc.Status == CodeUncovered {
			out[i].Stmts = append(out[i].Stmts, sc)
		}
	}
	kept := out[:0]
	for _, g := range out {
		if len(g.Stmts) == 0 {
			continue
		}
		if g.Cutoff.Stmt != nil && rep.CFG != nil {
			to := make([]syntax.Stmt, len(g.Stmts))
			for i, sc := range g.Stmts {
				to[i] = sc.Stmt
			}
			g.Chop = rep.CFG.Chop(g.Cutoff.Stmt, to...)
		}
		kept = append(kept, g)
	}
	return kept
}

// SiteCoverage is the coverage of one macro call (Report.CallSites): the outermost call at Site,
// judged by the statements it expands to.
type SiteCoverage struct {
	Site syntax.Pos
	// Stmts and Covered count the statements of the expansion (as counted for coverage) and
	// those an explored path executed; Dead and Uncovered the others by status.
	Stmts, Covered, Uncovered, Dead int
	Status                          CodeStatus
	// Cutoff is, for UNCOVERED, the cutoff of the expansion's first UNCOVERED statement.
	Cutoff *Cutoff
}

// CallSites returns the coverage of each macro call of the program (the outermost calls, in
// program order), from the statements it expands to. The rule: a call is COVERED when its
// expansion was entered (an explored path executed one of its statements); otherwise UNCOVERED
// when a cutoff point reaches one of its statements, DEAD when none does. A call whose expansion
// counts no statement (a macro whose body is skip) is not listed. The statements keep their own
// status in Code: a covered call may expand to a dead branch.
func (rep *Report) CallSites() []SiteCoverage {
	return CallSitesOf(rep.Code())
}

// CallSitesOf is CallSites computed from the coverage of the statements (Report.Code).
func CallSitesOf(code []StmtCoverage) []SiteCoverage {
	index := map[syntax.Pos]int{}
	var out []SiteCoverage
	for _, sc := range code {
		if sc.Site.Line == 0 {
			continue
		}
		i, ok := index[sc.Site]
		if !ok {
			i = len(out)
			index[sc.Site] = i
			out = append(out, SiteCoverage{Site: sc.Site})
		}
		c := &out[i]
		c.Stmts++
		switch sc.Status {
		case CodeCovered:
			c.Covered++
		case CodeUncovered:
			c.Uncovered++
			if c.Cutoff == nil {
				c.Cutoff = sc.Cutoff
			}
		case CodeDead:
			c.Dead++
		}
	}
	for i := range out {
		c := &out[i]
		switch {
		case c.Covered > 0:
			c.Status, c.Cutoff = CodeCovered, nil
		case c.Uncovered > 0:
			c.Status = CodeUncovered
		default:
			c.Status = CodeDead
		}
	}
	return out
}
