package solver

import (
	"fmt"
	"time"

	"github.com/aclements/go-z3/z3"

	"certsym/internal/fault"
	"certsym/internal/z3query"
	"certsym/pathcond"
)

// core is the bottom layer: Z3 itself. It holds the conjuncts of the last path condition it was
// asked about on one incremental solver, one Push level per conjunct, so a query about a
// neighbouring state pops and pushes only where the two path conditions differ. A query that
// comes with a slice (Query.slice) is asked of the slice solver instead, Q alone in a scope of
// its own.
type core struct {
	enc    *encoder
	env    *env
	s      *z3.Solver
	stack  []*pathcond.PC // asserted conjuncts, root first
	slicer *z3.Solver     // the slice solver, made at its first use
	scoped bool           // the slicer has the scope of the last query pushed
}

func newCore(enc *encoder, e *env) *core {
	c := &core{enc: enc, env: e, s: z3.NewSolver(enc.ctx)}
	z3query.NoCtrlC(enc.ctx, c.s)
	return c
}

func (c *core) Check(q Query) Answer {
	s := c.s
	if q.slice != nil {
		s = c.assertSlice(q.slice)
	} else {
		c.moveTo(q.PC)
	}
	sat, reason, ok := run(c.enc, c.env, s)
	switch {
	case !ok:
		return Answer{Status: pathcond.Unknown, Reason: reason}
	case !sat:
		return Answer{Status: pathcond.Unsat}
	}
	model := z3query.Model(s, c.enc.syms)
	if fault.Active == fault.ModelIndexShift {
		shiftModel(c.enc.prog, model)
	}
	return Answer{Status: pathcond.Sat, Model: model}
}

// reset empties the solvers after a failed query (a query may fail inside a scope).
func (c *core) reset() {
	c.s.Reset()
	c.stack = c.stack[:0]
	if c.slicer != nil {
		c.slicer.Reset()
		c.scoped = false
	}
}

// moveTo makes the incremental solver's assertions the conjuncts of phi.
func (c *core) moveTo(phi *pathcond.PC) {
	path := make([]*pathcond.PC, phi.Depth)
	for n := phi; n.Parent != nil; n = n.Parent {
		path[n.Depth-1] = n
	}
	k := 0
	for k < len(c.stack) && k < len(path) && c.stack[k] == path[k] {
		k++
	}
	for len(c.stack) > k {
		c.s.Pop()
		c.stack[len(c.stack)-1] = nil
		c.stack = c.stack[:len(c.stack)-1]
	}
	for _, n := range path[k:] {
		x := c.enc.conjunct(n)
		c.s.Push()
		c.s.Assert(x)
		c.stack = append(c.stack, n)
	}
}

// assertSlice makes the slice solver's assertions the formulas of Q.
func (c *core) assertSlice(q *query) *z3.Solver {
	if c.slicer == nil {
		c.slicer = z3.NewSolver(c.enc.ctx)
		z3query.NoCtrlC(c.enc.ctx, c.slicer)
	}
	s := c.slicer
	// one scope per query: popping it is cheaper than a reset, and a solver with a scope pushed
	// stays in Z3's incremental mode (a fresh solver's first check runs the non-incremental
	// tactic pipeline, measured at about 6 ms per query).
	if c.scoped {
		s.Pop()
	}
	s.Push()
	c.scoped = true
	for _, n := range q.conj {
		s.Assert(c.enc.conjunct(n))
	}
	for _, iv := range q.ivals {
		x := c.enc.syms[iv.sym]
		if iv.b.hasLo {
			s.Assert(x.GE(c.enc.intVal(iv.b.lo)))
		}
		if iv.b.hasHi {
			s.Assert(x.LE(c.enc.intVal(iv.b.hi)))
		}
	}
	return s
}

// run checks s within the query's bounds (rlimit, the query's time bound and the deadline): sat,
// or ok false with the reason of an unknown answer.
func run(enc *encoder, e *env, s *z3.Solver) (sat bool, reason string, ok bool) {
	limit := e.timeout
	if !e.deadline.IsZero() {
		if left := time.Until(e.deadline); limit == 0 || left < limit {
			limit = left
		}
		if limit <= 0 {
			return false, "time bound reached", false
		}
	}
	e.stats.Z3Queries++
	sat, err, timedOut := z3query.Check(enc.ctx, s, e.rlimit, limit)
	if err == nil {
		return sat, "", true
	}
	reason = "Z3: " + err.Error()
	switch {
	case e.mon.Interrupted():
		reason = "interrupted"
	case timedOut:
		reason = fmt.Sprintf("query time bound %v reached", limit)
	case err.Error() == "canceled" && e.rlimit > 0:
		reason = fmt.Sprintf("query resource limit (rlimit %d) reached", e.rlimit)
	}
	return false, reason, false
}
