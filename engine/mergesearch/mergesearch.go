// Package mergesearch is the state-merging policy of the engine's breadth-first search (run
// --merge): the engine's frontier (engine.Options.Merge, a search.Unmerger) that, before it hands out the first state
// of a depth, merges the pending states of that depth that have the same remaining program
// (package merge) and the same terms in its hot variables (those a loop's conditions read,
// hot.go), at most MaxParts states into one and disjunctions of at most MaxSize nodes; and, while
// a depth is taken, it merges into its pending states the successors that reach their programs one
// step later (join.go: the branches of an if of different lengths). The merged state is expanded
// once for all its constituents; its successors meet again at the next join and are merged again.
// docs/merging.md describes the policy and the measurements behind its bounds.
//
// The policy satisfies the condition the theorems of the search with merging and pruning ask of
// it (policy_ok, MergeSearch.v; mgrun_*, mgfind_*, mgverdict_*, MergeSearchproof.v): groups of
// pending states with one continuation merged in place of their oldest state, with its depth.
// Every state of a depth is pending when the first of them is taken (the queue is first in, first
// out, and each step adds one to the depth), so the merge sees the whole level; a merge of one
// depth also satisfies the depth-by-depth theorems (merge_policy_exact, Merge.v; mlevel_*,
// Mergeproof.v). A merged state has its shallowest constituent's depth, so a bug found below it
// is reached by its input after as many steps as the symbolic run took, or more.
//
// A bug found in a merged state, or below one, is confirmed on its input's own path (Unmerge):
// at each merge on the way, merge.Merged.Which names the constituent the input follows, and the
// engine's steps are followed from that constituent along the input (the successor whose
// branch condition the input satisfies) down to the error; the engine then replays the input on
// the concrete semantics. The bug's state is that path's error state, whose path condition and
// store are those a run without merging reports for the path.
package mergesearch

import (
	"encoding/binary"
	"fmt"
	"reflect"

	"certsym/engine"
	"certsym/engine/search"
	"certsym/merge"
	"certsym/pathcond"
	"certsym/spec"
	"certsym/spec/syntax"
	"certsym/sym"
)

// MaxParts is the most states merged into one: a group of more states with the same program is
// merged in chunks of MaxParts, in queue order. It bounds the disjunction a merge adds to the path
// condition (one disjunct a constituent) and the conditional terms of its store (one branch a
// constituent). See docs/merging.md for the measurements behind the value.
const MaxParts = 8

// MaxSize bounds the size of the disjunction a merge adds to the path condition: the number of
// nodes of its formula written out as a tree (a formula shared by several places counted at each).
// A merge whose disjunction is larger is not made: its states stay as they are.
const MaxSize = 1024

// IdleLevels is how many depths in a row the frontier looks for states to merge at every depth
// and finds no group: past it, it looks at the depths of more than WideLevel states only at every
// fourth depth, past four times it at every sixteenth, and a depth where it finds a group puts it
// back to every depth. A run whose paths never meet (loops whose conditions read what their
// branches change) then pays for the search of groups in its wide depths at one depth in sixteen;
// merges are delayed, never wrong (states that miss a merge at one join meet again at the next,
// at one depth). See docs/merging.md for the measurements.
const IdleLevels = 16

// WideLevel is the number of pending states up to which a depth is searched for groups whatever
// IdleLevels says (the search costs little there).
const WideLevel = 32

// Stats count what the merging did.
type Stats struct {
	Merges   int // merged states made
	Merged   int // the states they replaced (their constituents)
	Refused  int // groups of states with one program that package merge did not merge (a quantified guard, a large array)
	TooLarge int // pairs left unmerged because their disjunction is larger than MaxSize
	Largest  int // the size of the largest disjunction of a merge made (MaxSize's measure)
	Deeper   int // successors merged into a pending state of the depth above (join.go)
}

// node is a merge on the paths of pending states: the merge, and for each constituent the merge
// nearest above it on its own path (nil: none).
type node struct {
	m     *merge.Merged
	parts []*node
}

