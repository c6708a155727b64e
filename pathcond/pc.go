// Package pathcond is the path conditions of symbolic execution and the deciders that extend
// them without a solver. A path condition (PC) is a persistent list of conjuncts (formulas of
// package sym) that also records what is known cheaply about it: the intervals it implies for
// single symbols (bounds.go), the intervals of linear forms of several symbols (linfacts.go) and,
// once known, its satisfiability and a witness. Extend adds a conjunct and decides it from these
// facts when it can: most branch conditions of a run never reach the solver (package solver,
// which decides the rest). The decisions can be handed to an observer (decision.go), the
// refinement layer's crosscheck.
package pathcond

import (
	"strings"
	"sync/atomic"

	"certsym/spec/integer"
	"certsym/sym"
)

// SatStatus is what is known of a path condition's satisfiability.
type SatStatus uint8

// Satisfiability statuses. Unchecked: not yet asked. Unknown: the solver could not tell (it
// never prunes and never confirms anything).
const (
	Unchecked SatStatus = iota
	Sat
	Unsat
	Unknown
)

func (s SatStatus) String() string {
	return [...]string{"unchecked", "sat", "unsat", "unknown"}[s]
}

// A PC is a path condition φ: the conjunction of the conjuncts from it to the root. Path
// conditions are persistent: a state's successors share their parent's path condition and add
// at most one conjunct each. Besides the conjuncts, a PC carries what is known cheaply about it:
// the bounds it implies on single symbols, the intervals its conjuncts state for linear forms of
// several symbols (linfacts.go) and, once known satisfiable, a witness valuation.
type PC struct {
	Parent *PC
	Conj   *sym.Formula // nil for the root, true
	Depth  int          // number of conjuncts
	Status SatStatus
	// Witness is a valuation of the symbols that satisfies the path condition, when Status is Sat.
	Witness []integer.Int
	// Reason says why the solver answered unknown, when Status is Unknown.
	Reason string

	bnd  bounds
	lin  *linFact // interval facts on linear forms of several symbols
	pure bool     // the conjuncts are exactly the bounds (single-symbol linear facts)
	// captured: the conjunct is a bound or a shaved end (asBound, shaved), so the bounds of this
	// path condition and of every descendant imply it (bounds only shrink): the solver's query
	// slices replace such conjuncts by the intervals of their symbols (Captured).
	captured bool
	// ext: some conjunct has a select atom or a quantifier (the caching layers set such path
	// conditions aside); quant: some conjunct has a quantifier (decided by instantiation).
	ext, quant bool
	dec        *Deciders // from the root (Root): nil for the default deciders

	id   atomic.Uint64 // the node's number (ID), 0 until asked
	memo atomic.Value  // the solver's memo on the node (Memo, SetMemo)
}

// Deciders configure Extend's solver-free decisions for a root path condition and all its
// descendants (Root): each path condition made from the root carries them.
type Deciders struct {
	// AbstractMul: a product of two non-constant terms is seen by its sign only, as the solver's
	// abstraction of products (certsym verify --abstract-nonlinear) sees it: its range is what
	// the sign axioms give (signRange).
	AbstractMul bool
	// Observe, when not nil, is handed each decision Extend takes, classified (the solver's
	// crosscheck option, for the refinement layer). The hook runs on the goroutine that called
	// Extend.
	Observe func(Decision)
}

// RootPC is the path condition true of a program with nvars variables, satisfiable with the
// witness 0 for every symbol.
func RootPC(nvars int) *PC {
	return &PC{Status: Sat, Witness: make([]integer.Int, nvars), pure: true}
}

// Root is RootPC whose descendants Extend decides with d (nil: the default deciders, as RootPC).
func Root(nvars int, d *Deciders) *PC {
	phi := RootPC(nvars)
	phi.dec = d
	return phi
}

// ID is a number that identifies the path condition node in the process: never 0, never that of
// another node. It is drawn at the first call (by any goroutine); the solvers key their side
// tables by it, which then do not keep the node alive.
func (phi *PC) ID() uint64 {
	if id := phi.id.Load(); id != 0 {
		return id
	}
	phi.id.CompareAndSwap(0, nextID.Add(1))
	return phi.id.Load()
}

