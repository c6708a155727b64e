// Package burst is the concrete machine of the engine's fast path (engine.Options.Burst): a state
// whose next statement reads no symbol has exactly one successor that pruning keeps (its branch
// condition folds to a constant, so the path condition does not change), and that successor's
// store differs from its own by constants only. The Machine takes such steps on the values of the
// variables as integer.Int and the remaining program as a stack of statements, without building a
// state, a term or a formula per step. The engine loads a state into it, steps while Step says a
// step was taken, and builds the state reached once from Store and Stack; the schedule of the
// bursts (which picks they take, the counters and the bounds) is the engine's (engine/burst.go).
//
// The package sees a state only as its store (sym terms) and its program (statements, head
// first), so that the engine, which drives the machine, imports it and not the other way round.
package burst

import (
	"fmt"

	"certsym/internal/fault"
	"certsym/spec"
	"certsym/spec/integer"
	"certsym/spec/syntax"
	"certsym/step"
	"certsym/sym"
)

// Machine is the concrete machine of one program.
type Machine struct {
	nvars int
	vals  spec.Store // the values of the scalar variables; valid where known
	known []bool     // the variable's term is a constant
	wrote []bool     // the burst assigned the variable
	slots []int      // the variables the burst assigned, in order of first assignment
	stack []syntax.Stmt
	reads map[syntax.Node]*readSet
	// unknown counts the variables that are not constants; scalar says that the program has
	// no array element and no quantifier. With both, every expression is concrete.
	unknown int
	scalar  bool
}

// readSet is what an expression needs to be evaluated concretely: the variables it reads, and
// whether it is scalar (no array element, no quantifier).
type readSet struct {
	vars   []int
	scalar bool
}

// New returns the machine of prog, loaded with nothing.
func New(prog *syntax.Program) *Machine {
	n := len(prog.Vars)
	m := &Machine{nvars: n, vals: make(spec.Store, n), known: make([]bool, n), wrote: make([]bool, n),
		reads: map[syntax.Node]*readSet{}, scalar: true}
	syntax.Inspect(prog.Body, func(n syntax.Node) bool {
		switch n.(type) {
		case *syntax.Elem, *syntax.Quant, *syntax.BoundRef, *syntax.ArrAssign:
			m.scalar = false
		}
		return true
	})
	return m
}

// Load sets the machine to a state: the constants of its store (one term per variable, indexed
// like the program's Vars), its remaining program (statements, head first) as a stack.
func (m *Machine) Load(store []*sym.Term, prog []syntax.Stmt) {
	m.unknown = 0
	for i := 0; i < m.nvars; i++ {
		m.vals[i], m.known[i] = store[i].IsConst()
		if !m.known[i] {
			m.unknown++
		}
	}
	for _, i := range m.slots {
		m.wrote[i] = false
	}
	m.slots = m.slots[:0]
	m.stack = m.stack[:0]
	for i := len(prog) - 1; i >= 0; i-- { // the head on top
		m.stack = append(m.stack, prog[i])
	}
}

// Store is the store the machine reached from the loaded one, base: base itself when no step
// assigned a variable, else a copy with the assigned variables set to their constants.
func (m *Machine) Store(base []*sym.Term) []*sym.Term {
	if len(m.slots) == 0 {
		return base
	}
	store := make([]*sym.Term, len(base))
	copy(store, base)
	for _, i := range m.slots {
		store[i] = sym.Const(m.vals[i])
	}
	return store
}

// Stack is the remaining program the machine reached, the head last (the top of the stack). It is
// the machine's own: valid until the next Load or Step.
func (m *Machine) Stack() []syntax.Stmt { return m.stack }

// readsOf returns the read set of the expression x (cached by node).
func (m *Machine) readsOf(x syntax.Node) *readSet {
	if r, ok := m.reads[x]; ok {
		return r
	}
	r := &readSet{scalar: true}
	syntax.Inspect(x, func(n syntax.Node) bool {
		switch v := n.(type) {
		case *syntax.Var:
			r.vars = append(r.vars, v.Index)
		case *syntax.Elem, *syntax.Quant, *syntax.BoundRef:
			r.scalar = false
		}
		return true
	})
	m.reads[x] = r
	return r
}

