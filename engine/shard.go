package engine

import (
	"fmt"
	"math/bits"
	"reflect"
	"strconv"
	"strings"

	"certsym/pathcond"
	"certsym/spec/syntax"
)

// Shard selects one part of an exact partition of the execution tree, for runs spread over
// several processes (certsym run --shard I/N, certsym merge). The zero value (Count 0) is no
// sharding.
//
// The partition. A successor is live when it can have successors of its own and pruning may
// keep it: it is not an error state (a Fail, a leaf) and, with pruning, its path condition is
// not already known unsatisfiable by the solver-free deciders (pathcond.Extend), which depend on the
// formula alone, so every shard sees the same live successors. A state with two or more live
// successors is a branching. The split level of a state is the number of branchings on its path
// (the state excluded), capped at Level. A state whose split level is Level is below the split:
// its prefix is the choice (0 for the first live successor, 1 for the second, ...) at each of
// the Level branchings, read as a binary number v (most significant first; a third live choice,
// which the IMP statements do not produce today, counts as 1 as well), and it belongs to shard
// v mod Count. Its successors have its prefix, hence its shard. The states above the split
// (split level < Level) are explored by every shard, and their errors are reported by shard 0
// only. So every state is explored by the shard it belongs to, and every error state reported by
// exactly one shard.
//
// Only BFS is sharded (Options.Validate): the partition holds for any strategy, but the
// merge's "first bug" is the first in breadth-first order, which the other strategies do not
// follow, and DFS is incomplete.
type Shard struct {
	Index, Count int
	// Level is the number of branchings above the split; 0 means DefaultShardLevel(Count).
	Level int
}

// DefaultShardLevel is the split level for n shards: the least number of binary branchings whose
// subtrees number at least 8n (so that the subtrees, whose sizes vary, spread over the shards).
func DefaultShardLevel(n int) int {
	if n < 1 {
		n = 1
	}
	return bits.Len(uint(8*n - 1))
}

// MaxShardLevel bounds Level: the prefix is kept in 62 bits.
const MaxShardLevel = 62

// Enabled reports whether the run is sharded.
func (s Shard) Enabled() bool { return s.Count > 0 }

// Resolved returns s with Level set (DefaultShardLevel when 0).
func (s Shard) Resolved() Shard {
	if s.Enabled() && s.Level == 0 {
		s.Level = DefaultShardLevel(s.Count)
	}
	return s
}

// String is "I/N".
func (s Shard) String() string { return fmt.Sprintf("%d/%d", s.Index, s.Count) }

// ParseShard reads "I/N" with 0 <= I < N.
func ParseShard(text string) (Shard, error) {
	a, b, ok := strings.Cut(text, "/")
	i, err1 := strconv.Atoi(a)
	n, err2 := strconv.Atoi(b)
	if !ok || err1 != nil || err2 != nil {
		return Shard{}, fmt.Errorf("want I/N (shard I of N, 0 <= I < N), found %q", text)
	}
	if n < 1 || i < 0 || i >= n {
		return Shard{}, fmt.Errorf("shard %d/%d: want 0 <= I < N and N >= 1", i, n)
	}
	return Shard{Index: i, Count: n}, nil
}

func (s Shard) validate(o Options) error {
	if !s.Enabled() {
		return nil
	}
	switch {
	case s.Index < 0 || s.Index >= s.Count:
		return fmt.Errorf("shard %v: want 0 <= I < N", s)
	case s.Level < 0 || s.Level > MaxShardLevel:
		return fmt.Errorf("shard split level %d: want 0 to %d", s.Level, MaxShardLevel)
	case o.Strategy != BFS:
		return fmt.Errorf("sharding applies to the bfs strategy only (the merge orders bugs breadth-first), not %v", o.Strategy)
	}
	return nil
}

// Position is where an error state stands in the breadth-first order of the whole (unsharded)
// run, as far as a merge needs it: states compare by Depth, then Path (lexicographically), then,
// when both come from the same shard, Seq. Path is the choice (the index among the parent's
// successors) at each state of the path with two or more successors that are not known
// unsatisfiable (error leaves included), down to the split (below it the path stops growing);
// Seq is the number of states the shard had expanded when it expanded this one.
//
// Why it is the BFS order: the FIFO queue expands depth by depth, and within a depth in the
// lexicographic order of the full paths of successor indices (pruning removes states without
// reordering the others). Two states of one depth first differ at a state Q where both took
// successors that are not known unsatisfiable, so Q is recorded in both paths; Q lies at or
// above the split of both unless both lie in the same subtree below the split, hence in the
// same shard, where the shard's own order (Seq) is the BFS order restricted to it.
type Position struct {
	Depth int
	Path  []uint8
	Seq   int
}

// PathString is the path as digits, "" for the root.
func (p Position) PathString() string {
	var b strings.Builder
	for _, c := range p.Path {
		b.WriteByte('0' + c)
	}
	return b.String()
}

// ComparePositions orders two positions of bugs reported by shards sa and sb of one run: -1, 0
// or 1 as a comes before b in breadth-first order.
func ComparePositions(a Position, sa int, b Position, sb int) int {
	switch {
	case a.Depth != b.Depth:
		return cmpInt(a.Depth, b.Depth)
	}
	for i := 0; i < len(a.Path) && i < len(b.Path); i++ {
		if a.Path[i] != b.Path[i] {
			return cmpInt(int(a.Path[i]), int(b.Path[i]))
		}
	}
	switch {
	case len(a.Path) != len(b.Path): // not at one depth (see Position); any fixed order
		return cmpInt(len(a.Path), len(b.Path))
	case sa != sb:
		return cmpInt(sa, sb)
	}
	return cmpInt(a.Seq, b.Seq)
}