var nextID atomic.Uint64

// Memo returns the memo a solver published on the node (SetMemo), or nil.
func (phi *PC) Memo() any { return phi.memo.Load() }

// SetMemo publishes m (not nil, of the same dynamic type for every node) as the node's memo
// unless the node has one already, and returns the node's memo. What a memo holds is the
// solver's business (package solver keeps there what its query slices know of the conjunct, a
// function of the node and its ancestors, which any goroutine may compute first); sym only
// stores it.
func (phi *PC) SetMemo(m any) any {
	phi.memo.CompareAndSwap(nil, m)
	return phi.memo.Load()
}

// Captured reports whether the node's conjunct is a bound or a shaved end of an interval: the
// bounds of the path condition and of every descendant imply it.
func (phi *PC) Captured() bool { return phi.captured }

// Pure reports whether the conjuncts of φ are exactly its bounds (single-symbol intervals):
// Extend then knows φ satisfiable without a model of its parent (package steal counts the
// queries its solver-free deciders leave open with it).
func (phi *PC) Pure() bool { return phi.pure }

// Extended reports whether some conjunct of the path condition has a select atom or a quantifier.
func (phi *PC) Extended() bool { return phi.ext }

// Quantified reports whether some conjunct of the path condition has a quantifier.
func (phi *PC) Quantified() bool { return phi.quant }

// EachBound calls fn with each symbol the path condition bounds and its interval (lo when hasLo,
// hi when hasHi), in symbol order.
func (phi *PC) EachBound(fn func(x int, lo, hi integer.Int, hasLo, hasHi bool)) {
	phi.bnd.each(func(e symBound) { fn(e.sym, e.b.lo, e.b.hi, e.b.hasLo, e.b.hasHi) })
}

func (phi *PC) absMul() bool { return phi.dec != nil && phi.dec.AbstractMul }

// Extend is φ ∧ f. When f folds to true, or the bounds and linear facts of φ imply it, the result
// is φ itself; when they contradict it, the result is known unsatisfiable. A satisfiable φ whose
// witness also satisfies f gives a satisfiable result with the same witness, so of the two
// branches of a condition at most one ever needs the solver.
//
// A conjunction is added one conjunct at a time, so that each bound it states is known.
//
// With an observer (Deciders.Observe, the solver's crosscheck), every decision extend takes
// without the solver is handed to it (decision.go).
func Extend(phi *PC, f *sym.Formula, nvars int) *PC {
	if d := phi.dec; d != nil && d.Observe != nil && f.Op != sym.FAnd {
		n := extendConj(phi, f, nvars)
		d.Observe(classifyDecision(phi, f, n))
		return n
	}
	return extendConj(phi, f, nvars)
}

func extendConj(phi *PC, f *sym.Formula, nvars int) *PC {
	if f.Op == sym.FAnd {
		for _, g := range f.Args {
			phi = Extend(phi, g, nvars)
		}
		return phi
	}
	if f == sym.True {
		return phi
	}
	var d truth
	if f == sym.False {
		d = falseT
	} else {
		d = phi.bnd.decide(f, phi.lin, phi.absMul())
	}
	switch d {
	case trueT:
		return phi
	case falseT:
		return &PC{Parent: phi, Conj: f, Depth: phi.Depth + 1, Status: Unsat, bnd: phi.bnd, lin: phi.lin, dec: phi.dec}
	}
	n := &PC{Parent: phi, Conj: f, Depth: phi.Depth + 1, bnd: phi.bnd, lin: phi.lin, ext: phi.ext, quant: phi.quant, dec: phi.dec}
	if f.Extended() {
		n.ext, n.quant = true, phi.quant || f.Quantified()
	}
	if x, b, ok := asBound(f); ok {
		n.bnd = phi.bnd.with(x, phi.bnd.of(x).intersect(b))
		n.pure, n.captured = phi.pure, true
	} else if x, b, ok := phi.bnd.shaved(f); ok {
		n.bnd = phi.bnd.with(x, b)
		n.pure, n.captured = phi.pure, true
	} else {
		n.lin = phi.lin.with(f)
	}
	switch {
	case phi.Status == Unsat:
		n.Status = Unsat
	case phi.Status == Sat && f.Eval(phi.Witness):
		n.Status, n.Witness = Sat, phi.Witness
	case n.pure:
		// φ ∧ f is a conjunction of intervals of independent symbols, none empty (decide would
		// have said false): any valuation inside them is a model.
		n.Status, n.Witness = Sat, n.bnd.clamp(phi.Witness, nvars)
	}
	return n
}

