package engine

import (
	"fmt"

	"certsym/pathcond"
	"certsym/spec/syntax"
	"certsym/step"
	"certsym/sym"
)

// Expand is expand of SEMANTICS.md (Fig. 7 of the WiSE paper, extended): it appends to out all
// symbolic successors of st, in the order of the rules, including those whose path condition is
// already known unsatisfiable (PC.Status == Unsat); pruning is the search's business. Each case
// names the rule it transcribes; the condition split and the assignment are the step kernel's
// (step.SplitCond, step.Assign).
//
// Coq: expand (Expand.v), the executable form of the rules E_* of sym_step (Symbolic.v). Theorem
// 3.1, expand_correct (Expandproof.v), says it yields exactly the sym_step successors; Theorems
// 2.1-2.3 (Reach_correct, sound_reachability, complete_reachability, Symbolicproof.v) relate those
// steps to the concrete ones.
func (e *Engine) Expand(st *State, out []*State) []*State {
	k := st.Prog.head()
	succ := func(phi *pathcond.PC, store []*sym.Term, p *Kont) {
		out = append(out, &State{PC: phi, Store: store, Prog: p, Depth: st.Depth + 1})
	}
	n := e.terms.Slots()
	ext := func(f *sym.Formula) *pathcond.PC { return pathcond.Extend(st.PC, f, n) }
	switch s := k.S.(type) {
	case *syntax.Skip: // [E-Skip] when alone, [E-SeqSkip] otherwise
		if k.Next != nil {
			succ(st.PC, st.Store, k.Next)
		}
	case *syntax.Fail: // [E-Fail]: no successor
	case *syntax.Assign: // [E-Assign], and [E-AssignErr] (division, then index) when a can fail
		as := step.Assign(e.terms, s, st.Store)
		if as.Huge && e.stopped == "" {
			// A resource bound, not a step of the semantics: the successor is still produced, and
			// the run stops before expanding anything else.
			e.stopped = step.HugeReason(s)
		}
		if as.Def == nil { // D(a) = true
			succ(st.PC, as.Store, &Kont{step.Skip, k.Next})
			break
		}
		succ(ext(as.Def), as.Store, &Kont{step.Skip, k.Next})
		if as.Err != nil {
			succ(ext(as.Err), st.Store, &Kont{s.Err, k.Next})
		}
		if as.IdxErr != nil {
			succ(ext(as.IdxErr), st.Store, &Kont{s.IdxErr, k.Next})
		}
	case *syntax.ArrAssign: // [E-ArrAssign], and [E-ArrAssignErr] (division, then index)
		as := step.ArrAssign(e.terms, s, st.Store)
		succ(ext(as.Def), as.Store, &Kont{step.Skip, k.Next})
		if as.Err != nil {
			succ(ext(as.Err), st.Store, &Kont{s.Err, k.Next})
		}
		if as.IdxErr != nil {
			succ(ext(as.IdxErr), st.Store, &Kont{s.IdxErr, k.Next})
		}
	case *syntax.If: // [E-If]
		out = e.branch(st, k, s.Cond, s.Then, s.Else, s.Err, s.IdxErr, out)
	case *syntax.Assert: // assert b = if b then skip else fail fi: [E-If]
		out = e.branch(st, k, s.Cond, step.Skip, s.Violation, s.Err, s.IdxErr, out)
	case *syntax.While: // [E-While] (Entry is Unfold), [E-While-Inv] with invariant clauses
		succ(st.PC, st.Store, &Kont{s.Entry, k.Next})
	case *syntax.Assume: // [E-Assume]: the then successor of the split, and its error successor
		sp := step.SplitKinds(e.terms, s.Cond, st.Store, s.Err != nil, s.IdxErr != nil)
		succ(ext(sp.Then), st.Store, &Kont{step.Skip, k.Next})
		if sp.Err != nil {
			succ(ext(sp.Err), st.Store, &Kont{s.Err, k.Next})
		}
		if sp.IdxErr != nil {
			succ(ext(sp.IdxErr), st.Store, &Kont{s.IdxErr, k.Next})
		}
	default:
		panic(fmt.Sprintf("engine.Expand: unknown statement %T", k.S))
	}
	return out
}

// ExpandStep is Expand for a search driven from outside the engine (package steal): it also
// returns the reason a huge assignment gives to stop the run (step.HugeReason), or "", and leaves
// the engine's own stop reason as it was.
func (e *Engine) ExpandStep(st *State, out []*State) ([]*State, string) {
	saved := e.stopped
	e.stopped = ""
	out = e.Expand(st, out)
	huge := e.stopped
	e.stopped = saved
	return out, huge
}

// branch is [E-If]: the then branch under D(b) ∧ b, the else branch under D(b) ∧ ¬b, and, when b
// divides, the error under ¬D(b) (the step kernel's step.SplitCond).
//
// Coq: the sym_step constructors E_IfTrue, E_IfFalse, E_IfErr (Symbolic.v), the If case of
// expand (Expand.v); covered by Theorem 3.1, expand_correct (Expandproof.v).
func (e *Engine) branch(st *State, k *Kont, cond syntax.BExpr, th, el syntax.Stmt, err, idxErr *syntax.Fail, out []*State) []*State {
	sp := step.SplitKinds(e.terms, cond, st.Store, err != nil, idxErr != nil)
	n := e.terms.Slots()
	out = append(out,
		&State{PC: pathcond.Extend(st.PC, sp.Then, n), Store: st.Store, Prog: &Kont{th, k.Next}, Depth: st.Depth + 1},
		&State{PC: pathcond.Extend(st.PC, sp.Else, n), Store: st.Store, Prog: &Kont{el, k.Next}, Depth: st.Depth + 1})
	if sp.Err != nil {
		out = append(out, &State{PC: pathcond.Extend(st.PC, sp.Err, n), Store: st.Store, Prog: &Kont{err, k.Next}, Depth: st.Depth + 1})
	}
	if sp.IdxErr != nil {
		out = append(out, &State{PC: pathcond.Extend(st.PC, sp.IdxErr, n), Store: st.Store, Prog: &Kont{idxErr, k.Next}, Depth: st.Depth + 1})
	}
	return out
}
