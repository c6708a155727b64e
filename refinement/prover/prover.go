package prover

import (
	"fmt"
	"time"

	"github.com/aclements/go-z3/z3"

	"certsym/internal/z3query"
	"certsym/refinement/refclient"
	"certsym/spec/integer"
	"certsym/spec/syntax"
)

// Verdict is a prover's answer to a validity question.
type Verdict uint8

// Valid: proved. Invalid: a counter-model exists. Undecided: the solver gave up (rlimit, time, or
// an error); the question is then left to the random valuations.
const (
	Valid Verdict = iota
	Invalid
	Undecided
)

// String names the verdict.
func (v Verdict) String() string {
	if v > Undecided {
		return fmt.Sprintf("verdict(%d)", v)
	}
	return [...]string{"valid", "invalid", "undecided"}[v]
}

// Prover is the layer's own Z3 context: it shares nothing with the engine's solver (one context
// per goroutine; go-z3 contexts must not be shared). It has its own encoding of IMP's truncating,
// total division. Each query is bounded by rlimit and by a timer that interrupts the context (the
// query plumbing, not the encoding, is shared with the engine's solver: internal/z3query).
type Prover struct {
	ctx     *z3.Context
	solver  *z3.Solver
	RLimit  uint
	Timeout time.Duration
	uses    int
	// Queries, Undecided count the queries asked and those the solver gave up on.
	Queries, Undecided int
	// Budget, when positive, is how many queries may be undecided (since ResetBudget) before the
	// prover answers Undecided at once without asking Z3 (Skipped counts those queries).
	Budget  int
	Skipped int
	spent   int
	// Arrays are the declared arrays of the program under test (arrays.go): models then give
	// the variables followed by the elements of each array (the program's flat store).
	Arrays []*syntax.Array
	env    []z3.Int // the values of the bound variables, by level, while expanding a quantifier
}

// NewProver creates a prover with the given bounds per query.
func New(rlimit uint, timeout time.Duration) *Prover {
	p := &Prover{RLimit: rlimit, Timeout: timeout}
	p.reset()
	return p
}

func (p *Prover) reset() {
	cfg := z3.NewContextConfig()
	cfg.SetBool("model", true)
	p.ctx = z3.NewContext(cfg)
	p.solver = nil
	p.uses = 0
}

func (p *Prover) num(v integer.Int) z3.Int {
	if x, ok := v.Int64(); ok {
		return p.ctx.FromInt(x, p.ctx.IntSort()).(z3.Int)
	}
	return p.ctx.FromBigInt(v.Big(), p.ctx.IntSort()).(z3.Int)
}

// abs is |x|.
func (p *Prover) abs(x z3.Int) z3.Int {
	zero := p.num(integer.Int{})
	return x.GE(zero).IfThenElse(x, x.Neg()).(z3.Int)
}

// quot is the truncating total quotient: 0 when r = 0, else sign(l)·sign(r)·(|l| div |r|)
// (Euclidean and truncating division agree on non-negative operands).
func (p *Prover) quot(l, r z3.Int) z3.Int {
	zero := p.num(integer.Int{})
	q := p.abs(l).Div(p.abs(r))
	sameSign := l.GE(zero).Eq(r.GE(zero))
	signed := sameSign.IfThenElse(q, q.Neg()).(z3.Int)
	return r.Eq(zero).IfThenElse(zero, signed).(z3.Int)
}

// ResetBudget starts a new budget of undecided queries.
func (p *Prover) ResetBudget() { p.spent = 0 }

// A is the encoding of an arithmetic expression; variables are integer constants by name.
func (p *Prover) A(a syntax.AExpr) z3.Int {
	switch a := a.(type) {
	case *syntax.Num:
		return p.num(a.Val)
	case *syntax.Var:
		return p.ctx.IntConst("v_" + a.Name)
	case *syntax.Neg:
		return p.A(a.X).Neg()
	case *syntax.BinA:
		l, r := p.A(a.L), p.A(a.R)
		switch a.Op {
		case syntax.Add:
			return l.Add(r)
		case syntax.Sub:
			return l.Sub(r)
		case syntax.Mul:
			return l.Mul(r)
		case syntax.Div:
			return p.quot(l, r)
		}
		// l % r = l - r * (l / r), and l % 0 = l (r * 0 = 0).
		return l.Sub(r.Mul(p.quot(l, r)))
	case *syntax.Elem:
		return p.array(a.Arr).Select(p.A(a.I)).(z3.Int)
	case *refclient.Select:
		return p.arrTerm(a.T).Select(p.A(a.I)).(z3.Int)
	case *syntax.BoundRef:
		return p.bound(a)
	}
	panic(fmt.Sprintf("refinement: cannot encode %T", a))
}

