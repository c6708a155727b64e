package pathcond

import (
	"slices"

	"certsym/spec/integer"
)

// Answer is what a solver concluded of a path condition: its status, a model when satisfiable,
// and why it could not decide when unknown. A run that hands a state to another solver (a thief
// of a partitioned run, a worker of a distributed one) hands the answer with it: the answers of
// two solvers differ where a time or resource bound cuts one of them short (which depends on
// each solver's history and on the machine's load), while the single run asks each path
// condition once, and the states below are expanded under that one answer.
type Answer struct {
	Status  SatStatus
	Witness []integer.Int
	Reason  string
}

// Answer is phi's answer so far (the witness copied).
func (phi *PC) Answer() *Answer {
	return &Answer{Status: phi.Status, Witness: slices.Clone(phi.Witness), Reason: phi.Reason}
}

// Take makes a the answer of phi, a path condition no other goroutine sees yet (the same
// conjuncts as the one a was given on, rebuilt by another engine).
func (phi *PC) Take(a *Answer) {
	phi.Status, phi.Witness, phi.Reason = a.Status, a.Witness, a.Reason
}
