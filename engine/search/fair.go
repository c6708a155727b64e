package search

import (
	"certsym/internal/fault"
	"certsym/spec/syntax"
)

// The fair strategies (coverage, random-path) share one scheduler, the K-interleaved one: the
// pending states are kept in age order (the order of production, as the BFS queue), the picks
// are numbered 0, 1, 2, ... (one per Select), and pick n takes the oldest pending state when
// n % K == K-1 (K = FairnessPeriod), the heuristic's choice otherwise. A state with j older
// pending states is taken within K*(j+1) picks whatever the heuristic does, so every pending
// state is eventually expanded and the search is complete like BFS.
//
// Coq: kpick K h (Sched.v), with kpick_fair_within and kpick4_fair_within (Schedproof.v): fair
// for every heuristic h, which is what the completeness theorems of the scheduled streams need.

// FairnessPeriod is K of the fair strategies: every K-th pick (pick n, counted from 0, with
// n % K == K-1) takes the oldest pending state.
const FairnessPeriod = 4

// entry is one pending state of a fair queue.
type entry[S any] struct {
	st    S
	seq   int64 // age: the order of production
	taken bool  // expanded already (lazy deletion from the age queue and the heuristic)
	// Coverage: the priority the heap holds (distance to uncovered), the state's node in the
	// statement graph and the node of the state it came from (-1: none).
	key      int32
	node     int32
	fromNode int32
	// RandomPath: the execution tree's leaf of this state.
	leaf *rpNode[S]
}

// heuristic is the choice of a fair strategy between the fairness picks.
type heuristic[S any] interface {
	// add records the successors kept of the state parent (nil for the initial state) just
	// expanded, in order of production.
	add(parent *entry[S], kids []*entry[S])
	// pick returns a pending entry (not taken).
	pick() *entry[S]
	// taken is told of every entry taken, by pick or by a fairness pick, before its expansion.
	taken(en *entry[S])
}

// Fair is the K-interleaved scheduler over a heuristic: a Searcher.
type Fair[S State] struct {
	age   []*entry[S] // in age order; taken entries are skipped lazily
	head  int
	n     int   // pending (not taken) entries
	picks int64 // picks made so far
	seq   int64
	h     heuristic[S]
	cur   *entry[S]   // the entry taken last: the parent of the successors added next
	kids  []*entry[S] // scratch: the entries of the successors being added
}

// NewCoverage returns the fair scheduler over the coverage heuristic (coverage.go) for prog.
func NewCoverage[S State](prog *syntax.Program) *Fair[S] {
	return &Fair[S]{h: newCoverage[S](prog)}
}

// NewRandomPath returns the fair scheduler over random path selection (randompath.go), its PRNG
// seeded with seed: the same seed gives the same choices.
func NewRandomPath[S State](seed int64) *Fair[S] {
	return &Fair[S]{h: newRandomPath[S](seed)}
}

func (q *Fair[S]) newEntry(s S) *entry[S] {
	en := &entry[S]{st: s, seq: q.seq, fromNode: -1, node: -1}
	q.seq++
	q.age = append(q.age, en)
	q.n++
	return en
}

// Add queues the successors kept of the state taken last (the initial state before any pick):
// they join the age queue, and the heuristic learns of them.
func (q *Fair[S]) Add(kids []S) {
	for _, s := range kids {
		q.kids = append(q.kids, q.newEntry(s))
	}
	q.h.add(q.cur, q.kids)
	clear(q.kids)
	q.kids = q.kids[:0]
}

// oldest returns the oldest pending entry (the i-th oldest, counting from 0, with i > 0 only under
// the fault StarveState), dropping the taken entries at the head of the age queue.
func (q *Fair[S]) oldest(i int) *entry[S] {
	for q.age[q.head].taken {
		q.age[q.head] = nil
		q.head++
	}
	// Reclaim the consumed prefix once it is half the buffer: amortized O(1) per state.
	if q.head > 1024 && q.head*2 > len(q.age) {
		n := copy(q.age, q.age[q.head:])
		clear(q.age[n:])
		q.age = q.age[:n]
		q.head = 0
	}
	k := q.head
	for ; i > 0; k++ {
		if !q.age[k+1].taken {
			i--
		}
	}
	return q.age[k]
}

// Select takes the next state: the oldest at every FairnessPeriod-th pick, the heuristic's
// choice otherwise.
func (q *Fair[S]) Select() S {
	var en *entry[S]
	if q.picks%FairnessPeriod == FairnessPeriod-1 {
		i := 0
		if fault.Active == fault.StarveState && q.n > 3 {
			i = 1 // the oldest is never taken by a fairness pick once the queue is long
		}
		en = q.oldest(i)
	} else {
		en = q.h.pick()
	}
	q.picks++
	en.taken = true
	q.n--
	q.h.taken(en)
	q.cur = en
	st := en.st
	var none S
	en.st = none // the entry may stay in the heuristic's structures a while: do not hold the state
	return st
}

// Len is the number of pending states.
func (q *Fair[S]) Len() int { return q.n }

// Each calls f on every pending state, oldest first.
func (q *Fair[S]) Each(f func(S)) {
	for _, en := range q.age[q.head:] {
		if !en.taken {
			f(en.st)
		}
	}
}