// Searcher is the merging frontier: a first-in first-out queue of states, merged depth by depth.
type Searcher struct {
	e     *engine.Engine
	ts    *sym.Terms
	items []*engine.State
	head  int
	depth int // the depth of the states being taken, -1 before the first
	idle  int // the depths in a row without a group (IdleLevels)
	// anc is the merge nearest above each pending state on its path, for those that have one
	// (empty until the first merge).
	anc     map[*engine.State]*node
	last    *engine.State          // the state taken last
	lastAnc *node                  // its nearest merge
	ids     map[syntax.Stmt]uint64 // a number for each statement node met (the grouping keys)
	hot     map[string][]int       // the hot slots of each remaining program met, by progKey
	key     []byte                 // progKey's buffer
	gkey    []byte                 // groupKey's
	// Stats is updated as the run goes.
	Stats    Stats
	cands    []cand       // mergeLevel's states and hashes, kept from level to level
	counts   hashCount    // the number of the level's states with each hash
	hotCache [64]struct { // hotBySig's last answers, by signature hash modulo 64
		sig uint64
		hot []int
	}
	hotBySig map[uint64][]int // the hot slots of the first program met, by mergeLevel's signature hash
	joins    ordTable         // the states of the level that successors can join, by ordinal (join.go)
	joinOpen bool             // whether joins indexes the level being taken
	taken    int              // the states of the level taken so far
	wait     []waiter         // the successors waiting for a state of the level
	// Parts bounds the states merged into one (MaxParts when 0).
	Parts int
	// Size bounds the size of a merge's disjunction (MaxSize when 0).
	Size int
}

func (s *Searcher) maxSize() int {
	if s.Size > 0 {
		return s.Size
	}
	return MaxSize
}

// New is the merging frontier of e (engine.Options.Merge = mergesearch.New).
func New(e *engine.Engine) search.Searcher[*engine.State] {
	return &Searcher{e: e, ts: e.Terms(), depth: -1, anc: map[*engine.State]*node{}, ids: map[syntax.Stmt]uint64{}, hot: map[string][]int{}, hotBySig: map[uint64][]int{}}
}

// Of returns the merging frontier m New made, or nil.
func Of(m search.Searcher[*engine.State]) *Searcher {
	s, _ := m.(*Searcher)
	return s
}

// Option is an engine.Options.Merge that makes the merging frontier (New) and records it in *s,
// for its counters.
func Option(s **Searcher) func(*engine.Engine) search.Searcher[*engine.State] {
	return func(e *engine.Engine) search.Searcher[*engine.State] {
		*s = Of(New(e))
		return *s
	}
}

// Add queues the successors of the state taken last; they inherit its nearest merge.
// A successor that reaches the continuation of a pending state of the level being taken waits for
// it instead (join.go).
func (s *Searcher) Add(kids []*engine.State) {
	if s.lastAnc != nil {
		for _, k := range kids {
			s.anc[k] = s.lastAnc
		}
	}
	if !s.joinOpen || s.last == nil || s.last.Depth != s.depth {
		s.items = append(s.items, kids...)
		return
	}
	for _, k := range kids {
		if !s.join(k) {
			s.items = append(s.items, k)
		}
	}
}

// Len is the number of pending states (those waiting to be merged included).
func (s *Searcher) Len() int { return len(s.items) - s.head + len(s.wait) }

// Each calls f on every pending state (those waiting to be merged included).
func (s *Searcher) Each(f func(*engine.State)) {
	for _, x := range s.items[s.head:] {
		f(x)
	}
	for _, w := range s.wait {
		f(w.st)
	}
}

// Select takes the next state; the first of a depth merges the level first (mergeLevel).
//
// Coq: the policy of msearch (MergeSearch.v) at the iteration before the state is taken, within
// policy_ok: the groups of one depth (merge_policy, one continuation, fewer of them as merge_any
// allows: one step of mlevel, Merge.v; merge_policy_exact and mlevel_sound, mlevel_complete,
// mlevel_bug_sound, mlevel_bug_complete, Mergeproof.v), and the state taken with the successors
// waiting for it (join.go), a merge_in_place of a group of two depths at its oldest state.
func (s *Searcher) Select() *engine.State {
	if d := s.items[s.head].Depth; d != s.depth {
		s.depth = d
		stride := 1
		switch {
		case s.idle >= 4*IdleLevels:
			stride = 16
		case s.idle >= IdleLevels:
			stride = 4
		}
		// the level is searched for groups where it is narrow (cheap) and at the stride; it is
		// opened to the successors of its states (join.go) at the stride only: that costs
		// something for every successor
		joins := d%stride == 0
		s.joinOpen = false
		if (joins || s.Len() <= WideLevel) && s.mergeLevel(joins) {
			s.idle = 0
		} else {
			s.idle++
		}
	}
	x := s.items[s.head]
	s.items[s.head] = nil
	s.head++
	if s.joinOpen {
		if len(s.wait) > 0 {
			if kids := s.joined(s.taken); len(kids) > 0 {
				if m := s.mergeJoined(x, kids); m != x {
					x, s.idle = m, 0
				}
			}
		}
		s.taken++
	}
	if s.head > 1024 && s.head*2 > len(s.items) { // reclaim the consumed prefix
		n := copy(s.items, s.items[s.head:])
		clear(s.items[n:])
		s.items, s.head = s.items[:n], 0
	}
	s.last, s.lastAnc = x, nil
	if len(s.anc) > 0 {
		s.lastAnc = s.anc[x]
		delete(s.anc, x)
	}
	return x
}

