package spec

import (
	"fmt"

	"certsym/internal/budget"
	"certsym/spec/integer"
	"certsym/spec/syntax"
)

// State is a concrete state (s, p): a store and the remaining program.
type State struct {
	Store Store
	Prog  syntax.Stmt
}

// Outcome classifies the result of Step.
type Outcome uint8

// The outcomes of a step. Stepped: there is a successor. Final: the program is skip, the run is
// finished. Failed: the head of the program is fail (an error state, IsError). Blocked: the head
// is assume b with b false, the run ends without error (an infeasible path).
const (
	Stepped Outcome = iota
	Final
	Failed
	Blocked
)

func (o Outcome) String() string {
	return [...]string{"stepped", "final", "failed", "blocked"}[o]
}

// Head is head(p) of SEMANTICS.md: the statement that executes next.
// Coq: head (Syntax.v).
func Head(p syntax.Stmt) syntax.Stmt {
	for {
		s, ok := p.(*syntax.Seq)
		if !ok {
			return p
		}
		p = s.First
	}
}

// IsError is the error-state classifier of SEMANTICS.md: the head of p is fail. It returns that
// Fail, or nil.
// Coq: is_error (Syntax.v); cstep_error (Concreteproof.v) says such a state is an error of cstep.
func IsError(p syntax.Stmt) *syntax.Fail {
	f, _ := Head(p).(*syntax.Fail)
	return f
}

// Step is the concrete small-step relation (s, p) → (s', p') of SEMANTICS.md (WiSE's Fig. 2
// extended). It is a function: IMP is deterministic. The rule applied is named in each case.
//
// Coq: the constructors S_* of step (Concrete.v) and their executable form cstep; covered by
// cstep_correct, cstep_final, cstep_error and cstep_stuck (Concreteproof.v).
func Step(st State) (State, Outcome) {
	switch p := st.Prog.(type) {
	case *syntax.Skip:
		return st, Final
	case *syntax.Fail:
		return st, Failed
	case *syntax.Assign:
		v, k, ok := EvalKind(p.A, st.Store, nil)
		if !ok { // [S-AssignErr], to the Fail of the first error's kind
			return State{st.Store, FailFor(k, p.Err, p.IdxErr)}, Stepped
		}
		// [S-Assign]
		s := make(Store, len(st.Store))
		copy(s, st.Store)
		s[p.X.Index] = v
		return State{s, &syntax.Skip{Loc: p.Loc}}, Stepped
	case *syntax.ArrAssign:
		slot, v, k, ok := EvalArrAssign(p, st.Store)
		if !ok { // [S-ArrAssignErr]
			return State{st.Store, FailFor(k, p.Err, p.IdxErr)}, Stepped
		}
		// [S-ArrAssign]
		s := make(Store, len(st.Store))
		copy(s, st.Store)
		s[slot] = v
		return State{s, &syntax.Skip{Loc: p.Loc}}, Stepped
	case *syntax.If:
		return stepIf(st.Store, p.Cond, p.Then, p.Else, p.Err, p.IdxErr)
	case *syntax.Assert: // assert b means if b then skip else fail fi
		return stepIf(st.Store, p.Cond, &syntax.Skip{Loc: p.Loc}, p.Violation, p.Err, p.IdxErr)
	case *syntax.While: // [S-While] (Entry is Unfold), [S-While-Inv] with invariant clauses
		return State{st.Store, p.Entry}, Stepped
	case *syntax.Assume:
		v, k, ok := EvalBKind(p.Cond, st.Store, nil)
		switch {
		case !ok: // [S-AssumeErr]
			return State{st.Store, FailFor(k, p.Err, p.IdxErr)}, Stepped
		case v: // [S-Assume]
			return State{st.Store, &syntax.Skip{Loc: p.Loc}}, Stepped
		}
		return st, Blocked
	case *syntax.Seq:
		if _, ok := p.First.(*syntax.Skip); ok { // [S-SeqSkip]
			return State{st.Store, p.Second}, Stepped
		}
		next, out := Step(State{st.Store, p.First}) // [S-Seq]
		if out != Stepped {
			return st, out
		}
		return State{next.Store, &syntax.Seq{First: next.Prog, Second: p.Second}}, Stepped
	default:
		panic(fmt.Sprintf("spec.Step: unknown statement %T", st.Prog))
	}
}

