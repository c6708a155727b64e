// Package mergecheck is the refinement layer's check of the merge of states (package merge): the
// oracles of exhaustiveness and precision of a merge against its constituents, on the merges of
// real states. The program is expanded breadth-first from its initial state, level by level;
// the states of a level that have the same remaining program are merged (merge.Level) and the
// search goes on from the merged states, so that merges of merged states are checked too. For
// each merge, concrete inputs are sampled (the constituents' and the merged state's models,
// inputs near them, random ones) and:
//
//   - merge/exhaustive: every input satisfying a constituent's path condition satisfies the
//     merged path condition, and merge/exhaustive-store: the merged store evaluates under it to
//     that constituent's store;
//   - merge/precise: every input satisfying the merged path condition satisfies the path
//     condition of the constituent the merge reads it back as (merge.Merged.Which), and
//     merge/precise-store: the merged store evaluates under it to that constituent's store;
//   - merge/continuation: the merged state's remaining program is each constituent's (compared
//     as printed text, independently of the merge's own comparison), and two states of a level
//     whose programs print differently are refused.
//
// The oracles evaluate terms and formulas (sym's Eval and Concretize); they do not ask the
// reference, whose checks of the constituents' states are the layer's other checks.
package mergecheck

import (
	"math/rand"
	"time"

	"certsym/engine"
	"certsym/merge"
	"certsym/pathcond"
	"certsym/refinement/checker"
	"certsym/spec/integer"
	"certsym/spec/syntax"
	"certsym/sym"
)

// The budget of one program's merge check.
const (
	MaxDepth  = 24 // levels of the breadth-first expansion
	MaxLevel  = 32 // states kept per level (the rest of a level is dropped)
	MaxMerges = 24 // merges checked
	Near      = 4  // inputs drawn near each model (one slot moved by a small amount)
	Refusals  = 4  // pairs of states with different programs whose merge must be refused, per level
)

// Oracle is the merge check of one program.
type Oracle struct {
	Prog *syntax.Program
	Rng  *rand.Rand
	// Random draws a random valuation of the program's flat store.
	Random func() []integer.Int
	// Model returns a model of a path condition (its witness, or a solver's model), ok false
	// when there is none to give.
	Model func(pc *pathcond.PC) ([]integer.Int, bool)
	// Report records a mismatch of check under input v (nil: none).
	Report func(check string, v []integer.Int, format string, args ...any)
	// Expired says when to stop (the program's time budget).
	Expired func() bool
	// Valuations is the number of random valuations drawn per merge.
	Valuations int

	// Merges, Inputs and Refused count the merges checked, the inputs checked against them and
	// the merges of different programs refused.
	Merges, Inputs, Refused int
}

// Run expands e's program breadth-first, merging the states of each level that have the same
// remaining program, and checks the merges.
func (o *Oracle) Run(e *engine.Engine) {
	ts := e.Terms()
	level := []*engine.State{e.Initial()}
	for d := 0; d < MaxDepth && len(level) > 0 && o.Merges < MaxMerges && !o.Expired(); d++ {
		var next []*engine.State
		for _, s := range level {
			if s.IsFinal() || s.ErrorOf() != nil {
				continue
			}
			for _, k := range e.Expand(s, nil) {
				if len(next) < MaxLevel && e.Solver().Check(k.PC) != pathcond.Unsat {
					next = append(next, k)
				}
			}
		}
		o.refusals(ts, next)
		out, ms, _ := merge.Level(ts, next)
		for _, m := range ms {
			if o.Merges >= MaxMerges || o.Expired() {
				break
			}
			o.check(ts, m)
		}
		level = out
	}
}

// refusals checks that states of ss whose programs print differently are not merged.
func (o *Oracle) refusals(ts *sym.Terms, ss []*engine.State) {
	groups := merge.Groups(ss)
	n := 0
	for i := 0; i+1 < len(groups) && n < Refusals; i++ {
		a, b := groups[i][0], groups[i+1][0]
		if progText(a) == progText(b) {
			continue
		}
		n++
		if _, err := merge.Pair(ts, a, b); err == nil {
			o.Report("merge/continuation", nil, "two states with different remaining programs were merged:\n  %s\n  %s", progText(a), progText(b))
			continue
		}
		o.Refused++
	}
}

func progText(s *engine.State) string { return syntax.Print(s.Prog.Stmt()) }

