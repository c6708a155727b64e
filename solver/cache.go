package solver

import (
	"slices"
	"strconv"

	"certsym/internal/fault"
	"certsym/pathcond"
	"certsym/spec/integer"
	"certsym/sym"
)

// The caching layer (after KLEE's independence, query cache and counterexample cache). Between
// the chain's head and Z3 stand the slice and three caches that answer from it; each answer is
// exact:
//
//  1. The slice. Let p be the nearest ancestor of φ known satisfiable, with witness w (the root
//     is, with witness 0). The conjuncts below p are the new ones. A conjunct recorded as a bound
//     or a shaved end (PC.Captured) is implied by the intervals φ's bounds give its symbol
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
// Only then the next layer is asked (Z3, through the timing and quantifier layers): about Q alone
// in a solver of its own (the slice solver of the core, one scope per query) when Q is much
// smaller than φ, otherwise about φ on the incremental push/pop stack (φ and Q are
// equisatisfiable, and a model of φ is one of Q: the answer is stored for Q). The answers carry
// the layer that gave them (Answer.Rule), for the crosscheck layer above.

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
	status pathcond.SatStatus
	model  []integer.Int
	next   *cacheEntry // the next entry of the same hash
}

// caching is the caching layer: interned formula keys, answers by canonical key, recent models
// and unsatisfiable sets.
type caching struct {
	next    Solver
	env     *env
	ids     map[string]int32
	atomIDs map[*sym.Atom]int32
	entries map[uint64]*cacheEntry // chained by next
	fifo    []*cacheEntry
	held    int // ids held by the entries
	models  [][]integer.Int
	unsats  [][]int32
	buf     []byte
	prep    *Preparer // the chain's own, for the queries not prepared beforehand
}

func newCaching(next Solver, e *env, prep *Preparer) *caching {
	return &caching{next: next, env: e, ids: map[string]int32{}, atomIDs: map[*sym.Atom]int32{}, entries: map[uint64]*cacheEntry{}, prep: prep}
}

// Check answers φ from its slice, its repair or the caches, else asks the next layer and stores
// its answer. Path conditions with arrays or quantifiers pass through (their slices would count
// symbols, not the elements a select may read).
func (qc *caching) Check(q Query) Answer {
	phi := q.PC
	if phi.Extended() {
		return qc.next.Check(q)
	}
	sl := qc.prepared(phi)
	if st, m, rule := qc.lookup(sl); st != pathcond.Unchecked {
		if rule == "slice-empty" {
			qc.env.stats.SliceEmpty++
		}
		return Answer{Status: st, Model: m, Rule: rule}
	}
	sliced := sl.size*sliceMinSave <= phi.Depth
	if sliced {
		q.slice = sl
		qc.env.stats.Sliced++
	}
	a := qc.next.Check(q)
	switch a.Status {
	case pathcond.Unsat:
		qc.remember(sl, pathcond.Unsat, nil)
	case pathcond.Sat:
		if sliced {
			a.Model = sl.merge(a.Model)
		}
		qc.remember(sl, pathcond.Sat, a.Model)
	default:
		return a
	}
	if sliced {
		a.Rule = "slice"
	}
	return a
}

func (qc *caching) intern(key []byte) int32 {
	if id, ok := qc.ids[string(key)]; ok {
		return id
	}
	id := int32(len(qc.ids) + 1)
	qc.ids[string(key)] = id
	return id
}

func (qc *caching) internString(key string) int32 {
	if id, ok := qc.ids[key]; ok {
		return id
	}
	id := int32(len(qc.ids) + 1)
	qc.ids[key] = id
	return id
}

