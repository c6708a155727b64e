package solver

import (
	"fmt"

	"certsym/internal/fault"
	"certsym/internal/z3worker"
	"certsym/pathcond"
	"certsym/sym"
)

// core is the bottom layer: Z3 itself, on the chain's worker (backend.go). It holds the
// conjuncts of the last path condition it was asked about on one incremental solver, one Push
// level per conjunct, so a query about a neighbouring state pops and pushes only where the two
// path conditions differ. A query that comes with a slice (Query.slice) is asked of the slice
// solver instead, Q alone in a scope of its own. A conjunct with a polynomial of degree over
// MaxDegree is not asserted: the query answers unknown.
type core struct {
	enc     *encoder
	env     *env
	gen     int // the worker generation the solvers below belong to (backend.gen)
	s       z3worker.Solver
	stack   []*pathcond.PC  // asserted conjuncts, root first
	slicer  z3worker.Solver // the slice solver, made at its first use
	sliceOK bool            // the slice solver is made
	scoped  bool            // the slicer has the scope of the last query pushed
}

func newCore(enc *encoder, e *env) *core { return &core{enc: enc, env: e} }

func (c *core) Check(q Query) Answer {
	w := c.env.z3.worker()
	if c.gen != c.env.z3.gen { // a new worker: new solvers, nothing asserted
		c.gen, c.s, c.sliceOK, c.scoped = c.env.z3.gen, w.NewSolver(), false, false
		clear(c.stack)
		c.stack = c.stack[:0]
	}
	var s z3worker.Solver
	var why string
	if q.slice != nil {
		if why = c.env.z3.poisoned(q.slice.conj...); why == "" {
			s, why = c.assertSlice(w, q.slice)
		}
	} else {
		s = c.s
		if why = c.env.z3.poisonedPath(q.PC); why == "" {
			why = c.moveTo(w, q.PC)
		}
	}
	if why != "" {
		return Answer{Status: pathcond.Unknown, Reason: why}
	}
	sat, model, reason, ok := run(c.env, w, s, q.PC)
	switch {
	case !ok:
		return Answer{Status: pathcond.Unknown, Reason: reason}
	case !sat:
		return Answer{Status: pathcond.Unsat}
	}
	if fault.Active == fault.ModelIndexShift {
		shiftModel(c.enc.prog, model)
	}
	return Answer{Status: pathcond.Sat, Model: model}
}

// reset empties the solvers after a failed query (a query may fail inside a scope).
func (c *core) reset() {
	if c.env.z3.w != nil && c.gen == c.env.z3.gen {
		c.env.z3.w.Reset(c.s)
		if c.sliceOK {
			c.env.z3.w.Reset(c.slicer)
		}
	}
	clear(c.stack)
	c.stack = c.stack[:0]
	c.scoped = false
}

// moveTo makes the incremental solver's assertions the conjuncts of phi, or returns why it
// cannot: a conjunct over MaxDegree (the conjuncts below it stay asserted).
func (c *core) moveTo(w *z3worker.Worker, phi *pathcond.PC) string {
	path := make([]*pathcond.PC, phi.Depth)
	for n := phi; n.Parent != nil; n = n.Parent {
		path[n.Depth-1] = n
	}
	k := 0
	for k < len(c.stack) && k < len(path) && c.stack[k] == path[k] {
		k++
	}
	if pop := len(c.stack) - k; pop > 0 {
		w.Pop(c.s, pop)
		clear(c.stack[k:])
		c.stack = c.stack[:k]
	}
	for _, n := range path[k:] {
		if why := c.enc.tooHigh(n.Conj); why != "" {
			return why
		}
		w.Push(c.s)
		w.Assert(c.s, c.enc.conjunct(n))
		c.stack = append(c.stack, n)
	}
	return ""
}

// assertSlice makes the slice solver's assertions the formulas of Q, or returns why it cannot
// (a conjunct over MaxDegree).
func (c *core) assertSlice(w *z3worker.Worker, q *query) (z3worker.Solver, string) {
	if !c.sliceOK {
		c.slicer, c.sliceOK = w.NewSolver(), true
	}
	s := c.slicer
	// one scope per query: popping it is cheaper than a reset, and a solver with a scope pushed
	// stays in Z3's incremental mode (a fresh solver's first check runs the non-incremental
	// tactic pipeline, measured at about 6 ms per query).
	if c.scoped {
		w.Pop(s, 1)
	}
	w.Push(s)
	c.scoped = true
	for _, n := range q.conj {
		if why := c.enc.tooHigh(n.Conj); why != "" {
			return s, why
		}
		w.Assert(s, c.enc.conjunct(n))
	}
	for _, iv := range q.ivals {
		x := c.enc.sym(iv.sym)
		if iv.b.hasLo {
			w.Assert(s, x.GE(c.enc.intVal(iv.b.lo)))
		}
		if iv.b.hasHi {
			w.Assert(s, x.LE(c.enc.intVal(iv.b.hi)))
		}
	}
	return s, ""
}

// MaxDegree is the highest degree of a polynomial a query may have (sym.Term.Degree: the degree
// of a product is the sum of its factors'): a query with a higher one answers unknown without
// reaching Z3. Z3 4.8.12 spends minutes without polling for interrupts on some powers of degree 24
// and more (x^32 >= 7, (x + 1)^128 == 7, measured); such a query is abandoned after its time
// bound (backend.go), and those over MaxDegree are not tried at all.
const MaxDegree = 64

// tooHigh returns why f is not asked of Z3 (a polynomial over MaxDegree), or "". With AbstractMul
// no polynomial has a product in it: nothing is too high.
func (z *encoder) tooHigh(f *sym.Formula) string {
	if z.abstractMul {
		return ""
	}
	deg := f.Degree()
	if deg <= MaxDegree {
		return ""
	}
	d := fmt.Sprint(deg)
	if deg >= sym.DegreeCap {
		d = fmt.Sprintf("at least %d", sym.DegreeCap)
	}
	return fmt.Sprintf("a polynomial of degree %s, over the solver's limit of %d", d, MaxDegree)
}
