package sym

import (
	"strings"
	"sync/atomic"

	"github.com/aclements/go-z3/z3"

	"certsym/spec/integer"
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
	Conj   *Formula // nil for the root, true
	Depth  int      // number of conjuncts
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
	// slices replace such conjuncts by the intervals of their symbols (cache.go).
	captured bool
	cx       atomic.Pointer[conjInfo] // the conjunct's symbols and skip pointer, shared (prepare.go)
	// ext: some conjunct has a select atom or a quantifier (the caching layers set such path
	// conditions aside); quant: some conjunct has a quantifier (decided by instantiation).
	ext, quant bool
	absMul     bool // from Solver.Root with AbstractMul: Extend sees products by their signs only

	z3   z3.Bool // the conjunct in the solver's context, once translated
	z3ok bool
}

// RootPC is the path condition true of a program with nvars variables, satisfiable with the
// witness 0 for every symbol.
func RootPC(nvars int) *PC {
	return &PC{Status: Sat, Witness: make([]integer.Int, nvars), pure: true}
}

// Root is RootPC for this solver's queries: with AbstractMul, Extend decides its descendants
// only as far as the abstraction can (a product's range is what its sign axioms give).
func (sv *Solver) Root(nvars int) *PC {
	phi := RootPC(nvars)
	phi.absMul = sv.AbstractMul
	return phi
}

// Extend is φ ∧ f. When f folds to true, or the bounds and linear facts of φ imply it, the result
// is φ itself; when they contradict it, the result is known unsatisfiable. A satisfiable φ whose
// witness also satisfies f gives a satisfiable result with the same witness, so of the two
// branches of a condition at most one ever needs the solver.
//
// A conjunction is added one conjunct at a time, so that each bound it states is known.
//
// With the refinement layer's crosscheck on (crossCheck not nil, crosscheck.go), every
// decision extend takes without the solver is handed to it.
func Extend(phi *PC, f *Formula, nvars int) *PC {
	if crossCheck != nil && f.Op != FAnd {
		n := extendConj(phi, f, nvars)
		crossCheck(phi, f, n)
		return n
	}
	return extendConj(phi, f, nvars)
}

func extendConj(phi *PC, f *Formula, nvars int) *PC {
	if f.Op == FAnd {
		for _, g := range f.Args {
			phi = Extend(phi, g, nvars)
		}
		return phi
	}
	if f == True {
		return phi
	}
	var d truth
	if f == False {
		d = falseT
	} else {
		d = phi.bnd.decide(f, phi.lin, phi.absMul)
	}
	switch d {
	case trueT:
		return phi
	case falseT:
		return &PC{Parent: phi, Conj: f, Depth: phi.Depth + 1, Status: Unsat, bnd: phi.bnd, lin: phi.lin, absMul: phi.absMul}
	}
	n := &PC{Parent: phi, Conj: f, Depth: phi.Depth + 1, bnd: phi.bnd, lin: phi.lin, ext: phi.ext, quant: phi.quant, absMul: phi.absMul}
	if f.Extended() {
		n.ext, n.quant = true, phi.quant || f.quantified()
	}
	if sym, b, ok := asBound(f); ok {
		n.bnd = phi.bnd.with(sym, phi.bnd.of(sym).intersect(b))
		n.pure, n.captured = phi.pure, true
	} else if sym, b, ok := phi.bnd.shaved(f); ok {
		n.bnd = phi.bnd.with(sym, b)
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

// Conjuncts returns the conjuncts of φ from the root down.
func (phi *PC) Conjuncts() []*Formula {
	fs := make([]*Formula, phi.Depth)
	for n := phi; n.Parent != nil; n = n.Parent {
		fs[n.Depth-1] = n.Conj
	}
	return fs
}

// Formula returns φ as one formula.
func (phi *PC) Formula() *Formula { return And(phi.Conjuncts()...) }

// String renders φ over the symbol names. The conjuncts that bound a single symbol are shown
// merged into that symbol's interval (n >= 1 and n >= 2 and n <= 2 reads n == 2), at the place of
// the first of them, a disequality x != v with v outside that interval is left out, and a
// conjunct that reads as an earlier one is not shown again; the rendering is equivalent to φ.
func (phi *PC) String(names []string) string {
	fs := phi.Conjuncts()
	if len(fs) == 0 {
		return "true"
	}
	var parts []string
	shown := map[int]bool{}
	seen := map[string]bool{}
	for _, f := range fs {
		if sym, _, ok := asBound(f); ok {
			if !shown[sym] {
				shown[sym] = true
				parts = append(parts, phi.bnd.of(sym).String(names[sym]))
			}
			continue
		}
		if phi.bnd.excludes(f) {
			continue // x != v with v outside the interval shown for x
		}
		s := f.String(names)
		if f.Op == FOr {
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
