package engine

import "certsym/sym"

// Terms returns the factory of the run's terms: what makes new atoms (products, selects, the
// conditional terms of a merge of states, package merge) whose keys must not collide with the
// run's own. It belongs to the engine's goroutine.
func (e *Engine) Terms() *sym.Terms { return e.terms }
