// Package paths is the path-tests phase of certsym verify (xSymExe's explications, Section V):
// the numbered paths of a verification, the workers that render their conditions while the
// exploration goes on, and the test of each path, a model of its condition replayed on the
// bounded concrete semantics. Everything here is a function of one path: the report is the same
// for every number of workers.
package paths

import (
	"fmt"

	"certsym/internal/budget"
	"certsym/internal/concrete"
	"certsym/pathcond"
	"certsym/spec"
	"certsym/spec/syntax"
)

// Path is one explored symbolic path that reached a claim or a cutoff point, numbered in
// exploration order (the first evaluation on it): paths that share their prefix up to a claim
// are the same path there. The path is that prefix, from the start to where it was numbered
// (Line); the symbolic paths the exploration counts by how they end continue it, so one
// numbered path can stand for several of them. Its test (the paper's HTML report shows each path
// as a test with its pre- and post-state) is the first counterexample of a claim found on the
// path when there is one (SetCounterexample), so that a path cited as failing a claim has a test
// that fails it, and otherwise the solver's model of the path condition; it is run to its end on
// the bounded concrete semantics.
type Path struct {
	ID            int
	Line          int // where the path was first met (a claim's line, or a cutoff point's)
	PathCondition string
	// Input is the test (pre-state), nil when none could be given (the solver's model is spurious
	// under the abstraction of products, or unknown, or over MaxPathTests).
	Input spec.Store
	// Final is the store at the end of the bounded concrete replay of Input (post-state), Ends
	// how that run ended, Lines the lines it executed (at most MaxPathLines).
	Final spec.Store
	Ends  string
	Lines []int
	pc    *pathcond.PC
	cex   spec.Store // the first counterexample found on the path, nil for none
}

// New is path number id, first met at line, whose path condition is pc.
func New(id, line int, pc *pathcond.PC) *Path { return &Path{ID: id, Line: line, pc: pc} }

// PC is the path's condition.
func (p *Path) PC() *pathcond.PC { return p.pc }

// Counterexample is the input SetCounterexample made the path's test, nil for none.
func (p *Path) Counterexample() spec.Store { return p.cex }

// SetCounterexample makes m, an input on which a claim fails on the path (a model of the path's
// condition and the claim's negation, replayed), the path's test, unless it has one already.
func (p *Path) SetCounterexample(m spec.Store) {
	if p.cex == nil {
		p.cex = m
	}
}

// MaxPathTests is the most paths given a test and its replay (the first ones).
const MaxPathTests = 1000

// MaxPathLines is the most lines kept of a path's replay.
const MaxPathLines = 200

// Test gives path p of prog its test, its counterexample (SetCounterexample) or else the
// solver's model of its path condition if there is one, and replays it with loop bound n within
// the bounds of a replay (concrete.Limits: the integer bound, ReplayInstances quantifier
// instances), polling stop: a function of the path alone, which writes only p's test fields. A
// replay a bound cuts short gives the path no test, and Ends says why; Test returns false when it
// was stop (the replay of the tests was cut).
func Test(prog *syntax.Program, n int, p *Path, stop func() bool, mon *budget.Monitor) bool {
	if stop() {
		p.Ends = "no test: the replay of the tests was cut (" + mon.Stop() + ")"
		return false
	}
	model := p.cex
	if model == nil || !p.pc.Formula().Eval(model) {
		if p.pc.Status != pathcond.Sat || !p.pc.Formula().Eval(p.pc.Witness) {
			p.Ends = "no test: the solver gave no model of the path condition on the real semantics of products"
			return true
		}
		model = p.pc.Witness
	}
	input := append(spec.Store{}, model[:prog.Slots()]...) // without the fresh symbols of verify's invariant mode
	var lines []int
	lim := concrete.Limits(-1, concrete.ReplayInstances, stop)
	r := spec.ExecBoundedLimited(prog, input, n, lim, func(s syntax.Stmt) {
		if l := s.Pos().Line; l > 0 && len(lines) < MaxPathLines && (len(lines) == 0 || lines[len(lines)-1] != l) {
			lines = append(lines, l)
		}
	}, nil)
	switch r.Cut {
	case budget.NotCut:
	case budget.CutStop:
		p.Ends = "no test: the replay of the tests was cut (" + mon.Stop() + ")"
		return false
	default:
		p.Ends = "no test: its replay was cut short (" + concrete.Reason(r.Cut, r.At, concrete.ReplayInstances, "") + ")"
		return true
	}
	p.Input, p.Lines, p.Final, p.Ends = input, lines, r.Store, EndsText(r)
	return true
}

// EndsText says how a bounded concrete run ended.
func EndsText(r spec.BoundedResult) string {
	switch {
	case r.Fail != nil:
		return fmt.Sprintf("%s (%s at line %d)", r.Behaviour, r.Fail.Kind, r.Fail.Line())
	case r.At != nil:
		return fmt.Sprintf("%s at line %d", r.Behaviour, r.At.Pos().Line)
	}
	return r.Behaviour.String()
}
