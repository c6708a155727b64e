package sym

import (
	"strconv"

	"github.com/aclements/go-z3/z3"

	"certsym/internal/fault"
	"certsym/internal/z3query"
	"certsym/spec"
)

// Solver caching (issue 17, after KLEE's independence, query cache and counterexample cache).
// Between Check and Z3 stand the slice and three layers that answer from it; each answer is
// exact:
//
//  1. The slice. Let p be the nearest ancestor of φ known satisfiable, with witness w (the root
//     is, with witness 0). The conjuncts below p are the new ones. A conjunct recorded as a bound
//     or a shaved end (PC.captured) is implied by the intervals φ's bounds give its symbol
//     (bounds only shrink down a path, and φ implies its bounds), so the query replaces all of
//     them by those intervals. The other conjuncts are kept when they share a symbol,
//     transitively, with the new ones (the symbols of an atom count all symbols inside it). The
//     query Q is the kept conjuncts and the intervals of the symbols S they and the new
//     conjuncts have (S = syms(Q)). φ implies Q, so Q unsat makes φ unsat. A model m of Q merged
//     with w (m on S, w elsewhere) is a model of φ: a conjunct of φ outside Q is either implied
//     by the intervals of Q (captured, symbols in S), or a conjunct of p sharing no symbol with
//     S, which w satisfies on symbols where the merged valuation is w.
//  2. The query cache: Q's canonical key (the sorted ids of its formulas, each interned from its
//     structural form; a hash finds the entry, the ids are compared in full) gives a previous
//     answer and model of the same Q.
//  3. The counterexample cache: a recent unsatisfiable query whose formulas are a subset of Q's
//     makes Q unsat; a recent model that satisfies every formula of Q (Formula.Eval, exact) is a
//     model of Q.
//  4. Model repair (not KLEE's; see repair): w, possibly scaled, with one symbol of the violated
//     linear conjunct moved to the nearest value that satisfies it, when that satisfies every
//     formula of Q (Formula.Eval, exact). Only sat answers come from here.
//
// Only then Z3 is asked: Q alone in a solver of its own (the slice solver, one scope per query)
// when Q is much smaller than φ, otherwise φ on the incremental push/pop stack (φ and Q are
// equisatisfiable, and a model of φ is one of Q: the answer is stored for Q).
// With the refinement layer's crosscheck on, every answer a layer gives (and every answer of a
// slice) is handed to the hook (crosscheck.go).

// Cache bounds.
const (
	cexModels    = 8         // recent models tried, most recently useful first
	cexUnsats    = 32        // recent unsatisfiable sets tried
	cacheMaxIDs  = 4_000_000 // formula ids held by the query cache (16 MB), oldest entries evicted first
	sliceMinSave = 4         // Q goes to the slice solver when |Q|·sliceMinSave <= depth of φ
	evalBudget   = 4096      // formulas evaluated per query trying stored models and repairs
)

// conjInfo is what one solver computed about a conjunct: its interned id and its symbols (once
// keyed), and skip, the nearest strict ancestor whose conjunct is not captured (nil: none), by
// which slice passes over runs of captured conjuncts.
type conjInfo struct {
	owner  *Solver
	id     int32
	syms   symset
	keyed  bool
	skip   *PC
	skipOK bool
}

// symset is a set of symbol indices.
type symset []uint64

func (s symset) add(i int)      { s[i/64] |= 1 << (uint(i) % 64) }
func (s symset) has(i int) bool { return s[i/64]&(1<<(uint(i)%64)) != 0 }
func (s symset) meets(t symset) bool {
	for i := range s {
		if s[i]&t[i] != 0 {
			return true
		}
	}
	return false
}
func (s symset) union(t symset) {
	for i := range s {
		s[i] |= t[i]
	}
}

type cacheEntry struct {
	ids    []int32
	status SatStatus
	model  []spec.Int
}

// queryCache is one solver's cache: interned formula keys, answers by canonical key, recent
// models and unsatisfiable sets, and the slice solver.
type queryCache struct {
	ids      map[string]int32
	atomIDs  map[*Atom]int32
	atomSyms map[*Atom]symset
	entries  map[uint64][]*cacheEntry
	fifo     []*cacheEntry
	held     int // ids held by the entries
	models   [][]spec.Int
	unsats   [][]int32
	slicer   *z3.Solver
	scoped   bool // the slicer has the scope of the last query pushed
	buf      []byte
}