// concrete reports whether x reads scalar variables only, each of them a constant.
func (m *Machine) concrete(x syntax.Node) bool {
	if m.unknown == 0 && m.scalar {
		return true
	}
	r := m.readsOf(x)
	if !r.scalar {
		return false
	}
	for _, v := range r.vars {
		if !m.known[v] {
			return false
		}
	}
	return true
}

// Step takes one concrete step of the rules at the head of the stack and returns the number of
// successors the engine's Expand produces for it (one of which pruning keeps: the others'
// conditions fold to false); it returns 0, changing nothing, when the head is no concrete step
// with one kept successor (a symbol is read, an array or a quantifier, fail, the final skip, an
// assume that blocks, a value past step.MaxIntBits). A sequence at the head is flattened first
// (engine's Kont.head: no step).
func (m *Machine) Step() int {
	top := len(m.stack) - 1
	for {
		seq, ok := m.stack[top].(*syntax.Seq)
		if !ok {
			break
		}
		m.stack[top] = seq.Second
		m.stack = append(m.stack, seq.First)
		top++
	}
	switch s := m.stack[top].(type) {
	case *syntax.Skip: // [E-SeqSkip]; alone, the program is finished
		if top == 0 {
			return 0
		}
		m.stack = m.stack[:top]
		return 1
	case *syntax.While: // [E-While], [E-While-Inv]
		m.stack[top] = s.Entry
		return 1
	case *syntax.Assign: // [E-Assign], [E-AssignErr]
		if !m.concrete(s.A) {
			return 0
		}
		n := 1
		if s.Err != nil {
			n = 2
		}
		v, kind, ok := spec.EvalKind(s.A, m.vals, nil)
		if !ok && fault.Active == fault.BurstSkipsError {
			v, ok = integer.Of(0), true // steps past the error state
		}
		if !ok {
			f := spec.FailFor(kind, s.Err, s.IdxErr)
			if f == nil {
				return 0
			}
			m.stack[top] = f
			return n
		}
		if v.BitLen() > step.MaxIntBits { // Expand states the bound
			return 0
		}
		x := s.X.Index
		if !m.known[x] {
			m.unknown--
		}
		m.vals[x], m.known[x] = v, true
		if !m.wrote[x] {
			m.wrote[x] = true
			m.slots = append(m.slots, x)
		}
		m.stack[top] = step.Skip
		return n
	case *syntax.If: // [E-If]: one of then, else, error
		return m.branch(top, s.Cond, s.Then, s.Else, s.Err, s.IdxErr)
	case *syntax.Assert: // assert b = if b then skip else fail fi
		return m.branch(top, s.Cond, step.Skip, s.Violation, s.Err, s.IdxErr)
	case *syntax.Assume: // [E-Assume]: the then successor, or the error; false blocks (no successor)
		if !m.concrete(s.Cond) {
			return 0
		}
		v, kind, ok := spec.EvalBKind(s.Cond, m.vals, nil)
		n := 1
		if s.Err != nil {
			n = 2
		}
		switch {
		case !ok:
			f := spec.FailFor(kind, s.Err, s.IdxErr)
			if f == nil {
				return 0
			}
			m.stack[top] = f
		case v:
			m.stack[top] = step.Skip
		default:
			return 0
		}
		return n
	case *syntax.Fail, *syntax.ArrAssign:
		return 0
	default:
		panic(fmt.Sprintf("burst: unknown statement %T", s))
	}
}

// branch is the concrete [E-If] at the head: then, else or the error by the value of cond.
func (m *Machine) branch(top int, cond syntax.BExpr, th, el syntax.Stmt, err, idxErr *syntax.Fail) int {
	if !m.concrete(cond) {
		return 0
	}
	v, kind, ok := spec.EvalBKind(cond, m.vals, nil)
	n := 2
	if err != nil {
		n = 3
	}
	switch {
	case !ok:
		f := spec.FailFor(kind, err, idxErr)
		if f == nil {
			return 0
		}
		m.stack[top] = f
	case v:
		m.stack[top] = th
	default:
		m.stack[top] = el
	}
	return n
}
