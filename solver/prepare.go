package solver

import (
	"slices"
	"strconv"

	"certsym/pathcond"
	"certsym/spec/integer"
	"certsym/sym"
)

// The history-free part of a pruning query (the engine's workers). Of what Check does with the
// caching on, two layers are functions of the path condition φ and of what its
// ancestors already know (their status, witness, bounds and captured flags, final once their
// state is queued): the slice Q of φ and model repair near the base witness w. The other layers
// (the query cache, the counterexample cache) and Z3 depend on the solver's history. A Preparer
// computes the first part, on any goroutine, when the successor whose path condition is φ is
// made (Prepare), and leaves it in φ; Check then only adds the history: it interns Q's formulas,
// counts the answer and stores it, in queue order. The engine prepares every successor it
// expands, with one worker as with N, so the answers do not depend on the number of workers.
//
// What is shared between goroutines is each PC node's conjInfo (its memo, PC.Memo): its symbols and skip
// pointer are functions of the node and its ancestors, so whoever computes them first publishes
// them (compare-and-swap; a loser adopts the winner's equal value) and nobody writes them again.
// The interned id of the conjunct depends on the solver's history: only the solver's goroutine
// writes and reads it (owner, id).

// conjInfo is what is known of one conjunct (a PC node) for the query slices: its symbols, and
// skip, the nearest strict ancestor whose conjunct is not captured (nil: none), by which a slice
// passes over runs of captured conjuncts; key, the conjunct's structural key when it has symbol
// atoms only (else the caching layer writes it), until interned. Fields below owner: the
// caching layer's.
type conjInfo struct {
	syms symset
	skip *pathcond.PC
	key  string

	owner *caching // the caching layer that interned the conjunct as id
	id    int32
	pre   *query // φ's prepared query (Prepare), until Check takes it
	one   [1]uint64
}

// memo returns n's conjInfo, or nil when none is published yet.
func memo(n *pathcond.PC) *conjInfo {
	ci, _ := n.Memo().(*conjInfo)
	return ci
}

// A Preparer computes prepared queries (Prepare) on one goroutine at a time; each worker has its
// own (its memo of the atoms' symbols and its scratch space are not shared).
type Preparer struct {
	off      bool // caching off: nothing to prepare
	words    int
	nsyms    int
	atomSyms map[*sym.Atom]symset
	lin      []*pathcond.PC
	linSyms  []symset
	in       []bool
	chain    []*pathcond.PC
	buf      []byte
}

// NewPreparer returns a Preparer for the chain's queries. It may be used on another goroutine than
// the chain's.
func (c *Chain) NewPreparer() *Preparer {
	return &Preparer{off: c.opts.NoCache || c.opts.AbstractMul, words: (len(c.names) + 63) / 64, nsyms: len(c.names), atomSyms: map[*sym.Atom]symset{}}
}

// Prepare computes the slice of phi, the path condition of a successor just made, and model
// repair's answer for it, and keeps them in phi for Check. Nothing is done when phi is decided,
// has arrays or quantifiers, or the caching is off. phi must not yet be visible to another
// goroutine; its ancestors may be (they are only read, and their shared memo written atomically).
func (p *Preparer) Prepare(phi *pathcond.PC) {
	if p.off || phi.Status != pathcond.Unchecked || phi.Extended() || phi.Parent == nil {
		return
	}
	ci := p.info(phi)
	if ci.pre != nil {
		return
	}
	q := p.slice(phi)
	if q.size > 0 {
		if m := q.repair(); m != nil && q.evals <= evalBudget {
			q.model = m
		}
	}
	ci.pre = q
}

// Prepare is Preparer.Prepare on the chain's goroutine, with the caching layer's own Preparer
// (nothing without the caching layer, or after Close).
func (c *Chain) Prepare(phi *pathcond.PC) {
	if c.cache != nil {
		c.cache.prep.Prepare(phi)
	}
}

// info returns n's shared conjInfo, computing and publishing it (and its ancestors' that the
// skip pointers need) when missing.
func (p *Preparer) info(n *pathcond.PC) *conjInfo {
	if ci := memo(n); ci != nil {
		return ci
	}
	chain := p.chain[:0]
	for m := n; m.Parent != nil && memo(m) == nil; m = m.Parent {
		chain = append(chain, m)
	}
	for i := len(chain) - 1; i >= 0; i-- { // from the top: the parent's skip is known
		m := chain[i]
		ci := &conjInfo{}
		ci.syms = ci.one[:]
		if p.words != 1 {
			ci.syms = make(symset, p.words)
		}
		p.formulaSyms(m.Conj, ci.syms)
		if par := m.Parent; par.Parent != nil {
			if par.Captured() {
				ci.skip = memo(par).skip
			} else {
				ci.skip = par
			}
		}
		if !m.Captured() {
			if b, ok := writeFormula(p.buf[:0], m.Conj, nil); ok {
				ci.key, p.buf = string(b), b
			}
		}
		m.SetMemo(ci)
	}
	p.chain = chain[:0]
	return memo(n)
}

