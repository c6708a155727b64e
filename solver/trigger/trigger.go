// Package trigger chooses the ground terms at which the solver instantiates the universally
// quantified conjuncts of a query, beside the values that refute its models: the witnesses of
// the existentials outside every universal quantifier, and the indices at which the query reads
// an array outside every quantifier. A clause over all the elements of a range
// (forall k in lo..hi: P(a[k])) is needed at exactly the elements the rest of the query reads: a
// claim over all elements, negated, is such an existential (or, over a constant range, a
// disjunction of element reads). Instantiating there, in the manner of the triggers of SMT
// solvers' E-matching, gives in one round what model values give one element a round.
package trigger

import (
	"fmt"

	"certsym/spec/integer"
	"certsym/spec/syntax"
	"certsym/sym"
)

// Existentials returns the existential quantifiers of fs that are under no universal one (through
// and and or only), in order, each once: each has one witness, a constant, in a query.
func Existentials(fs []*sym.Formula) []*sym.Formula {
	var out []*sym.Formula
	seen := map[*sym.Formula]bool{}
	var walk func(f *sym.Formula)
	walk = func(f *sym.Formula) {
		switch f.Op {
		case sym.FAnd, sym.FOr:
			for _, g := range f.Args {
				walk(g)
			}
		case sym.FExists:
			if !seen[f] {
				seen[f] = true
				out = append(out, f)
			}
		}
	}
	for _, f := range fs {
		walk(f)
	}
	return out
}

// MaxIndices is the most indices of a query at which the solver instantiates its universal
// quantifiers (each instance a copy of the quantifier's body).
const MaxIndices = 32

// Indices returns, in the order of their first occurrence in fs and each once, the indices of
// the array reads of fs that depend on no quantified variable: the index of each element symbol
// (a constant: an element of an input array of p) and the index term of each read at a closed
// term. It returns at most max of them.
func Indices(fs []*sym.Formula, p *syntax.Program, max int) []*sym.Term {
	c := &collector{p: p, max: max, seen: map[any]bool{}}
	for _, f := range fs {
		c.formula(f)
	}
	return c.out
}

type collector struct {
	p    *syntax.Program
	max  int
	seen map[any]bool // atoms visited; indices taken: constants by value, other terms by identity
	out  []*sym.Term
}

func (c *collector) add(key any, t *sym.Term) {
	if len(c.out) < c.max && !c.seen[key] {
		c.seen[key] = true
		c.out = append(c.out, t)
	}
}

func (c *collector) formula(f *sym.Formula) {
	switch f.Op {
	case sym.FForall, sym.FExists: // reads inside depend on the quantified variable, or are taken outside
		return
	}
	for _, t := range [...]*sym.Term{f.T, f.Lo, f.Hi} {
		if t != nil {
			c.term(t)
		}
	}
	for _, g := range f.Args {
		c.formula(g)
	}
}

func (c *collector) term(t *sym.Term) {
	for i := 0; i < t.Monos() && len(c.out) < c.max; i++ {
		_, a := t.Mono(i)
		if a.HasBound() || c.seen[a] {
			continue
		}
		if a.Kind != sym.AtomSym {
			c.seen[a] = true
		}
		switch a.Kind {
		case sym.AtomSym:
			if j, ok := c.element(a.Sym); ok {
				c.add(j.String(), sym.Const(j))
			}
		case sym.AtomSel:
			if k, ok := a.L.IsConst(); ok {
				c.add(k.String(), a.L)
			} else {
				c.add(a.L, a.L)
			}
			c.term(a.L)
		case sym.AtomMul, sym.AtomDiv, sym.AtomMod:
			c.term(a.L)
			c.term(a.R)
		case sym.AtomIte:
			c.formula(a.C)
			c.term(a.L)
			c.term(a.R)
		default:
			panic(fmt.Sprintf("trigger: atom kind %d", a.Kind))
		}
	}
}

// element returns the index of the array element that symbol s stands for (false for a
// variable).
func (c *collector) element(s int) (integer.Int, bool) {
	for _, arr := range c.p.Arrays {
		if s >= arr.Offset && s < arr.Offset+arr.Size() {
			return integer.Of(arr.Lo + int64(s-arr.Offset)), true
		}
	}
	return integer.Int{}, false
}
