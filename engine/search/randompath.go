package search

import "math/rand/v2"

// The random path heuristic (KLEE's random path selection). The execution tree has a leaf per
// pending state and a node per expanded state that branched (two or more successors kept); a
// state expanded with a single kept successor hands its leaf on to it, so a path without
// branches costs one node. A pick walks from the root, choosing uniformly (seeded PRNG) among
// the children that have pending leaves below them, down to a leaf: a state is chosen with
// probability 2^-b for b binary branchings above it, whatever their depth, so a long or
// infinite path does not crowd out the short ones.
//
// Only the live part of the tree is kept: a leaf whose state finished (expanded with no
// successor kept) is removed from its parent's children, and a node left with one child is
// spliced out, its child taking its place. Every node then has two or more children, each with
// pending leaves below it: the walk makes a random choice at each node it passes, and a node
// with one live child, where the choice is forced, costs nothing. The distribution is the one
// of the walk over the whole tree (a forced choice multiplies by 1), and the costs do not
// depend on the depth of the paths: add and removal are O(1) and O(successors), and a pick
// passes d nodes to reach a leaf of probability at most 2^-d, so its expected length is at
// most the entropy of the choice, log2 of the number of pending states at worst. The count of
// pending leaves per node that the walk over the whole tree needed, updated up to the root at
// every expansion, and its passing the path's forced choices made each pick and each update
// cost the depth of the path.

// rpNode is a node of the live execution tree: a leaf (en set) or a node with two or more
// children.
type rpNode[S any] struct {
	parent *rpNode[S]
	at     int // the index of the node among its parent's children
	kids   []*rpNode[S]
	en     *entry[S] // the pending state of a leaf
}

// randomPath is the random path heuristic.
type randomPath[S any] struct {
	root *rpNode[S] // nil when no state is pending
	rng  *rand.Rand
}

func newRandomPath[S any](seed int64) *randomPath[S] {
	return &randomPath[S]{rng: rand.New(rand.NewPCG(uint64(seed), 0x9e3779b97f4a7c15))}
}

func (r *randomPath[S]) add(parent *entry[S], kids []*entry[S]) {
	if parent == nil {
		r.root = &rpNode[S]{en: kids[0]}
		kids[0].leaf = r.root
		return
	}
	n := parent.leaf
	parent.leaf = nil
	switch len(kids) {
	case 0: // the state finished: its leaf goes
		r.remove(n)
	case 1: // no branching: the leaf is handed on
		n.en, kids[0].leaf = kids[0], n
	default:
		n.en = nil
		n.kids = make([]*rpNode[S], len(kids))
		for i, en := range kids {
			c := &rpNode[S]{parent: n, at: i, en: en}
			en.leaf = c
			n.kids[i] = c
		}
	}
}

// remove takes the leaf n out of the tree, and splices out its parent if one child is left.
func (r *randomPath[S]) remove(n *rpNode[S]) {
	p := n.parent
	if p == nil {
		r.root = nil
		return
	}
	last := len(p.kids) - 1
	p.kids[n.at] = p.kids[last]
	p.kids[n.at].at = n.at
	p.kids[last] = nil
	p.kids = p.kids[:last]
	if len(p.kids) > 1 {
		return
	}
	c := p.kids[0]
	c.parent, c.at = p.parent, p.at
	if p.parent == nil {
		r.root = c
	} else {
		p.parent.kids[p.at] = c
	}
}

func (r *randomPath[S]) pick() *entry[S] {
	n := r.root
	for n.en == nil {
		n = n.kids[r.rng.IntN(len(n.kids))]
	}
	return n.en
}

// taken removes nothing: the leaf stays in the tree until add, which the engine calls right
// after the expansion, settles its successors.
func (r *randomPath[S]) taken(*entry[S]) {}
