package infer

import (
	"fmt"

	"certsym/internal/fault"
	"certsym/spec/syntax"
)

// Set is a conjunction of candidate invariants for each loop.
type Set map[*syntax.While][]*Candidate

// Clone copies the set (the slices, not the candidates).
func (s Set) Clone() Set {
	out := Set{}
	for w, cs := range s {
		out[w] = append([]*Candidate(nil), cs...)
	}
	return out
}

// Size is the number of candidates of all loops.
func (s Set) Size() int {
	n := 0
	for _, cs := range s {
		n += len(cs)
	}
	return n
}

// Refutation is a candidate the oracle could not show: false (or undefined) on entry to its
// loop, or not preserved by one execution of the loop's body from a state satisfying every
// candidate of the set and the loop's condition.
type Refutation struct {
	Loop  *syntax.While
	Cand  *Candidate
	Entry bool // refuted on entry; otherwise not preserved
}

// Oracle decides the entry and preservation claims of every candidate of the set, each loop's
// candidates taken together as its invariant (the solver, through the proof mode). It returns
// the candidates it could not show; none means the set is inductive.
type Oracle func(Set) ([]Refutation, error)

// HoudiniStats count a run of Houdini.
type HoudiniStats struct {
	Rounds  int // calls of the oracle
	Dropped int // candidates dropped
}

// Houdini is the fixpoint of Flanagan and Leino's Houdini: ask the oracle about the whole set,
// drop every candidate it refutes (on entry or not preserved), and ask again, until it refutes
// none: the rest is then inductive, the largest inductive subset of the candidates (the oracle
// being exact). A set emptied of a loop's candidates keeps the loop with none. maxRounds bounds
// the oracle's calls (0: as many as candidates plus one, which always suffices: each round
// drops one at least); a set still refuted after them is an error.
func Houdini(set Set, oracle Oracle, maxRounds int) (Set, HoudiniStats, error) {
	cur := set.Clone()
	var st HoudiniStats
	if maxRounds <= 0 {
		maxRounds = cur.Size() + 1
	}
	for st.Rounds < maxRounds {
		st.Rounds++
		refs, err := oracle(cur)
		if err != nil {
			return nil, st, err
		}
		if len(refs) == 0 {
			return cur, st, nil
		}
		drop := map[*Candidate]bool{}
		for _, r := range refs {
			if fault.Active == fault.HoudiniKeepsEntryRefuted && r.Entry {
				continue
			}
			drop[r.Cand] = true
		}
		if len(drop) == 0 { // only under the fault: the step drops nothing and stops
			return cur, st, nil
		}
		for w, cs := range cur {
			kept := cs[:0]
			for _, c := range cs {
				if drop[c] {
					st.Dropped++
					continue
				}
				kept = append(kept, c)
			}
			cur[w] = kept
		}
	}
	return nil, st, fmt.Errorf("houdini: the candidates are still refuted after %d rounds", st.Rounds)
}
