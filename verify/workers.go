package verify

import (
	"sync"

	"certsym/bounded"
)

// The workers of certsym verify (Options.Workers, issue 17). What runs on them is pure: a
// function of data that is final when it is handed over, each result stored in its own place
// (a path's fields), so the report is the same for every number of workers:
//   - the path conditions of the numbered paths (Path.PathCondition), rendered while the
//     interpretation goes on: a path condition's conjuncts and bounds are set when it is made
//     (sym.Extend), and the solver's queries write only its status, witness and memos, which the
//     rendering does not read;
//   - the tests of the first MaxPathTests paths, replayed on the bounded concrete semantics once
//     the interpretation is over and the paths left undecided have been decided (tests).
//
// What stays on the calling goroutine, and why: the interpretation, its pruning queries and the
// claims' queries (CHECKPRIM). They share the one solver, whose answers and models depend on its
// history (the caches of sym/cache.go, Z3's incremental stack), and the state bound cuts the tree
// in the order of the search; the claims' queries also make new terms (sym.Terms numbers the
// atoms in creation order, which orders the monomials of every later formula) and memoize their
// Z3 terms in the path conditions they share with the interpreter's. Deciding them on other
// solvers would give other models (other counterexamples) than one worker does.

// textChunk is the number of paths handed to a worker at once.
const textChunk = 64

// pathTexts renders the path conditions of the paths on worker goroutines as the paths are
// numbered (verifier.path).
type pathTexts struct {
	names []string
	jobs  chan []*Path
	wg    sync.WaitGroup
	chunk []*Path
}

// newPathTexts starts n workers.
func newPathTexts(names []string, n int) *pathTexts {
	t := &pathTexts{names: names, jobs: make(chan []*Path, 4*n)}
	for range n {
		t.wg.Go(func() {
			for ps := range t.jobs {
				for _, p := range ps {
					p.PathCondition = p.pc.String(t.names)
				}
			}
		})
	}
	return t
}

// add hands path p to the workers (in chunks).
func (t *pathTexts) add(p *Path) {
	if t.chunk = append(t.chunk, p); len(t.chunk) == textChunk {
		t.jobs <- t.chunk
		t.chunk = nil
	}
}

// wait hands over the last chunk and returns when every path given to add has its path
// condition rendered.
func (t *pathTexts) wait() {
	if len(t.chunk) > 0 {
		t.jobs <- t.chunk
		t.chunk = nil
	}
	close(t.jobs)
	t.wg.Wait()
}

// each is bounded.Each with the verification's workers.
func (v *verifier) each(n int, f func(i int)) { bounded.Each(n, v.opts.Workers, f) }
