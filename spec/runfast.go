package spec

import (
	"fmt"

	"certsym/internal/budget"
	"certsym/spec/integer"
	"certsym/spec/syntax"
)

// RunFast is Run (no bound on quantifier instances) computed by a machine that does not rebuild
// the program at each step: its Result equals Run's for every program, input and step bound (the
// same outcome, steps and Fail, the same final store, and a final program of the same shape,
// rebuilt once at the end). The engine's bug finder replays every bug's input with it (a replay
// of hundreds of millions of steps, such as loop-acceleration/phases_1-2's, would otherwise spend
// most of its time allocating); Run stays the reference it is tested against (runfast_test.go:
// the corpus, random programs, step bounds that cut runs mid-way).
//
// The machine keeps the state (s, p) of Step in pieces. A state's program is always a left spine
// Seq(...Seq(Seq(h, q_k), q_(k-1))..., q_1) whose head h (Head) is not a Seq: RunFast holds h and
// the stack q_1 ... q_k, and a head that has just finished (an assignment, a true assert or assume,
// the skip those steps to) as the statement it came from with done set. [S-Seq] is then the
// choice of the head, and [S-SeqSkip] pops the stack; each rule applied counts one step, as in
// Step. The store is copied on the first assignment and written in place after that, where Step
// makes a new store per assignment: no state but the current one is kept, so no earlier store is
// observable. The expressions are evaluated by EvalKind and EvalBKind, the evaluation of Step.
func RunFast(prog *syntax.Program, input Store, maxSteps int) Result {
	return RunFastLimited(prog, input, Limits{Steps: maxSteps, Instances: -1})
}

// RunFastLimited is RunFast within lim (Limits): a bound reached ends the run in the state where
// it was reached (Outcome Stepped, with its Cut), at the statement about to assign a value over
// the integer bound, or whose condition would evaluate more than lim.Instances quantifier
// instances (QuantBound set, so that a quantifier over a huge range cannot hang the run). Stop is
// asked once in 1,024 steps and quantifier instances.
func RunFastLimited(prog *syntax.Program, input Store, lim Limits) (res Result) {
	m := fastMachine{s: input, w: newWork(lim)}
	m.enter(prog.Body)
	n := 0
	defer func() { // a bound reached inside a step leaves the machine in the state before it
		if r := recover(); r != nil {
			cut, ok := r.(budget.Cut)
			if !ok {
				panic(r)
			}
			res = m.result(Stepped, n, nil)
			res.Cut, res.QuantBound = cut, cut == budget.CutInstances
		}
	}()
	for ; ; n++ {
		if lim.Steps >= 0 && n >= lim.Steps {
			if f, ok := m.h.(*syntax.Fail); ok && !m.done {
				return m.result(Failed, n, f)
			}
			res = m.result(Stepped, n, nil)
			res.Cut = budget.CutSteps
			return res
		}
		m.w.tick()
		if out := m.step(); out != Stepped {
			var f *syntax.Fail
			if out == Failed {
				f = m.h.(*syntax.Fail)
			}
			return m.result(out, n, f)
		}
	}
}

// fastMachine is RunFast's state: the store s (owned once written), the head h and the stack of
// the spine's second halves (the innermost last).
type fastMachine struct {
	s     Store
	owned bool // s is RunFast's own copy, written in place
	h     syntax.Stmt
	done  bool // the head is the skip that h stepped to (&Skip{h's Loc})
	stack []syntax.Stmt
	w     *work // the bounds of evaluation
}

// enter makes p the head: its left spine goes onto the stack, its leftmost statement is the head.
func (m *fastMachine) enter(p syntax.Stmt) {
	for {
		s, ok := p.(*syntax.Seq)
		if !ok {
			m.h, m.done = p, false
			return
		}
		m.stack = append(m.stack, s.Second)
		p = s.First
	}
}

// finish makes the head the skip that it steps to.
func (m *fastMachine) finish() { m.done = true }

// write sets slot i of the store to v, copying the store on the first write.
func (m *fastMachine) write(i int, v integer.Int) {
	if !m.owned {
		m.s = append(Store(nil), m.s...)
		m.owned = true
	}
	m.s[i] = v
}

// step takes one step, as Step does on the state the machine holds; Final, Failed and Blocked
// leave the state unchanged.
func (m *fastMachine) step() Outcome {
	if m.done {
		return m.pop()
	}
	switch p := m.h.(type) {
	case *syntax.Skip:
		return m.pop()
	case *syntax.Fail:
		return Failed
	case *syntax.Assign:
		v, k, ok := evalA(p.A, m.s, nil, m.w)
		if !ok { // [S-AssignErr]
			m.enter(FailFor(k, p.Err, p.IdxErr))
			return Stepped
		}
		m.w.assigned(v)
		m.write(p.X.Index, v) // [S-Assign]
		m.finish()
	case *syntax.ArrAssign:
		slot, v, k, ok := evalArrAssign(p, m.s, m.w)
		if !ok { // [S-ArrAssignErr]
			m.enter(FailFor(k, p.Err, p.IdxErr))
			return Stepped
		}
		m.w.assigned(v)
		m.write(slot, v) // [S-ArrAssign]
		m.finish()
	case *syntax.If:
		m.branch(p.Cond, p.Then, p.Else, p.Err, p.IdxErr)
	case *syntax.Assert:
		m.branch(p.Cond, nil, p.Violation, p.Err, p.IdxErr)
	case *syntax.While: // [S-While], [S-While-Inv]
		m.enter(p.Entry)
	case *syntax.Assume:
		v, k, ok := evalB(p.Cond, m.s, nil, m.w)
		switch {
		case !ok: // [S-AssumeErr]
			m.enter(FailFor(k, p.Err, p.IdxErr))
		case v: // [S-Assume]
			m.finish()
		default:
			return Blocked
		}
	default:
		panic(fmt.Sprintf("spec.RunFast: unknown statement %T", m.h))
	}
	return Stepped
}

// pop steps from a skip head: the run is Final when the program is that skip, otherwise
// [S-SeqSkip] makes the innermost second half the head.
func (m *fastMachine) pop() Outcome {
	if len(m.stack) == 0 {
		return Final
	}
	q := m.stack[len(m.stack)-1]
	m.stack = m.stack[:len(m.stack)-1]
	m.enter(q)
	return Stepped
}

// branch is stepIf: the head steps to th (nil: the skip an assert steps to), el, or the Fail of
// the first error's kind.
func (m *fastMachine) branch(c syntax.BExpr, th, el syntax.Stmt, err, idxErr *syntax.Fail) {
	v, k, ok := evalB(c, m.s, nil, m.w)
	switch {
	case !ok: // [S-IfErr]
		m.enter(FailFor(k, err, idxErr))
	case !v: // [S-IfFalse]
		m.enter(el)
	case th == nil: // [S-IfTrue] of assert b: skip
		m.finish()
	default: // [S-IfTrue]
		m.enter(th)
	}
}

// result is the Result of a run that ends with out after n steps, the state rebuilt as Step's.
func (m *fastMachine) result(out Outcome, n int, f *syntax.Fail) Result {
	p := m.h
	if m.done {
		p = &syntax.Skip{Loc: m.h.Location()}
	}
	for i := len(m.stack) - 1; i >= 0; i-- {
		p = &syntax.Seq{First: p, Second: m.stack[i]}
	}
	return Result{Outcome: out, Final: State{m.s, p}, Steps: n, Fail: f}
}
