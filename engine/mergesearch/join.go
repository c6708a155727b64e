package mergesearch

import (
	"bytes"

	"certsym/engine"
	"certsym/merge"
	"certsym/pathcond"
)

// Merges across two depths (the joins of branches of different lengths).
//
// The branches of an if that take different numbers of steps reach the statement after it at
// different depths: the states of one depth with one continuation are then the paths that took
// the same number of long branches, and a merge of one depth joins two merged histories whose
// guards hold the disjunctions of the earlier merges (the tree of the guard doubles at each join,
// and MaxSize stops the merges). So a state of the depth being taken waits, until it is taken, for
// the successors of the states taken before it that reach its continuation (with the same terms
// in its hot slots) one step later: they are not queued but merged into it when it is taken, the
// merge at its place in the queue and at its depth. Their guards are then the branch conditions
// below the state the paths parted from, not the histories above it.
//
// This is the merge the theorems of the merged search with pruning allow (policy_ok,
// MergeSearch.v): a group of pending states with one continuation, merged in place of its oldest
// member (the waiting state, first in the queue) with that member's depth; the successors are
// pending (at the back of the queue, one depth deeper) from their production to the merge. The
// depth of a merged state is then that of its shallowest constituent: a path's state below it is
// reached by the path after as many steps or more, never fewer (Unmerge follows the steps from
// the constituent, counted from the merge, not by depth).
//
// The level is opened to the successors at the depths the search for groups visits at the stride
// of IdleLevels (mergeLevel fills the table with the hashes it computes), so that a run whose
// paths never meet pays the look-up of its successors at one depth in sixteen. Paths that reach a
// statement two or more steps apart are not joined here: they merge at one depth, as before.

// waiter is a successor waiting for the state of ordinal ord of the level being taken.
type waiter struct {
	ord int
	st  *engine.State
}

// openJoins indexes the pending states of the level of depth s.depth that successors can join
// (not finished, not known unsatisfiable) by the positions of their programs' first two
// statements (the first state of each), by ordinal in the level.
func (s *Searcher) openJoins() {
	level := s.items[s.head:]
	s.joins.reset(len(level))
	s.taken = 0
	s.joinOpen = false
	for i, x := range level {
		if x.Depth != s.depth || x.IsFinal() || x.PC.Status == pathcond.Unsat {
			continue
		}
		a, b := firstTwo(x.Prog)
		s.joins.put(mix(mix(posID(a), posID(b)), 0), i)
		s.joinOpen = true
	}
}

// join puts the successor k of the state taken last with the pending state of the level it
// joins (one group key: the same program, the same terms in its hot slots), and reports whether
// it did.
func (s *Searcher) join(k *engine.State) bool {
	if k.IsFinal() || k.PC.Status == pathcond.Unsat {
		return false
	}
	a, b := firstTwo(k.Prog)
	h := mix(mix(posID(a), posID(b)), 0)
	ord, ok := s.joins.get(h)
	if !ok || ord < s.taken {
		return false
	}
	x := s.items[s.head+ord-s.taken]
	for _, j := range s.sigHot(h, k.Prog) { // cheap first (a loop's states differ there)
		if x.Store[j] != k.Store[j] {
			return false
		}
	}
	s.progKey(k.Prog)
	for _, j := range s.hotOf(k.Prog) {
		if x.Store[j] != k.Store[j] {
			return false
		}
	}
	s.gkey = append(s.gkey[:0], s.key...)
	s.progKey(x.Prog)
	if !bytes.Equal(s.gkey, s.key) {
		return false
	}
	s.wait = append(s.wait, waiter{ord, k})
	return true
}

// joined removes from the waiting successors those of the state of ordinal ord, and returns them.
func (s *Searcher) joined(ord int) []*engine.State {
	var kids []*engine.State
	rest := s.wait[:0]
	for _, w := range s.wait {
		if w.ord == ord {
			kids = append(kids, w.st)
		} else {
			rest = append(rest, w)
		}
	}
	clear(s.wait[len(rest):])
	s.wait = rest
	return kids
}

// mergeJoined merges the state x being taken with the successors waiting for it, MaxParts
// states a merge (x and the first successors; fewer, halved, while the merge is refused or its
// disjunction is over MaxSize); those left out are queued at the back, one depth deeper, as they
// would have been. It returns the state to hand out: the merge, with x's depth, or x.
func (s *Searcher) mergeJoined(x *engine.State, kids []*engine.State) *engine.State {
	parts := s.Parts
	if parts <= 0 {
		parts = MaxParts
	}
	for n := min(len(kids), parts-1); n > 0; n /= 2 {
		ss := append([]*engine.State{x}, kids[:n]...)
		m, err := merge.States(s.ts, ss)
		if err != nil {
			s.Stats.Refused++
			continue
		}
		z := disjunctionSize(m, s.maxSize())
		if z > s.maxSize() {
			if n == 1 {
				s.Stats.TooLarge++
			}
			continue
		}
		s.Stats.Largest = max(s.Stats.Largest, z)
		s.Stats.Merges++
		s.Stats.Merged += len(ss)
		s.Stats.Deeper += n
		nd := &node{m: m, parts: make([]*node, len(ss))}
		for i, st := range ss {
			nd.parts[i] = s.anc[st]
			delete(s.anc, st)
		}
		m.State.Depth = x.Depth // the oldest constituent's place and depth
		s.anc[m.State] = nd
		s.items = append(s.items, kids[n:]...)
		return m.State
	}
	s.items = append(s.items, kids...)
	return x
}
