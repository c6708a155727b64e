// Package solver decides the satisfiability of path conditions (package pathcond) with Z3, behind
// the layers that answer most queries without it. It is built as KLEE's solver chain
// (constructSolverChain): each layer is a value that answers a query (the Solver interface) or
// hands it to the next layer it wraps. New builds the chain, from the top:
//
//  1. the crosscheck (Options.CrossCheck, the refinement layer's; absent otherwise): hands each
//     answer of the caching layer below to the hook (crosscheck.go);
//  2. the caching layer (absent with Options.NoCache or Options.AbstractMul): the slice of the
//     path condition, model repair, the query cache and the counterexample cache (cache.go,
//     prepare.go); path conditions with arrays or quantifiers pass through;
//  3. the timing layer: the time spent below it, counted in Stats.Time and shown to the monitor;
//  4. the quantifier layer: path conditions with quantified conjuncts are decided by
//     instantiation (quant.go), the others pass through;
//  5. the core: Z3 on one incremental solver for the whole path condition, or on the slice alone
//     in a solver of its own when the caching layer gave one (core.go).
//
// Chain is the chain's head, what the engine holds: it counts the queries, turns a failed query
// into an unknown answer and records the answer in the path condition. A Chain owns one Z3
// context (encode.go: the translations of terms and conjuncts are side tables of the chain, keyed
// by the atoms' identity and the path condition nodes' IDs), so several chains may run in one
// process, one per goroutine. Close releases the context (release.go).
package solver

import (
	"time"

	"certsym/internal/budget"
	"certsym/internal/z3query"
	"certsym/pathcond"
	"certsym/spec/integer"
	"certsym/spec/syntax"
	"certsym/sym"
)

// A Solver is one layer of the chain: Check answers q, itself or by asking the layer it wraps.
type Solver interface {
	Check(q Query) Answer
}

// Query is what a layer is asked: is the path condition PC satisfiable?
type Query struct {
	PC *pathcond.PC
	// slice, when not nil, is the slice of PC that the caching layer asks Z3 about in place of PC
	// (equisatisfiable with it; a model of it is merged with the base witness by the caching
	// layer).
	slice *query
}

// Answer is a layer's answer: the status, a model when it is Sat (a value for every symbol),
// the reason when it is Unknown, and the rule that gave it.
type Answer struct {
	Status pathcond.SatStatus
	Model  []integer.Int
	Reason string
	// Rule is the caching layer that answered without Z3 ("query-cache", "cex-model",
	// "cex-unsat-subset", "repair", "slice-empty"), "slice" for Z3's answer about the slice, and
	// "" for Z3's answer about the whole path condition.
	Rule string
}

// Options configure a chain (New); they cannot change afterwards.
type Options struct {
	// NoCache leaves the caching layer out: every query goes to Z3 on the incremental stack.
	NoCache bool
	// AbstractMul (certsym verify --abstract-nonlinear) encodes each product of two non-constant
	// terms as an uninterpreted function mul(l, r) constrained only by the sign axioms (see
	// signAxioms): an over-approximation, so unsat answers stay exact but a model may be
	// spurious. The path conditions made from the chain's Root see products the same way. The
	// caching layer is left out.
	AbstractMul bool
	// CrossCheck, when not nil, is the crosscheck of the refinement layer: it is handed every
	// decision Extend takes below the chain's Root and every answer of the caching layer
	// (crosscheck.go). It is called on the goroutine that extends or checks.
	CrossCheck func(pathcond.Decision)
}

// Stats count solver queries and the time spent in Z3 for them (moving the assertion stack,
// checking, reading the model). Queries = Sat + Unsat + Unknown counts every Check that was not
// already decided; of them, Z3Queries reached Z3, and the caching layers (cache.go) answered
// CacheHits (the query cache), CexModelHits and CexUnsatHits (the counterexample cache's models
// and unsatisfiable subsets), RepairHits (the parent's witness repaired) and SliceEmpty (nothing
// left to ask once the conjuncts implied by the bounds and those independent of the new ones are
// set aside). Sliced counts the Z3 queries asked on a slice in the slice solver rather than on the
// whole path condition.
type Stats struct {
	Queries, Sat, Unsat, Unknown int
	Time                         time.Duration

	Z3Queries, CacheHits, CexModelHits, CexUnsatHits, SliceEmpty, RepairHits, Sliced int
}

// env is what the layers of one chain share: the counters, the monitor, the query bounds and
// the worker that runs Z3 (backend.go).
type env struct {
	stats *Stats
	mon   *budget.Monitor
	// rlimit bounds each query's resource use (Z3's rlimit; 0: none); timeout each query's time
	// (0: none); deadline, when not zero, also bounds each query; solverTime bounds the time of
	// all the queries together (Stats.Time; 0: none).
	rlimit     uint
	timeout    time.Duration
	deadline   time.Time
	solverTime time.Duration
	// queryStart is when the running query started (the timing layer's clock).
	queryStart time.Time
	z3         *backend
}

// Chain is the head of a chain of layers: the engine's link to Z3, owned by one goroutine.
//
// Each query is bounded by Z3's rlimit and by a timer that interrupts the worker's context (Z3's
// timeout parameter deadlocks Z3 4.8.12 on nonlinear queries, so it is not used); a query that
// does not stop at its time bound is abandoned (backend.go).
type Chain struct {
	Stats Stats

	opts     Options
	names    []string
	deciders *pathcond.Deciders // of the roots made by Root (nil: the default deciders)
	env      env
	intr     *interrupter
	top      Solver
	layers   []Solver // the layers from the top, for the resets after a failed query
	enc      *encoder
	cache    *caching // the caching layer, nil when left out
	closed   bool
}