// B is the encoding of a condition.
func (p *Prover) B(c syntax.BExpr) z3.Bool {
	switch c := c.(type) {
	case *syntax.BoolLit:
		return p.ctx.FromBool(c.Val)
	case *syntax.Cmp:
		l, r := p.A(c.L), p.A(c.R)
		switch c.Op {
		case syntax.Eq:
			return l.Eq(r)
		case syntax.Ne:
			return l.NE(r)
		case syntax.Lt:
			return l.LT(r)
		case syntax.Le:
			return l.LE(r)
		case syntax.Gt:
			return l.GT(r)
		}
		return l.GE(r)
	case *syntax.Not:
		return p.B(c.X).Not()
	case *syntax.BinB:
		l, r := p.B(c.L), p.B(c.R)
		if c.Op == syntax.And {
			return l.And(r)
		}
		return l.Or(r)
	case *syntax.Quant:
		return p.quant(c)
	case *refclient.First:
		return p.first(c)
	}
	panic(fmt.Sprintf("refinement: cannot encode %T", c))
}

// satResult is the answer to a satisfiability query.
type satResult uint8

const (
	isSat satResult = iota
	isUnsat
	undecided
)

// sat decides the conjunction of the formulas built by build; model, when sat and vars is not
// nil, is a value for each variable of vars.
func (p *Prover) sat(build func() []z3.Bool, vars []string) (status satResult, model []integer.Int) {
	if p.Budget > 0 && p.spent >= p.Budget {
		p.Skipped++
		return undecided, nil
	}
	p.uses++
	if p.uses > 4000 { // let the old context's terms go
		p.reset()
	}
	p.Queries++
	var failed error
	defer func() {
		if failed != nil { // go-z3 turns Z3 errors into panics
			p.Undecided++
			p.reset()
			status, model = undecided, nil
		}
	}()
	defer z3query.Catch(&failed)
	fs := build()
	if p.solver == nil {
		p.solver = z3.NewSolver(p.ctx)
	}
	s := p.solver
	s.Push()
	defer s.Pop()
	for _, f := range fs {
		s.Assert(f)
	}
	ok, err, _ := z3query.Check(p.ctx, s, p.RLimit, p.Timeout)
	if err != nil {
		p.Undecided++
		p.spent++
		return undecided, nil
	}
	if !ok {
		return isUnsat, nil
	}
	if vars != nil || len(p.Arrays) > 0 {
		xs := make([]z3.Int, len(vars))
		for i, x := range vars {
			xs[i] = p.ctx.IntConst("v_" + x)
		}
		xs = append(xs, p.arrayTerms()...)
		model = z3query.Model(s, xs)
	}
	return isSat, model
}

// Model returns a valuation of vars satisfying c: Valid with the model when c is satisfiable,
// Invalid when it is not, Undecided when the solver gave up.
func (p *Prover) Model(c syntax.BExpr, vars []string) (Verdict, []integer.Int) {
	st, m := p.sat(func() []z3.Bool { return []z3.Bool{p.B(c)} }, vars)
	switch st {
	case isSat:
		return Valid, m
	case isUnsat:
		return Invalid, nil
	}
	return Undecided, nil
}

// Equivalent decides whether a and b hold under exactly the same valuations (validity of
// a ⇔ b, by unsatisfiability of its negation); on Invalid, the model is a valuation of vars
// where they differ.
func (p *Prover) Equivalent(a, b syntax.BExpr, vars []string) (Verdict, []integer.Int) {
	st, m := p.sat(func() []z3.Bool { return []z3.Bool{p.B(a).Iff(p.B(b)).Not()} }, vars)
	return flip(st), m
}

// EqualTerms decides whether l[i] = r[i] for every i under every valuation; on Invalid, the
// model is a valuation of vars where some pair differs.
func (p *Prover) EqualTerms(l, r []syntax.AExpr, vars []string) (Verdict, []integer.Int) {
	st, m := p.sat(func() []z3.Bool {
		var ne []z3.Bool
		for i := range l {
			ne = append(ne, p.A(l[i]).NE(p.A(r[i])))
		}
		if len(ne) == 0 {
			return []z3.Bool{p.ctx.FromBool(false)}
		}
		return []z3.Bool{ne[0].Or(ne[1:]...)}
	}, vars)
	return flip(st), m
}

// flip turns the satisfiability of a negation into the validity of the formula.
func flip(st satResult) Verdict {
	switch st {
	case isSat: // the negation has a model: not valid
		return Invalid
	case isUnsat:
		return Valid
	}
	return Undecided
}
