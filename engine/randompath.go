package engine

import "math/rand/v2"

// The RandomPath heuristic (KLEE's random path selection). The execution tree has a node per
// expanded state that branched (two or more successors kept) and a leaf per pending state; a
// state expanded with a single kept successor hands its leaf on to it, so a path without
// branches costs one node. Each node counts the pending leaves below it. A pick walks from the
// root, choosing uniformly (seeded PRNG) among the children whose count is not zero, down to a
// leaf: a state is chosen with probability 2^-b for b binary branchings above it, whatever their
// depth, so a long or infinite path does not crowd out the short ones. Each pick and each update
// costs the number of branchings on the path.

// rpNode is a node of the execution tree.
type rpNode struct {
	parent *rpNode
	kids   []*rpNode
	count  int    // pending leaves below (1 for a pending leaf)
	en     *entry // the pending state of a leaf
}

// randomPath is the RandomPath heuristic.
type randomPath struct {
	root *rpNode
	rng  *rand.Rand
	buf  []*rpNode
}

func newRandomPath(seed int64) *randomPath {
	return &randomPath{rng: rand.New(rand.NewPCG(uint64(seed), 0x9e3779b97f4a7c15))}
}

func (r *randomPath) add(parent *entry, kids []*entry) {
	if parent == nil {
		r.root = &rpNode{count: 1, en: kids[0]}
		kids[0].leaf = r.root
		return
	}
	n := parent.leaf
	n.en = nil
	switch len(kids) {
	case 0:
	case 1: // no branching: the leaf is handed on
		n.en, kids[0].leaf = kids[0], n
		return
	default:
		for _, en := range kids {
			c := &rpNode{parent: n, count: 1, en: en}
			en.leaf = c
			n.kids = append(n.kids, c)
		}
	}
	for d := len(kids) - 1; n != nil; n = n.parent {
		n.count += d
	}
}

func (r *randomPath) pick() *entry {
	n := r.root
	for n.en == nil {
		live := r.buf[:0]
		for _, c := range n.kids {
			if c.count > 0 {
				live = append(live, c)
			}
		}
		n = live[r.rng.IntN(len(live))]
		r.buf = live
	}
	return n.en
}

// taken removes nothing: the leaf stays pending in the counts until add, which the engine calls
// right after the expansion, settles its successors.
func (r *randomPath) taken(*entry) {}
