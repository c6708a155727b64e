// Package coverage is the statement and branch coverage of a run of the bug finder (certsym run
// --coverage, --lcov FILE): which statements some explored feasible path executed, which
// directions of each branching statement some feasible path took, as text, as the coverage
// object of run --json, and as an lcov tracefile.
package coverage

import (
	"fmt"
	"io"
	"path/filepath"
	"sort"
	"strings"

	"certsym/spec/syntax"
)

// covStmt is one source statement in the coverage report.
type covStmt struct {
	stmt syntax.Stmt
	pos  syntax.Pos
	what string // assign, element assignment, if, while, assume, assert, invariant, fail
	hits int    // expansions of a feasible state about to execute it
	// branch is nil for a statement that does not branch; otherwise the number of feasible
	// successors in each direction: then/else (if), enter/leave (while), holds/violated (assert, invariant).
	branch []int
}

// Report is the statement and branch coverage of a run: which statements of the program some
// explored feasible path executed, and which directions of each branching statement some feasible
// path took. It covers what the run explored: a run stopped at its first bug or by a bound covers
// only part of the program's paths.
type Report struct {
	stmts []*covStmt
}

// branchNames are the names of the two directions of each branching statement.
var branchNames = map[string][2]string{"if": {"then", "else"}, "while": {"enter", "leave"}, "assert": {"holds", "violated"}, "invariant": {"holds", "violated"}}

// sourceStmts lists the statements of the program in source order (sequences flattened, the
// statements a macro call inlines each listed at the call's position).
func sourceStmts(s syntax.Stmt, out []*covStmt) []*covStmt {
	add := func(what string, branches bool) {
		c := &covStmt{stmt: s, pos: s.Pos(), what: what}
		if branches {
			c.branch = make([]int, 2)
		}
		out = append(out, c)
	}
	switch s := s.(type) {
	case *syntax.Seq:
		out = sourceStmts(s.First, out)
		out = sourceStmts(s.Second, out)
	case *syntax.Skip: // the missing else of an if, or a skip of the source: nothing to execute
	case *syntax.Assign:
		add("assign", false)
	case *syntax.ArrAssign:
		add("element assignment", false)
	case *syntax.If:
		add("if", true)
		out = sourceStmts(s.Then, out)
		out = sourceStmts(s.Else, out)
	case *syntax.While:
		add("while", true)
		for _, inv := range s.Invariants {
			out = sourceStmts(inv, out)
		}
		out = sourceStmts(s.Body, out)
	case *syntax.Assume:
		add("assume", false)
	case *syntax.Assert:
		if s.Violation != nil && s.Violation.Kind == syntax.FailInvariant {
			add("invariant", true)
		} else {
			add("assert", true)
		}
	case *syntax.Fail:
		add("fail", false)
	default:
		panic(fmt.Sprintf("coverage: unknown statement %T", s))
	}
	return out
}

// Compute is the coverage of the program body given, for each statement, the expansions of a
// feasible state about to execute it (hits) and, for each If and Assert, the feasible successors
// in each direction (arms: then / loop entered / assert or invariant clause holds, else / loop
// left / violated; a while loop's test is its unfolding's If).
func Compute(body syntax.Stmt, hits map[syntax.Stmt]int, arms map[syntax.Stmt]*[2]int) *Report {
	cv := &Report{stmts: sourceStmts(body, nil)}
	index := map[syntax.Stmt]*covStmt{}
	for _, c := range cv.stmts {
		index[c.stmt] = c
		if w, ok := c.stmt.(*syntax.While); ok {
			index[w.Unfold] = c // the loop's test is its unfolding's if
		}
	}
	for _, c := range cv.stmts {
		c.hits = hits[c.stmt]
		if w, ok := c.stmt.(*syntax.While); ok && w.Loop != nil {
			// A loop with invariant clauses is at its head once per execution of the program
			// text, then steps to its clauses; its test is executed by the loop that runs
			// (While.Loop), once per arrival, as a loop without clauses is.
			c.hits = hits[w.Loop]
		}
	}
	for stmt, a := range arms {
		if c := index[stmt]; c != nil && c.branch != nil {
			c.branch[0] += a[0]
			c.branch[1] += a[1]
		}
	}
	sort.SliceStable(cv.stmts, func(i, j int) bool {
		a, b := cv.stmts[i].pos, cv.stmts[j].pos
		return a.Line < b.Line || a.Line == b.Line && a.Col < b.Col
	})
	return cv
}

