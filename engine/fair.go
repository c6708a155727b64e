package engine

import (
	"certsym/internal/fault"
	"certsym/spec/syntax"
)

// The fair strategies (Coverage, RandomPath) share one scheduler, the K-interleaved one: the
// pending states are kept in age order (the order of production, as the BFS queue), the picks
// are numbered 0, 1, 2, ... (one per NextState), and pick n takes the oldest pending state when
// n % K == K-1 (K = FairnessPeriod), the heuristic's choice otherwise. A state with j older
// pending states is taken within K*(j+1) picks whatever the heuristic does, so every pending
// state is eventually expanded and the search is complete like BFS.
//
// Coq: kpick K h (Sched.v), with kpick_fair_within and kpick4_fair_within (Schedproof.v): fair
// for every heuristic h, which is what the completeness theorems of the scheduled streams need.

// entry is one pending state of a fair queue.
type entry struct {
	st    *State
	seq   int64 // age: the order of production
	taken bool  // expanded already (lazy deletion from the age queue and the heuristic)
	// Coverage: the priority the heap holds (distance to uncovered), the state's statement
	// node and the node of the state it came from (-1: none).
	key      int32
	node     int32
	fromNode int32
	// RandomPath: the execution tree's leaf of this state.
	leaf *rpNode
}

// heuristic is the choice of a fair strategy between the fairness picks.
type heuristic interface {
	// add records the successors kept of the state parent (nil for the initial state) just
	// expanded, in order of production.
	add(parent *entry, kids []*entry)
	// pick returns a pending entry (not taken).
	pick() *entry
	// taken is told of every entry taken, by pick or by a fairness pick, before its expansion.
	taken(en *entry)
}

// fairQueue is the pending states of a fair strategy.
type fairQueue struct {
	age   []*entry // in age order; taken entries are skipped lazily
	head  int
	n     int   // pending (not taken) entries
	picks int64 // picks made so far
	seq   int64
	h     heuristic
	cur   *entry   // the entry taken last: the parent of the successors pushed next
	kids  []*entry // the successors kept of cur, so far
}

func newFairQueue(prog *syntax.Program, opts Options) *fairQueue {
	q := &fairQueue{}
	switch opts.Strategy {
	case Coverage:
		q.h = newCoverage(prog)
	case RandomPath:
		seed := opts.Seed
		if seed == 0 {
			seed = DefaultSeed
		}
		q.h = newRandomPath(seed)
	}
	return q
}

func (q *fairQueue) newEntry(s *State) *entry {
	en := &entry{st: s, seq: q.seq, fromNode: -1, node: -1}
	q.seq++
	q.age = append(q.age, en)
	q.n++
	return en
}

func (q *fairQueue) pushInitial(s *State) {
	q.h.add(nil, []*entry{q.newEntry(s)})
}

// push queues a successor kept of the state taken last.
func (q *fairQueue) push(s *State) { q.kids = append(q.kids, q.newEntry(s)) }

// expanded ends the expansion of the state taken last: its kept successors go to the heuristic.
func (q *fairQueue) expanded() {
	q.h.add(q.cur, q.kids)
	for i := range q.kids {
		q.kids[i] = nil
	}
	q.kids = q.kids[:0]
}

// oldest returns the oldest pending entry (the i-th oldest, counting from 0, with i > 0 only under
// the fault StarveState), dropping the taken entries at the head of the age queue.
func (q *fairQueue) oldest(i int) *entry {
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

// pop takes the next state: the oldest at every FairnessPeriod-th pick, the heuristic's choice
// otherwise.
func (q *fairQueue) pop() *State {
	var en *entry
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
	en.st = nil // the entry may stay in the heuristic's structures a while: do not hold the state
	return st
}

// each calls f on every pending state.
func (q *fairQueue) each(f func(*State)) {
	for _, en := range q.age[q.head:] {
		if !en.taken {
			f(en.st)
		}
	}
}