// mergeLevel merges the pending states (the whole level of depth s.depth) that have the same
// remaining program, in chunks of at most Parts; each merged state takes the place of its first
// constituent. With joins, it then opens the level to the successors of its states (openJoins).
// It reports whether some states formed a group (whether it tried to merge).
func (s *Searcher) mergeLevel(joins bool) bool {
	level := s.items[s.head:]
	if len(level) < 2 {
		return false // and no successor can join the level's one state: none is taken before it
	}
	if joins {
		s.joins.reset(len(level))
		s.taken = 0
	}
	// The exact key of a state's group (groupKey) costs allocations; most states of most levels
	// share no group. So hashes that allocate nothing come first: of the positions of the
	// program's first two statements, then, for the states that share them, of the terms of the first two
	// hot slots of the first program met with them (by identity). The states of one group have
	// one hash (but for two programs that begin alike and differ in their hot slots, whose states
	// are then left apart); only the states whose hash another state of the level has get their
	// exact key, which compares the whole programs and every hot slot.
	s.cands = s.cands[:0]
	for i, x := range level {
		// a finished program has no steps to share; a state known unsatisfiable (without pruning)
		// is no merge's constituent (package merge refuses it)
		if x.Depth != s.depth || x.IsFinal() || x.PC.Status == pathcond.Unsat {
			continue
		}
		a, b := firstTwo(x.Prog)
		h := mix(mix(posID(a), posID(b)), 0)
		s.cands = append(s.cands, cand{h, i})
		if joins {
			s.joins.put(h, i)
			s.joinOpen = true
		}
	}
	// The states whose program's first statement no other state of the level has are left; the
	// others' hashes take in the terms of their hot slots.
	s.counts.reset(len(s.cands))
	for _, c := range s.cands {
		s.counts.add(c.h)
	}
	shared := s.cands[:0]
	for _, c := range s.cands {
		if s.counts.count(c.h) < 2 {
			continue
		}
		x := level[c.i]
		hot := s.sigHot(c.h, x.Prog)
		for _, j := range hot[:min(len(hot), 2)] {
			c.h = mix(c.h, uint64(reflect.ValueOf(x.Store[j]).Pointer()))
		}
		shared = append(shared, c)
	}
	s.cands = shared
	s.counts.reset(len(s.cands))
	for _, c := range s.cands {
		s.counts.add(c.h)
	}
	var groups map[string][]int // group key → indices in level
	var order []string
	var terms map[*sym.Term]uint64 // a number for each term of a hot slot (the level's)
	for _, c := range s.cands {
		if s.counts.count(c.h) < 2 {
			continue // no other state has its hash
		}
		if terms == nil {
			groups, terms = map[string][]int{}, map[*sym.Term]uint64{}
		}
		k := s.groupKey(level[c.i], terms)
		if _, ok := groups[k]; !ok {
			order = append(order, k)
		}
		groups[k] = append(groups[k], c.i)
	}
	parts := s.Parts
	if parts <= 0 {
		parts = MaxParts
	}
	drop, tried := map[int]bool{}, false
	for _, k := range order {
		for g := groups[k]; len(g) > 1; g = g[min(parts, len(g)):] {
			s.mergeChunk(level, g[:min(parts, len(g))], drop)
			tried = true
		}
	}
	if len(drop) == 0 {
		return tried
	}
	kept := s.items[:s.head]
	for i, x := range level {
		if !drop[i] {
			kept = append(kept, x)
		}
	}
	clear(s.items[len(kept):])
	s.items = kept
	if joins { // the level's ordinals changed
		s.openJoins()
	}
	return true
}

// sigHot returns the hot slots of the first program met whose first two statements have the hash
// h (k, when none has been met).
func (s *Searcher) sigHot(h uint64, k *engine.Kont) []int {
	slot := &s.hotCache[h%uint64(len(s.hotCache))]
	if slot.hot == nil || slot.sig != h {
		hot, ok := s.hotBySig[h]
		if !ok {
			s.progKey(k)
			hot = s.hotOf(k)
			s.hotBySig[h] = hot
		}
		slot.sig, slot.hot = h, hot
	}
	return slot.hot
}

