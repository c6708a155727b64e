package engine

// Jobs (package engine/job) explore the subtree under one state in a run of their own: the run
// starts at the job's root instead of the initial state (StartAt), and hands its pending states
// over when it splits (PendingStates).

// StartAt makes root (a state of this engine: Initial's, or one Replay returned) the only pending
// state, so that the run explores root's subtree in the strategy's order. Only bfs and dfs runs
// (the engine's own queue) can start elsewhere.
func (e *Engine) StartAt(root *State) {
	if e.searcher != &e.queue {
		panic("engine.StartAt: only bfs and dfs runs start at a job's root")
	}
	clear(e.queue.items)
	e.queue.items, e.queue.head = append(e.queue.items[:0], root), 0
	e.cur, e.ahead = nil, nil
	e.mon.SetPending(1)
}

// PendingStates returns the pending states in the order the run would take them (bfs and dfs
// runs; a new slice).
func (e *Engine) PendingStates() []*State {
	if e.searcher != &e.queue {
		panic("engine.PendingStates: only bfs and dfs runs")
	}
	out := make([]*State, 0, e.queue.len())
	if e.queue.lifo {
		for i := len(e.queue.items) - 1; i >= e.queue.head; i-- {
			out = append(out, e.queue.items[i])
		}
		return out
	}
	return append(out, e.queue.items[e.queue.head:]...)
}