// Append is φ ∧ f without the deciders: the result is unchecked and records nothing about f (no
// bound, no linear fact, no decision), but whether it has arrays or quantifiers. The tests of the
// solver build with it the path conditions that Z3 must decide alone.
func Append(phi *PC, f *sym.Formula) *PC {
	return &PC{Parent: phi, Conj: f, Depth: phi.Depth + 1, dec: phi.dec,
		ext: phi.ext || f.Extended(), quant: phi.quant || f.Quantified()}
}

// Conjuncts returns the conjuncts of φ from the root down.
func (phi *PC) Conjuncts() []*sym.Formula {
	fs := make([]*sym.Formula, phi.Depth)
	for n := phi; n.Parent != nil; n = n.Parent {
		fs[n.Depth-1] = n.Conj
	}
	return fs
}

// Formula returns φ as one formula.
func (phi *PC) Formula() *sym.Formula { return sym.And(phi.Conjuncts()...) }

// String renders φ over the symbol names. The conjuncts that bound a single symbol are shown
// merged into that symbol's interval (n >= 1 and n >= 2 and n <= 2 reads n == 2), at the place of
// the first of them, a disequality x != v with v outside that interval is left out, and a
// conjunct that reads as an earlier one is not shown again, nor, at any depth, an operand of an
// and or an or that reads as an earlier operand of it (undup); the rendering is equivalent to φ.
func (phi *PC) String(names []string) string {
	fs := phi.Conjuncts()
	if len(fs) == 0 {
		return "true"
	}
	var parts []string
	shown := map[int]bool{}
	seen := map[string]bool{}
	for _, f := range fs {
		if x, _, ok := asBound(f); ok {
			if !shown[x] {
				shown[x] = true
				parts = append(parts, phi.bnd.of(x).String(names[x]))
			}
			continue
		}
		if phi.bnd.excludes(f) {
			continue // x != v with v outside the interval shown for x
		}
		f = undup(f, names)
		s := f.String(names)
		if f.Op == sym.FOr {
			s = "(" + s + ")"
		}
		if seen[s] {
			continue
		}
		seen[s] = true
		parts = append(parts, s)
	}
	return strings.Join(parts, " and ")
}

// undup is f for printing, with every operand of a conjunction or disjunction that reads as an
// earlier operand of the same connective left out, at every depth (inside quantifiers too). Such
// repetitions are syntactic: a condition that reads a[k] twice has the index check of a[k] twice
// in its error formula. The result is equivalent to f (p or p is p, p and p is p); it is f itself
// when nothing repeats. Only the rendering uses it: the path condition keeps f.
func undup(f *sym.Formula, names []string) *sym.Formula {
	switch f.Op {
	case sym.FAnd, sym.FOr:
		seen := make(map[string]bool, len(f.Args))
		args := make([]*sym.Formula, 0, len(f.Args))
		changed := false
		for _, g := range f.Args {
			h := undup(g, names)
			s := h.RawString(names) // inside a quantifier, g may read the variables of those around it
			if seen[s] {
				changed = true
				continue
			}
			seen[s] = true
			changed = changed || h != g
			args = append(args, h)
		}
		switch {
		case !changed:
			return f
		case len(args) == 1:
			return args[0]
		}
		c := *f
		c.Args = args
		return &c
	case sym.FForall, sym.FExists:
		body := undup(f.Args[0], names)
		if body == f.Args[0] {
			return f
		}
		c := *f
		c.Args = []*sym.Formula{body}
		return &c
	}
	return f // an atom, true or false
}