func (p *Preparer) formulaSyms(f *sym.Formula, s symset) {
	switch f.Op {
	case sym.FGe, sym.FEq, sym.FNe:
		p.termSyms(f.T, s)
	case sym.FAnd, sym.FOr:
		for _, g := range f.Args {
			p.formulaSyms(g, s)
		}
	}
}

func (p *Preparer) termSyms(t *sym.Term, s symset) {
	for i, n := 0, t.Monos(); i < n; i++ {
		_, a := t.Mono(i)
		if a.Kind == sym.AtomSym {
			s.add(a.Sym)
			continue
		}
		as, ok := p.atomSyms[a]
		if !ok {
			as = make(symset, len(s))
			p.termSyms(a.L, as)
			p.termSyms(a.R, as)
			p.atomSyms[a] = as
		}
		s.union(as)
	}
}

// slice computes the query Q of φ (see the comment at the top of cache.go), but for the ids of
// its formulas, which the caching layer interns (keyQuery): the structural keys of its intervals
// are written here.
func (p *Preparer) slice(phi *pathcond.PC) *query {
	q := &query{}
	q.syms = q.one[:]
	if p.words != 1 {
		q.syms = make(symset, p.words)
	}
	lin, linSyms := p.lin[:0], p.linSyms[:0] // the conjuncts that are not captured, newest first
	// the new conjuncts, from φ up to p: all of them
	n := phi
	for ; n.Parent != nil; n = n.Parent {
		if n != phi && n.Status == pathcond.Sat {
			q.base = n.Witness
			break
		}
		ci := p.info(n)
		q.syms.union(ci.syms)
		if !n.Captured() {
			lin, linSyms = append(lin, n), append(linSyms, ci.syms)
		}
	}
	// p and above: only the conjuncts that are not captured, through the skip pointers (a
	// countdown's thousands of bounds are passed over in one step)
	if n.Parent != nil && n.Captured() {
		n = p.info(n).skip
	}
	for ; n != nil && n.Parent != nil; n = memo(n).skip {
		ci := p.info(n)
		lin, linSyms = append(lin, n), append(linSyms, ci.syms)
	}
	if q.base == nil {
		q.base = make([]integer.Int, p.nsyms)
	}
	in, kept := p.in[:0], 0
	for range lin {
		in = append(in, false)
	}
	for changed := true; changed; {
		changed = false
		for i := range lin {
			if !in[i] && linSyms[i].meets(q.syms) {
				in[i], changed = true, true
				q.syms.union(linSyms[i])
				kept++
			}
		}
	}
	// newest first (the model checks try them first: the newest conjuncts are the ones a model
	// most likely violates); lin is in that order
	q.conj = make([]*pathcond.PC, 0, kept)
	for i, n := range lin {
		if in[i] {
			q.conj = append(q.conj, n)
		}
	}
	clear(lin)
	clear(linSyms)
	p.lin, p.linSyms, p.in = lin[:0], linSyms[:0], in[:0]
	nb := 0
	phi.EachBound(func(x int, _, _ integer.Int, hasLo, hasHi bool) {
		if q.syms.has(x) && (hasLo || hasHi) {
			nb++
		}
	})
	q.ivals, q.ivEnds = make([]interval, 0, nb), make([]int32, 0, nb)
	b := p.buf[:0]
	phi.EachBound(func(x int, lo, hi integer.Int, hasLo, hasHi bool) {
		if q.syms.has(x) && (hasLo || hasHi) {
			q.ivals = append(q.ivals, interval{x, bound{lo, hi, hasLo, hasHi}})
			b = append(b, 'I')
			b = strconv.AppendInt(b, int64(x), 36)
			if hasLo {
				b = appendInt(append(b, 'l'), lo)
			}
			if hasHi {
				b = appendInt(append(b, 'h'), hi)
			}
			q.ivEnds = append(q.ivEnds, int32(len(b)))
		}
	})
	q.ivKeys, p.buf = append([]byte(nil), b...), b
	q.size = len(q.conj) + len(q.ivals)
	return q
}

// appendInt appends x in base 36.
func appendInt(b []byte, x integer.Int) []byte {
	if v, ok := x.Int64(); ok {
		return strconv.AppendInt(b, v, 36)
	}
	return x.Big().Append(b, 36)
}

// keyQuery interns Q's formulas (its conjuncts by their shared keys, its intervals) and sets its
// sorted ids and hash: the part of the slice that depends on the caching layer's history.
func (qc *caching) keyQuery(q *query) {
	q.ids = make([]int32, 0, q.size)
	for _, n := range q.conj {
		ci := memo(n)
		if ci.owner != qc {
			if ci.key != "" {
				ci.id = qc.internString(ci.key)
			} else {
				qc.buf, _ = writeFormula(qc.buf[:0], n.Conj, qc)
				ci.id = qc.intern(qc.buf)
			}
			ci.owner, ci.key = qc, ""
		}
		q.ids = append(q.ids, ci.id)
	}
	start := int32(0)
	for _, end := range q.ivEnds {
		q.ids = append(q.ids, qc.intern(q.ivKeys[start:end]))
		start = end
	}
	slices.Sort(q.ids)
	q.ids = slices.Compact(q.ids)
	q.hash = hashIDs(q.ids)
}
