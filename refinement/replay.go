// Step replay: the engine's run of a program, each expanded state's successors compared with the
// extracted expand of certsym-ref (path conditions up to equivalence, stores by equality).

package refinement

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"certsym/engine"
	"certsym/internal/budget"
	"certsym/refinement/prover"
	"certsym/refinement/refclient"
	"certsym/spec/integer"
	"certsym/spec/syntax"
)

func (c *checker) engineOptions() engine.Options {
	return engine.Options{Limits: budget.Limits{MaxStates: c.cfg.MaxStates, RLimit: c.cfg.EngineRLimit,
		QueryTimeout: c.cfg.EngineTimeout, Timeout: c.left(32 * time.Second)}, AllBugs: true}
}

// newEngine creates an engine whose solver queries also end at the program's deadline.
func (c *checker) newEngine(opts engine.Options) *engine.Engine {
	e := engine.New(c.u.Prog, opts)
	if !c.deadline.IsZero() {
		if d := e.Solver().Deadline; d.IsZero() || c.deadline.Before(d) {
			e.Solver().Deadline = c.deadline
		}
	}
	return e
}

// streamBudget is the number of states of the unpruned stream compared for the current unit.
func (c *checker) streamBudget() int {
	if c.u.Long && c.cfg.LongStreamStates > c.cfg.StreamStates {
		return c.cfg.LongStreamStates
	}
	return c.cfg.StreamStates
}

func (c *checker) engineRun() {
	opts := c.engineOptions()
	if c.u.Long && c.cfg.LongStates > opts.MaxStates {
		opts.MaxStates = c.cfg.LongStates
	}
	start := time.Now()
	e := c.newEngine(opts)
	taken := 0
	byDepth := map[int][]*engine.State{}
	var leaves []*engine.State
	last, finished := 0, false
	sr := &streamRun{}
	reported := map[*syntax.Fail]bool{}
	complete := false // the stream ended by itself (Finished or Stopped), not by the layer
	for !c.expired() {
		s, err := e.Next()
		if err != nil {
			c.report("oracle/engine-replay", "", -1, "the engine's own bug replay failed: %v", err)
			break
		}
		sr.observe(s, reported)
		if s.Kind == engine.Finished {
			finished, complete = true, true
			break
		}
		if s.Kind == engine.Stopped {
			complete = true
			break
		}
		st := s.State
		if taken++; taken <= c.cfg.MaxStates {
			c.stepReplay(e, st)
		}
		byDepth[st.Depth] = append(byDepth[st.Depth], st)
		last = st.Depth
		if st.IsFinal() || st.ErrorOf() != nil {
			leaves = append(leaves, st)
		}
		if s.Kind == engine.BugFound {
			c.bugReplay(s.Bug)
		}
	}
	// is_probably_precise: final and error states' models replay to them.
	for i, st := range leaves {
		if i >= c.cfg.PreciseStates {
			break
		}
		c.precise("oracle/precise", st)
	}
	if complete {
		c.checkVerdict("verdict", e, sr)
		c.stream = sr
	}
	if complete && !finished {
		c.checkStop("stop", e, opts, start)
	}
	depth := last - 1 // every state of depth < last was expanded
	if finished {
		depth = 1 << 30
	}
	c.exhaustive("oracle/exhaustive", e, byDepth, depth, c.cfg.OracleInputs)
}

// stepReplay compares the engine's successors of st with certsym-ref expand's.
func (c *checker) stepReplay(e *engine.Engine, st *engine.State) {
	c.sum.StatesReplayed++
	succs := e.Expand(st, nil)
	pcJSON, err := refclient.EncodeB(c.formulaB(st.PC.Formula()))
	if err != nil {
		c.report("layer", "", st.Depth, "encoding the path condition: %v", err)
		return
	}
	store := make([]json.RawMessage, len(c.names))
	var arrays []json.RawMessage
	for i, t := range st.Store {
		if i >= len(c.names) { // the arrays' terms (issue 13)
			a := t.ArrayValue()
			if a == nil {
				c.report("layer", "", st.Depth, "store slot %d holds no array term", i)
				return
			}
			raw, err := refclient.EncodeArr(c.exporter().arr(a))
			if err != nil {
				c.report("layer", "", st.Depth, "encoding the array terms: %v", err)
				return
			}
			arrays = append(arrays, raw)
			continue
		}
		if store[i], err = refclient.EncodeA(c.termA(t)); err != nil {
			c.report("layer", "", st.Depth, "encoding the store: %v", err)
			return
		}
	}
	prog, err := refclient.EncodeStmt(st.Prog.Stmt())
	if err != nil {
		c.report("layer", "", st.Depth, "encoding the program: %v", err)
		return
	}
	refs, err := c.ref.ExpandA(pcJSON, store, c.names, arrays, prog)
	if err != nil {
		c.report("reference", "", st.Depth, "expand of %s: %v", stateString(st, c.slots), err)
		return
	}
	if len(refs) != len(succs) {
		c.report("step-replay/successors", "", st.Depth, "state %s: the engine has %d successors, the reference %d:\n  engine:\n%s  reference:\n%s",
			stateString(st, c.slots), len(succs), len(refs), c.engineSuccs(succs), c.refSuccs(refs))
		return
	}
	for i, s := range succs {
		c.sum.SuccessorsCompared++
		r := refs[i]
		if a, b := refclient.Canon(s.Prog.Stmt()), refclient.Canon(r.Prog); a != b {
			c.report("step-replay/program", "", st.Depth, "state %s, successor %d: programs differ:\n    engine:    %s\n    reference: %s", stateString(st, c.slots), i, a, b)
			continue
		}
		c.comparePC(st, i, s, r)
		c.compareStore(st, i, s, r)
	}
}

