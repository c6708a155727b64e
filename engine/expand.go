package engine

import (
	"fmt"

	"certsym/internal/fault"
	"certsym/spec"
)

var skipStmt = &spec.Skip{}

// Expand is expand of SEMANTICS.md (Fig. 7 of the WiSE paper, extended): it appends to out all
// symbolic successors of st, in the order of the rules, including those whose path condition is
// already known unsatisfiable (PC.Status == Unsat); pruning is the search's business. Each case
// names the rule it transcribes.
//
// Coq: expand (Expand.v), the executable form of the rules E_* of sym_step (Symbolic.v). Theorem
// 3.1, expand_correct (Expandproof.v), says it yields exactly the sym_step successors; Theorems
// 2.1-2.3 (Reach_correct, sound_reachability, complete_reachability, Symbolicproof.v) relate those
// steps to the concrete ones.
func (e *Engine) Expand(st *State, out []*State) []*State {
	k := st.Prog.head()
	succ := func(phi *PC, store []*Term, p *Kont) {
		out = append(out, &State{PC: phi, Store: store, Prog: p, Depth: st.Depth + 1})
	}
	ext := func(f *Formula) *PC { return extend(st.PC, f, len(st.Store)) }
	switch s := k.S.(type) {
	case *spec.Skip: // [E-Skip] when alone, [E-SeqSkip] otherwise
		if k.Next != nil {
			succ(st.PC, st.Store, k.Next)
		}
	case *spec.Fail: // [E-Fail]: no successor
	case *spec.Assign:
		t := e.terms.subst(s.A, st.Store)
		if t.huge() && e.stopped == "" {
			// A resource bound, not a step of the semantics: the successor is still produced, and
			// the run stops before expanding anything else.
			e.stopped = hugeReason(s)
		}
		store := make([]*Term, len(st.Store))
		copy(store, st.Store)
		store[s.X.Index] = t
		if c, ok := t.IsConst(); ok && c.IsZero() && fault.Active == fault.LostStoreUpdate {
			store[s.X.Index] = st.Store[s.X.Index]
		}
		if s.Err == nil || fault.Active == fault.NoDivZeroBranch { // [E-Assign], D(a) = true
			succ(st.PC, store, &Kont{skipStmt, k.Next})
			break
		}
		d := e.terms.defined(spec.DivisorsA(s.A, nil), st.Store) // [E-Assign] with a division
		succ(ext(d), store, &Kont{skipStmt, k.Next})
		succ(ext(notF(d)), st.Store, &Kont{s.Err, k.Next})
	case *spec.If: // [E-If]
		out = e.branch(st, k, s.Cond, s.Then, s.Else, s.Err, out)
	case *spec.Assert: // assert b = if b then skip else fail fi: [E-If]
		out = e.branch(st, k, s.Cond, skipStmt, s.Violation, s.Err, out)
	case *spec.While: // [E-While]
		succ(st.PC, st.Store, &Kont{s.Unfold, k.Next})
	case *spec.Assume: // [E-Assume]
		c := e.terms.substB(s.Cond, st.Store)
		if s.Err == nil || fault.Active == fault.NoDivZeroBranch {
			succ(ext(c), st.Store, &Kont{skipStmt, k.Next})
			break
		}
		d := e.terms.defined(spec.DivisorsB(s.Cond, nil), st.Store)
		succ(ext(andF(d, c)), st.Store, &Kont{skipStmt, k.Next})
		succ(ext(notF(d)), st.Store, &Kont{s.Err, k.Next})
	default:
		panic(fmt.Sprintf("engine.Expand: unknown statement %T", k.S))
	}
	return out
}

// branch is [E-If]: the then branch under D(b) ∧ b, the else branch under D(b) ∧ ¬b, and, when b
// divides, the error under ¬D(b).
//
// Coq: the sym_step constructors E_IfTrue, E_IfFalse, E_IfErr (Symbolic.v), the If case of
// expand (Expand.v); covered by Theorem 3.1, expand_correct (Expandproof.v).
func (e *Engine) branch(st *State, k *Kont, cond spec.BExpr, th, el spec.Stmt, err *spec.Fail, out []*State) []*State {
	c := e.terms.substB(cond, st.Store)
	d := True
	if err != nil {
		d = e.terms.defined(spec.DivisorsB(cond, nil), st.Store)
	}
	n := len(st.Store)
	notC := notF(c)
	if fault.Active == fault.DropElseNegation {
		notC = c
	}
	if fault.Active == fault.NoDivZeroBranch {
		err = nil
	}
	out = append(out,
		&State{PC: extend(st.PC, andF(d, c), n), Store: st.Store, Prog: &Kont{th, k.Next}, Depth: st.Depth + 1},
		&State{PC: extend(st.PC, andF(d, notC), n), Store: st.Store, Prog: &Kont{el, k.Next}, Depth: st.Depth + 1})
	if err != nil {
		out = append(out, &State{PC: extend(st.PC, notF(d), n), Store: st.Store, Prog: &Kont{err, k.Next}, Depth: st.Depth + 1})
	}
	return out
}

// MaxIntBits bounds the integers a run computes with: an assignment whose value has a constant of
// more bits stops the run (bug finder and bounded interpreter) with a stated reason. IMP's
// integers are unbounded, and a loop such as x = x * x * x * x multiplies their length by four at
// each iteration: without the bound, the arithmetic alone would take the machine's time and memory.
const MaxIntBits = 1 << 20

func hugeInt(x spec.Int) bool { return !x.IsSmall() && x.BitLen() > MaxIntBits }

// huge reports whether t has a constant or coefficient of more than MaxIntBits bits.
func (t *Term) huge() bool {
	if hugeInt(t.c) {
		return true
	}
	for _, m := range t.monos {
		if hugeInt(m.k) {
			return true
		}
	}
	return false
}

func hugeReason(s *spec.Assign) string {
	p := s.Where()
	return fmt.Sprintf("integer bound reached (a value of more than %d bits assigned at %d:%d)", MaxIntBits, p.Line, p.Col)
}
