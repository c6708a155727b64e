package sym

import (
	"fmt"

	"certsym/internal/fault"
	"certsym/spec/integer"
	"certsym/spec/syntax"
)

// FormulaOp is the connective or atomic predicate at the root of a Formula.
type FormulaOp uint8

// Formulas are in negation normal form over three atomic predicates on a term t.
const (
	FTrue   FormulaOp = iota
	FFalse            //
	FGe               // t >= 0
	FEq               // t == 0
	FNe               // t != 0
	FAnd              //
	FOr               //
	FForall           // for every k in Lo..Hi: Args[0] (k the variable of binder Bind)
	FExists           // for some k in Lo..Hi: Args[0]
)

// A Formula is a condition over the symbols: a path condition conjunct. Comparisons are
// normalized to t >= 0, t == 0 or t != 0, negations pushed to the atoms, constants folded.
// Formulas are immutable and may be shared.
type Formula struct {
	Op   FormulaOp
	T    *Term
	Args []*Formula
	// FForall, FExists: the binder (the Sym of the AtomBnd atoms of its variable) and the bounds
	// (array.go, Quant).
	Bind   int
	Lo, Hi *Term
}

// True and False are the constant formulas.
var (
	True  = &Formula{Op: FTrue}
	False = &Formula{Op: FFalse}
)

func boolF(v bool) *Formula {
	if v {
		return True
	}
	return False
}

// Pred is the atomic formula t op 0 for op in FGe, FEq, FNe, folded when t is constant.
func Pred(op FormulaOp, t *Term) *Formula {
	if c, ok := t.IsConst(); ok {
		switch op {
		case FGe:
			return boolF(c.Sign() >= 0)
		case FEq:
			return boolF(c.IsZero())
		}
		return boolF(!c.IsZero())
	}
	return &Formula{Op: op, T: t}
}

// cmpF is l op r.
func cmpF(op syntax.CmpOp, l, r *Term) *Formula {
	switch op {
	case syntax.Eq:
		return Pred(FEq, sub(l, r))
	case syntax.Ne:
		return Pred(FNe, sub(l, r))
	case syntax.Ge: // l - r >= 0
		return Pred(FGe, sub(l, r))
	case syntax.Le: // r - l >= 0
		return Pred(FGe, sub(r, l))
	case syntax.Gt: // l - r - 1 >= 0
		return Pred(FGe, lin(l, minusOne, r, minusOne))
	}
	// Lt: r - l - 1 >= 0
	if fault.Active == fault.SwapComparison {
		return Pred(FGe, sub(r, l))
	}
	return Pred(FGe, lin(r, minusOne, l, minusOne))
}

// And is the conjunction of fs, flattened and folded.
func And(fs ...*Formula) *Formula { return junction(FAnd, fs) }

// Or is the disjunction of fs, flattened and folded.
func Or(fs ...*Formula) *Formula { return junction(FOr, fs) }

func junction(op FormulaOp, fs []*Formula) *Formula {
	unit, zero := True, False // neutral and absorbing elements of and
	if op == FOr {
		unit, zero = False, True
	}
	var only *Formula // the one argument other than unit, when it is no junction op
	n := 0
	for _, f := range fs {
		if f != unit {
			n, only = n+1, f
		}
	}
	if n == 1 && only != zero && only.Op != op {
		return only // no slice of arguments to build
	}
	var args []*Formula
	for _, f := range fs {
		switch {
		case f == zero:
			return zero
		case f == unit:
		case f.Op == op:
			args = append(args, f.Args...)
		default:
			args = append(args, f)
		}
	}
	switch len(args) {
	case 0:
		return unit
	case 1:
		return args[0]
	}
	return &Formula{Op: op, Args: args}
}

// Not is the negation of f, in negation normal form.
func Not(f *Formula) *Formula {
	switch f.Op {
	case FTrue:
		return False
	case FFalse:
		return True
	case FGe: // not (t >= 0)  <=>  -t - 1 >= 0
		return Pred(FGe, lin(zero, minusOne, f.T, minusOne))
	case FEq:
		return Pred(FNe, f.T)
	case FNe:
		return Pred(FEq, f.T)
	case FForall, FExists:
		return Quant(f.Op == FForall, f.Bind, f.Lo, f.Hi, Not(f.Args[0]))
	}
	args := make([]*Formula, len(f.Args))
	for i, g := range f.Args {
		args[i] = Not(g)
	}
	if f.Op == FAnd {
		return Or(args...)
	}
	return And(args...)
}

// SubstB is S(b): the formula of a program condition under the symbolic store S (sym_bexpr of
// the Why3 development).
func (ts *Terms) SubstB(b syntax.BExpr, s []*Term) *Formula {
	switch b := b.(type) {
	case *syntax.BoolLit:
		return boolF(b.Val)
	case *syntax.Cmp:
		return cmpF(b.Op, ts.Subst(b.L, s), ts.Subst(b.R, s))
	case *syntax.Not:
		return Not(ts.SubstB(b.X, s))
	case *syntax.BinB:
		l, r := ts.SubstB(b.L, s), ts.SubstB(b.R, s)
		if b.Op == syntax.And {
			return And(l, r)
		}
		return Or(l, r)
	case *syntax.Quant: // its value, expanded or quantified (array.go)
		return ts.condQ(b, s, nil).v
	default:
		panic(fmt.Sprintf("sym: unknown condition %T", b))
	}
}

// Defined is S(D(e)) for the divisors ds of an expression (syntax.DivisorsA/B): the condition under
// which the expression's value is defined.
func (ts *Terms) Defined(ds []syntax.AExpr, s []*Term) *Formula {
	fs := make([]*Formula, len(ds))
	for i, d := range ds {
		fs[i] = Pred(FNe, ts.Subst(d, s))
	}
	return And(fs...)
}

