package solver

import (
	"fmt"

	"github.com/aclements/go-z3/z3"

	"certsym/internal/z3worker"
	"certsym/pathcond"
	"certsym/solver/trigger"
	"certsym/spec/integer"
	"certsym/sym"
)

// Quantified formulas in Z3. go-z3 has no quantifier API: a path condition with quantified
// conjuncts is decided by instantiation (the quantifier layer, quantifiers.Check).

// MaxInstRounds bounds the rounds of instantiation of one query.
const MaxInstRounds = 8

// quantifiers is the layer that decides the path conditions with quantified conjuncts, on a Z3
// solver of its own (one scope per round); the others go to the next layer.
type quantifiers struct {
	next Solver
	enc  *encoder
	env  *env
	gen  int             // the worker generation qs belongs to (backend.gen); 0: none made
	qs   z3worker.Solver // made at its first use
}

// Check decides a path condition with quantified conjuncts by instantiation: Z3 gets the
// conjuncts with each universal quantifier replaced by its instances so far (none at first);
// unsat is final; a model is accepted only when it satisfies every conjunct by exact evaluation
// (Formula.EvalOK), otherwise the instances it violates are added (sym.CollectInstances) and Z3
// asked again, at most MaxInstRounds times; then the answer is unknown, which never prunes and
// never confirms.
func (l *quantifiers) Check(q Query) Answer {
	phi := q.PC
	if !phi.Quantified() {
		return l.next.Check(q)
	}
	z := l.enc
	if why := l.env.z3.poisonedPath(phi); why != "" {
		return Answer{Status: pathcond.Unknown, Reason: why}
	}
	conj := phi.Conjuncts()
	for _, f := range conj {
		if why := z.tooHigh(f); why != "" {
			return Answer{Status: pathcond.Unknown, Reason: why}
		}
	}
	inst := sym.Instances{}
	z.witnesses(conj)
	defer func() { z.exq, z.exqs = nil, nil }()
	for round := 0; round < MaxInstRounds; round++ {
		w := l.env.z3.worker()
		if l.gen != l.env.z3.gen {
			l.gen, l.qs = l.env.z3.gen, w.NewSolver()
		}
		w.Push(l.qs)
		for _, f := range conj {
			x := z.formulaQ(f, nil, inst)
			if z.abstractMul {
				x = z.withSignAxioms(x, f)
			}
			w.Assert(l.qs, x)
		}
		sat, model, reason, ok := run(l.env, w, l.qs, phi)
		if l.gen == l.env.z3.gen {
			w.Pop(l.qs, 1)
		}
		if !ok {
			return Answer{Status: pathcond.Unknown, Reason: reason}
		}
		if !sat {
			return Answer{Status: pathcond.Unsat}
		}
		good, added := true, false
		for _, f := range conj {
			if val, ok := f.EvalOK(model); !val || !ok {
				good = false
				if !ok {
					return Answer{Status: pathcond.Unknown, Reason: "quantifier instantiation: a model's check exceeded its instance bound"}
				}
				added = sym.CollectInstances(f, model, inst) || added
			}
		}
		if good {
			return Answer{Status: pathcond.Sat, Model: model}
		}
		if !added {
			return Answer{Status: pathcond.Unknown, Reason: "quantifier instantiation: no instance refutes a spurious model"}
		}
	}
	return Answer{Status: pathcond.Unknown, Reason: fmt.Sprintf("quantifier instantiation: no model after %d rounds", MaxInstRounds)}
}

// reset empties the layer's solver after a failed query (a round may have failed inside its
// scope).
func (l *quantifiers) reset() {
	if l.gen != 0 && l.gen == l.env.z3.gen && l.env.z3.w != nil {
		l.env.z3.w.Reset(l.qs)
	}
}

// witnesses makes a constant for the witness of each existential of trigger.Existentials(conj),
// the same in every round, and translates the indices of trigger.Indices: formulaQ instantiates
// every universal quantifier at all of them.
func (z *encoder) witnesses(conj []*sym.Formula) {
	z.exq, z.exqs = map[*sym.Formula]z3.Int{}, nil
	for _, f := range trigger.Existentials(conj) {
		c := z.ctx.FreshConst("k", z.ctx.IntSort()).(z3.Int)
		z.exq[f], z.exqs = c, append(z.exqs, c)
	}
	if z.prog != nil {
		for _, t := range trigger.Indices(conj, z.prog, trigger.MaxIndices) {
			z.exqs = append(z.exqs, z.termE(t, nil))
		}
	}
}

// formulaQ translates f with its universal quantifiers replaced by the conjunction of their
// instances so far (a weaker formula: unsat stays exact): the two ends of the range, the values
// in inst and the terms of witnesses; with inst nil, by true. Its existential ones become a
// constant in range (equisatisfiable): witnesses' for the outer ones, a fresh one for others.
func (z *encoder) formulaQ(f *sym.Formula, env *zenv, inst sym.Instances) z3.Bool {
	switch f.Op {
	case sym.FGe:
		return z.termE(f.T, env).GE(z.intVal(integer.Int{}))
	case sym.FEq:
		return z.termE(f.T, env).Eq(z.intVal(integer.Int{}))
	case sym.FNe:
		return z.termE(f.T, env).NE(z.intVal(integer.Int{}))
	case sym.FAnd, sym.FOr:
		args := make([]z3.Bool, len(f.Args))
		for i, g := range f.Args {
			args[i] = z.formulaQ(g, env, inst)
		}
		if f.Op == sym.FAnd {
			return args[0].And(args[1:]...)
		}
		return args[0].Or(args[1:]...)
	case sym.FForall:
		// the instances at the two ends of the range (terms: lo, hi) from the first round, then
		// the values that refuted the models (sym.CollectInstances)
		lo, hi := z.termE(f.Lo, env), z.termE(f.Hi, env)
		if inst == nil {
			return z.ctx.FromBool(true)
		}
		out := lo.LE(hi).Implies(z.formulaQ(f.Args[0], &zenv{f.Bind, lo, env}, inst).And(
			z.formulaQ(f.Args[0], &zenv{f.Bind, hi, env}, inst)))
		for _, j := range inst[f] {
			jz := z.intVal(j)
			in := lo.LE(jz).And(jz.LE(hi))
			out = out.And(in.Implies(z.formulaQ(f.Args[0], &zenv{f.Bind, jz, env}, inst)))
		}
		for _, c := range z.exqs {
			in := lo.LE(c).And(c.LE(hi))
			out = out.And(in.Implies(z.formulaQ(f.Args[0], &zenv{f.Bind, c, env}, inst)))
		}
		return out
	case sym.FExists:
		lo, hi := z.termE(f.Lo, env), z.termE(f.Hi, env)
		c, ok := z.exq[f]
		if !ok || env != nil {
			c = z.ctx.FreshConst("k", z.ctx.IntSort()).(z3.Int)
		}
		return lo.LE(c).And(c.LE(hi), z.formulaQ(f.Args[0], &zenv{f.Bind, c, env}, inst))
	}
	return z.ctx.FromBool(f.Op == sym.FTrue)
}
