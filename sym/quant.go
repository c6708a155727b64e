package sym

import (
	"fmt"
	"time"

	"github.com/aclements/go-z3/z3"

	"certsym/internal/z3query"
	"certsym/spec/integer"
	"certsym/spec/syntax"
)

// Arrays and quantified formulas in Z3 (issue 13). Each declared array is one Array(Int → Int)
// constant; the symbol of element j of array a is (select a j), so element symbols and reads at
// symbolic indices agree; a model is read back element by element for Lo..Hi (the witness is a
// flat store). go-z3 has no quantifier API: a path condition with quantified conjuncts is decided
// by instantiation (checkQuant).

// MaxInstRounds bounds the rounds of instantiation of one query.
const MaxInstRounds = 8

// NewSolverFor creates a solver for the program's flat store: its variables, then its arrays'
// elements (SlotNames), each element (select A j) of its array's constant A.
func NewSolverFor(p *syntax.Program) *Solver {
	sv := NewSolver(SlotNames(p))
	if len(p.Arrays) == 0 {
		return sv
	}
	sv.prog = p
	isort := sv.ctx.IntSort()
	asort := sv.ctx.ArraySort(isort, isort)
	for _, a := range p.Arrays {
		arr := sv.ctx.Const(a.Name, asort).(z3.Array)
		sv.arrs = append(sv.arrs, arr)
		for j := a.Lo; j <= a.Hi; j++ {
			sv.syms[a.Offset+int(j-a.Lo)] = arr.Select(sv.intVal(integer.Of(j))).(z3.Int)
		}
	}
	return sv
}

// zenv is an environment of bound variables in Z3: a binder's value (an instance or a fresh
// constant), then the enclosing ones.
type zenv = bindings[z3.Int]

// arrTerm translates an array term: the array's constant, then its stores.
func (sv *Solver) arrTerm(t *ArrTerm, env *zenv) z3.Array {
	if t.Prev == nil {
		return sv.arrs[t.Arr.Index]
	}
	return sv.arrTerm(t.Prev, env).Store(sv.termE(t.I, env), sv.termE(t.V, env))
}

// instances holds, for each universally quantified formula, the instances asserted so far.
type instances map[*Formula][]integer.Int

// formulaQ translates f with its universal quantifiers replaced by the conjunction of their
// instances so far (a weaker formula: unsat stays exact): the two ends of the range and the
// values in inst; with inst nil, by true. Its existential ones become a fresh constant in range
// (equisatisfiable).
func (sv *Solver) formulaQ(f *Formula, env *zenv, inst instances) z3.Bool {
	switch f.Op {
	case FGe:
		return sv.termE(f.T, env).GE(sv.intVal(integer.Int{}))
	case FEq:
		return sv.termE(f.T, env).Eq(sv.intVal(integer.Int{}))
	case FNe:
		return sv.termE(f.T, env).NE(sv.intVal(integer.Int{}))
	case FAnd, FOr:
		args := make([]z3.Bool, len(f.Args))
		for i, g := range f.Args {
			args[i] = sv.formulaQ(g, env, inst)
		}
		if f.Op == FAnd {
			return args[0].And(args[1:]...)
		}
		return args[0].Or(args[1:]...)
	case FForall:
		// the instances at the two ends of the range (terms: lo, hi) from the first round, then
		// the values that refuted the models (collect)
		lo, hi := sv.termE(f.Lo, env), sv.termE(f.Hi, env)
		if inst == nil {
			return sv.ctx.FromBool(true)
		}
		out := lo.LE(hi).Implies(sv.formulaQ(f.Args[0], &zenv{f.Bind, lo, env}, inst).And(
			sv.formulaQ(f.Args[0], &zenv{f.Bind, hi, env}, inst)))
		for _, j := range inst[f] {
			jz := sv.intVal(j)
			in := lo.LE(jz).And(jz.LE(hi))
			out = out.And(in.Implies(sv.formulaQ(f.Args[0], &zenv{f.Bind, jz, env}, inst)))
		}
		return out
	case FExists:
		lo, hi := sv.termE(f.Lo, env), sv.termE(f.Hi, env)
		c := sv.ctx.FreshConst("k", sv.ctx.IntSort()).(z3.Int)
		return lo.LE(c).And(c.LE(hi), sv.formulaQ(f.Args[0], &zenv{f.Bind, c, env}, inst))
	}
	return sv.ctx.FromBool(f.Op == FTrue)
}