// writeFormula writes f's structural key: an atom other than a symbol by its id interned in qc
// (pointer identity); with qc nil, ok is false when f has such an atom (its key is the layer's).
func writeFormula(b []byte, f *sym.Formula, qc *caching) (_ []byte, ok bool) {
	b = append(b, byte('0'+f.Op))
	switch f.Op {
	case sym.FGe, sym.FEq, sym.FNe:
		return writeTerm(b, f.T, qc)
	case sym.FAnd, sym.FOr:
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

func writeTerm(b []byte, t *sym.Term, qc *caching) ([]byte, bool) {
	b = appendInt(b, t.Const())
	for i, n := 0, t.Monos(); i < n; i++ {
		k, a := t.Mono(i)
		b = append(b, '+')
		b = appendInt(b, k)
		b = append(b, '*')
		if a.Kind == sym.AtomSym {
			b = strconv.AppendInt(b, int64(-1-a.Sym), 36)
			continue
		}
		if qc == nil {
			return b, false
		}
		b = strconv.AppendInt(b, int64(qc.atomID(a)), 36)
	}
	return b, true
}

// atomID interns an atom other than a symbol: a positive id by pointer.
func (qc *caching) atomID(a *sym.Atom) int32 {
	if id, ok := qc.atomIDs[a]; ok {
		return id
	}
	id := int32(len(qc.atomIDs) + 1)
	qc.atomIDs[a] = id
	return id
}

// query is the slice Q of a path condition.
type query struct {
	conj  []*pathcond.PC // the kept conjuncts, newest first
	ivals []interval     // the intervals of the symbols of S that have bounds
	syms  symset         // S
	ids   []int32        // sorted ids of Q's formulas
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

// bound is an interval of ℤ, each end possibly infinite (a bound of a path condition,
// pathcond.PC.Bound).
type bound struct {
	lo, hi       integer.Int
	hasLo, hasHi bool
}

func (iv interval) holds(v []integer.Int) bool {
	x := v[iv.sym]
	return (!iv.b.hasLo || x.Cmp(iv.b.lo) >= 0) && (!iv.b.hasHi || x.Cmp(iv.b.hi) <= 0)
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
func (qc *caching) lookup(q *query) (status pathcond.SatStatus, model []integer.Int, rule string) {
	if q.size == 0 {
		return pathcond.Sat, q.base, "slice-empty"
	}
	qc.keyQuery(q)
	if q.model != nil {
		qc.env.stats.RepairHits++
		qc.remember(q, pathcond.Sat, q.model)
		return pathcond.Sat, q.model, "repair"
	}
	if e := qc.find(q); e != nil {
		qc.env.stats.CacheHits++
		if e.status == pathcond.Sat {
			return pathcond.Sat, q.merge(e.model), "query-cache"
		}
		return e.status, nil, "query-cache"
	}
	for _, u := range qc.unsats {
		if subset(u, q.ids) {
			qc.env.stats.CexUnsatHits++
			qc.remember(q, pathcond.Unsat, nil)
			return pathcond.Unsat, nil, "cex-unsat-subset"
		}
	}
	for i, m := range qc.models {
		if q.evals >= evalBudget {
			break
		}
		if q.satisfiesModel(m) {
			qc.env.stats.CexModelHits++
			copy(qc.models[1:i+1], qc.models[:i]) // most recently useful first
			qc.models[0] = m
			qc.remember(q, pathcond.Sat, m)
			return pathcond.Sat, q.merge(m), "cex-model"
		}
	}
	return pathcond.Unchecked, nil, ""
}

// prepared returns φ's query: the one Prepare left in φ (taken: it is used once), else prepared
// now by the layer's own Preparer.
func (qc *caching) prepared(phi *pathcond.PC) *query {
	if ci := memo(phi); ci != nil && ci.pre != nil {
		q := ci.pre
		ci.pre = nil
		return q
	}
	qc.prep.Prepare(phi)
	ci := memo(phi)
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
func (qc *caching) remember(q *query, status pathcond.SatStatus, model []integer.Int) {
	switch status {
	case pathcond.Sat:
		if len(qc.models) < cexModels {
			qc.models = append(qc.models, nil)
		}
		copy(qc.models[1:], qc.models[:len(qc.models)-1])
		qc.models[0] = model
	case pathcond.Unsat:
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
func (qc *caching) find(q *query) *cacheEntry {
	for e := qc.entries[q.hash]; e != nil; e = e.next {
		if slices.Equal(e.ids, q.ids) {
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

// repairScales are the factors by which repair scales the base witness before moving one symbol.
var minusOne = integer.Of(-1)

var repairScales = [...]int64{1, 2, 4, 8, 16, 64, 256, 1024}

// repair looks for a model of Q near the base witness w without Z3 (the model-repair layer):
// for a linear atomic formula of Q that w violates (the newest first), it moves one of its
// symbols to the nearest value that satisfies it, in w and in w scaled by 2, 4, 8 and 16 (the
// conditions of a loop over linear forms often cut cones, which scaling widens), and keeps the
// first candidate that satisfies every formula of Q (Formula.Eval, exact). At most a few dozen
// candidates are tried; nil when none fits.
func (q *query) repair() []integer.Int {
	w := q.base
	var c *sym.Formula
	for _, n := range q.conj {
		if q.evals++; q.evals > evalBudget {
			return nil
		}
		if !n.Conj.Eval(w) {
			c = n.Conj
			break
		}
	}
	if c == nil || (c.Op != sym.FGe && c.Op != sym.FEq && c.Op != sym.FNe) {
		return nil
	}
	for i, n := 0, c.T.Monos(); i < n; i++ {
		if _, a := c.T.Mono(i); a.Kind != sym.AtomSym {
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
	if c.Op == sym.FEq { // k·x + r == 0 needs k | r: scaling w by |k| makes the symbols' part divisible
		for i, n := 0, c.T.Monos(); i < n; i++ {
			if k, _ := c.T.Mono(i); k.Cmp(one) != 0 && k.Cmp(minusOne) != 0 {
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
		for i, n := 0, c.T.Monos(); i < n; i++ {
			k, a := c.T.Mono(i)
			x := a.Sym
			old := v[x]
			// the term is k·x + r
			r := c.T.Eval(v).Sub(k.Mul(old))
			var cands [2]integer.Int
			nc := 0
			switch c.Op {
			case sym.FGe: // k·x >= -r
				if k.Sign() > 0 {
					cands[0] = pathcond.CeilDiv(r.Neg(), k)
				} else {
					cands[0] = pathcond.FloorDiv(r, k.Neg())
				}
				nc = 1
			case sym.FEq:
				if r.Rem(k).IsZero() {
					cands[0], nc = r.Neg().Quo(k), 1
				}
			case sym.FNe:
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
