package verify

import (
	"certsym/spec/syntax"
	"certsym/verify/codecov"
)

// The coverage of the code by a verification (package codecov, with the cutoff points of the
// report): COVERED, UNCOVERED or DEAD by the paper's rule for claims applied to statements.
type (
	// CodeStatus is what verify established about one statement (codecov.Status).
	CodeStatus = codecov.Status
	// StmtCoverage is the coverage of one statement (Report.Code).
	StmtCoverage = codecov.Stmt[Cutoff]
	// CutoffCode is a cutoff point with the statements it makes UNCOVERED (Report.UncoveredBy).
	CutoffCode = codecov.CutoffCode[Cutoff]
	// SiteCoverage is the coverage of one macro call (Report.CallSites).
	SiteCoverage = codecov.Site[Cutoff]
)

// The statuses of code (codecov.Covered, codecov.Uncovered, codecov.Dead).
const (
	CodeCovered   = codecov.Covered
	CodeUncovered = codecov.Uncovered
	CodeDead      = codecov.Dead
)

// code is what codecov computes the coverage of the code from.
func (rep *Report) code() codecov.Program[Cutoff] {
	return codecov.Program[Cutoff]{Stmts: rep.Stmts, Covered: rep.Covered, Cutoffs: rep.Cutoffs, CFG: rep.CFG,
		At: func(c *Cutoff) syntax.Stmt { return c.Stmt }}
}

// Code returns the coverage of every statement counted for coverage (Report.Stmts), in program
// order (codecov.Of): COVERED, UNCOVERED with the first cutoff that reaches it, or DEAD.
func (rep *Report) Code() []StmtCoverage { return codecov.Of(rep.code()) }

// UncoveredBy groups the UNCOVERED statements of code (Report.Code) by their cutoff, in the
// order of Report.Cutoffs, with one chop per cutoff (codecov.UncoveredBy).
func (rep *Report) UncoveredBy(code []StmtCoverage) []CutoffCode {
	return codecov.UncoveredBy(rep.code(), code)
}

// CallSites returns the coverage of each macro call of the program (codecov.CallSitesOf).
func (rep *Report) CallSites() []SiteCoverage { return CallSitesOf(rep.Code()) }

// CallSitesOf is CallSites computed from the coverage of the statements (Report.Code).
func CallSitesOf(code []StmtCoverage) []SiteCoverage { return codecov.CallSitesOf(code) }