// Eval is the truth of f under the valuation v. A quantified formula is evaluated instance by
// instance; past EvalInstances instances in all, Eval gives up and answers false (callers use
// Eval to confirm a valuation, so false is the safe answer: see EvalOK).
func (f *Formula) Eval(v []integer.Int) bool {
	r, ok := f.EvalOK(v)
	return r && ok
}

// EvalInstances bounds the quantifier instances one evaluation of a formula evaluates.
const EvalInstances = 1 << 20

// EvalDegree is the highest degree (Degree) of a formula EvalOK evaluates: a polynomial of
// higher degree can have values of astronomical size on small values of its symbols (x squared
// sixty times is x^(2^60)), which no evaluation could compute. The solver does not ask Z3 about
// such formulas either (solver.MaxDegree).
const EvalDegree = 64

// EvalOK is the truth of f under v, and ok false when the evaluation gave up (more than
// EvalInstances quantifier instances, or a degree over EvalDegree).
func (f *Formula) EvalOK(v []integer.Int) (val, ok bool) {
	if f.Degree() > EvalDegree {
		return false, false
	}
	budget := EvalInstances
	env := rootEnv()
	val = f.eval(v, env, &budget)
	env.release()
	return val, budget >= 0
}

func (f *Formula) eval(v []integer.Int, env *benv, budget *int) bool {
	switch f.Op {
	case FTrue:
		return true
	case FFalse:
		return false
	case FGe:
		return f.T.eval(v, env).Sign() >= 0
	case FEq:
		return f.T.eval(v, env).IsZero()
	case FNe:
		return !f.T.eval(v, env).IsZero()
	case FAnd:
		for _, g := range f.Args {
			if !g.eval(v, env, budget) {
				return false
			}
		}
		return true
	case FForall, FExists:
		ex := f.Op == FExists
		lo, hi := f.Lo.eval(v, env), f.Hi.eval(v, env)
		for j := lo; j.Cmp(hi) <= 0; j = j.Add(one) {
			if *budget--; *budget < 0 {
				return false
			}
			if f.Args[0].eval(v, &benv{bind: f.Bind, val: j, next: env}, budget) == ex {
				return ex
			}
		}
		return !ex
	}
	for _, g := range f.Args {
		if g.eval(v, env, budget) {
			return true
		}
	}
	return false
}

// Instances holds, for universally quantified formulas, values of their variable (the instances
// a solver asserts in place of the quantifier, package solver).
type Instances map[*Formula][]integer.Int

// CollectInstances adds to inst, for the universal quantifiers of f that v falsifies, the first
// instance v falsifies (the bodies of existentials are searched over at most MaxExpand
// instances); it reports whether an instance was added.
func CollectInstances(f *Formula, v []integer.Int, inst Instances) bool {
	env := rootEnv()
	added := collect(f, v, env, inst)
	env.release()
	return added
}

func collect(f *Formula, v []integer.Int, env *benv, inst Instances) bool {
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
			e := &benv{bind: f.Bind, val: j, next: env}
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

// String renders f in IMP syntax over the symbol names, comparisons written with the
// positive monomials on the left (n - 3 >= 0 reads n >= 3); a formula whose expansion is large
// names its shared subterms (render).
func (f *Formula) String(names []string) string {
	return render(names, func(c *counter) { c.formula(f) }, func(p *printer) { f.write(p, false) })
}

// RawString is String with each bound variable, free or not, named after its binder (k<binder>).
func (f *Formula) RawString(names []string) string {
	return render(names, func(c *counter) { c.formula(f) }, func(p *printer) { p.binds = nil; f.write(p, false) })
}

func (f *Formula) write(p *printer, nested bool) {
	b := p.b
	switch f.Op {
	case FTrue:
		b.WriteString("true")
	case FFalse:
		b.WriteString("false")
	case FGe, FEq, FNe:
		op := map[FormulaOp]string{FGe: " >= ", FEq: " == ", FNe: " != "}[f.Op]
		lhs, rhs := splitSides(f.T)
		if len(lhs.monos) == 0 { // c >= t reads t <= c
			lhs, rhs = rhs, lhs
			if f.Op == FGe {
				op = " <= "
			}
		}
		lhs.write(p)
		b.WriteString(op)
		rhs.write(p)
	case FAnd, FOr:
		sep := " and "
		if f.Op == FOr {
			sep = " or "
		}
		if nested {
			b.WriteByte('(')
		}
		for i, g := range f.Args {
			if i > 0 {
				b.WriteString(sep)
			}
			g.write(p, true)
		}
		if nested {
			b.WriteByte(')')
		}
	case FForall, FExists:
		q := [...]string{FForall: "forall", FExists: "exists"}[f.Op]
		b.WriteString("(" + q + " " + p.bound(f.Bind, true) + " in ")
		f.Lo.write(p)
		b.WriteString("..")
		f.Hi.write(p)
		b.WriteString(": ")
		f.Args[0].write(p, true)
		b.WriteByte(')')
	}
}

// splitSides writes t as lhs - rhs with the positive monomials in lhs and the negated negative
// monomials in rhs; the constant goes to the side without symbols when there is one, else right.
func splitSides(t *Term) (lhs, rhs *Term) {
	lhs, rhs = &Term{}, &Term{}
	for _, m := range t.monos {
		if m.k.Sign() > 0 {
			lhs.monos = append(lhs.monos, m)
		} else {
			rhs.monos = append(rhs.monos, mono{m.k.Neg(), m.a})
		}
	}
	if len(lhs.monos) == 0 {
		lhs.c = t.c // c >= N
	} else {
		rhs.c = t.c.Neg() // P >= N - c
	}
	return lhs, rhs
}