func cmpInt(a, b int) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// pathNode is a persistent list of the choices of Position.Path, newest first.
type pathNode struct {
	up     *pathNode
	choice uint8
	n      int32
}

// shardInfo is what the sharder knows of a pending state.
type shardInfo struct {
	path   *pathNode
	level  uint8
	prefix uint64
}

// sharder is the engine's side of a Shard: the information of each pending state, kept beside
// the frontier (a map, so that State stays as small as it is in runs that are not sharded).
// Entries are removed when their state is expanded; those of successors the solver prunes stay
// (at most one per solver query; the solver-free deciders' unsatisfiable successors get none).
// Not safe for concurrent use: one engine, one goroutine.
type sharder struct {
	Shard
	noPrune bool
	info    map[*State]shardInfo
	cur     *State
	curInfo shardInfo
	// Dropped counts the successors left to the other shards; Shared the states expanded above
	// the split (every shard expands them).
	Dropped, Shared int
}

func newSharder(s Shard, o Options) *sharder {
	return &sharder{Shard: s.Resolved(), noPrune: o.NoPrune, info: map[*State]shardInfo{}}
}

// split is called with each expanded state and its successors (in the order of Expand): it
// records the successors' information and returns those that belong to this shard (in place).
func (h *sharder) split(st *State, succ []*State) []*State {
	in, ok := h.info[st]
	if ok {
		delete(h.info, st)
	}
	h.cur, h.curInfo = st, in
	if int(in.level) < h.Level {
		h.Shared++
	}
	known := func(s *State) bool { return h.noPrune || s.PC.Status != pathcond.Unsat }
	nKnown, nLive := 0, 0
	for _, s := range succ {
		if known(s) {
			nKnown++
			if s.ErrorOf() == nil {
				nLive++
			}
		}
	}
	below := int(in.level) >= h.Level
	out := succ[:0]
	live := uint64(0)
	for i, s := range succ {
		c := in
		if !known(s) {
			out = append(out, s) // pruned without a query, never expanded
			continue
		}
		if nKnown > 1 && !below {
			c.path = &pathNode{up: in.path, choice: uint8(i), n: pathLen(in.path) + 1}
		}
		if nLive > 1 && !below && s.ErrorOf() == nil {
			bit := live
			if bit > 1 {
				bit = 1
			}
			live++
			c.level++
			c.prefix = c.prefix<<1 | bit
			if int(c.level) == h.Level && int(c.prefix%uint64(h.Count)) != h.Index {
				h.Dropped++
				continue
			}
		}
		h.info[s] = c
		out = append(out, s)
	}
	for i := len(out); i < len(succ); i++ {
		succ[i] = nil
	}
	return out
}

func pathLen(p *pathNode) int32 {
	if p == nil {
		return 0
	}
	return p.n
}

// reports says whether this shard reports the error state st (the state just expanded): those
// below the split belong to it, those above to shard 0.
func (h *sharder) reports(st *State) bool {
	return st != h.cur || int(h.curInfo.level) >= h.Level || h.Index == 0
}

// ShardPosition returns the breadth-first position of st, the state the engine expanded last
// (call it from FindBugs' onBug or after Next), in a sharded run; ok is false otherwise.
func (e *Engine) ShardPosition(st *State) (p Position, ok bool) {
	h := e.shard
	if h == nil || st != h.cur {
		return Position{}, false
	}
	p.Depth, p.Seq = st.Depth, e.Stats.Expanded
	p.Path = make([]uint8, pathLen(h.curInfo.path))
	for n, i := h.curInfo.path, len(p.Path)-1; n != nil; n, i = n.up, i-1 {
		p.Path[i] = n.choice
	}
	return p, true
}

// ShardCounts returns the number of successors this shard left to the others and the number
// of states it expanded above the split (0, 0 when the run is not sharded). When every shard of
// a run finishes, the states they expanded add up to those of the unsharded run plus N-1 times
// the shared ones.
func (e *Engine) ShardCounts() (dropped, shared int) {
	if e.shard == nil {
		return 0, 0
	}
	return e.shard.Dropped, e.shard.Shared
}

// FailIDs numbers the error statements (the Fail nodes) of prog in a fixed order (a walk of the
// syntax tree's fields), so that the shards of one run name each error alike: the merge of
// --all-bugs reports each error once, as the engine does (a Fail, not a line, is an error: two
// inlined from one macro call share their line and column).
func FailIDs(prog *syntax.Program) map[*syntax.Fail]int {
	ids := map[*syntax.Fail]int{}
	type key struct {
		t reflect.Type
		p uintptr
	}
	seen := map[key]bool{}
	failType := reflect.TypeOf((*syntax.Fail)(nil))
	var walk func(v reflect.Value)
	walk = func(v reflect.Value) {
		switch v.Kind() {
		case reflect.Pointer:
			if v.IsNil() || seen[key{v.Type(), v.Pointer()}] {
				return
			}
			seen[key{v.Type(), v.Pointer()}] = true
			if v.Type() == failType {
				f := (*syntax.Fail)(v.UnsafePointer())
				ids[f] = len(ids)
			}
			walk(v.Elem())
		case reflect.Interface:
			if !v.IsNil() {
				walk(v.Elem())
			}
		case reflect.Struct:
			for i := 0; i < v.NumField(); i++ {
				walk(v.Field(i))
			}
		case reflect.Slice, reflect.Array:
			for i := 0; i < v.Len(); i++ {
				walk(v.Index(i))
			}
		}
	}
	walk(reflect.ValueOf(prog.Body))
	return ids
}
