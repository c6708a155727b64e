package verify

import (
	"strings"

	"certsym/internal/fault"
)

// This file is the result domain and the status interpretation of explicating symbolic execution
// (xSymExe: Hatcliff, Robby, Chalin, Belt, ICSE 2013), which certsym verify implements.

// Result is what one evaluation of a claim on one explored path establishes (xSymExe's collecting
// domain).
type Result uint8

// The results.
const (
	// ResTrue: the claim holds on every input that follows the path (the solver proved it).
	ResTrue Result = iota
	// ResFalse: the claim fails on the path, with a counterexample replayed on the concrete semantics.
	ResFalse
	// ResUndefined: evaluating the claim divides by zero on the path (counterexample replayed).
	ResUndefined
	// ResDontKnow: the decision procedure could not tell (Z3 unknown, or a counterexample that only
	// holds in the abstraction of a product the claim depends on).
	ResDontKnow
	// ResFalseQ: FALSE on a state that over-approximates the real ones (after an assume that could
	// not be taken exactly): the counterexample may be spurious.
	ResFalseQ
	// ResUndefinedQ: UNDEFINED on an over-approximating state.
	ResUndefinedQ
	// ResCutoff: a path cut off by a bound could, by control flow, have gone on to the claim.
	ResCutoff
	numResults
)

var resultNames = [...]string{"TRUE", "FALSE", "UNDEFINED", "DONTKNOW", "FALSE?", "UNDEFINED?", "CUTOFF"}

func (r Result) String() string { return resultNames[r] }

// Summary is a collecting summary: the set of the results of a claim over all explored paths.
type Summary uint8

// SummaryOf returns the summary holding rs.
func SummaryOf(rs ...Result) Summary {
	var s Summary
	for _, r := range rs {
		s |= 1 << r
	}
	return s
}

// Has reports whether r is in s.
func (s Summary) Has(r Result) bool { return s&(1<<r) != 0 }

// Results returns the results in s, in the order of the Result constants.
func (s Summary) Results() []Result {
	var out []Result
	for r := Result(0); r < numResults; r++ {
		if s.Has(r) {
			out = append(out, r)
		}
	}
	return out
}

// subsetOf reports whether every result of s is in t.
func (s Summary) subsetOf(t Summary) bool { return s&^t == 0 }

func (s Summary) String() string {
	var parts []string
	for _, r := range s.Results() {
		parts = append(parts, r.String())
	}
	return "{" + strings.Join(parts, ", ") + "}"
}

// Status is the verification status of a claim.
type Status uint8

// The statuses, in the order of the interpretation table.
const (
	StatusDead Status = iota
	StatusVerified
	StatusRefuted
	StatusFaulty
	StatusRefutedQ
	StatusFaultyQ
	StatusUncovered
	StatusVerifiedQ
	StatusIndeterminate
)

var statusNames = [...]string{"DEAD", "VERIFIED", "REFUTED", "FAULTY", "REFUTED?", "FAULTY?", "UNCOVERED", "VERIFIED?", "INDETERMINATE"}

func (s Status) String() string { return statusNames[s] }

// Conclusive reports whether the status is a definite answer (DEAD, VERIFIED, REFUTED, FAULTY).
func (s Status) Conclusive() bool { return s <= StatusFaulty }

// ParseStatus returns the status called name.
func ParseStatus(name string) (Status, bool) {
	for i, n := range statusNames {
		if n == name {
			return Status(i), true
		}
	}
	return 0, false
}

// StatusRule is one row of the status interpretation table: the status given to a collecting
// summary S that satisfies the condition and no earlier row's.
type StatusRule struct {
	Status    Status
	Condition string
	Match     func(Summary) bool
}

var (
	sumTrue       = SummaryOf(ResTrue)
	sumCutoff     = SummaryOf(ResCutoff)
	sumTrueCutoff = SummaryOf(ResTrue, ResCutoff)
)

// StatusTable is the interpretation of a collecting summary (xSymExe, Section III-B5), first
// matching row wins. The conditions are written to rely on that order: FAULTY's "UNDEFINED ∈ S"
// also holds of {FALSE, UNDEFINED}, which REFUTED has taken; VERIFIED?'s "S ⊆ {TRUE, CUTOFF}" also
// holds of {}, {TRUE} and {CUTOFF}, which DEAD, VERIFIED and UNCOVERED have taken.
var StatusTable = []StatusRule{
	{StatusDead, "S = {}: no explored path reaches the claim and no cutoff can", func(s Summary) bool { return s == 0 }},
	{StatusVerified, "S = {TRUE}", func(s Summary) bool { return s == sumTrue }},
	{StatusRefuted, "FALSE ∈ S", func(s Summary) bool { return s.Has(ResFalse) }},
	{StatusFaulty, "UNDEFINED ∈ S", func(s Summary) bool { return s.Has(ResUndefined) }},
	{StatusRefutedQ, "FALSE? ∈ S", func(s Summary) bool { return s.Has(ResFalseQ) }},
	{StatusFaultyQ, "UNDEFINED? ∈ S", func(s Summary) bool { return s.Has(ResUndefinedQ) }},
	{StatusUncovered, "S = {CUTOFF}", func(s Summary) bool { return s == sumCutoff }},
	{StatusVerifiedQ, "S ⊆ {TRUE, CUTOFF}", func(s Summary) bool { return s.subsetOf(sumTrueCutoff) }},
	{StatusIndeterminate, "otherwise (DONTKNOW ∈ S)", func(Summary) bool { return true }},
}

// Interpret returns the status of a claim with collecting summary s: the first row of StatusTable
// that matches.
func Interpret(s Summary) Status {
	if fault.Active == fault.StatusDontKnowWeak && s.Has(ResDontKnow) && s.subsetOf(SummaryOf(ResTrue, ResDontKnow, ResCutoff)) {
		return StatusVerifiedQ // fault injection (build tag faults only)
	}
	table := StatusTable
	if fault.Active == fault.StatusRowOrder { // fault injection (build tag faults only)
		t := StatusTable // REFUTED? before FAULTY
		table = []StatusRule{t[0], t[1], t[2], t[4], t[3], t[5], t[6], t[7], t[8]}
	}
	for _, r := range table {
		if r.Match(s) {
			return r.Status
		}
	}
	return StatusIndeterminate
}

// overallOrder is the order in which a status makes the overall status: the first present wins;
// when none is, every claim is VERIFIED or DEAD and the overall status is VERIFIED.
var overallOrder = []Status{StatusRefuted, StatusFaulty, StatusRefutedQ, StatusFaultyQ, StatusIndeterminate, StatusUncovered, StatusVerifiedQ}

// OverallOf is the overall status of a verification whose claims have the statuses ss and whose
// exploration was stopped early for the reason stopped ("" when it was not): Overall(ss), but
// VERIFIED? for a program without claims whose exploration was stopped. A stopped exploration is
// a cutoff that reaches every claim (the CUTOFF of each claim's summary), so with claims the
// overall status is never VERIFIED after a stop; the same holds without claims: the answer is
// "nothing failed on the paths explored, and some paths were not explored", VERIFIED?, exit 3,
// as for a claim that was TRUE wherever it was reached and that the stop's cutoff reaches.
func OverallOf(ss []Status, stopped string) Status {
	if len(ss) == 0 && stopped != "" {
		return StatusVerifiedQ
	}
	return Overall(ss)
}

// Overall is the overall status of claims with statuses ss.
func Overall(ss []Status) Status {
	for _, o := range overallOrder {
		for _, s := range ss {
			if s == o {
				return o
			}
		}
	}
	return StatusVerified
}
