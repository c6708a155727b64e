// Package havoc is the havoc of the invariant transition, shared by certsym prove and certsym
// verify --loops invariant: the syntactic modifies set of a loop's body (Mods, Amods) and the
// fresh symbols that replace the modified variables and arrays, one generation per application
// of the transition on a path (Layout).
package havoc

import (
	"fmt"

	"certsym/internal/fault"
	"certsym/spec"
	"certsym/spec/integer"
	"certsym/spec/syntax"
	"certsym/sym"
)

// Mods appends to out the scalar variables the statement may assign (by Var.Index, each once):
// the left sides of its assignments, in its branches and loop bodies too.
//
// Coq: mods (proofs/coq/Invariant.v).
func Mods(s syntax.Stmt, out []int) []int {
	switch s := s.(type) {
	case *syntax.Assign:
		for _, x := range out {
			if x == s.X.Index {
				return out
			}
		}
		return append(out, s.X.Index)
	case *syntax.Seq:
		return Mods(s.Second, Mods(s.First, out))
	case *syntax.If:
		return Mods(s.Else, Mods(s.Then, out))
	case *syntax.While:
		return Mods(s.Body, out)
	case *syntax.Skip, *syntax.Fail, *syntax.Assume, *syntax.Assert, *syntax.ArrAssign:
		return out
	default:
		panic(fmt.Sprintf("havoc.Mods: unknown statement %T", s))
	}
}

// Amods appends to out the arrays the statement may write (by Array.Index, each once), as
// whole arrays: the arrays of its element assignments, in its branches and loop bodies too.
//
// Coq: amods (proofs/coq/Invariant.v).
func Amods(s syntax.Stmt, out []int) []int {
	switch s := s.(type) {
	case *syntax.ArrAssign:
		if fault.Active == fault.ModifiesMissesArrayWrite {
			return out
		}
		for _, a := range out {
			if a == s.Arr.Index {
				return out
			}
		}
		return append(out, s.Arr.Index)
	case *syntax.Seq:
		return Amods(s.Second, Amods(s.First, out))
	case *syntax.If:
		return Amods(s.Else, Amods(s.Then, out))
	case *syntax.While:
		return Amods(s.Body, out)
	case *syntax.Skip, *syntax.Fail, *syntax.Assume, *syntax.Assert, *syntax.Assign:
		return out
	default:
		panic(fmt.Sprintf("havoc.Amods: unknown statement %T", s))
	}
}

// Set is the modifies set of one loop's body: its scalar variables (Mods) and arrays (Amods).
type Set struct {
	Vars   []int // by Var.Index
	Arrays []int // by Array.Index
}

// Of is the modifies set of the statement s (a loop's body).
func Of(s syntax.Stmt) Set { return Set{Vars: Mods(s, nil), Arrays: Amods(s, nil)} }

// Layout is the symbols of an execution with the invariant transition: the program's flat
// store, then, for each generation, a fresh symbol for each variable and a fresh array for each
// array that some loop with clauses may modify. They are laid out as the arrays of an extended
// program (Ext), so that the terms, the path conditions and the solver chain work on them
// unchanged: the fresh scalars of a generation are the elements of one array of Ext.
type Layout struct {
	Prog  *syntax.Program
	Ext   *syntax.Program
	Terms *sym.Terms
	Gens  int                     // the generations laid out: the applications of the transition one path may make
	vpos  map[int]int             // Var.Index -> its element in a generation's scalar array
	vpool []*syntax.Array         // per generation, nil when no scalar is modified
	apool []map[int]*syntax.Array // per generation, Array.Index -> its fresh copy
	nvars int
}

// MaxFreshSlots bounds the fresh symbols of a layout.
const MaxFreshSlots = 1 << 18

// NewLayout lays out the symbols for gens generations of the modifies sets sets (fewer if they
// would exceed MaxFreshSlots).
func NewLayout(prog *syntax.Program, sets []Set, gens int) *Layout {
	sy := &Layout{Prog: prog, vpos: map[int]int{}, nvars: len(prog.Vars)}
	var mu, au []int
	seenA := map[int]bool{}
	for _, s := range sets {
		for _, x := range s.Vars {
			if _, ok := sy.vpos[x]; !ok {
				sy.vpos[x] = len(mu)
				mu = append(mu, x)
			}
		}
		for _, a := range s.Arrays {
			if !seenA[a] {
				seenA[a] = true
				au = append(au, a)
			}
		}
	}
	per := len(mu)
	for _, a := range au {
		per += prog.Arrays[a].Size()
	}
	if per > 0 && gens*per > MaxFreshSlots {
		gens = max(1, MaxFreshSlots/per)
	}
	sy.Gens = gens
	ext := &syntax.Program{File: prog.File, Body: prog.Body, Vars: prog.Vars, Arrays: append([]*syntax.Array(nil), prog.Arrays...)}
	slots := prog.Slots()
	add := func(name string, lo, hi int64) *syntax.Array {
		a := &syntax.Array{Name: name, Lo: lo, Hi: hi, Index: len(ext.Arrays), Offset: slots}
		ext.Arrays = append(ext.Arrays, a)
		slots += a.Size()
		return a
	}
	for g := 0; g < gens; g++ {
		var vp *syntax.Array
		if len(mu) > 0 {
			vp = add(fmt.Sprintf("fresh'%d", g), 0, int64(len(mu)-1))
		}
		sy.vpool = append(sy.vpool, vp)
		ap := map[int]*syntax.Array{}
		for _, a := range au {
			orig := prog.Arrays[a]
			ap[a] = add(fmt.Sprintf("%s'%d", orig.Name, g), orig.Lo, orig.Hi)
		}
		sy.apool = append(sy.apool, ap)
	}
	sy.Ext = ext
	sy.Terms = sym.NewTermsFor(ext)
	return sy
}

// Havoc is the store s with a fresh symbol of generation g for each variable of m and a fresh
// array for each array of m.
//
// Coq: havoc, hbody (proofs/coq/Invariant.v); the generation's symbols are fresh on the path
// (fresh), since a path uses each generation once.
func (sy *Layout) Havoc(s []*sym.Term, m Set, g int) []*sym.Term {
	out := make([]*sym.Term, len(s))
	copy(out, s)
	syms := sy.Terms.Syms()
	for _, x := range m.Vars {
		out[x] = sy.Terms.Select(syms[sy.nvars+sy.vpool[g].Index].ArrayValue(), sym.Const(integer.Of(int64(sy.vpos[x]))))
	}
	for _, c := range m.Arrays {
		out[sy.nvars+c] = syms[sy.nvars+sy.apool[g][c].Index]
	}
	return out
}

// Fresh returns the valuation v (of the layout's symbols) with the fresh symbols of generation
// g for the modifies set m set so that the havocked store concretizes to the concrete store s
// (of the program) on the modified variables and arrays: the V' of inv_exhaustive
// (proofs/coq/Invariantproof.v), which differs from v on the fresh symbols only.
func (sy *Layout) Fresh(v []integer.Int, s spec.Store, m Set, g int) []integer.Int {
	out := append([]integer.Int(nil), v...)
	for _, x := range m.Vars {
		out[sy.vpool[g].Offset+sy.vpos[x]] = s[x]
	}
	for _, c := range m.Arrays {
		orig, cp := sy.Prog.Arrays[c], sy.apool[g][c]
		copy(out[cp.Offset:cp.Offset+cp.Size()], s[orig.Offset:orig.Offset+orig.Size()])
	}
	return out
}
