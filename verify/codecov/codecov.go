// Package codecov is the coverage of the code by a verification (package verify): which
// statements and macro calls the explored paths executed, and for the others whether a cutoff
// point reaches them in the control-flow graph (UNCOVERED: higher bounds may cover them) or none
// does (DEAD). It is generic in the type of the cutoff points, which are verify's.
package codecov

import (
	"certsym/cfg"
	"certsym/spec/syntax"
)

// Status is what verify established about one statement of the program: whether some
// explored path executed it, and if none did, whether the bounds may be the reason.
type Status uint8

// The statuses of code, after the paper's rule for claims (xSymExe, Section II-A on Figure 1(d)
// and (e), and Section III-B2): a statement no explored path executed is DEAD when no cutoff
// point reaches it in the control-flow graph, UNCOVERED when one does.
const (
	// Covered: some explored path executed the statement.
	Covered Status = iota
	// Uncovered: no explored path executed it, and a cutoff point (a loop bound, the depth
	// bound, a quantifier bound, or the budget that stopped the exploration) reaches it: higher
	// bounds may cover it.
	Uncovered
	// Dead: no explored path executed it and no cutoff point reaches it: no execution of
	// the program does (every path that could reach it was explored and found infeasible).
	Dead
)

func (s Status) String() string { return [...]string{"COVERED", "UNCOVERED", "DEAD"}[s] }

// Stmt is the coverage of one statement (Of), C being the type of the cutoff points.
type Stmt[C any] struct {
	Stmt syntax.Stmt
	// Line and Col are where reports place the statement (Stmt.Pos: the outermost macro
	// call for a statement inlined from a macro); Pos is its own position (in the macro's body
	// for an inlined statement) and Site the call's (zero unless inlined). Two calls of one
	// macro give two statements with the same Pos and different Sites.
	Line, Col int
	Pos, Site syntax.Pos
	Status    Status
	// Cutoff is, for UNCOVERED, the first cutoff of Program.Cutoffs that reaches the statement
	// (a cutoff with no program point, the budget's stop, reaches every statement).
	Cutoff *C
	cutAt  syntax.Stmt // the Cutoff's program point (nil: none)
	cfg    *cfg.Graph
}

// Chop is, for an UNCOVERED statement whose cutoff has a program point, the CFG chop from the
// cutoff point to the statement: the statements on some control-flow path from one to the other
// (both included), in source order; nil otherwise. Each call searches the graph: for the chop of
// many statements, cfg.Graph.Chop takes them all at once (UncoveredBy).
func (sc Stmt[C]) Chop() []syntax.Stmt {
	if sc.Status != Uncovered || sc.cutAt == nil || sc.cfg == nil {
		return nil
	}
	return sc.cfg.Chop(sc.cutAt, sc.Stmt)
}