func newQueryCache() *queryCache {
	return &queryCache{ids: map[string]int32{}, atomIDs: map[*Atom]int32{}, atomSyms: map[*Atom]symset{},
		entries: map[uint64][]*cacheEntry{}}
}

func (sv *Solver) words() int { return (len(sv.names) + 63) / 64 }

func (qc *queryCache) intern(key []byte) int32 {
	if id, ok := qc.ids[string(key)]; ok {
		return id
	}
	id := int32(len(qc.ids) + 1)
	qc.ids[string(key)] = id
	return id
}

// cinfo returns this solver's conjInfo of n, created empty when needed.
func (sv *Solver) cinfo(n *PC) *conjInfo {
	if n.cx == nil || n.cx.owner != sv {
		n.cx = &conjInfo{owner: sv}
	}
	return n.cx
}

// info returns n's conjunct id and symbols for this solver.
func (sv *Solver) info(n *PC) *conjInfo {
	ci := sv.cinfo(n)
	if !ci.keyed {
		qc := sv.cache
		qc.buf = qc.writeFormula(qc.buf[:0], n.Conj)
		ci.id, ci.syms, ci.keyed = qc.intern(qc.buf), make(symset, sv.words()), true
		qc.formulaSyms(n.Conj, ci.syms)
	}
	return ci
}

// skip returns the nearest strict ancestor of n whose conjunct is not captured, or nil; the
// answer is cached in n and in the captured ancestors passed over (each is computed once).
func (sv *Solver) skip(n *PC) *PC {
	var chain []*conjInfo
	var s *PC
	for m := n; ; m = m.Parent {
		ci := sv.cinfo(m)
		if ci.skipOK {
			s = ci.skip
			break
		}
		chain = append(chain, ci)
		p := m.Parent
		if p == nil || p.Parent == nil {
			break
		}
		if !p.captured {
			s = p
			break
		}
	}
	for _, ci := range chain {
		ci.skip, ci.skipOK = s, true
	}
	return s
}

// writeFormula writes f's structural key: atoms by their interned id (pointer identity).
func (qc *queryCache) writeFormula(b []byte, f *Formula) []byte {
	b = append(b, byte('0'+f.Op))
	switch f.Op {
	case FGe, FEq, FNe:
		return qc.writeTerm(b, f.T)
	case FAnd, FOr:
		b = append(b, '(')
		for _, g := range f.Args {
			b = qc.writeFormula(b, g)
			b = append(b, ',')
		}
		return append(b, ')')
	}
	return b
}

func (qc *queryCache) writeTerm(b []byte, t *Term) []byte {
	b = t.c.Big().Append(b, 36)
	for _, m := range t.monos {
		b = append(b, '+')
		b = m.k.Big().Append(b, 36)
		b = append(b, '*')
		b = strconv.AppendInt(b, int64(qc.atomID(m.a)), 36)
	}
	return b
}

// atomID interns an atom: a symbol is -1-index, another atom a positive id by pointer.
func (qc *queryCache) atomID(a *Atom) int32 {
	if a.Kind == AtomSym {
		return int32(-1 - a.Sym)
	}
	if id, ok := qc.atomIDs[a]; ok {
		return id
	}
	id := int32(len(qc.atomIDs) + 1)
	qc.atomIDs[a] = id
	return id
}

func (qc *queryCache) formulaSyms(f *Formula, s symset) {
	switch f.Op {
	case FGe, FEq, FNe:
		qc.termSyms(f.T, s)
	case FAnd, FOr:
		for _, g := range f.Args {
			qc.formulaSyms(g, s)
		}
	}
}

func (qc *queryCache) termSyms(t *Term, s symset) {
	for _, m := range t.monos {
		a := m.a
		if a.Kind == AtomSym {
			s.add(a.Sym)
			continue
		}
		as, ok := qc.atomSyms[a]
		if !ok {
			as = make(symset, len(s))
			qc.termSyms(a.L, as)
			qc.termSyms(a.R, as)
			qc.atomSyms[a] = as
		}
		s.union(as)
	}
}

// query is the slice Q of a path condition.
type query struct {
	conj  []*PC      // the kept conjuncts, newest first
	ivals []interval // the intervals of the symbols of S that have bounds
	syms  symset     // S
	ids   []int32    // sorted ids of Q's formulas
	hash  uint64
	base  []spec.Int // w, the witness of the nearest satisfiable ancestor
	size  int        // |Q|
	evals int        // formulas evaluated so far (satisfies stops at evalBudget)
}

