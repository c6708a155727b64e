package solver

import (
	"fmt"

	"github.com/aclements/go-z3/z3"

	"certsym/internal/fault"
	"certsym/internal/z3worker"
	"certsym/pathcond"
	"certsym/spec/integer"
	"certsym/spec/syntax"
	"certsym/sym"
)

// The Z3 encoding of one chain: its context, the symbols' constants, the translations' side tables.
// Each declared array is one Array(Int → Int) constant; the symbol of element j of array a is
// (select a j), so element symbols and reads at symbolic indices agree; a model is read back
// element by element for Lo..Hi (the witness is a flat store).

// conjTableMax bounds the side table of the conjuncts' translations (encoder.conj): when it is
// full it is emptied, and a conjunct asked again is translated again (the nodes on the
// incremental stack are asserted already and need no translation).
const conjTableMax = 1 << 16

// encoder translates terms and formulas into its Z3 context. It belongs to one chain (one
// goroutine: go-z3 crashes when a context is shared).
type encoder struct {
	ctx   *z3.Context
	syms  []z3.Int         // the variables' constants
	arrs  []z3worker.Array // one Array(Int → Int) constant per declared array, as workers take it
	elems map[int]z3.Int   // the element symbols made so far, by symbol (sym)
	// exq, exqs: the witnesses of a quantified query's outer existentials (quant.go), by formula
	// and in order; nil outside such a query.
	exq  map[*sym.Formula]z3.Int
	exqs []z3.Int
	prog *syntax.Program
	// atoms: the translation of each atom without a bound variable inside, by identity.
	atoms map[*sym.Atom]z3.Int
	// conj: the translation of each path condition node's conjunct, by the node's ID (a side
	// table: it does not keep the node alive), at most conjTableMax entries.
	conj map[uint64]z3.Bool

	// abstractMul (Options.AbstractMul): a product of two non-constant terms is the
	// uninterpreted function mul(l, r), constrained only by its sign axioms (abstract.go).
	abstractMul bool
	mulF        z3.FuncDecl
	mulFok      bool
	axioms      map[*sym.Atom]z3.Bool
}

// newEncoder creates the encoding of p's flat store in a new context: a constant per variable and
// per array, whose element symbols (select A j) are made on first use (sym), not all at start.
func newEncoder(p *syntax.Program, names []string, abstractMul bool) *encoder {
	cfg := z3.NewContextConfig()
	cfg.SetBool("model", true)
	ctx := z3.NewContext(cfg)
	z := &encoder{ctx: ctx, atoms: map[*sym.Atom]z3.Int{}, conj: map[uint64]z3.Bool{}, abstractMul: abstractMul}
	if p != nil && len(p.Arrays) > 0 {
		names = names[:p.Arrays[0].Offset]
	}
	z.syms = make([]z3.Int, len(names))
	for i, n := range names {
		z.syms[i] = ctx.IntConst(n)
	}
	if p == nil || len(p.Arrays) == 0 {
		return z
	}
	z.prog, z.elems = p, map[int]z3.Int{}
	asort := ctx.ArraySort(ctx.IntSort(), ctx.IntSort())
	for _, a := range p.Arrays {
		z.arrs = append(z.arrs, z3worker.Array{Const: ctx.Const(a.Name, asort).(z3.Array), Lo: a.Lo, Len: int(a.Hi-a.Lo) + 1})
	}
	return z
}

// sym is the constant of symbol i: a variable's, or (select A j) for element j of array A.
func (z *encoder) sym(i int) z3.Int {
	if i < len(z.syms) {
		return z.syms[i]
	}
	if x, ok := z.elems[i]; ok {
		return x
	}
	for k, a := range z.arrs {
		if off := z.prog.Arrays[k].Offset; i < off+a.Len {
			x := a.Const.Select(z.intVal(integer.Of(a.Lo + int64(i-off)))).(z3.Int)
			z.elems[i] = x
			return x
		}
	}
	panic(fmt.Sprintf("solver: symbol %d outside the store", i))
}

func (z *encoder) intVal(v integer.Int) z3.Int {
	if x, ok := v.Int64(); ok {
		return z.ctx.FromInt(x, z.ctx.IntSort()).(z3.Int)
	}
	return z.ctx.FromBigInt(v.Big(), z.ctx.IntSort()).(z3.Int)
}

// zenv is an environment of bound variables in Z3: a binder's value (an instance or a fresh
// constant), then the enclosing ones.
type zenv struct {
	bind int
	val  z3.Int
	next *zenv
}

func (e *zenv) lookup(bind int) z3.Int {
	for ; e != nil; e = e.next {
		if e.bind == bind {
			return e.val
		}
	}
	panic("solver: unbound quantified variable")
}

var one = integer.Of(1)

func (z *encoder) term(t *sym.Term) z3.Int { return z.termE(t, nil) }

