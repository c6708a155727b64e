package sym

import (
	"strconv"

	"github.com/aclements/go-z3/z3"

	"certsym/internal/fault"
	"certsym/internal/z3query"
	"certsym/spec/integer"
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
//  2. Model repair (not KLEE's; see repair): w, possibly scaled, with one symbol of the violated
//     linear conjunct moved to the nearest value that satisfies it, when that satisfies every
//     formula of Q (Formula.Eval, exact). Only sat answers come from here. The slice and repair
//     are functions of φ and its ancestors alone: they are computed when φ's state is made
//     (prepare.go, on the engine's workers), before the layers that depend on the history.
//  3. The query cache: Q's canonical key (the sorted ids of its formulas, each interned from its
//     structural form; a hash finds the entry, the ids are compared in full) gives a previous
//     answer and model of the same Q.
//  4. The counterexample cache: a recent unsatisfiable query whose formulas are a subset of Q's
//     makes Q unsat; a recent model that satisfies every formula of Q (Formula.Eval, exact) is a
//     model of Q.
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
	model  []integer.Int
	next   *cacheEntry // the next entry of the same hash
}

// queryCache is one solver's cache: interned formula keys, answers by canonical key, recent
// models and unsatisfiable sets, and the slice solver.
type queryCache struct {
	ids     map[string]int32
	atomIDs map[*Atom]int32
	entries map[uint64]*cacheEntry // chained by next
	fifo    []*cacheEntry
	held    int // ids held by the entries
	models  [][]integer.Int
	unsats  [][]int32
	slicer  *z3.Solver
	scoped  bool // the slicer has the scope of the last query pushed
	buf     []byte
	prep    *Preparer // the solver's own, for the queries not prepared beforehand
}