type interval struct {
	sym int
	b   bound
}

func (iv interval) holds(v []spec.Int) bool {
	x := v[iv.sym]
	return (!iv.b.hasLo || x.Cmp(iv.b.lo) >= 0) && (!iv.b.hasHi || x.Cmp(iv.b.hi) <= 0)
}

// slice computes the query Q of φ (see the comment at the top of this file).
func (sv *Solver) slice(phi *PC) *query {
	qc := sv.cache
	q := &query{syms: make(symset, sv.words())}
	var lin []*PC // the conjuncts that are not captured, newest first
	var linSyms []symset
	// the new conjuncts, from φ up to p: all of them
	n := phi
	for ; n.Parent != nil; n = n.Parent {
		if n != phi && n.Status == Sat {
			q.base = n.Witness
			break
		}
		ci := sv.info(n)
		q.syms.union(ci.syms)
		if !n.captured {
			lin = append(lin, n)
			linSyms = append(linSyms, ci.syms)
		}
	}
	// p and above: only the conjuncts that are not captured, through the skip pointers (a
	// countdown's thousands of bounds are passed over in one step)
	if n.Parent != nil && n.captured {
		n = sv.skip(n)
	}
	for ; n != nil && n.Parent != nil; n = sv.skip(n) {
		ci := sv.info(n)
		lin = append(lin, n)
		linSyms = append(linSyms, ci.syms)
	}
	if q.base == nil {
		q.base = make([]spec.Int, len(sv.names))
	}
	in := make([]bool, len(lin))
	for changed := true; changed; {
		changed = false
		for i, n := range lin {
			if !in[i] && linSyms[i].meets(q.syms) {
				in[i], changed = true, true
				q.syms.union(linSyms[i])
				q.conj = append(q.conj, n)
			}
		}
	}
	// keep the newest first (the model check tries them first: the newest conjuncts are the
	// ones a stored model most likely violates)
	if len(q.conj) > 1 {
		sortByDepthDesc(q.conj)
	}
	for _, sb := range phi.bnd {
		if q.syms.has(sb.sym) && (sb.b.hasLo || sb.b.hasHi) {
			q.ivals = append(q.ivals, interval{sb.sym, sb.b})
		}
	}
	q.size = len(q.conj) + len(q.ivals)
	q.ids = make([]int32, 0, q.size)
	for _, n := range q.conj {
		q.ids = append(q.ids, n.cx.id)
	}
	for _, iv := range q.ivals {
		b := append(qc.buf[:0], 'I')
		b = strconv.AppendInt(b, int64(iv.sym), 36)
		if iv.b.hasLo {
			b = append(b, 'l')
			b = iv.b.lo.Big().Append(b, 36)
		}
		if iv.b.hasHi {
			b = append(b, 'h')
			b = iv.b.hi.Big().Append(b, 36)
		}
		qc.buf = b
		q.ids = append(q.ids, qc.intern(b))
	}
	sortInt32(q.ids)
	q.ids = dedup(q.ids)
	q.hash = hashIDs(q.ids)
	return q
}

func sortByDepthDesc(ns []*PC) {
	for i := 1; i < len(ns); i++ { // nearly sorted already (collected newest first)
		for j := i; j > 0 && ns[j].Depth > ns[j-1].Depth; j-- {
			ns[j], ns[j-1] = ns[j-1], ns[j]
		}
	}
}

func sortInt32(a []int32) {
	if len(a) < 2 {
		return
	}
	// shell sort keeps this file free of sort's interface overhead on the hot path
	for gap := len(a) / 2; gap > 0; gap /= 2 {
		for i := gap; i < len(a); i++ {
			for j := i; j >= gap && a[j-gap] > a[j]; j -= gap {
				a[j], a[j-gap] = a[j-gap], a[j]
			}
		}
	}
}

func dedup(a []int32) []int32 {
	if len(a) < 2 {
		return a
	}
	k := 1
	for i := 1; i < len(a); i++ {
		if a[i] != a[k-1] {
			a[k] = a[i]
			k++
		}
	}
	return a[:k]
}