// stepIf is [S-IfTrue], [S-IfFalse] and [S-IfErr] (also assert and the loop unfolding); an
// error steps to err or idxErr by the kind of the first error (FailFor).
// Coq: S_IfTrue, S_IfFalse, S_IfErr (Concrete.v), the If case of cstep; covered by cstep_correct
// (Concreteproof.v).
func stepIf(s Store, c syntax.BExpr, th, el syntax.Stmt, err, idxErr *syntax.Fail) (State, Outcome) {
	v, k, ok := EvalBKind(c, s, nil)
	switch {
	case !ok: // [S-IfErr]
		return State{s, FailFor(k, err, idxErr)}, Stepped
	case v: // [S-IfTrue]
		return State{s, th}, Stepped
	}
	return State{s, el}, Stepped // [S-IfFalse]
}

// FailFor returns the Fail a statement steps to when the first error of its evaluation has kind
// k: err (the statement's Err) for FailDivZero, idxErr (its IdxErr) for FailIndex. The kinds of
// [S-AssignErr], [S-IfErr], [S-AssumeErr] and [S-ArrAssignErr].
func FailFor(k syntax.FailKind, err, idxErr *syntax.Fail) *syntax.Fail {
	if k == syntax.FailIndex {
		return idxErr
	}
	return err
}

// EvalArrAssign evaluates the element assignment a[i] = e in s, in evaluation order: i, then e,
// then the range check of the write ([S-ArrAssign], [S-ArrAssignErr]). It returns the slot
// written and the value, or, when ok is false, the kind of the first error.
func EvalArrAssign(p *syntax.ArrAssign, s Store) (slot int, v integer.Int, kind syntax.FailKind, ok bool) {
	return evalArrAssign(p, s, nil)
}

func evalArrAssign(p *syntax.ArrAssign, s Store, w *work) (slot int, v integer.Int, kind syntax.FailKind, ok bool) {
	i, k, ok := evalA(p.I, s, nil, w)
	if !ok {
		return 0, integer.Int{}, k, false
	}
	v, k, ok = evalA(p.A, s, nil, w)
	if !ok {
		return 0, integer.Int{}, k, false
	}
	slot, ok = p.Arr.Slot(i)
	if !ok {
		return 0, integer.Int{}, syntax.FailIndex, false
	}
	return slot, v, 0, true
}

// Result is the end of a bounded run.
type Result struct {
	Outcome Outcome      // Final, Failed, Blocked, or Stepped when the step bound was reached
	Final   State        // the last state
	Steps   int          // steps taken
	Fail    *syntax.Fail // the error reached, when Outcome is Failed
	// QuantBound says that the run stopped (Outcome Stepped) because its conditions would have
	// evaluated more quantifier instances than RunFastLimited's bound, not because of the steps.
	QuantBound bool
	Cut        budget.Cut // the bound that stopped the run (Outcome Stepped)
}

// Run runs prog from the input store for at most maxSteps steps (maxSteps < 0: no bound). Its
// evaluation is exact: a quantifier evaluates all its instances however many there are (see
// RunFastLimited for bounds on them and on the run's other resources).
// Coq: cstep iterated (Concrete.v), each step covered by cstep_correct (Concreteproof.v).
func Run(prog *syntax.Program, input Store, maxSteps int) Result {
	st := State{input, prog.Body}
	for n := 0; ; n++ {
		if maxSteps >= 0 && n >= maxSteps {
			if f := IsError(st.Prog); f != nil {
				return Result{Outcome: Failed, Final: st, Steps: n, Fail: f}
			}
			return Result{Outcome: Stepped, Final: st, Steps: n, Cut: budget.CutSteps}
		}
		next, out := Step(st)
		if out != Stepped {
			return Result{Outcome: out, Final: st, Steps: n, Fail: IsError(st.Prog)}
		}
		st = next
	}
}

// Limits bounds a run (RunFastLimited; ExecBoundedLimited and Limiter, which leave Steps to the
// loop limit and to their caller): Steps, the steps (as Run's maxSteps), and Instances, the
// quantifier instances its conditions may evaluate in all, over the run (< 0: no bound). IntBits
// and Stop bound its resources, not its steps: an assignment of a value of more than IntBits bits
// is not executed (0: no bound), and Stop, when not nil, is asked once in 1,024 steps (statements
// of a bounded run) and quantifier instances whether the run must stop (the time and memory
// bounds and interrupts of a command).
type Limits struct {
	Steps, Instances, IntBits int
	Stop                      func() bool
}
