package pathcond

import (
	"strings"

	"certsym/sym"
)

// A Renderer renders many path conditions of one run as String does, and measures them, in time
// that does not grow with their depth: it remembers, for each node it has passed, what the
// conjuncts from the root to it contribute to the rendering (the parts String shows, before the
// final bounds are known) and to a size. The path conditions of a run share their ancestors, so
// that rendering the terminal paths of a loop, each one conjunct deeper than the last, costs the
// conjuncts once each and the parts shown, where String costs the depth of each.
type Renderer struct {
	names []string
	// size measures one conjunct, counting at most up to limit (past it, any number above
	// limit); sizes add up along a path, capped at limit+1.
	size  func(f *sym.Formula, limit int) int
	limit int
	memo  map[uint64]*rendered // by node ID
}

// rendered is what the conjuncts from the root to a node contribute: the list of parts String
// would show (persistent: a node that adds none shares its parent's), the keys of those parts,
// and the sum of the conjuncts' sizes.
type rendered struct {
	last *part
	keys map[partKey]bool // shared with the parent unless the node adds a part
	size int
}

// part is one item String shows: the interval of a symbol bounded by some conjunct (at the place
// of the first), or a conjunct that bounds no single symbol, with its text.
type part struct {
	prev *part
	key  partKey
	f    *sym.Formula // the conjunct, for a text part
}

// partKey identifies a part: the symbol x of an interval (s empty), or the text s of a conjunct
// (x is -1).
type partKey struct {
	x int
	s string
}

// NewRenderer returns a renderer over the symbol names. size measures one conjunct, up to its
// limit argument; Render reports the sum of the sizes of a path condition's conjuncts, capped at
// limit+1.
func NewRenderer(names []string, size func(f *sym.Formula, limit int) int, limit int) *Renderer {
	return &Renderer{names: names, size: size, limit: limit, memo: map[uint64]*rendered{}}
}

// Render returns phi.String(names) and the size of phi's conjuncts (at most limit+1). When the
// size is over the limit, the text is not computed and is empty.
func (r *Renderer) Render(phi *PC) (text string, size int) {
	x := r.of(phi)
	if x.size > r.limit {
		return "", x.size
	}
	if phi.Depth == 0 {
		return "true", x.size
	}
	var ps []*part
	for p := x.last; p != nil; p = p.prev {
		ps = append(ps, p)
	}
	out := make([]string, 0, len(ps))
	for i := len(ps) - 1; i >= 0; i-- {
		p := ps[i]
		switch {
		case p.f == nil:
			out = append(out, phi.bnd.of(p.key.x).String(r.names[p.key.x]))
		case phi.bnd.excludes(p.f):
			// x != v with v outside the interval shown for x. A conjunct with the same text
			// states the same, so leaving the part out after deduplicating by text is what
			// String does.
		default:
			out = append(out, p.key.s)
		}
	}
	return strings.Join(out, " and "), x.size
}

// of returns what the conjuncts from the root to phi contribute, computing it for the nodes not
// passed before (from the nearest one passed, or the root).
func (r *Renderer) of(phi *PC) *rendered {
	var todo []*PC
	n := phi
	var x *rendered
	for {
		if n.Parent == nil {
			x = &rendered{}
			break
		}
		if m, ok := r.memo[n.ID()]; ok {
			x = m
			break
		}
		todo = append(todo, n)
		n = n.Parent
	}
	for i := len(todo) - 1; i >= 0; i-- {
		x = r.extend(x, todo[i].Conj)
		r.memo[todo[i].ID()] = x
	}
	return x
}

// extend is what the conjuncts of a node contribute, given its parent's and its conjunct f.
func (r *Renderer) extend(x *rendered, f *sym.Formula) *rendered {
	size := x.size
	if size <= r.limit {
		size = min(size+r.size(f, r.limit-size), r.limit+1)
	}
	if size > r.limit {
		// Never rendered, nor any descendant (sizes only grow): the conjunct is not printed,
		// whose printed form may be exponential in its size.
		return &rendered{last: x.last, keys: x.keys, size: size}
	}
	key := partKey{x: -1}
	if v, _, ok := asBound(f); ok {
		key.x = v
	} else {
		g := undup(f, r.names) // as String shows it
		key.s = g.String(r.names)
		if g.Op == sym.FOr {
			key.s = "(" + key.s + ")"
		}
	}
	if x.keys[key] {
		if size == x.size {
			return x
		}
		return &rendered{last: x.last, keys: x.keys, size: size}
	}
	keys := make(map[partKey]bool, len(x.keys)+1)
	for k := range x.keys {
		keys[k] = true
	}
	keys[key] = true
	p := &part{prev: x.last, key: key}
	if key.x < 0 {
		p.f = f
	}
	return &rendered{last: p, keys: keys, size: size}
}