func equalIDs(a, b []int32) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// subset reports whether the sorted u is a subset of the sorted q.
func subset(u, q []int32) bool {
	if fault.Active == fault.CacheStaleUnsat && len(u) > 1 {
		u = u[:len(u)-1] // the largest id (the newest formula of the stored set) is not compared
	}
	if len(u) > len(q) {
		return false
	}
	j := 0
	for _, x := range u {
		for j < len(q) && q[j] < x {
			j++
		}
		if j == len(q) || q[j] != x {
			return false
		}
		j++
	}
	return true
}

// satisfies reports whether v satisfies every formula of Q, the newest conjuncts first; false
// once the query's evaluation budget is spent (the time spent trying models stays bounded).
func (q *query) satisfies(v []spec.Int) bool {
	for _, n := range q.conj {
		if q.evals++; q.evals > evalBudget || !n.Conj.Eval(v) {
			return false
		}
	}
	for _, iv := range q.ivals {
		if !iv.holds(v) {
			return false
		}
	}
	return true
}

// merge is m on S and the base witness elsewhere.
func (q *query) merge(m []spec.Int) []spec.Int {
	out := make([]spec.Int, len(q.base))
	for i := range out {
		if q.syms.has(i) {
			out[i] = m[i]
		} else {
			out[i] = q.base[i]
		}
	}
	return out
}

// lookup answers Q from the caches, or reports that Z3 must be asked. rule names the layer.
func (sv *Solver) lookup(q *query) (status SatStatus, model []spec.Int, rule string) {
	qc := sv.cache
	if q.size == 0 {
		return Sat, q.base, "slice-empty"
	}
	for _, e := range qc.entries[q.hash] {
		if equalIDs(e.ids, q.ids) {
			sv.Stats.CacheHits++
			if e.status == Sat {
				return Sat, q.merge(e.model), "query-cache"
			}
			return e.status, nil, "query-cache"
		}
	}
	for _, u := range qc.unsats {
		if subset(u, q.ids) {
			sv.Stats.CexUnsatHits++
			sv.remember(q, Unsat, nil)
			return Unsat, nil, "cex-unsat-subset"
		}
	}
	for i, m := range qc.models {
		if q.evals >= evalBudget {
			break
		}
		if q.satisfiesModel(m) {
			sv.Stats.CexModelHits++
			copy(qc.models[1:i+1], qc.models[:i]) // most recently useful first
			qc.models[0] = m
			sv.remember(q, Sat, m)
			return Sat, q.merge(m), "cex-model"
		}
	}
	if m := q.repair(); m != nil && q.evals <= evalBudget {
		sv.Stats.RepairHits++
		sv.remember(q, Sat, m)
		return Sat, m, "repair"
	}
	return Unchecked, nil, ""
}

// satisfiesModel is satisfies, with the fault CexSkipsNewest skipping the newest conjunct.
func (q *query) satisfiesModel(v []spec.Int) bool {
	if fault.Active == fault.CexSkipsNewest && len(q.conj) > 0 {
		rest := *q
		rest.conj = q.conj[1:]
		return rest.satisfies(v)
	}
	return q.satisfies(v)
}

// remember stores Z3's (or a layer's) answer for Q.
func (sv *Solver) remember(q *query, status SatStatus, model []spec.Int) {
	qc := sv.cache
	switch status {
	case Sat:
		if len(qc.models) < cexModels {
			qc.models = append(qc.models, nil)
		}
		copy(qc.models[1:], qc.models[:len(qc.models)-1])
		qc.models[0] = model
	case Unsat:
		if len(qc.unsats) < cexUnsats {
			qc.unsats = append(qc.unsats, nil)
		}
		copy(qc.unsats[1:], qc.unsats[:len(qc.unsats)-1])
		qc.unsats[0] = q.ids
	default:
		return // unknown depends on the time left: never cached
	}
	e := &cacheEntry{ids: q.ids, status: status, model: model}
	qc.entries[q.hash] = append(qc.entries[q.hash], e)
	qc.fifo = append(qc.fifo, e)
	qc.held += len(q.ids)
	for qc.held > cacheMaxIDs && len(qc.fifo) > 0 {
		old := qc.fifo[0]
		qc.fifo[0] = nil
		qc.fifo = qc.fifo[1:]
		qc.held -= len(old.ids)
		h := hashIDs(old.ids)
		es := qc.entries[h]
		for i, x := range es {
			if x == old {
				es = append(es[:i:i], es[i+1:]...)
				break
			}
		}
		if len(es) == 0 {
			delete(qc.entries, h)
		} else {
			qc.entries[h] = es
		}
	}
}

