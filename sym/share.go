package sym

import (
	"strconv"
	"strings"
)

// Renderings with sharing. Terms are DAGs: y = y * y repeated n times makes n atoms whose
// written form has 2^n copies of the first. A rendering whose expansion (each occurrence of an
// atom or a store counted once per path to it in the DAG) is over ExpandLimit names the composite
// atoms and stores that occur more than once in it, $1, $2, ... ($ is no identifier character:
// no variable has such a name), numbered inner first and defined in a let before the rendering:
//
//	let $1 = (x + 1) * (x + 1); $2 = $1 * $1 in ($2 * $2) == 7
//
// Each atom and store is then written once, so the text is linear in the size of the DAG. A
// rendering within the limit is the plain one, unchanged.

// ExpandLimit is the largest expansion written without names.
const ExpandLimit = 4096

// printer writes terms, atoms, stores and formulas over the names, shared subterms by name if any.
type printer struct {
	b     *strings.Builder
	names []string
	nameA map[*Atom]int
	nameS map[*ArrTerm]int
	binds map[int]int // the number of each binder whose quantifier was written (bound; nil: none)
}

// bound names binder x's variable k1, k2, ... as the rendering opens quantifiers (open), else k<x>.
func (p *printer) bound(x int, open bool) string {
	if k, ok := p.binds[x]; ok {
		return "k" + strconv.Itoa(k)
	}
	if open && p.binds != nil { // nil: RawString
		p.binds[x] = len(p.binds) + 1
		return "k" + strconv.Itoa(len(p.binds))
	}
	return "k" + strconv.Itoa(x)
}

// named writes a's name when it has one.
func (p *printer) named(a *Atom) bool { return p.writeName(p.nameA[a]) }

// namedStore writes t's name when it has one.
func (p *printer) namedStore(t *ArrTerm) bool { return p.writeName(p.nameS[t]) }

// writeName writes $k, the name of a shared subterm, when k > 0.
func (p *printer) writeName(k int) bool {
	if k > 0 {
		p.b.WriteString("$" + strconv.Itoa(k))
	}
	return k > 0
}

// counter walks what is rendered. Without dag, it counts the nodes of the expansion (n) and stops
// once they are over ExpandLimit (over); with dag, it visits each composite atom and store once,
// counts the references to each, and lists them children first (order).
type counter struct {
	n    int
	over bool

	dag   bool
	refA  map[*Atom]int
	refS  map[*ArrTerm]int
	order []any // *Atom and *ArrTerm
}

func (c *counter) term(t *Term) {
	for _, m := range t.monos {
		if c.over {
			return
		}
		c.atom(m.a)
	}
}

// visit counts one occurrence of a node and reports whether its children must be walked.
func (c *counter) visit(refs int) bool {
	if c.dag {
		return refs == 1
	}
	c.n++
	if c.n > ExpandLimit {
		c.over = true
	}
	return !c.over
}

func (c *counter) atom(a *Atom) {
	if c.over {
		return
	}
	if a.Kind == AtomSym || a.Kind == AtomBnd {
		c.visit(0)
		return
	}
	refs := 0
	if c.dag {
		c.refA[a]++
		refs = c.refA[a]
	}
	if !c.visit(refs) {
		return
	}
	switch a.Kind {
	case AtomSel:
		c.store(a.A)
		c.term(a.L)
	case AtomIte:
		c.formula(a.C)
		c.term(a.L)
		c.term(a.R)
	default:
		c.term(a.L)
		c.term(a.R)
	}
	if c.dag {
		c.order = append(c.order, a)
	}
}

func (c *counter) store(t *ArrTerm) {
	if c.over || t.Prev == nil {
		return
	}
	refs := 0
	if c.dag {
		c.refS[t]++
		refs = c.refS[t]
	}
	if !c.visit(refs) {
		return
	}
	c.store(t.Prev)
	c.term(t.I)
	c.term(t.V)
	if c.dag {
		c.order = append(c.order, t)
	}
}

func (c *counter) formula(f *Formula) {
	if c.over {
		return
	}
	if f.T != nil {
		c.term(f.T)
	}
	if f.Lo != nil {
		c.term(f.Lo)
		c.term(f.Hi)
	}
	for _, g := range f.Args {
		c.formula(g)
	}
}

// render writes what walk walks with write: plainly when its expansion is within ExpandLimit,
// else after the let that names its shared subterms.
func render(names []string, walk func(*counter), write func(*printer)) string {
	var b strings.Builder
	p := &printer{b: &b, names: names, binds: map[int]int{}}
	c := &counter{}
	walk(c)
	if !c.over {
		write(p)
		return b.String()
	}
	d := &counter{dag: true, refA: map[*Atom]int{}, refS: map[*ArrTerm]int{}}
	walk(d)
	var defs []any
	p.nameA, p.nameS = map[*Atom]int{}, map[*ArrTerm]int{}
	for _, x := range d.order {
		switch x := x.(type) {
		case *Atom:
			if d.refA[x] > 1 {
				defs = append(defs, x)
				p.nameA[x] = len(defs)
			}
		case *ArrTerm:
			if d.refS[x] > 1 {
				defs = append(defs, x)
				p.nameS[x] = len(defs)
			}
		}
	}
	if len(defs) > 0 {
		b.WriteString("let ")
		for i, x := range defs {
			if i > 0 {
				b.WriteString("; ")
			}
			b.WriteString("$" + strconv.Itoa(i+1) + " = ")
			switch x := x.(type) {
			case *Atom:
				x.writeBody(p, false)
			case *ArrTerm:
				x.writeBody(p)
			}
		}
		b.WriteString(" in ")
	}
	write(p)
	return b.String()
}