// mergeChunk merges the states of level at the indices chunk (two or more, one group) into
// one, in the place of the first: the others' indices go to drop. A merge whose disjunction is
// larger than the size bound is not made; the chunk is then merged as two halves, each on its own
// (down to pairs).
func (s *Searcher) mergeChunk(level []*engine.State, chunk []int, drop map[int]bool) {
	if len(chunk) < 2 {
		return
	}
	ss := make([]*engine.State, len(chunk))
	n := &node{parts: make([]*node, len(chunk))}
	for j, i := range chunk {
		ss[j], n.parts[j] = level[i], s.anc[level[i]]
	}
	m, err := merge.States(s.ts, ss)
	if err != nil {
		s.Stats.Refused++
		return
	}
	z := disjunctionSize(m, s.maxSize())
	if z > s.maxSize() {
		if len(chunk) == 2 {
			s.Stats.TooLarge++
			return
		}
		h := len(chunk) / 2
		s.mergeChunk(level, chunk[:h], drop)
		s.mergeChunk(level, chunk[h:], drop)
		return
	}
	s.Stats.Largest = max(s.Stats.Largest, z)
	n.m = m
	s.Stats.Merges++
	s.Stats.Merged += len(chunk)
	for _, i := range chunk {
		delete(s.anc, level[i])
	}
	level[chunk[0]] = m.State
	s.anc[m.State] = n
	for _, i := range chunk[1:] {
		drop[i] = true
	}
}

// firstTwo returns the first two statements of the remaining program k, sequences flattened (nil
// where there are fewer), without allocating.
func firstTwo(k *engine.Kont) (a, b syntax.Stmt) {
	var stack [8]syntax.Stmt // the rest of the sequences being descended, innermost last
	n := 0
	for ; k != nil; k = k.Next {
		s := k.S
		for {
			for seq, ok := s.(*syntax.Seq); ok; seq, ok = s.(*syntax.Seq) {
				if n == len(stack) {
					return a, b // deeper than the stack: b stays nil (a weaker hash, no error)
				}
				stack[n], n = seq.Second, n+1
				s = seq.First
			}
			if a == nil {
				a = s
			} else {
				return a, s
			}
			if n == 0 {
				break
			}
			n--
			s = stack[n]
		}
	}
	return a, b
}

// posID is a number for the position of a statement (0 for nil): the same statement node has
// one; two nodes at one position (a skip the engine adds, the statements of two calls of a macro
// on one line) share it, and the hash then tells their states apart by what follows or by their
// exact keys.
func posID(s syntax.Stmt) uint64 {
	if s == nil {
		return 0
	}
	p := s.Pos()
	return uint64(p.Line)<<32 | uint64(uint32(p.Col)) + 1
}

// groupKey is the key of st's group: its remaining program (progKey) and the terms of the hot
// slots of that program (hotSlots), by identity. States with one key have the same program
// (merge.SameProgram) and the same terms in the hot slots.
func (s *Searcher) groupKey(st *engine.State, terms map[*sym.Term]uint64) string {
	s.progKey(st.Prog)
	hot := s.hotOf(st.Prog)
	s.gkey = binary.AppendUvarint(s.gkey[:0], uint64(len(s.key))) // the program's part, delimited
	s.gkey = append(s.gkey, s.key...)
	for _, h := range hot {
		id, ok := terms[st.Store[h]]
		if !ok {
			id = uint64(len(terms))
			terms[st.Store[h]] = id
		}
		s.gkey = binary.AppendUvarint(s.gkey, id)
	}
	return string(s.gkey)
}

// hotOf returns the hot slots of the program k, whose key progKey has just put in s.key.
func (s *Searcher) hotOf(k *engine.Kont) []int {
	hot, ok := s.hot[string(s.key)]
	if !ok {
		hot = hotSlots(s.e.Prog, k)
		s.hot[string(s.key)] = hot
	}
	return hot
}

