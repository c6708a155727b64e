package sym

import (
	"time"

	"github.com/aclements/go-z3/z3"

	"certsym/internal/budget"
	"certsym/internal/fault"
	"certsym/internal/z3query"
	"certsym/spec/integer"
	"certsym/spec/syntax"
)

// Solver is the engine's link to Z3: one context and one incremental solver, owned by one
// goroutine (go-z3 crashes when a context is shared). The solver holds the conjuncts of the
// last path condition it was asked about, one Push level per conjunct, so a query about a
// neighbouring state pops and pushes only where the two path conditions differ.
//
// Each query is bounded by Z3's rlimit and by a timer that interrupts the context (Z3's timeout
// parameter deadlocks Z3 4.8.12 on nonlinear queries, so it is not used).
type Solver struct {
	ctx   *z3.Context
	s     *z3.Solver
	names []string
	syms  []z3.Int
	arrs  []z3.Array // one Array(Int → Int) constant per declared array (arrays.go)
	prog  *syntax.Program
	qs    *z3.Solver // the solver of the quantified path conditions, one scope per round
	atoms map[*Atom]z3.Int
	stack []*PC // asserted conjuncts, root first

	// RLimit bounds each query's resource use (Z3's rlimit; 0: none).
	RLimit uint
	// QueryTimeout bounds each query's time (0: none).
	QueryTimeout time.Duration
	// Deadline, when not zero, also bounds each query.
	Deadline time.Time
	// AbstractMul (certsym verify --abstract-nonlinear), set before the first query, encodes each
	// product of two non-constant terms as an uninterpreted function mul(l, r) constrained only by
	// the sign axioms (see signAxioms): an over-approximation, so unsat answers stay exact but a
	// model may be spurious. Off, it costs one test per conjunct pushed.
	AbstractMul bool
	mulF        z3.FuncDecl
	mulFok      bool
	axioms      map[*Atom]z3.Bool

	// NoCache turns the solver caching off (cache.go): every query goes to Z3 on the incremental
	// stack, as before issue 17. Set it before the first query.
	NoCache bool
	cache   *queryCache

	Stats SolverStats

	mon *budget.Monitor // receives the live query counters; Interrupt reaches the context through it
}

// SolverStats counts solver queries and the time spent in Z3 for them (moving the assertion
// stack, checking, reading the model). Queries = Sat + Unsat + Unknown counts every Check that
// was not already decided; of them, Z3Queries reached Z3, and the caching layers (cache.go)
// answered CacheHits (the query cache), CexModelHits and CexUnsatHits (the counterexample
// cache's models and unsatisfiable subsets), RepairHits (the parent's witness repaired) and
// SliceEmpty (nothing left to ask once the conjuncts implied by the bounds and those independent
// of the new ones are set aside). Sliced counts the Z3 queries asked on a slice in the slice
// solver rather than on the whole path condition.
type SolverStats struct {
	Queries, Sat, Unsat, Unknown int
	Time                         time.Duration

	Z3Queries, CacheHits, CexModelHits, CexUnsatHits, SliceEmpty, RepairHits, Sliced int
}

// NewSolver creates a solver for the symbols names (the program's variables); for a program with
// arrays, NewSolverFor.
func NewSolver(names []string) *Solver {
	cfg := z3.NewContextConfig()
	cfg.SetBool("model", true)
	ctx := z3.NewContext(cfg)
	sv := &Solver{ctx: ctx, s: z3.NewSolver(ctx), names: names, atoms: map[*Atom]z3.Int{}}
	z3query.NoCtrlC(ctx, sv.s)
	sv.SetMonitor(budget.NewMonitor())
	sv.syms = make([]z3.Int, len(names))
	for i, n := range names {
		sv.syms[i] = ctx.IntConst(n)
	}
	return sv
}

// SetLimits bounds each query by lim's RLimit and QueryTimeout, and by deadline when it is not
// zero (the time bound of the whole run).
func (sv *Solver) SetLimits(lim budget.Limits, deadline time.Time) {
	sv.RLimit, sv.QueryTimeout, sv.Deadline = lim.RLimit, lim.QueryTimeout, deadline
}

// SetMonitor makes m the monitor that sees the solver's queries and can interrupt them.
func (sv *Solver) SetMonitor(m *budget.Monitor) {
	sv.mon = m
	m.Attach(sv.ctx)
}

