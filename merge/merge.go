// Package merge replaces symbolic states that have the same remaining program by one state (state
// merging, against the path explosion of a run that meets many joins): its path condition is the
// disjunction of theirs, and each variable whose terms differ between them holds a conditional
// term (sym.Ite) that selects the term of the state whose path an input follows. The merged state
// keeps its constituents, so that an input of the merged state can be read back as the input of
// one of their paths (Merged.Which). Which states to merge and when (the search policy) is not
// this package's business.
//
// The merged path condition is built on the constituents' longest common ancestor P (the path
// condition of the state where their paths parted): each constituent's path condition φi is
// P ∧ Si for the conjunction Si of its own conjuncts below P, and
//
//	φ1 ∨ … ∨ φn  =  P ∧ (S1 ∨ … ∨ Sn),
//
// which pathcond.Extend adds to P as one conjunct: the merged state keeps P's bounds, linear facts
// and solver memos, and the disjunction is one more conjunct that the solver decides with the
// rest. Si is also constituent i's guard: under the merged path condition, an input follows the
// path of the first constituent whose guard it satisfies, and the merged store holds, for a
// variable x whose terms t1 … tn differ, ite(S1, t1, ite(S2, t2, … tn)). The paths of one run
// that reach the same program are disjoint (they parted at a condition and its negation), so
// "the first" is "the only" for the states of one run.
package merge

import (
	"errors"
	"fmt"

	"certsym/engine"
	"certsym/internal/fault"
	"certsym/pathcond"
	"certsym/spec/integer"
	"certsym/spec/syntax"
	"certsym/sym"
)

// MaxArrayMerge is the largest declared array whose values are merged: a merged array value
// stores each element's conditional term, one store per element.
const MaxArrayMerge = 256

// ErrContinuation is the error of a merge of states whose remaining programs differ.
var ErrContinuation = errors.New("merge: the states have different remaining programs")

// A Part is one constituent of a merged state: the state, and its guard, the conjunction of the
// conjuncts of its path condition below the merged state's prefix (true when it has none).
type Part struct {
	State *engine.State
	Guard *sym.Formula
}

// Merged is the state that stands for its constituents, and the constituents.
type Merged struct {
	// State is the merged state: path condition Prefix ∧ (S1 ∨ … ∨ Sn), the merged store, the
	// constituents' remaining program (the first one's Kont), the largest of their depths.
	State *engine.State
	// Prefix is the constituents' longest common path condition (their paths' common ancestor).
	Prefix *pathcond.PC
	// Parts are the constituents, in the order given, each with its guard.
	Parts []Part
}

// Pair merges two states (States).
//
// Coq: merge_pair (Merge.v), whose path condition Bor φ1 φ2 is P ∧ (S1 ∨ S2) here and whose store
// ite(φ1, v1, v2) is ite(S1, v1, v2), equal under that path condition; the continuations are
// compared as the same statement nodes (SameProgram), stricter than the Coq merge's stmt_eq_dec,
// so the merges made here are among those it makes.
func Pair(ts *sym.Terms, a, b *engine.State) (*Merged, error) {
	return States(ts, []*engine.State{a, b})
}

