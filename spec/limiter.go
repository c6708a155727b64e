package spec

import (
	"fmt"

	"certsym/internal/budget"
	"certsym/spec/syntax"
)

// A Limiter is the Limits of a run that takes its steps and evaluates its conditions one at a
// time (a concolic run, the small-step replays of certsym verify), spent over the run: the
// quantifier instances left, the integer bound of the assignments, and Stop, asked once in 1,024
// steps and quantifier instances. Limits.Steps is not the Limiter's: its caller counts its steps.
// Each method returns the bound it reached as a budget.Cut (NotCut: none); its other results
// are then meaningless, and the run ends in the state before that step or evaluation. A nil
// *Limiter bounds nothing. A Limiter belongs to one goroutine.
type Limiter struct{ w *work }

// NewLimiter is the Limiter of a run within lim.
func NewLimiter(lim Limits) *Limiter { return &Limiter{w: newWork(lim)} }

// caught turns the panic of a bound reached into *cut.
func caught(cut *budget.Cut) {
	if e := recover(); e != nil {
		c, ok := e.(budget.Cut)
		if !ok {
			panic(e)
		}
		*cut = c
	}
}

// EvalBKind is EvalBKind within the Limiter's bounds.
func (l *Limiter) EvalBKind(b syntax.BExpr, s Store, env Env) (v bool, kind syntax.FailKind, ok bool, cut budget.Cut) {
	if l == nil {
		v, kind, ok = EvalBKind(b, s, env)
		return v, kind, ok, budget.NotCut
	}
	defer caught(&cut)
	v, kind, ok = evalB(b, s, env, l.w)
	return v, kind, ok, budget.NotCut
}

// Step is Step within the Limiter's bounds: the step counts for Stop, and one that would
// evaluate more quantifier instances than are left, or assign a value over the integer bound, is
// not taken. The head's expressions are evaluated within the bounds first, then Step takes the
// step (evaluating them again), so that Step stays the one transcription of the rules.
func (l *Limiter) Step(st State) (next State, out Outcome, cut budget.Cut) {
	if l == nil {
		next, out = Step(st)
		return next, out, budget.NotCut
	}
	if cut = l.admits(Head(st.Prog), st.Store); cut != budget.NotCut {
		return st, Stepped, cut
	}
	next, out = Step(st)
	return next, out, budget.NotCut
}

// admits evaluates within the bounds what the step of head h evaluates in s, and returns the
// bound that step would reach.
func (l *Limiter) admits(h syntax.Stmt, s Store) (cut budget.Cut) {
	defer caught(&cut)
	l.w.tick()
	switch h := h.(type) {
	case *syntax.Assign:
		if v, _, ok := evalA(h.A, s, nil, l.w); ok {
			l.w.assigned(v)
		}
	case *syntax.ArrAssign:
		if _, v, _, ok := evalArrAssign(h, s, l.w); ok {
			l.w.assigned(v)
		}
	case *syntax.If:
		evalB(h.Cond, s, nil, l.w)
	case *syntax.Assert:
		evalB(h.Cond, s, nil, l.w)
	case *syntax.Assume:
		evalB(h.Cond, s, nil, l.w)
	case *syntax.Skip, *syntax.Fail, *syntax.While: // nothing is evaluated
	default:
		panic(fmt.Sprintf("spec.Limiter: unknown statement %T", h))
	}
	return budget.NotCut
}