func (sv *Solver) intVal(v integer.Int) z3.Int {
	if x, ok := v.Int64(); ok {
		return sv.ctx.FromInt(x, sv.ctx.IntSort()).(z3.Int)
	}
	return sv.ctx.FromBigInt(v.Big(), sv.ctx.IntSort()).(z3.Int)
}

func (sv *Solver) term(t *Term) z3.Int { return sv.termE(t, nil) }

func (sv *Solver) termE(t *Term, env *zenv) z3.Int {
	r := sv.intVal(t.c)
	if len(t.monos) == 0 {
		return r
	}
	parts := make([]z3.Int, 0, len(t.monos))
	for _, m := range t.monos {
		a := sv.atomE(m.a, env)
		if !m.k.Equal(one) {
			a = sv.intVal(m.k).Mul(a)
		}
		parts = append(parts, a)
	}
	if !t.c.IsZero() {
		parts = append(parts, r)
	}
	if len(parts) == 1 {
		return parts[0]
	}
	return parts[0].Add(parts[1:]...)
}

// atom translates an atom. Division and remainder are IMP's truncating ones, total as in the
// formal development: Z3's div and mod are Euclidean, so
//
//	l / r = ite(r == 0, 0, ite(l >= 0, div(l, r), -div(-l, r)))   and   l % r = l - r * (l / r).
func (sv *Solver) atom(a *Atom) z3.Int { return sv.atomE(a, nil) }

// atomE translates an atom in the environment env of the bound variables (instances and fresh
// constants, arrays.go); an atom without a bound variable inside is translated once.
func (sv *Solver) atomE(a *Atom, env *zenv) z3.Int {
	switch a.Kind {
	case AtomSym:
		return sv.syms[a.Sym]
	case AtomBnd:
		return env.lookup(a.Sym)
	}
	if z, ok := sv.atoms[a]; ok {
		return z
	}
	if a.Kind == AtomSel {
		z := sv.arrTerm(a.A, env).Select(sv.termE(a.L, env)).(z3.Int)
		if !a.bnd {
			sv.atoms[a] = z
		}
		return z
	}
	l, r := sv.termE(a.L, env), sv.termE(a.R, env)
	var z z3.Int
	switch a.Kind {
	case AtomMul:
		if sv.AbstractMul {
			z = sv.abstractMul(a, l, r)
			break
		}
		z = l.Mul(r)
	case AtomDiv, AtomMod:
		if fault.Active == fault.EuclideanDiv {
			z = l.Div(r)
			if a.Kind == AtomMod {
				z = l.Mod(r)
			}
			break
		}
		zero := sv.intVal(integer.Int{})
		q := r.Eq(zero).IfThenElse(zero, l.GE(zero).IfThenElse(l.Div(r), l.Neg().Div(r).Neg())).(z3.Int)
		z = q
		if a.Kind == AtomMod {
			z = l.Sub(r.Mul(q))
		}
	}
	if !a.bnd {
		sv.atoms[a] = z
	}
	return z
}

// Formula translates f into the solver's context.
func (sv *Solver) Formula(f *Formula) z3.Bool {
	switch f.Op {
	case FTrue:
		return sv.ctx.FromBool(true)
	case FFalse:
		return sv.ctx.FromBool(false)
	case FGe:
		return sv.term(f.T).GE(sv.intVal(integer.Int{}))
	case FEq:
		return sv.term(f.T).Eq(sv.intVal(integer.Int{}))
	case FNe:
		return sv.term(f.T).NE(sv.intVal(integer.Int{}))
	case FForall, FExists:
		// Check decides the path conditions with quantified conjuncts by instantiation
		// (quant.go), which Extend marks (PC.quant); a quantified formula reaching this
		// translation is a path condition built otherwise: the query fails (unknown) rather than
		// answer on a weaker formula.
		panic("sym: a quantified conjunct in a path condition not built by Extend")
	}
	args := make([]z3.Bool, len(f.Args))
	for i, g := range f.Args {
		args[i] = sv.Formula(g)
	}
	if f.Op == FAnd {
		return args[0].And(args[1:]...)
	}
	return args[0].Or(args[1:]...)
}

