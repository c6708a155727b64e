package distrib

import (
	"fmt"
	"time"

	"certsym/engine"
	"certsym/engine/job"
	"certsym/engine/steal"
	"certsym/internal/budget"
	"certsym/pathcond"
	"certsym/spec/syntax"
)

// Confirmer is the coordinator's engine that confirms the report's bugs as run --workers's
// confirming engine does (package steal): it walks each bug's path from the initial state, in the
// report's order, deciding each state on the way (job.Walk), and confirms the model its solver
// finds on the concrete semantics (engine.Confirm). A bug's input is then a function of its path
// and of the bugs before it, the same as run --workers prints, not of the worker that found it or
// of the queries that worker's solver answered before.
type Confirmer struct {
	e       *engine.Engine
	fails   map[int]*syntax.Fail
	noPrune bool
	render  Renderer
}

// NewConfirmer makes the confirming engine of a run of prog with the options of spec, bounded by
// mon and timeout (from now: make it when the run starts, as the time bound of the replays is the
// run's), its bugs rendered by render. Its queries are bounded as steal's confirmer's are: by the
// resource limit when there is one, with ConfirmTimeoutFactor times the query time bound behind
// it.
func NewConfirmer(prog *syntax.Program, spec *Spec, mon *budget.Monitor, timeout time.Duration, render Renderer) *Confirmer {
	opts := engine.Options{Strategy: engine.BFS, NoPrune: spec.NoPrune, AllBugs: spec.AllBugs, Monitor: mon,
		Limits: budget.Limits{QueryTimeout: spec.QueryTimeout, RLimit: spec.RLimit, Timeout: timeout}}
	if opts.RLimit > 0 {
		opts.QueryTimeout *= steal.ConfirmTimeoutFactor
	}
	c := &Confirmer{e: engine.New(prog, opts), fails: map[int]*syntax.Fail{}, noPrune: spec.NoPrune, render: render}
	for f, id := range engine.FailIDs(prog) {
		c.fails[id] = f
	}
	return c
}

// Close releases the engine.
func (c *Confirmer) Close() { c.e.Close() }

// Confirm renders the report's bugs again from this engine's models, in order. Where the engine
// cannot decide a bug's path condition within its bounds, or a bound cuts the replay of its model
// short, the worker's rendering stays (its own model, confirmed by the worker). A path that names
// no state, or a model whose run does not reach the bug, is certsym's own error.
func (c *Confirmer) Confirm(rep *Report) error {
	for i, ev := range rep.Found {
		j, err := job.Parse(ev.At)
		if err != nil {
			return fmt.Errorf("the bug at %s: %v", ev.At, err)
		}
		f := c.fails[ev.Fail]
		if f == nil {
			return fmt.Errorf("the bug at %s: no error numbered %d", ev.At, ev.Fail)
		}
		st, err := job.Walk(c.e, j, c.noPrune)
		if err != nil {
			return fmt.Errorf("confirming the bug at %s: %v", ev.At, err)
		}
		if st.ErrorOf() != f {
			return fmt.Errorf("internal error: the path of the bug at %s (%s at line %d) names another state", ev.At, f.Kind, f.Line())
		}
		if c.e.Solver().Check(st.PC) != pathcond.Sat {
			continue
		}
		b, err := c.e.Confirm(st, f)
		if err != nil {
			return err
		}
		if b == nil {
			continue
		}
		if rep.Bugs[i], err = c.render(c.e, b); err != nil {
			return err
		}
	}
	return nil
}