// Path is, for an UNCOVERED statement whose cutoff has a program point, the lines of a shortest
// control-flow path from the cutoff point to the statement (as verify.ClaimCutoff.Path); nil
// otherwise.
func (sc Stmt[C]) Path() []int {
	if sc.Status != Uncovered || sc.cutAt == nil || sc.cfg == nil {
		return nil
	}
	return pathLines(sc.cfg.Path(sc.cutAt, sc.Stmt))
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

// Program is what the coverage of code is computed from: the statements counted for coverage
// (every statement but sequences and skips) in program order, those some explored path executed,
// the cutoff points in order with the program point of each, and the control-flow graph.
type Program[C any] struct {
	Stmts   []syntax.Stmt
	Covered map[syntax.Stmt]bool
	Cutoffs []*C
	// At is a cutoff's program point, nil for a cutoff of the whole exploration (the budget's
	// stop), which reaches every statement.
	At  func(*C) syntax.Stmt
	CFG *cfg.Graph
}

// Of returns the coverage of every statement of p counted for coverage (p.Stmts), in program
// order: COVERED when an explored path executed
// it, otherwise UNCOVERED when a cutoff point reaches it in the control-flow graph (with the
// first such cutoff), DEAD when none does. This is the paper's rule for claims applied to code
// (xSymExe, Section II-A, Figure 1(d) and (e); cutoff impact by CFG reachability, Section III-B2).
// Dead code matters beyond testing: avionics software certified under DO-178C may not contain
// any, which is why the paper reports it apart from code the bounds merely left uncovered.
//
// The cost is linear in the size of the program: one sweep of the control-flow graph per cutoff
// point, each stopping at the statements an earlier cutoff already reaches.
func Of[C any](p Program[C]) []Stmt[C] {
	by := cutoffReach(p)
	var budget *C
	for _, c := range p.Cutoffs {
		if p.At(c) == nil {
			budget = c
			break
		}
	}
	out := make([]Stmt[C], 0, len(p.Stmts))
	for _, s := range p.Stmts {
		l := s.Location()
		w := l.Pos()
		sc := Stmt[C]{Stmt: s, Line: w.Line, Col: w.Col, Pos: l.P, Site: l.Site, cfg: p.CFG}
		switch {
		case p.Covered[s]:
			sc.Status = Covered
		case by[s] != nil:
			sc.Status, sc.Cutoff = Uncovered, by[s]
		case budget != nil:
			sc.Status, sc.Cutoff = Uncovered, budget
		default:
			sc.Status = Dead
		}
		if sc.Cutoff != nil {
			sc.cutAt = p.At(sc.Cutoff)
		}
		out = append(out, sc)
	}
	return out
}

// cutoffReach maps each statement a cutoff point reaches in the CFG to the first such cutoff of
// p.Cutoffs (cfg.Graph.Owners).
func cutoffReach[C any](p Program[C]) map[syntax.Stmt]*C {
	by := map[syntax.Stmt]*C{}
	if p.CFG == nil {
		return by
	}
	starts := make([]syntax.Stmt, len(p.Cutoffs))
	for i, cut := range p.Cutoffs {
		starts[i] = p.At(cut)
	}
	for s, i := range p.CFG.Owners(starts) {
		by[s] = p.Cutoffs[i]
	}
	return by
}

// CutoffCode is a cutoff point with the statements it makes UNCOVERED (those it is the first
// cutoff to reach, Of) and the CFG chop from it to them.
type CutoffCode[C any] struct {
	Cutoff *C
	Stmts  []Stmt[C]
	// Chop is the statements on some control-flow path from the cutoff point to one of Stmts
	// (cfg.Graph.Chop), nil for a cutoff with no program point (the budget's stop).
	Chop []syntax.Stmt
}

// UncoveredBy groups the UNCOVERED statements of code (Of(p)) by their cutoff, in the order of
// p.Cutoffs, with one chop per cutoff: time linear in the program per cutoff.
func UncoveredBy[C any](p Program[C], code []Stmt[C]) []CutoffCode[C] {
	at := map[*C]int{}
	var out []CutoffCode[C]
	for _, c := range p.Cutoffs {
		at[c] = len(out)
		out = append(out, CutoffCode[C]{Cutoff: c})
	}
	for _, sc := range code {
		if i, ok := at[sc.Cutoff]; ok && sc.Status == Uncovered {
			out[i].Stmts = append(out[i].Stmts, sc)
		}
	}
	kept := out[:0]
	for _, g := range out {
		if len(g.Stmts) == 0 {
			continue
		}
		if from := p.At(g.Cutoff); from != nil && p.CFG != nil {
			to := make([]syntax.Stmt, len(g.Stmts))
			for i, sc := range g.Stmts {
				to[i] = sc.Stmt
			}
			g.Chop = p.CFG.Chop(from, to...)
		}
		kept = append(kept, g)
	}
	return kept
}

// Site is the coverage of one macro call (CallSitesOf): the outermost call at Site,
// judged by the statements it expands to.
type Site[C any] struct {
	Site syntax.Pos
	// Stmts and Covered count the statements of the expansion (as counted for coverage) and
	// those an explored path executed; Dead and Uncovered the others by status.
	Stmts, Covered, Uncovered, Dead int
	Status                          Status
	// Cutoff is, for UNCOVERED, the cutoff of the expansion's first UNCOVERED statement.
	Cutoff *C
}

// CallSitesOf returns the coverage of each macro call of the program (the outermost calls, in
// program order), from the statements it expands to. The rule: a call is COVERED when its
// expansion was entered (an explored path executed one of its statements); otherwise UNCOVERED
// when a cutoff point reaches one of its statements, DEAD when none does. A call whose expansion
// counts no statement (a macro whose body is skip) is not listed. The statements keep their own
// status in code: a covered call may expand to a dead branch.
func CallSitesOf[C any](code []Stmt[C]) []Site[C] {
	index := map[syntax.Pos]int{}
	var out []Site[C]
	for _, sc := range code {
		if sc.Site.Line == 0 {
			continue
		}
		i, ok := index[sc.Site]
		if !ok {
			i = len(out)
			index[sc.Site] = i
			out = append(out, Site[C]{Site: sc.Site})
		}
		c := &out[i]
		c.Stmts++
		switch sc.Status {
		case Covered:
			c.Covered++
		case Uncovered:
			c.Uncovered++
			if c.Cutoff == nil {
				c.Cutoff = sc.Cutoff
			}
		case Dead:
			c.Dead++
		}
	}
	for i := range out {
		c := &out[i]
		switch {
		case c.Covered > 0:
			c.Status, c.Cutoff = Covered, nil
		case c.Uncovered > 0:
			c.Status = Uncovered
		default:
			c.Status = Dead
		}
	}
	return out
}
