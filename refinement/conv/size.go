package conv

import (
	"errors"

	"certsym/spec/integer"
	"certsym/sym"
)

// MaxTreeNodes bounds the size, written as a tree, of the engine terms and formulas the layer
// compares with the reference's. The engine's terms are graphs that share their parts (a loop
// that assigns x = x / (x - 3) + x builds a term of one atom per iteration that reads its
// predecessor twice); written in IMP, as the reference writes them and as the layer's encodings
// take them, such a term doubles at each iteration. Past the bound every one of the layer's
// conversions, encodings, evaluations and Z3 translations of the state would take time and memory
// exponential in the loop's length, so the layer leaves the state out of the step replay and
// counts it (checker.Summary's TooLarge).
const MaxTreeNodes = 1 << 15

// ErrTree is the error of the conversion of a formula or term that, written as a tree, would have
// more than MaxTreeNodes nodes.
var ErrTree = errors.New("conv: the term, written as a tree, has too many nodes")

// sizer computes tree sizes with a memo per atom and array term, saturating past MaxTreeNodes
// (each size is at most MaxTreeNodes+1, so the sums never overflow).
type sizer struct {
	atoms map[*sym.Atom]int
	arrs  map[*sym.ArrTerm]int
}

func newSizer() *sizer { return &sizer{atoms: map[*sym.Atom]int{}, arrs: map[*sym.ArrTerm]int{}} }

// capped is n, or MaxTreeNodes+1 past it.
func capped(n int) int { return min(n, MaxTreeNodes+1) }

func (s *sizer) term(t *sym.Term) int {
	if t == nil {
		return 0
	}
	n := 1
	t.EachMono(func(_ integer.Int, a *sym.Atom) { n = capped(n + 2 + s.atom(a)) })
	if a := t.ArrayValue(); a != nil {
		n = capped(n + s.arr(a))
	}
	return n
}

func (s *sizer) atom(a *sym.Atom) int {
	if n, ok := s.atoms[a]; ok {
		return n
	}
	n := 1
	switch a.Kind {
	case sym.AtomSym, sym.AtomBnd:
	default:
		n = capped(n + s.term(a.L) + s.term(a.R) + s.arr(a.A) + s.formula(a.C))
	}
	s.atoms[a] = n
	return n
}

func (s *sizer) arr(t *sym.ArrTerm) int {
	if t == nil {
		return 0
	}
	if n, ok := s.arrs[t]; ok {
		return n
	}
	n := capped(1 + s.arr(t.Prev) + s.term(t.I) + s.term(t.V))
	s.arrs[t] = n
	return n
}

func (s *sizer) formula(f *sym.Formula) int {
	if f == nil {
		return 0
	}
	n := capped(1 + s.term(f.T) + s.term(f.Lo) + s.term(f.Hi))
	for _, g := range f.Args {
		n = capped(n + s.formula(g))
	}
	return n
}

// TooLarge reports whether the formulas and terms, written as trees, have more than MaxTreeNodes
// nodes in all.
func TooLarge(fs []*sym.Formula, ts []*sym.Term) bool {
	s := newSizer()
	n := 0
	for _, f := range fs {
		n = capped(n + s.formula(f))
	}
	for _, t := range ts {
		n = capped(n + s.term(t))
	}
	return n > MaxTreeNodes
}