// termE translates t in the environment env of the bound variables.
func (z *encoder) termE(t *sym.Term, env *zenv) z3.Int {
	c := t.Const()
	r := z.intVal(c)
	n := t.Monos()
	if n == 0 {
		return r
	}
	parts := make([]z3.Int, 0, n+1)
	for i := 0; i < n; i++ {
		k, a := t.Mono(i)
		x := z.atomE(a, env)
		if !k.Equal(one) {
			x = z.intVal(k).Mul(x)
		}
		parts = append(parts, x)
	}
	if !c.IsZero() {
		parts = append(parts, r)
	}
	if len(parts) == 1 {
		return parts[0]
	}
	return parts[0].Add(parts[1:]...)
}

// atomE translates an atom in the environment env of the bound variables (instances and fresh
// constants, quant.go); an atom without a bound variable inside is translated once. Division and
// remainder are IMP's truncating ones, total as in the formal development: Z3's div and mod are
// Euclidean, so
//
//	l / r = ite(r == 0, 0, ite(l >= 0, div(l, r), -div(-l, r)))   and   l % r = l - r * (l / r).
func (z *encoder) atomE(a *sym.Atom, env *zenv) z3.Int {
	switch a.Kind {
	case sym.AtomSym:
		return z.sym(a.Sym)
	case sym.AtomBnd:
		return env.lookup(a.Sym)
	}
	if x, ok := z.atoms[a]; ok {
		return x
	}
	if a.Kind == sym.AtomSel {
		x := z.arrTerm(a.A, env).Select(z.termE(a.L, env)).(z3.Int)
		if !a.HasBound() {
			z.atoms[a] = x
		}
		return x
	}
	if a.Kind == sym.AtomIte {
		x := z.iteE(a, env) // ite.go
		if !a.HasBound() {
			z.atoms[a] = x
		}
		return x
	}
	l, r := z.termE(a.L, env), z.termE(a.R, env)
	var x z3.Int
	switch a.Kind {
	case sym.AtomMul:
		if z.abstractMul {
			x = z.abstractProduct(a, l, r)
			break
		}
		x = l.Mul(r)
	case sym.AtomDiv, sym.AtomMod:
		if fault.Active == fault.EuclideanDiv {
			x = l.Div(r)
			if a.Kind == sym.AtomMod {
				x = l.Mod(r)
			}
			break
		}
		zero := z.intVal(integer.Int{})
		q := r.Eq(zero).IfThenElse(zero, l.GE(zero).IfThenElse(l.Div(r), l.Neg().Div(r).Neg())).(z3.Int)
		x = q
		if a.Kind == sym.AtomMod {
			x = l.Sub(r.Mul(q))
		}
	default:
		panic(fmt.Sprintf("solver: unknown atom kind %d", a.Kind))
	}
	if !a.HasBound() {
		z.atoms[a] = x
	}
	return x
}

// arrTerm translates an array term: the array's constant, then its stores.
func (z *encoder) arrTerm(t *sym.ArrTerm, env *zenv) z3.Array {
	if t.Prev == nil {
		return z.arrs[t.Arr.Index].Const
	}
	return z.arrTerm(t.Prev, env).Store(z.termE(t.I, env), z.termE(t.V, env))
}

// formula translates f, which has no quantifier.
func (z *encoder) formula(f *sym.Formula) z3.Bool {
	switch f.Op {
	case sym.FTrue:
		return z.ctx.FromBool(true)
	case sym.FFalse:
		return z.ctx.FromBool(false)
	case sym.FGe:
		return z.term(f.T).GE(z.intVal(integer.Int{}))
	case sym.FEq:
		return z.term(f.T).Eq(z.intVal(integer.Int{}))
	case sym.FNe:
		return z.term(f.T).NE(z.intVal(integer.Int{}))
	case sym.FForall, sym.FExists:
		// The quantifier layer decides the path conditions with quantified conjuncts by
		// instantiation (quant.go), which Extend marks (PC.Quantified); a quantified formula
		// reaching this translation is a path condition built otherwise: the query fails
		// (unknown) rather than answer on a weaker formula.
		panic("solver: a quantified conjunct in a path condition not built by Extend")
	}
	args := make([]z3.Bool, len(f.Args))
	for i, g := range f.Args {
		args[i] = z.formula(g)
	}
	if f.Op == sym.FAnd {
		return args[0].And(args[1:]...)
	}
	return args[0].Or(args[1:]...)
}

// conjunct returns the translation of n's conjunct (with the sign axioms of its products when
// they are abstracted), from the side table when it is there.
func (z *encoder) conjunct(n *pathcond.PC) z3.Bool {
	id := n.ID()
	if b, ok := z.conj[id]; ok {
		return b
	}
	b := z.formula(n.Conj)
	if z.abstractMul {
		b = z.withSignAxioms(b, n.Conj)
	}
	if len(z.conj) >= conjTableMax {
		clear(z.conj)
	}
	z.conj[id] = b
	return b
}

// shiftModel is the fault ModelIndexShift: each array's model read back one index off (element j
// gets the value of element j+1).
func shiftModel(p *syntax.Program, model []integer.Int) {
	if p == nil {
		return
	}
	for _, a := range p.Arrays {
		for k := 0; k+1 < a.Size(); k++ {
			model[a.Offset+k] = model[a.Offset+k+1]
		}
	}
}