func hashIDs(ids []int32) uint64 {
	h := uint64(14695981039346656037)
	for _, id := range ids {
		h = (h ^ uint64(uint32(id))) * 1099511628211
	}
	return h
}

// assertSlice makes the slice solver's assertions the formulas of Q.
func (sv *Solver) assertSlice(q *query) *z3.Solver {
	qc := sv.cache
	if qc.slicer == nil {
		qc.slicer = z3.NewSolver(sv.ctx)
		z3query.NoCtrlC(sv.ctx, qc.slicer)
	}
	s := qc.slicer
	// one scope per query: popping it is cheaper than a reset, and a solver with a scope pushed
	// stays in Z3's incremental mode (a fresh solver's first check runs the non-incremental
	// tactic pipeline, measured at about 6 ms per query).
	if qc.scoped {
		s.Pop()
	}
	s.Push()
	qc.scoped = true
	for _, n := range q.conj {
		if !n.z3ok {
			n.z3, n.z3ok = sv.Formula(n.Conj), true
		}
		s.Assert(n.z3)
	}
	for _, iv := range q.ivals {
		x := sv.syms[iv.sym]
		if iv.b.hasLo {
			s.Assert(x.GE(sv.intVal(iv.b.lo)))
		}
		if iv.b.hasHi {
			s.Assert(x.LE(sv.intVal(iv.b.hi)))
		}
	}
	return s
}

// repairScales are the factors by which repair scales the base witness before moving one symbol.
var repairScales = [...]int64{1, 2, 4, 8, 16, 64, 256, 1024}

// repair looks for a model of Q near the base witness w without Z3 (the model-repair layer):
// for a linear atomic formula of Q that w violates (the newest first), it moves one of its
// symbols to the nearest value that satisfies it, in w and in w scaled by 2, 4, 8 and 16 (the
// conditions of a loop over linear forms often cut cones, which scaling widens), and keeps the
// first candidate that satisfies every formula of Q (Formula.Eval, exact). At most a few dozen
// candidates are tried; nil when none fits.
func (q *query) repair() []spec.Int {
	w := q.base
	var c *Formula
	for _, n := range q.conj {
		if q.evals++; q.evals > evalBudget {
			return nil
		}
		if !n.Conj.Eval(w) {
			c = n.Conj
			break
		}
	}
	if c == nil || (c.Op != FGe && c.Op != FEq && c.Op != FNe) {
		return nil
	}
	for _, m := range c.T.monos {
		if m.a.Kind != AtomSym {
			return nil
		}
	}
	v := make([]spec.Int, len(w))
	scales := make([]spec.Int, 0, len(repairScales)+len(c.T.monos))
	for _, t := range repairScales {
		scales = append(scales, spec.IntOf(t))
	}
	if c.Op == FEq { // k·x + r == 0 needs k | r: scaling w by |k| makes the symbols' part divisible
		for _, m := range c.T.monos {
			if k := m.k; k.Cmp(one) != 0 && k.Cmp(minusOne) != 0 {
				if k.Sign() < 0 {
					k = k.Neg()
				}
				scales = append(scales, k)
			}
		}
	}
	for _, ts := range scales {
		if q.evals >= evalBudget {
			return nil
		}
		for i := range w {
			if q.syms.has(i) {
				v[i] = w[i].Mul(ts)
			} else {
				v[i] = w[i]
			}
		}
		for _, m := range c.T.monos {
			x := m.a.Sym
			old := v[x]
			// the term is m.k·x + r
			r := c.T.Eval(v).Sub(m.k.Mul(old))
			var cands [2]spec.Int
			nc := 0
			switch c.Op {
			case FGe: // m.k·x >= -r
				if m.k.Sign() > 0 {
					cands[0] = ceilDiv(r.Neg(), m.k)
				} else {
					cands[0] = floorDiv(r, m.k.Neg())
				}
				nc = 1
			case FEq:
				if r.Rem(m.k).IsZero() {
					cands[0], nc = r.Neg().Quo(m.k), 1
				}
			case FNe:
				cands[0], cands[1], nc = old.Add(one), old.Sub(one), 2
			}
			for _, cand := range cands[:nc] {
				v[x] = cand
				if q.satisfies(v) {
					out := make([]spec.Int, len(v))
					copy(out, v)
					return out
				}
			}
			v[x] = old
		}
	}
	return nil
}