func (sv *Solver) newQueryCache() *queryCache {
	return &queryCache{ids: map[string]int32{}, atomIDs: map[*Atom]int32{}, entries: map[uint64]*cacheEntry{}, prep: sv.NewPreparer()}
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

func (qc *queryCache) internString(key string) int32 {
	if id, ok := qc.ids[key]; ok {
		return id
	}
	id := int32(len(qc.ids) + 1)
	qc.ids[key] = id
	return id
}

// writeFormula writes f's structural key: an atom other than a symbol by its id interned in qc
// (pointer identity); with qc nil, ok is false when f has such an atom (its key is the solver's).
func writeFormula(b []byte, f *Formula, qc *queryCache) (_ []byte, ok bool) {
	b = append(b, byte('0'+f.Op))
	switch f.Op {
	case FGe, FEq, FNe:
		return writeTerm(b, f.T, qc)
	case FAnd, FOr:
		b = append(b, '(')
		for _, g := range f.Args {
			if b, ok = writeFormula(b, g, qc); !ok {
				return b, false
			}
			b = append(b, ',')
		}
		return append(b, ')'), true
	}
	return b, true
}

func writeTerm(b []byte, t *Term, qc *queryCache) ([]byte, bool) {
	b = appendInt(b, t.c)
	for _, m := range t.monos {
		b = append(b, '+')
		b = appendInt(b, m.k)
		b = append(b, '*')
		if m.a.Kind == AtomSym {
			b = strconv.AppendInt(b, int64(-1-m.a.Sym), 36)
			continue
		}
		if qc == nil {
			return b, false
		}
		b = strconv.AppendInt(b, int64(qc.atomID(m.a)), 36)
	}
	return b, true
}

// atomID interns an atom other than a symbol: a positive id by pointer.
func (qc *queryCache) atomID(a *Atom) int32 {
	if id, ok := qc.atomIDs[a]; ok {
		return id
	}
	id := int32(len(qc.atomIDs) + 1)
	qc.atomIDs[a] = id
	return id
}

// query is the slice Q of a path condition.
type query struct {
	conj  []*PC      // the kept conjuncts, newest first
	ivals []interval // the intervals of the symbols of S that have bounds
	syms  symset     // S
	ids   []int32    // sorted ids of Q's formulas
	hash  uint64
	base  []integer.Int // w, the witness of the nearest satisfiable ancestor
	size  int           // |Q|
	evals int           // formulas evaluated so far (satisfies stops at evalBudget)

	one    [1]uint64     // syms, when one word holds them
	ivKeys []byte        // the structural keys of ivals, one after the other
	ivEnds []int32       // where each ends in ivKeys
	model  []integer.Int // model repair's answer, or nil
}

type interval struct {
	sym int
	b   bound
}

func (iv interval) holds(v []integer.Int) bool {
	x := v[iv.sym]
	return (!iv.b.hasLo || x.Cmp(iv.b.lo) >= 0) && (!iv.b.hasHi || x.Cmp(iv.b.hi) <= 0)
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
func (q *query) satisfies(v []integer.Int) bool {
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
func (q *query) merge(m []integer.Int) []integer.Int {
	out := make([]integer.Int, len(q.base))
	for i := range out {
		if q.syms.has(i) {
			out[i] = m[i]
		} else {
			out[i] = q.base[i]
		}
	}
	return out
}

// lookup answers Q from its prepared repair or the caches, or reports that Z3 must be asked.
// rule names the layer. Repair, a function of Q alone (Prepare), is tried before the layers that
// depend on the solver's history, so that its answers do not depend on when it is computed.
func (sv *Solver) lookup(q *query) (status SatStatus, model []integer.Int, rule string) {
	qc := sv.cache
	if q.size == 0 {
		return Sat, q.base, "slice-empty"
	}
	sv.keyQuery(q)
	if q.model != nil {
		sv.Stats.RepairHits++
		sv.remember(q, Sat, q.model)
		return Sat, q.model, "repair"
	}
	if e := qc.find(q); e != nil {
		sv.Stats.CacheHits++
		if e.status == Sat {
			return Sat, q.merge(e.model), "query-cache"
		}
		return e.status, nil, "query-cache"
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
	return Unchecked, nil, ""
}

// prepared returns φ's query: the one Prepare left in φ (taken: it is used once), else prepared
// now by the solver's own Preparer.
func (sv *Solver) prepared(phi *PC) *query {
	if ci := phi.cx.Load(); ci != nil && ci.pre != nil {
		q := ci.pre
		ci.pre = nil
		return q
	}
	sv.cache.prep.Prepare(phi)
	ci := phi.cx.Load()
	q := ci.pre
	ci.pre = nil
	return q
}

// satisfiesModel is satisfies, with the fault CexSkipsNewest skipping the newest conjunct.
func (q *query) satisfiesModel(v []integer.Int) bool {
	if fault.Active == fault.CexSkipsNewest && len(q.conj) > 0 {
		rest := *q
		rest.conj = q.conj[1:]
		return rest.satisfies(v)
	}
	return q.satisfies(v)
}

// remember stores Z3's (or a layer's) answer for Q.
func (sv *Solver) remember(q *query, status SatStatus, model []integer.Int) {
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
	if qc.find(q) != nil {
		return // Q was answered before (repair comes before the query cache): keep one entry
	}
	e := &cacheEntry{ids: q.ids, status: status, model: model, next: qc.entries[q.hash]}
	qc.entries[q.hash] = e
	qc.fifo = append(qc.fifo, e)
	qc.held += len(q.ids)
	for qc.held > cacheMaxIDs && len(qc.fifo) > 0 {
		old := qc.fifo[0]
		qc.fifo[0] = nil
		qc.fifo = qc.fifo[1:]
		qc.held -= len(old.ids)
		h := hashIDs(old.ids)
		for p := qc.entries[h]; ; p = p.next {
			if p == old {
				qc.entries[h] = old.next
				break
			}
			if p.next == old {
				p.next = old.next
				break
			}
		}
		if qc.entries[h] == nil {
			delete(qc.entries, h)
		}
	}
}

// find returns the entry of the query cache for Q, or nil.
func (qc *queryCache) find(q *query) *cacheEntry {
	for e := qc.entries[q.hash]; e != nil; e = e.next {
		if equalIDs(e.ids, q.ids) {
			return e
		}
	}
	return nil
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
func (q *query) repair() []integer.Int {
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
	var vbuf [8]integer.Int
	v := vbuf[:0]
	if len(w) > len(vbuf) {
		v = make([]integer.Int, 0, len(w))
	}
	v = v[:len(w)]
	var sbuf [12]integer.Int
	scales := sbuf[:0]
	for _, t := range repairScales {
		scales = append(scales, integer.Of(t))
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
			var cands [2]integer.Int
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
					out := make([]integer.Int, len(v))
					copy(out, v)
					return out
				}
			}
			v[x] = old
		}
	}
	return nil
}
