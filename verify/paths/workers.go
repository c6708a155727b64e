package paths

import (
	"sync"

	"certsym/internal/budget"
)

// The workers of certsym verify (verify.Options.Workers) run what is a function of one path,
// each result stored in the path (so the report is the same for every number of workers): the
// rendering of its condition as the interpretation goes on (pathcond.Extend makes its conjuncts and
// bounds final; the solver writes only its status, witness and memos), and the replay of its
// test. The interpretation and all queries stay on one goroutine (docs/verify.md, "Bounds and
// workers").

const textChunk = 64 // the paths handed to a worker at once

// Texts renders the path conditions of the paths on worker goroutines as the paths are
// numbered, handed over in chunks of textChunk.
type Texts struct {
	names []string
	jobs  chan []*Path
	wg    sync.WaitGroup
	chunk []*Path
}

// NewTexts starts n workers, which render with the symbols' names names. Once the partial
// report is due (mon.Due), the paths not rendered yet are not: their condition says why.
func NewTexts(names []string, n int, mon *budget.Monitor) *Texts {
	t := &Texts{names: names, jobs: make(chan []*Path, 4*n)}
	for range n {
		t.wg.Go(func() {
			for ps := range t.jobs {
				for _, p := range ps {
					if mon.Due() {
						p.PathCondition = "(not rendered: " + mon.Stop() + ")"
						continue
					}
					p.PathCondition = p.pc.String(t.names)
				}
			}
		})
	}
	return t
}

// Add hands path p to the workers; with last (p nil), the paths not handed over yet.
func (t *Texts) Add(p *Path, last bool) {
	if !last {
		t.chunk = append(t.chunk, p)
	}
	if len(t.chunk) == textChunk || (last && len(t.chunk) > 0) {
		t.jobs <- t.chunk
		t.chunk = nil
	}
}

// Wait returns when every path given to Add has its path condition rendered.
func (t *Texts) Wait() {
	t.Add(nil, true)
	close(t.jobs)
	t.wg.Wait()
}