// New builds the chain for the program's flat store: its variables, then its arrays' elements
// (sym.SlotNames).
func New(p *syntax.Program, opts Options) *Chain { return newChain(p, sym.SlotNames(p), opts) }

// NewForSymbols builds the chain for the scalar symbols names (a program without arrays).
func NewForSymbols(names []string, opts Options) *Chain { return newChain(nil, names, opts) }

// newChain is the one place where a chain is built (constructSolverChain), layers bottom up.
func newChain(p *syntax.Program, names []string, opts Options) *Chain {
	c := &Chain{opts: opts, names: names}
	c.env.stats = &c.Stats
	c.enc = newEncoder(p, names, opts.AbstractMul)
	var s Solver = newCore(c.enc, &c.env)
	c.layers = append(c.layers, s)
	s = &quantifiers{next: s, enc: c.enc, env: &c.env}
	c.layers = append(c.layers, s)
	s = &timing{next: s, env: &c.env}
	c.layers = append(c.layers, s)
	if !opts.NoCache && !opts.AbstractMul {
		c.cache = newCaching(s, &c.env, c.NewPreparer())
		s = c.cache
		c.layers = append(c.layers, s)
	}
	if opts.CrossCheck != nil {
		s = &crossCheck{next: s, hook: opts.CrossCheck}
		c.layers = append(c.layers, s)
	}
	c.top = s
	c.intr = &interrupter{}
	c.env.z3 = &backend{src: c.enc.ctx, syms: c.enc.syms, arrs: c.enc.arrs, intr: c.intr}
	for i, j := 0, len(c.layers)-1; i < j; i, j = i+1, j-1 {
		c.layers[i], c.layers[j] = c.layers[j], c.layers[i]
	}
	if opts.AbstractMul || opts.CrossCheck != nil {
		c.deciders = &pathcond.Deciders{AbstractMul: opts.AbstractMul, Observe: opts.CrossCheck}
	}
	c.SetMonitor(budget.NewMonitor())
	return c
}

// Root is the path condition true of a program with nvars symbols for this chain's queries:
// with AbstractMul, Extend decides its descendants only as far as the abstraction can (a
// product's range is what its sign axioms give); with CrossCheck, Extend hands its decisions to
// the hook.
func (c *Chain) Root(nvars int) *pathcond.PC { return pathcond.Root(nvars, c.deciders) }

// SetLimits bounds each query by lim's RLimit and QueryTimeout, and by deadline when it is not
// zero (the time bound of the whole run), and all the queries together by lim's SolverTime.
func (c *Chain) SetLimits(lim budget.Limits, deadline time.Time) {
	c.env.rlimit, c.env.timeout, c.env.deadline = lim.RLimit, lim.QueryTimeout, deadline
	c.env.solverTime = lim.SolverTime
}

// Deadline returns the time bound of each query (zero: none besides the query's own).
func (c *Chain) Deadline() time.Time { return c.env.deadline }

// SetDeadline makes d the time bound of each query (zero: none besides the query's own).
func (c *Chain) SetDeadline(d time.Time) { c.env.deadline = d }

// SetMonitor makes m the monitor that sees the chain's queries and can interrupt them.
func (c *Chain) SetMonitor(m *budget.Monitor) {
	c.env.mon = m
	m.Attach(c.intr)
}

// Check decides the satisfiability of phi and records the answer in phi (Status, Witness,
// Reason). A model becomes the witness: a value for every symbol.
func (c *Chain) Check(phi *pathcond.PC) pathcond.SatStatus {
	if phi.Status != pathcond.Unchecked {
		return phi.Status
	}
	a := c.check(phi)
	phi.Status, phi.Reason = a.Status, a.Reason
	if a.Status == pathcond.Sat {
		phi.Witness = a.Model
	}
	return a.Status
}

func (c *Chain) check(phi *pathcond.PC) (a Answer) {
	if c.closed {
		panic("solver: a query after Close")
	}
	// Every query is counted once, with exactly one of its answers: Queries = Sat + Unsat + Unknown.
	c.Stats.Queries++
	c.env.mon.CountQuery()
	var failed error
	defer func() {
		if failed != nil { // a query that fails is unknown, never a crash
			for _, l := range c.layers {
				if r, ok := l.(interface{ reset() }); ok {
					r.reset()
				}
			}
			a = Answer{Status: pathcond.Unknown, Reason: "solver error: " + failed.Error()}
		}
		switch a.Status {
		case pathcond.Sat:
			c.Stats.Sat++
		case pathcond.Unsat:
			c.Stats.Unsat++
		default:
			c.Stats.Unknown++
		}
	}()
	defer z3query.Catch(&failed)
	if c.env.mon.Interrupted() {
		return Answer{Status: pathcond.Unknown, Reason: "interrupted"}
	}
	return c.top.Check(Query{PC: phi})
}

// timing is the layer that counts the time spent below it (Stats.Time) and shows the running
// query to the monitor.
type timing struct {
	next Solver
	env  *env
}

func (t *timing) Check(q Query) Answer {
	start := time.Now()
	t.env.queryStart = start
	t.env.mon.QueryStarted(start)
	defer func() {
		d := time.Since(start)
		t.env.stats.Time += d
		t.env.mon.QueryDone(d)
	}()
	return t.next.Check(q)
}