// States merges the states ss, which have the same remaining program (SameProgram) and path
// conditions of one run (a common ancestor), into one; ts is the factory of the run's terms
// (engine.Engine.Terms). It returns an error, and merges nothing, when the programs differ
// (ErrContinuation), when a path condition is known unsatisfiable, when the path conditions have
// no common ancestor, or when a conditional term cannot be built: a guard with a quantifier (the
// solver decides quantified formulas by instantiation, which an ite defeats), or an array
// larger than MaxArrayMerge whose values differ. One state is its own merge.
//
// Coq: merge_states (Merge.v), which merges a list from the right (the first state with the merge
// of the rest: ite(φ1, v1, ite(φ2, v2, …))), read as Pair reads merge_pair.
func States(ts *sym.Terms, ss []*engine.State) (*Merged, error) {
	if len(ss) == 0 {
		return nil, errors.New("merge: no state to merge")
	}
	for i, s := range ss {
		if s.PC.Status == pathcond.Unsat {
			return nil, fmt.Errorf("merge: state %d has an unsatisfiable path condition", i)
		}
		if len(s.Store) != len(ss[0].Store) {
			return nil, fmt.Errorf("merge: state %d has a store of %d slots, state 0 of %d", i, len(s.Store), len(ss[0].Store))
		}
		if i > 0 && !SameProgram(ss[0].Prog, s.Prog) && fault.Active != fault.MergeDifferentContinuations {
			return nil, fmt.Errorf("%w (state 0 and state %d)", ErrContinuation, i)
		}
	}
	prefix := ss[0].PC
	for _, s := range ss[1:] {
		if prefix = commonAncestor(prefix, s.PC); prefix == nil {
			return nil, errors.New("merge: the path conditions have no common ancestor (states of different runs)")
		}
	}
	m := &Merged{Prefix: prefix, Parts: make([]Part, len(ss))}
	guards := make([]*sym.Formula, len(ss))
	depth := 0
	for i, s := range ss {
		guards[i] = suffix(s.PC, prefix)
		m.Parts[i] = Part{State: s, Guard: guards[i]}
		depth = max(depth, s.Depth)
	}
	store, err := mergeStores(ts, ss, guards)
	if err != nil {
		return nil, err
	}
	disj := guards
	if fault.Active == fault.MergeDropDisjunct && len(disj) > 1 {
		disj = disj[:len(disj)-1]
	}
	or := sym.Or(disj...)
	pc := pathcond.Extend(prefix, or, ts.Slots())
	if pc != prefix && pc.Status != pathcond.Sat && pc.Status != pathcond.Unsat {
		// the witness of a satisfiable constituent satisfies the prefix and its disjunct, hence
		// the merged path condition (checked by evaluation: nothing is claimed otherwise)
		for _, s := range ss {
			if s.PC.Status == pathcond.Sat && or.Eval(s.PC.Witness) {
				pc.Status, pc.Witness = pathcond.Sat, s.PC.Witness
				break
			}
		}
	}
	m.State = &engine.State{PC: pc, Store: store, Prog: ss[0].Prog, Depth: depth}
	return m, nil
}

// Which returns the index of the constituent whose path the input v follows: the first whose
// guard holds under v, or -1 when none does. For v satisfying the merged path condition there is
// one, and v satisfies that constituent's path condition, and the merged store evaluates under v
// to that constituent's store: v, a model of the merged state, is a model of that constituent
// (the input of one of the paths the merged state stands for).
func (m *Merged) Which(v []integer.Int) int {
	for i, p := range m.Parts {
		if p.Guard.Eval(v) {
			if fault.Active == fault.MergeWrongModel {
				return (i + 1) % len(m.Parts)
			}
			return i
		}
	}
	return -1
}

// SameProgram reports whether two remaining programs are the same: the same sequence of
// statements, each the same syntax node, once the sequences at their heads and in their
// statements are flattened (a Kont is S ; Next, and S may itself be a sequence). The Konts
// themselves are not compared by identity: the engine allocates a new one at each step (the two
// branches of a condition reach the statement after it in different Konts), and flattening
// happens as the engine goes. The statements are compared as nodes, not as text: two
// statements written alike at different places are different points of the program (and
// different errors, for a fail). The merged state's successors are then those of each
// constituent's program: Expand reads only the statements.
func SameProgram(a, b *engine.Kont) bool {
	if a == b {
		return true
	}
	x, y := flatten(a, nil), flatten(b, nil)
	if len(x) != len(y) {
		return false
	}
	for i := range x {
		if x[i] != y[i] {
			return false
		}
	}
	return true
}

// flatten appends the statements of k, sequences flattened, to out.
func flatten(k *engine.Kont, out []syntax.Stmt) []syntax.Stmt {
	var stmt func(s syntax.Stmt)
	stmt = func(s syntax.Stmt) {
		if seq, ok := s.(*syntax.Seq); ok {
			stmt(seq.First)
			stmt(seq.Second)
			return
		}
		out = append(out, s)
	}
	for ; k != nil; k = k.Next {
		stmt(k.S)
	}
	return out
}

// commonAncestor is the deepest path condition node that a and b both descend from (a or b
// itself included), or nil when they have different roots.
func commonAncestor(a, b *pathcond.PC) *pathcond.PC {
	for a != nil && b != nil && a != b {
		switch {
		case a.Depth > b.Depth:
			a = a.Parent
		case b.Depth > a.Depth:
			b = b.Parent
		default:
			a, b = a.Parent, b.Parent
		}
	}
	if a != b {
		return nil
	}
	return a
}