// collect adds to inst, for the universal quantifiers of f that v falsifies, the first instance
// v falsifies (the bodies of existentials are searched over at most MaxExpand instances); it
// reports whether an instance was added.
func collect(f *Formula, v []integer.Int, env *benv, inst instances) bool {
	budget := EvalInstances
	if f.eval(v, env, &budget) {
		return false
	}
	added := false
	switch f.Op {
	case FAnd, FOr:
		for _, g := range f.Args {
			added = collect(g, v, env, inst) || added
		}
	case FForall, FExists:
		lo, hi := f.Lo.eval(v, env), f.Hi.eval(v, env)
		n := 0
		for j := lo; j.Cmp(hi) <= 0 && n < MaxExpand; j = j.Add(one) {
			e := &benv{f.Bind, j, env}
			b := EvalInstances
			if f.Args[0].eval(v, e, &b) {
				continue
			}
			n++
			added = collect(f.Args[0], v, e, inst) || added
			if f.Op == FForall { // the first falsified instance
				if !hasInst(inst[f], j) {
					inst[f] = append(inst[f], j)
					added = true
				}
				break
			}
		}
	}
	return added
}

func hasInst(js []integer.Int, j integer.Int) bool {
	for _, x := range js {
		if x.Equal(j) {
			return true
		}
	}
	return false
}

// checkQuant decides a path condition with quantified conjuncts by instantiation: Z3 gets the
// conjuncts with each universal quantifier replaced by its instances so far (none at first);
// unsat is final; a model is accepted only when it satisfies every conjunct by exact evaluation
// (Formula.EvalOK), otherwise the instances it violates are added and Z3 asked again, at most
// MaxInstRounds times; then the answer is unknown, which never prunes and never confirms.
func (sv *Solver) checkQuant(phi *PC) (SatStatus, []integer.Int, string) {
	if sv.qs == nil {
		sv.qs = z3.NewSolver(sv.ctx)
		z3query.NoCtrlC(sv.ctx, sv.qs)
	}
	conj := phi.Conjuncts()
	inst := instances{}
	for round := 0; round < MaxInstRounds; round++ {
		sv.qs.Push()
		for _, f := range conj {
			z := sv.formulaQ(f, nil, inst)
			if sv.AbstractMul {
				z = sv.withSignAxioms(z, f)
			}
			sv.qs.Assert(z)
		}
		sat, reason, ok := sv.run(sv.qs)
		if !ok || !sat {
			sv.qs.Pop()
			if !ok {
				return Unknown, nil, reason
			}
			return Unsat, nil, ""
		}
		model := z3query.Model(sv.qs, sv.syms)
		sv.qs.Pop()
		good, added := true, false
		for _, f := range conj {
			if val, ok := f.EvalOK(model); !val || !ok {
				good = false
				if !ok {
					return Unknown, nil, "quantifier instantiation: a model's check exceeded its instance bound"
				}
				added = collect(f, model, nil, inst) || added
			}
		}
		if good {
			return Sat, model, ""
		}
		if !added {
			return Unknown, nil, "quantifier instantiation: no instance refutes a spurious model"
		}
	}
	return Unknown, nil, fmt.Sprintf("quantifier instantiation: no model after %d rounds", MaxInstRounds)
}

// run checks s within the query's bounds (rlimit, the query's time bound and the deadline): sat,
// or ok false with the reason of an unknown answer.
func (sv *Solver) run(s *z3.Solver) (sat bool, reason string, ok bool) {
	limit := sv.QueryTimeout
	if !sv.Deadline.IsZero() {
		if left := time.Until(sv.Deadline); limit == 0 || left < limit {
			limit = left
		}
		if limit <= 0 {
			return false, "time bound reached", false
		}
	}
	sv.Stats.Z3Queries++
	sat, err, timedOut := z3query.Check(sv.ctx, s, sv.RLimit, limit)
	if err == nil {
		return sat, "", true
	}
	reason = "Z3: " + err.Error()
	switch {
	case sv.mon.Interrupted():
		reason = "interrupted"
	case timedOut:
		reason = fmt.Sprintf("query time bound %v reached", limit)
	case err.Error() == "canceled" && sv.RLimit > 0:
		reason = fmt.Sprintf("query resource limit (rlimit %d) reached", sv.RLimit)
	}
	return false, reason, false
}