// check runs the oracles on one merge.
func (o *Oracle) check(ts *sym.Terms, m *merge.Merged) {
	o.Merges++
	merged := m.State.PC.Formula()
	holds := func(f *sym.Formula, v []integer.Int) (val, ok bool) { return f.EvalOK(v) }
	want := progText(m.State)
	parts := make([]*sym.Formula, len(m.Parts))
	for i, p := range m.Parts {
		parts[i] = p.State.PC.Formula()
		if got := progText(p.State); got != want {
			o.Report("merge/continuation", nil, "constituent %d has the program\n%s\nthe merged state\n%s", i, got, want)
		}
	}
	sameStore := func(i int, v []integer.Int) bool {
		a, b := ts.Concretize(m.State.Store, v), ts.Concretize(m.Parts[i].State.Store, v)
		for k := range a {
			if !a[k].Equal(b[k]) {
				return false
			}
		}
		return true
	}
	// exhaustive: the inputs of each constituent
	for i, p := range m.Parts {
		for _, v := range o.samples(p.State.PC) {
			if val, ok := holds(parts[i], v); !ok || !val {
				continue
			}
			o.Inputs++
			if val, ok := holds(merged, v); ok && !val {
				o.Report("merge/exhaustive", v, "an input of constituent %d does not satisfy the merged path condition", i)
				return
			}
			if !sameStore(i, v) {
				o.Report("merge/exhaustive-store", v, "under an input of constituent %d, the merged store evaluates to %v, the constituent's to %v",
					i, ts.Concretize(m.State.Store, v), ts.Concretize(p.State.Store, v))
				return
			}
		}
	}
	// precise: the inputs of the merged state
	var vs [][]integer.Int
	vs = append(vs, o.samples(m.State.PC)...)
	for _, p := range m.Parts {
		vs = append(vs, o.samples(p.State.PC)...)
	}
	for _, v := range vs {
		if val, ok := holds(merged, v); !ok || !val {
			continue
		}
		o.Inputs++
		i := m.Which(v)
		if i < 0 {
			o.Report("merge/precise", v, "an input of the merged state is read back as no constituent")
			return
		}
		if val, ok := holds(parts[i], v); ok && !val {
			o.Report("merge/precise", v, "an input of the merged state is read back as constituent %d, whose path condition it does not satisfy", i)
			return
		}
		if !sameStore(i, v) {
			o.Report("merge/precise-store", v, "under an input of the merged state read back as constituent %d, the merged store evaluates to %v, the constituent's to %v",
				i, ts.Concretize(m.State.Store, v), ts.Concretize(m.Parts[i].State.Store, v))
			return
		}
	}
}

// samples are inputs for a path condition: its model, inputs near it, random valuations (the
// caller keeps those that satisfy it).
func (o *Oracle) samples(pc *pathcond.PC) [][]integer.Int {
	var out [][]integer.Int
	if v, ok := o.Model(pc); ok {
		out = append(out, v)
		for j := 0; j < Near && len(v) > 0; j++ {
			w := append([]integer.Int(nil), v...)
			k := o.Rng.Intn(len(w))
			w[k] = w[k].Add(integer.Of(int64(o.Rng.Intn(7) - 3)))
			out = append(out, w)
		}
	}
	for j := 0; j < o.Valuations; j++ {
		out = append(out, o.Random())
	}
	return out
}

// MaxTime bounds the time of one program's merge check; it also takes at most half of the time
// left to the program, so that it never spends the program's budget (the check runs last).
const MaxTime = 2 * time.Second

// Run is the merge check of the checker's current program, in a run of the engine of its own
// (with the checker's crosscheck hook: the layer's conversion writes a formula over conditional
// terms as their cases, package conv).
func Run(c *checker.Checker) {
	opts := c.EngineOptions()
	opts.AllBugs = false
	e := c.NewEngine(opts)
	defer e.Close()
	deadline := time.Now().Add(c.Left(2*MaxTime) / 2)
	if d := e.Solver().Deadline(); d.IsZero() || deadline.Before(d) {
		e.Solver().SetDeadline(deadline)
	}
	expired := func() bool { return c.Expired() || time.Now().After(deadline) }
	o := &Oracle{Prog: c.U.Prog, Rng: c.Rng, Random: c.RandomValuation, Expired: expired, Valuations: c.Cfg.Valuations,
		Model: c.Model,
		Report: func(check string, v []integer.Int, format string, args ...any) {
			in := ""
			if v != nil {
				in = c.InputString(v)
			}
			c.Report(check, in, -1, format, args...)
		},
	}
	o.Run(e)
	c.Sum.Merges += o.Merges
	c.Sum.MergeInputs += o.Inputs
}
