package solver

import (
	"errors"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/aclements/go-z3/z3"

	"certsym/internal/z3worker"
	"certsym/pathcond"
	"certsym/spec/integer"
)

// The chain's Z3 runs on a worker (package z3worker): a context of its own served by a goroutine
// of its own, into which the encoder's formulas are copied. A query that Z3 does not stop within
// abandonGrace of its time bound (or of an interrupt) is abandoned: it answers unknown, the
// worker is replaced by a new one (the layers' solvers start empty), and the path condition node
// of the query is remembered, so that the queries of the path conditions below it answer unknown
// at once instead of being abandoned in turn.

// abandonGrace is how long a query may run past its time bound before it is abandoned. Z3
// answers an interrupt within milliseconds where it polls; a query still running after this long
// is in a computation that does not poll.
const abandonGrace = 500 * time.Millisecond

// backend is the chain's worker, replaced after an abandoned query or a Z3 error.
type backend struct {
	src  *z3.Context
	syms []z3.Int
	arrs []z3worker.Array
	w    *z3worker.Worker
	// gen counts the workers made: a layer whose solvers belong to an older generation makes
	// new ones.
	gen int
	// poison holds the nodes of the abandoned queries' path conditions (by ID), with the reason.
	poison map[uint64]string
	intr   *interrupter
}

// worker returns the live worker, made when there is none.
func (b *backend) worker() *z3worker.Worker {
	if b.w == nil || b.w.Dead() {
		if b.w != nil {
			b.w.Close()
		}
		b.w = z3worker.New(b.src, b.syms, b.arrs)
		b.gen++
		b.intr.w.Store(b.w)
	}
	return b.w
}

// discard closes the worker: the next query makes a new one.
func (b *backend) discard() {
	if b.w != nil {
		b.w.Close()
	}
}

// close releases the worker for good.
func (b *backend) close() {
	b.intr.w.Store(nil)
	b.discard()
	b.w = nil
}

// poisoned returns the reason of an abandoned query when one of ns is the node of one, else "".
func (b *backend) poisoned(ns ...*pathcond.PC) string {
	if len(b.poison) == 0 {
		return ""
	}
	for _, n := range ns {
		if why, ok := b.poison[n.ID()]; ok {
			return why
		}
	}
	return ""
}

// poisonedPath is poisoned for phi and its ancestors.
func (b *backend) poisonedPath(phi *pathcond.PC) string {
	if len(b.poison) == 0 {
		return ""
	}
	for n := phi; n != nil; n = n.Parent {
		if why, ok := b.poison[n.ID()]; ok {
			return why
		}
	}
	return ""
}

// interrupter is what a monitor interrupts: the chain's worker until Close.
type interrupter struct {
	w atomic.Pointer[z3worker.Worker]
}

func (i *interrupter) Interrupt() {
	if w := i.w.Load(); w != nil {
		w.Interrupt()
	}
}

// run checks solver s of the worker w within the query's bounds (rlimit, the query's time bound,
// the deadline and what is left of the solver time), after the operations queued on it: sat with
// a model, or ok false with the reason of an unknown answer. phi is the query's path condition,
// remembered when the query is abandoned.
func run(e *env, w *z3worker.Worker, s z3worker.Solver, phi *pathcond.PC) (sat bool, model []integer.Int, reason string, ok bool) {
	limit, bound := e.timeout, "query time bound"
	if !e.deadline.IsZero() {
		if left := time.Until(e.deadline); limit == 0 || left < limit {
			limit = left
		}
		if limit <= 0 {
			return false, nil, "time bound reached", false
		}
	}
	budgeted := false // the solver time left is the query's time bound
	if e.solverTime > 0 {
		left := e.solverTime - e.stats.Time - time.Since(e.queryStart)
		if left <= 0 {
			return false, nil, e.spent(), false
		}
		if limit == 0 || left < limit {
			limit, bound, budgeted = left, fmt.Sprintf("solver time bound %v", e.solverTime), true
		}
	}
	e.stats.Z3Queries++
	defer func() {
		if !ok && reason != "interrupted" {
			e.mon.QueryUndecided()
		}
	}()
	r := w.Check(s, z3worker.Bounds{RLimit: e.rlimit, Limit: limit, Grace: abandonGrace})
	switch {
	case r.Abandoned:
		e.z3.discard()
		if e.mon.Interrupted() && !r.TimedOut {
			return false, nil, "interrupted", false
		}
		reason = fmt.Sprintf("Z3 did not stop at the %s (%v): the query was abandoned", bound, limit)
		if e.z3.poison == nil {
			e.z3.poison = map[uint64]string{}
		}
		e.z3.poison[phi.ID()] = fmt.Sprintf("a query of this path was abandoned before (Z3 did not stop at the %s)", bound)
		return false, nil, reason, false
	case errors.Is(r.Err, z3worker.ErrBusy):
		return false, nil, fmt.Sprintf("%d abandoned solver queries are still running", z3worker.Abandoned()), false
	case r.Err != nil:
		e.z3.discard() // the worker's solvers may be left inside a scope
		return false, nil, "solver error: " + r.Err.Error(), false
	case r.Status == z3worker.Sat:
		return true, r.Model, "", true
	case r.Status == z3worker.Unsat:
		return false, nil, "", true
	}
	reason = "Z3: " + r.Reason
	switch {
	case e.mon.Interrupted():
		reason = "interrupted"
	case r.TimedOut && budgeted:
		reason = e.spent()
	case r.TimedOut:
		reason = fmt.Sprintf("%s %v reached", bound, limit)
	case r.Reason == "canceled" && e.rlimit > 0:
		reason = fmt.Sprintf("query resource limit (rlimit %d) reached", e.rlimit)
	}
	return false, nil, reason, false
}

// spent is the reason of the queries after the solver time bound is spent.
func (e *env) spent() string { return fmt.Sprintf("solver time bound %v spent", e.solverTime) }
