package solver

import "certsym/internal/z3worker"

// Close frees the chain's worker and drops every reference the chain holds to Z3 objects (its
// context, side tables and caches), so that the collector can free them (z3worker.Release: the
// chain weighs one plus its Z3 queries); Stats stay readable. A query after Close panics. Close
// may be called more than once.
func (c *Chain) Close() {
	if c.closed {
		return
	}
	c.closed = true
	c.env.z3.close() // a monitor that outlives the chain does not keep the worker
	c.top, c.layers, c.enc, c.cache = nil, nil, nil, nil
	z3worker.Release(1 + int64(c.Stats.Z3Queries))
}