// progKey sets s.key to a key of the remaining program k: the numbers of its statement nodes,
// sequences flattened, in order. Two programs have the same key exactly when merge.SameProgram
// holds.
func (s *Searcher) progKey(k *engine.Kont) {
	s.key = s.key[:0]
	var stmt func(st syntax.Stmt)
	stmt = func(st syntax.Stmt) {
		if seq, ok := st.(*syntax.Seq); ok {
			stmt(seq.First)
			stmt(seq.Second)
			return
		}
		id, ok := s.ids[st]
		if !ok {
			id = uint64(len(s.ids))
			s.ids[st] = id
		}
		s.key = binary.AppendUvarint(s.key, id)
	}
	for ; k != nil; k = k.Next {
		stmt(k.S)
	}
}

// Unmerge returns the error state of the path input follows to st (search.Unmerger): st must be
// the state taken last, and input must satisfy its path condition.
func (s *Searcher) Unmerge(st *engine.State, input spec.Store) (*engine.State, error) {
	if st != s.last {
		return nil, fmt.Errorf("mergesearch: Unmerge of a state other than the one taken last")
	}
	return s.unmerge(st, s.lastAnc, input)
}

// unmerge is Unmerge for a state st whose nearest merge is n: Which names the constituent whose
// path input follows, the constituent is itself unmerged, and the engine's steps are followed
// from it along input down to st's depth.
func (s *Searcher) unmerge(st *engine.State, n *node, v spec.Store) (*engine.State, error) {
	if n == nil {
		return st, nil
	}
	i := n.m.Which(v)
	if i < 0 {
		return nil, fmt.Errorf("the input satisfies the guard of none of the %d states merged at depth %d", len(n.m.Parts), n.m.State.Depth)
	}
	p := n.m.Parts[i]
	if ok, def := p.Guard.EvalOK(v); !ok || !def {
		return nil, fmt.Errorf("the input is read back as state %d of the merge at depth %d, whose guard it does not satisfy", i, n.m.State.Depth)
	}
	u, err := s.unmerge(p.State, n.parts[i], v)
	if err != nil {
		return nil, err
	}
	// the steps below the merge, counted from it: its constituents' depths may be its own or
	// one more (join.go), and the input's own path then takes as many more steps
	for k := st.Depth - n.m.State.Depth; k > 0; k-- {
		if u, err = s.follow(u, v); err != nil {
			return nil, err
		}
	}
	if !merge.SameProgram(u.Prog, st.Prog) {
		return nil, fmt.Errorf("the input's path from state %d of the merge at depth %d reaches another program than the merged run at depth %d", i, n.m.State.Depth, st.Depth)
	}
	return u, nil
}

// follow is the successor of u that input v follows: the one whose added conjuncts (its branch
// condition, engine.Added) hold under v. The successors of a step split the inputs of u's path
// condition, so there is exactly one; anything else is an error.
func (s *Searcher) follow(u *engine.State, v spec.Store) (*engine.State, error) {
	var next *engine.State
	for _, k := range s.e.Expand(u, nil) {
		holds := true
		for _, f := range engine.Added(u, k) {
			ok, def := f.EvalOK(v)
			if !def {
				return nil, fmt.Errorf("the branch condition %s at depth %d has too many quantifier instances to evaluate", f.String(s.e.Names()), u.Depth)
			}
			holds = holds && ok
		}
		if !holds {
			continue
		}
		if next != nil {
			return nil, fmt.Errorf("the input satisfies the conditions of two successors of the state at depth %d", u.Depth)
		}
		next = k
	}
	if next == nil {
		return nil, fmt.Errorf("the input satisfies the condition of no successor of the state at depth %d", u.Depth)
	}
	return next, nil
}

// disjunctionSize is the size of the disjunction of m's guards (MaxSize's measure): the number
// of its nodes (conjunctions, disjunctions, comparisons) as a tree, counted up to limit+1.
func disjunctionSize(m *merge.Merged, limit int) int {
	n := 1
	for _, p := range m.Parts {
		if n += formulaSize(p.Guard, limit-n); n > limit {
			break
		}
	}
	return n
}

// formulaSize is the number of nodes of f as a tree, counted up to limit+1.
func formulaSize(f *sym.Formula, limit int) int {
	n := 1
	for _, g := range f.Args {
		if n > limit {
			break
		}
		n += formulaSize(g, limit-n)
	}
	return n
}

// String is the counters as run --merge prints them.
func (s *Searcher) String() string {
	st := s.Stats
	out := fmt.Sprintf("merging: %d merges of %d states", st.Merges, st.Merged)
	if st.TooLarge+st.Refused > 0 {
		out += fmt.Sprintf(" (left unmerged: %d pairs whose disjunction exceeds %d nodes, %d groups package merge refused)", st.TooLarge, s.maxSize(), st.Refused)
	}
	return out
}