func (c *checker) engineSuccs(ss []*engine.State) string {
	var b strings.Builder
	for _, s := range ss {
		b.WriteString("    " + stateString(s, c.slots) + "\n")
	}
	return b.String()
}

func (c *checker) refSuccs(rs []refclient.SymSucc) string {
	var b strings.Builder
	for _, r := range rs {
		var parts []string
		for i, x := range c.names {
			parts = append(parts, x+" = "+syntax.PrintA(r.Store[i]))
		}
		fmt.Fprintf(&b, "    ⟨%s | %s | %s⟩\n", syntax.PrintB(r.PC), strings.Join(parts, ", "), refclient.Canon(r.Prog))
	}
	return b.String()
}

// valuations are the random valuations of one comparison, plus the given ones.
func (c *checker) valuations(extra ...[]integer.Int) [][]integer.Int {
	vs := make([][]integer.Int, 0, c.cfg.Valuations+len(extra))
	for _, e := range extra {
		if e != nil {
			vs = append(vs, e)
		}
	}
	for i := 0; i < c.cfg.Valuations; i++ {
		vs = append(vs, c.randomValuation())
	}
	return vs
}

func (c *checker) comparePC(st *engine.State, i int, s *engine.State, r refclient.SymSucc) {
	f := s.PC.Formula()
	fa := c.formulaB(f)
	for _, v := range c.valuations(s.PC.Witness) {
		eng, def := f.EvalOK(v)
		mine, err := refclient.EvalBE(fa, v)
		if !def || err != nil {
			continue // a quantifier range too large to evaluate under v: no claim
		}
		if mine != eng {
			c.report("layer", c.inputString(v), st.Depth, "the engine's formula %s evaluates to %v, its syntax tree to %v", s.PC.String(c.slots), eng, mine)
			return
		}
		if ref, err := refclient.EvalBE(r.PC, v); err == nil && ref != eng {
			c.report("step-replay/pc-valuation", c.inputString(v), st.Depth, "state %s, successor %d: under %s the engine's path condition %s is %v, the reference's %s is %v",
				stateString(st, c.slots), i, c.inputString(v), s.PC.String(c.slots), eng, syntax.PrintB(r.PC), ref)
			return
		}
	}
	// Both path conditions extend the parent's φ (sent as is to the reference, which answers
	// φ ∧ g): when the engine's new conjunct f is equivalent to g on its own, φ ∧ f ⇔ φ ∧ g
	// follows without φ (a small query); otherwise decide the full equivalence.
	var f1 syntax.BExpr
	switch {
	case s.PC == st.PC:
		f1 = &syntax.BoolLit{Val: true}
	case s.PC.Parent == st.PC:
		f1 = c.formulaB(s.PC.Conj)
	}
	if and, ok := r.PC.(*syntax.BinB); ok && f1 != nil && and.Op == syntax.And && syntax.PrintB(and.L) == syntax.PrintB(c.formulaB(st.PC.Formula())) {
		if verdict, _ := c.prover.Equivalent(f1, and.R, c.names); verdict == prover.Valid {
			return
		}
	}
	switch verdict, m := c.prover.Equivalent(fa, r.PC, c.names); verdict {
	case prover.Invalid:
		c.report("step-replay/pc-z3", c.inputString(m), st.Depth, "state %s, successor %d: the path conditions are not equivalent (they differ under %s):\n    engine:    %s\n    reference: %s",
			stateString(st, c.slots), i, c.inputString(m), s.PC.String(c.slots), syntax.PrintB(r.PC))
	}
}

func (c *checker) compareStore(st *engine.State, i int, s *engine.State, r refclient.SymSucc) {
	var el, rl []syntax.AExpr
	for j := range c.names {
		ea := c.termA(s.Store[j])
		if syntax.PrintA(ea) != syntax.PrintA(r.Store[j]) {
			el, rl = append(el, ea), append(rl, r.Store[j])
		}
	}
	c.compareArrays(st, i, s, r)
	if len(el) == 0 {
		return
	}
	for _, v := range c.valuations(s.PC.Witness) {
		for j, x := range c.names {
			eng := s.Store[j].Eval(v)
			if ref := refclient.EvalA(r.Store[j], v); !ref.Equal(eng) {
				c.report("step-replay/store-valuation", c.inputString(v), st.Depth, "state %s, successor %d: under %s variable %s is %s = %s in the engine, %s = %s in the reference",
					stateString(st, c.slots), i, c.inputString(v), x, s.Store[j].String(c.slots), eng, syntax.PrintA(r.Store[j]), ref)
				return
			}
		}
	}
	if verdict, m := c.prover.EqualTerms(el, rl, c.names); verdict == prover.Invalid {
		var diff []string
		for k := range el {
			if a, b := refclient.EvalA(el[k], m), refclient.EvalA(rl[k], m); !a.Equal(b) {
				diff = append(diff, fmt.Sprintf("%s (engine) = %s, %s (reference) = %s", syntax.PrintA(el[k]), a, syntax.PrintA(rl[k]), b))
			}
		}
		c.report("step-replay/store-z3", c.inputString(m), st.Depth, "state %s, successor %d: the stores differ under %s: %s",
			stateString(st, c.slots), i, c.inputString(m), strings.Join(diff, "; "))
	}
}
