package mergesearch

import (
	"bytes"
	"reflect"

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

// joinEntry is a state of the level being taken that the successors of the states taken before
// it can join: its ordinal in the level (it is pending while fewer states of the level have been
// taken) and the successors waiting for it.
type joinEntry struct {
	st   *engine.State
	ord  int
	kids []*engine.State
}

// openJoins indexes the pending states of the level of depth s.depth that successors can join
// (not finished, not known unsatisfiable), by hash (joinHash), the first of each hash.
func (s *Searcher) openJoins() {
	if s.joins == nil {
		s.joins = map[uint64]*joinEntry{}
	}
	clear(s.joins)
	s.taken = 0
	for i, x := range s.items[s.head:] {
		if x.Depth != s.depth || x.IsFinal() || x.PC.Status == pathcond.Unsat {
			continue
		}
		h := s.joinHash(x)
		if _, ok := s.joins[h]; !ok {
			s.joins[h] = &joinEntry{st: x, ord: i}
		}
	}
	s.joinOpen = len(s.joins) > 0
}

// closeJoins empties the index (a level not searched for groups).
func (s *Searcher) closeJoins() {
	if s.joinOpen {
		clear(s.joins)
		s.joinOpen = false
	}
}

// joinHash is the hash of a state's group: the positions of its program's first two statements
// and the terms of the first two hot slots of the first program met with them (as mergeLevel's).
func (s *Searcher) joinHash(x *engine.State) uint64 {
	a, b := firstTwo(x.Prog)
	h := mix(mix(posID(a), posID(b)), 0)
	slot := &s.hotCache[h%uint64(len(s.hotCache))]
	if slot.hot == nil || slot.sig != h {
		hot, ok := s.hotBySig[h]
		if !ok {
			s.progKey(x.Prog)
			hot = s.hotOf(x.Prog)
			s.hotBySig[h] = hot
		}
		slot.sig, slot.hot = h, hot
	}
	for _, j := range slot.hot[:min(len(slot.hot), 2)] {
		h = mix(h, uint64(reflect.ValueOf(x.Store[j]).Pointer()))
	}
	return h
}

// sameGroup reports whether a and b have one group key: the same remaining program and the same
// terms in its hot slots.
func (s *Searcher) sameGroup(a, b *engine.State) bool {
	s.progKey(a.Prog)
	ka := append(s.gkey[:0], s.key...)
	s.gkey = ka
	s.progKey(b.Prog)
	if !bytes.Equal(ka, s.key) {
		return false
	}
	for _, h := range s.hotOf(b.Prog) {
		if a.Store[h] != b.Store[h] {
			return false
		}
	}
	return true
}

// join puts the successor k of the state taken last with the pending state of the level it
// joins, and reports whether it did.
func (s *Searcher) join(k *engine.State) bool {
	if k.IsFinal() || k.PC.Status == pathcond.Unsat {
		return false
	}
	j := s.joins[s.joinHash(k)]
	if j == nil || j.ord < s.taken || !s.sameGroup(j.st, k) {
		return false
	}
	j.kids = append(j.kids, k)
	s.waiting++
	return true
}

// mergeJoined merges the state x being taken with the successors waiting for it, MaxParts
// states a merge (x and the first successors); those left out (a merge too large or refused, a
// group over the bound) are queued at the back, one depth deeper, as they would have been. It
// returns the state to hand out: the merge, with x's depth, or x.
func (s *Searcher) mergeJoined(x *engine.State, kids []*engine.State) *engine.State {
	s.waiting -= len(kids)
	parts := s.Parts
	if parts <= 0 {
		parts = MaxParts
	}
	n := min(len(kids), parts-1)
	for ; n > 0; n /= 2 {
		ss := append([]*engine.State{x}, kids[:n]...)
		m, err := merge.States(s.ts, ss)
		if err != nil {
			s.Stats.Refused++
			continue
		}
		z := disjunctionSize(m, s.maxSize())
		if z > s.maxSize() {
			s.Stats.TooLarge++
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