// counts returns the statements and branch directions, and how many of each are covered.
func (cv *Report) counts() (stmts, stmtsHit, branches, branchesHit int) {
	for _, c := range cv.stmts {
		stmts++
		if c.hits > 0 {
			stmtsHit++
		}
		for _, n := range c.branch {
			branches++
			if n > 0 {
				branchesHit++
			}
		}
	}
	return
}

// percent is n in hundredths of d (100 when d is 0: nothing to cover is all covered).
func percent(n, d int) float64 {
	if d == 0 {
		return 100
	}
	return 100 * float64(n) / float64(d)
}

// JSON is the coverage object of run --json.
type JSON struct {
	Statements        int         `json:"statements"`
	StatementsCovered int         `json:"statements_covered"`
	Branches          int         `json:"branches"`
	BranchesCovered   int         `json:"branches_covered"`
	Uncovered         []Uncovered `json:"uncovered"`
}

// Uncovered is a statement never executed, or a direction of a branch never taken.
type Uncovered struct {
	Line      int    `json:"line"`
	Col       int    `json:"col"`
	Statement string `json:"statement"`
	Branch    string `json:"branch,omitempty"`
}

// uncovered lists what no explored path executed: statements, then directions of the branching
// statements that were executed.
func (cv *Report) uncovered() []Uncovered {
	out := []Uncovered{}
	for _, c := range cv.stmts {
		if c.hits == 0 {
			out = append(out, Uncovered{Line: c.pos.Line, Col: c.pos.Col, Statement: c.what})
			continue
		}
		for d, n := range c.branch {
			if n == 0 {
				out = append(out, Uncovered{Line: c.pos.Line, Col: c.pos.Col, Statement: c.what, Branch: branchNames[c.what][d]})
			}
		}
	}
	return out
}

// JSON is the coverage object of run --json.
func (cv *Report) JSON() *JSON {
	s, sh, b, bh := cv.counts()
	return &JSON{Statements: s, StatementsCovered: sh, Branches: b, BranchesCovered: bh, Uncovered: cv.uncovered()}
}

// WriteText prints the coverage summary and what is not covered.
func (cv *Report) WriteText(w io.Writer) {
	s, sh, b, bh := cv.counts()
	fmt.Fprintf(w, "coverage of the explored paths: statements %d/%d (%.1f%%), branches %d/%d (%.1f%%)\n",
		sh, s, percent(sh, s), bh, b, percent(bh, b))
	for _, u := range cv.uncovered() {
		if u.Branch == "" {
			fmt.Fprintf(w, "  not executed: %s at %d:%d\n", u.Statement, u.Line, u.Col)
		} else {
			fmt.Fprintf(w, "  not taken:    %s branch of the %s at %d:%d\n", u.Branch, u.Statement, u.Line, u.Col)
		}
	}
}

// WriteLCOV writes the coverage as an lcov tracefile (the geninfo format read by genhtml and
// other coverage viewers): DA records give, for each line holding a statement, how many explored
// states executed it; BRDA records give, for each direction of each branching statement, how many
// feasible successors took it ("-" when the statement itself was never executed).
func (cv *Report) WriteLCOV(w io.Writer, file string) error {
	abs, err := filepath.Abs(file)
	if err != nil {
		abs = file
	}
	var b strings.Builder
	b.WriteString("TN:certsym\n")
	fmt.Fprintf(&b, "SF:%s\n", abs)
	lines := map[int]int{}
	var order []int
	for _, c := range cv.stmts {
		if _, ok := lines[c.pos.Line]; !ok {
			order = append(order, c.pos.Line)
		}
		lines[c.pos.Line] += c.hits
	}
	brf, brh := 0, 0
	for blk, c := range cv.stmts {
		for d, n := range c.branch {
			taken := "-"
			if c.hits > 0 {
				taken = fmt.Sprint(n)
			}
			fmt.Fprintf(&b, "BRDA:%d,%d,%d,%s\n", c.pos.Line, blk, d, taken)
			brf++
			if n > 0 {
				brh++
			}
		}
	}
	fmt.Fprintf(&b, "BRF:%d\nBRH:%d\n", brf, brh)
	lh := 0
	for _, l := range order {
		fmt.Fprintf(&b, "DA:%d,%d\n", l, lines[l])
		if lines[l] > 0 {
			lh++
		}
	}
	fmt.Fprintf(&b, "LF:%d\nLH:%d\nend_of_record\n", len(order), lh)
	_, err = io.WriteString(w, b.String())
	return err
}
