// Package sched is the refinement layer's own model of the fair scheduler of the engine's fair
// strategies (coverage, random-path): the K-interleaved scheduler of the Coq development (Sched.v,
// fair for every heuristic). Fed by the engine's Observer calls, it keeps the pending states in
// age order, as the engine should, and checks each pick against it: the state taken is pending,
// and every K-th pick (pick n, from 0, with n % K == K-1) is the oldest pending state. That is
// what makes the strategies fair: a state with j older pending states is taken within K*(j+1)
// picks. A run that ends with Finished must leave no state pending.
package sched

import (
	"fmt"

	"certsym/engine"
)

// Model is the scheduler's model for one run; it implements engine.Observer.
type Model struct {
	k       int
	pending []*engine.State // age order; nil once taken or pruned
	index   map[*engine.State]int
	head    int
	picks   int
	// Fairness counts the fairness picks checked.
	Fairness int
	// Violation is the first departure from the discipline, or "".
	Violation string
}

// New returns the model of a run with fairness period k (engine.FairnessPeriod).
func New(k int) *Model { return &Model{k: k, index: map[*engine.State]int{}} }

func (m *Model) add(s *engine.State) {
	m.index[s] = len(m.pending)
	m.pending = append(m.pending, s)
}

func (m *Model) remove(s *engine.State) bool {
	i, ok := m.index[s]
	if !ok {
		return false
	}
	delete(m.index, s)
	m.pending[i] = nil
	for m.head < len(m.pending) && m.pending[m.head] == nil {
		m.head++
	}
	return true
}

func (m *Model) fail(format string, args ...any) {
	if m.Violation == "" {
		m.Violation = fmt.Sprintf(format, args...)
	}
}

// Expanded checks the pick st and queues its successors (Pruned removes those pruning drops).
func (m *Model) Expanded(st *engine.State, succ []*engine.State) {
	n := m.picks
	m.picks++
	if n == 0 { // the initial state, the only one pending
		m.add(st)
	}
	if n%m.k == m.k-1 {
		m.Fairness++
		if m.head >= len(m.pending) || m.pending[m.head] != st {
			age := 0 // pending states older than st
			if i, ok := m.index[st]; ok {
				for _, s := range m.pending[m.head:i] {
					if s != nil {
						age++
					}
				}
			}
			m.fail("pick %d (every %d-th pick must take the oldest pending state) took a state at depth %d with %d older states pending, not the oldest of the %d pending", n, m.k, st.Depth, age, len(m.index))
		}
	}
	if !m.remove(st) {
		m.fail("pick %d took a state at depth %d that is not pending", n, st.Depth)
	}
	for _, s := range succ {
		m.add(s)
	}
}

// Pruned removes a successor that pruning dropped.
func (m *Model) Pruned(s *engine.State) {
	if !m.remove(s) {
		m.fail("a pruned state at depth %d was never produced", s.Depth)
	}
}

// End checks the end of a run: one that ended with Finished (finished) leaves nothing pending.
func (m *Model) End(finished bool) {
	if finished && len(m.index) != 0 {
		m.fail("the run finished with %d states the scheduler never took", len(m.index))
	}
}