// suffix is the conjunction of the conjuncts of phi below its ancestor p.
func suffix(phi, p *pathcond.PC) *sym.Formula {
	var fs []*sym.Formula
	for n := phi; n != p; n = n.Parent {
		fs = append(fs, n.Conj)
	}
	for i, j := 0, len(fs)-1; i < j; i, j = i+1, j-1 {
		fs[i], fs[j] = fs[j], fs[i]
	}
	return sym.And(fs...)
}

// mergeStores is the merged store: each slot's term shared where the constituents' terms are
// the same, their conditional term elsewhere (arrays element by element).
func mergeStores(ts *sym.Terms, ss []*engine.State, guards []*sym.Formula) ([]*sym.Term, error) {
	out := make([]*sym.Term, len(ss[0].Store))
	terms := make([]*sym.Term, len(ss))
	for k := range out {
		for i, s := range ss {
			terms[i] = s.Store[k]
		}
		if arr := terms[0].ArrayValue(); arr != nil {
			t, err := mergeArrays(ts, terms, guards)
			if err != nil {
				return nil, err
			}
			out[k] = t
			continue
		}
		if allSame(terms) {
			out[k] = terms[0]
			continue
		}
		t, err := iteChain(ts, terms, guards)
		if err != nil {
			return nil, err
		}
		out[k] = t
	}
	return out, nil
}

// allSame reports whether the terms have one normal form.
func allSame(ts []*sym.Term) bool {
	for _, t := range ts[1:] {
		if t != ts[0] {
			if d, ok := sym.Sub(t, ts[0]).IsConst(); !ok || !d.IsZero() {
				return false
			}
		}
	}
	return true
}

// iteChain is ite(g1, t1, ite(g2, t2, … tn)) (equal branches folded by sym.Ite).
func iteChain(ts *sym.Terms, terms []*sym.Term, guards []*sym.Formula) (*sym.Term, error) {
	n := len(terms)
	v := terms[n-1]
	for i := n - 2; i >= 0; i-- {
		if guards[i].Quantified() {
			return nil, fmt.Errorf("merge: the guard of state %d has a quantifier: no conditional term over it", i)
		}
		if fault.Active == fault.MergeIteSwapped {
			v = ts.Ite(guards[i], v, terms[i])
			continue
		}
		v = ts.Ite(guards[i], terms[i], v)
	}
	return v, nil
}

// mergeArrays is the merged value of an array slot: the shared value when the constituents'
// values are one array term, else the initial array with a store at every index of the declared
// array of the element's conditional term (reads at any index inside the bounds find their
// store; the engine never reads outside them on a path, whose range checks it states). The Coq
// merge guards whole arrays (msa of Merge.v's mstore); element by element is the same value at
// index inside the bounds, in a term language without conditional array terms.
func mergeArrays(ts *sym.Terms, terms []*sym.Term, guards []*sym.Formula) (*sym.Term, error) {
	arrs := make([]*sym.ArrTerm, len(terms))
	same := true
	for i, t := range terms {
		if arrs[i] = t.ArrayValue(); arrs[i] == nil {
			return nil, fmt.Errorf("merge: state %d holds a number where state 0 holds an array", i)
		}
		same = same && arrs[i] == arrs[0]
	}
	if same {
		return terms[0], nil
	}
	base := arrs[0]
	for base.Prev != nil {
		base = base.Prev
	}
	a := base.Arr
	if a.Size() > MaxArrayMerge {
		return nil, fmt.Errorf("merge: the values of array %s (%d elements) differ: merged only up to %d elements", a.Name, a.Size(), MaxArrayMerge)
	}
	acc := base
	elems := make([]*sym.Term, len(arrs))
	for j := a.Lo; j <= a.Hi; j++ {
		idx := sym.Const(integer.Of(j))
		for i, t := range arrs {
			elems[i] = ts.Select(t, idx)
		}
		v := elems[0]
		if !allSame(elems) {
			var err error
			if v, err = iteChain(ts, elems, guards); err != nil {
				return nil, err
			}
		}
		acc = ts.Store(acc, idx, v)
	}
	return sym.ArrayTerm(acc), nil
}