// moveTo makes the solver's assertions the conjuncts of phi.
func (sv *Solver) moveTo(phi *PC) {
	path := make([]*PC, phi.Depth)
	for n := phi; n.Parent != nil; n = n.Parent {
		path[n.Depth-1] = n
	}
	k := 0
	for k < len(sv.stack) && k < len(path) && sv.stack[k] == path[k] {
		k++
	}
	for len(sv.stack) > k {
		sv.s.Pop()
		sv.stack = sv.stack[:len(sv.stack)-1]
	}
	for _, n := range path[k:] {
		if !n.z3ok {
			n.z3, n.z3ok = sv.Formula(n.Conj), true
			if sv.AbstractMul {
				n.z3 = sv.withSignAxioms(n.z3, n.Conj)
			}
		}
		sv.s.Push()
		sv.s.Assert(n.z3)
		sv.stack = append(sv.stack, n)
	}
}

// Check decides the satisfiability of phi and records the answer in phi (Status, Witness,
// Reason). A model becomes the witness: a value for every symbol.
func (sv *Solver) Check(phi *PC) SatStatus {
	if phi.Status != Unchecked {
		return phi.Status
	}
	status, model, reason := sv.check(phi)
	phi.Status, phi.Reason = status, reason
	if status == Sat {
		phi.Witness = model
	}
	return status
}

func (sv *Solver) check(phi *PC) (status SatStatus, model []integer.Int, reason string) {
	// Every query is counted once, with exactly one of its answers: Queries = Sat + Unsat + Unknown.
	sv.Stats.Queries++
	sv.mon.CountQuery()
	var failed error
	defer func() {
		if failed != nil { // a query that fails is unknown, never a crash
			sv.s.Reset()
			sv.stack = sv.stack[:0]
			if sv.cache != nil && sv.cache.slicer != nil {
				sv.cache.slicer.Reset()
				sv.cache.scoped = false
			}
			if sv.qs != nil { // a round may have failed inside its scope
				sv.qs.Reset()
			}
			status, model, reason = Unknown, nil, "solver error: "+failed.Error()
		}
		switch status {
		case Sat:
			sv.Stats.Sat++
		case Unsat:
			sv.Stats.Unsat++
		default:
			sv.Stats.Unknown++
		}
	}()
	defer z3query.Catch(&failed)
	if sv.mon.Interrupted() {
		return Unknown, nil, "interrupted"
	}
	var q *query
	if !sv.NoCache && !sv.AbstractMul && !phi.ext {
		// path conditions with arrays or quantifiers bypass the caching layers (their slices
		// count symbols, not the elements a select may read)
		if sv.cache == nil {
			sv.cache = sv.newQueryCache()
		}
		q = sv.prepared(phi)
		if st, m, rule := sv.lookup(q); st != Unchecked {
			if rule == "slice-empty" {
				sv.Stats.SliceEmpty++
			}
			if cacheCheck != nil {
				cacheCheck(phi, st, m, rule)
			}
			return st, m, ""
		}
	}
	start := time.Now()
	sv.mon.QueryStarted(start)
	defer func() {
		d := time.Since(start)
		sv.Stats.Time += d
		sv.mon.QueryDone(d)
	}()
	if phi.quant {
		return sv.checkQuant(phi)
	}
	s := sv.s
	if q != nil && q.size*sliceMinSave <= phi.Depth {
		s = sv.assertSlice(q)
		sv.Stats.Sliced++
	} else {
		sv.moveTo(phi)
	}
	sat, reason, ok := sv.run(s)
	switch {
	case !ok:
		return Unknown, nil, reason
	case !sat:
		if q != nil {
			sv.remember(q, Unsat, nil)
			if cacheCheck != nil && s != sv.s {
				cacheCheck(phi, Unsat, nil, "slice")
			}
		}
		return Unsat, nil, ""
	}
	model = z3query.Model(s, sv.syms)
	if fault.Active == fault.ModelIndexShift {
		shiftModel(sv.prog, model)
	}
	if q != nil {
		if s != sv.s {
			model = q.merge(model)
		}
		sv.remember(q, Sat, model)
		if cacheCheck != nil && s != sv.s {
			cacheCheck(phi, Sat, model, "slice")
		}
	}
	return Sat, model, ""
}
