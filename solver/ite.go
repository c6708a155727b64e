package solver

import (
	"fmt"

	"github.com/aclements/go-z3/z3"

	"certsym/spec/integer"
	"certsym/sym"
)

// The Z3 encoding of the conditional term (sym.Ite): Z3's own ite over the translations of its
// condition and branches, in the environment of the enclosing quantifiers' variables.

// iteE translates the ite atom a in the environment env.
func (z *encoder) iteE(a *sym.Atom, env *zenv) z3.Int {
	c, then, els := a.IteParts()
	return z.condE(c, env).IfThenElse(z.termE(then, env), z.termE(els, env)).(z3.Int)
}

// condE translates the condition of an ite, a formula without quantifier (sym.Ite refuses them),
// in the environment env.
func (z *encoder) condE(f *sym.Formula, env *zenv) z3.Bool {
	zero := z.intVal(integer.Int{})
	switch f.Op {
	case sym.FTrue:
		return z.ctx.FromBool(true)
	case sym.FFalse:
		return z.ctx.FromBool(false)
	case sym.FGe:
		return z.termE(f.T, env).GE(zero)
	case sym.FEq:
		return z.termE(f.T, env).Eq(zero)
	case sym.FNe:
		return z.termE(f.T, env).NE(zero)
	case sym.FAnd, sym.FOr:
		args := make([]z3.Bool, len(f.Args))
		for i, g := range f.Args {
			args[i] = z.condE(g, env)
		}
		if f.Op == sym.FAnd {
			return args[0].And(args[1:]...)
		}
		return args[0].Or(args[1:]...)
	default:
		panic(fmt.Sprintf("solver: an ite's condition has operator %d", f.Op))
	}
}
