// Step replay: the engine's run of a program, each expanded state's successors compared with the
// extracted expand of certsym-ref (path conditions up to equivalence, stores by equality).

package refinement

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"certsym/engine"
	"certsym/refinement/checker"
	"certsym/refinement/conv"
	"certsym/refinement/prover"
	"certsym/refinement/refclient"
	"certsym/spec/syntax"
	"certsym/sym"
)

func (c *unitChecker) engineRun() {
	opts := c.EngineOptions()
	if c.U.Long && c.Cfg.LongStates > opts.MaxStates {
		opts.MaxStates = c.Cfg.LongStates
	}
	start := time.Now()
	e := c.NewEngine(opts)
	taken := 0
	byDepth := map[int][]*engine.State{}
	var leaves []*engine.State
	last, finished := 0, false
	sr := &streamRun{}
	reported := map[*syntax.Fail]bool{}
	complete := false // the stream ended by itself (Finished or Stopped), not by the layer
	for !c.Expired() {
		s, err := e.Next()
		if err != nil {
			c.Report("oracle/engine-replay", "", -1, "the engine's own bug replay failed: %v", err)
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
		if taken++; taken <= c.Cfg.MaxStates {
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
		if i >= c.Cfg.PreciseStates {
			break
		}
		c.precise("oracle/precise", st)
	}
	if complete {
		c.checkVerdict("verdict", e, sr)
		c.stream = sr
	}
	if complete && !finished {
		c.CheckStop("stop", e, opts, start)
	}
	depth := last - 1 // every state of depth < last was expanded
	if finished {
		depth = 1 << 30
	}
	c.exhaustive("oracle/exhaustive", e, byDepth, depth, c.Cfg.OracleInputs, 0)
}

// stepReplay compares the engine's successors of st with certsym-ref expand's.
func (c *unitChecker) stepReplay(e *engine.Engine, st *engine.State) {
	succs := e.Expand(st, nil)
	if tooLarge(st, succs) {
		c.Sum.TooLarge++
		return
	}
	c.Sum.StatesReplayed++
	pcB, err := c.FormulaB(st.PC.Formula())
	if err != nil {
		c.Report("layer", "", st.Depth, "converting the path condition: %v", err)
		return
	}
	pcJSON, err := refclient.EncodeB(pcB)
	if err != nil {
		c.Report("layer", "", st.Depth, "encoding the path condition: %v", err)
		return
	}
	store := make([]json.RawMessage, len(c.Names))
	var arrays []json.RawMessage
	for i, t := range st.Store {
		if i >= len(c.Names) { // the arrays' terms
			a := t.ArrayValue()
			if a == nil {
				c.Report("layer", "", st.Depth, "store slot %d holds no array term", i)
				return
			}
			ra, err := conv.Arr(c.U.Prog, a)
			if err != nil {
				c.Report("layer", "", st.Depth, "converting the array terms: %v", err)
				return
			}
			raw, err := refclient.EncodeArr(ra)
			if err != nil {
				c.Report("layer", "", st.Depth, "encoding the array terms: %v", err)
				return
			}
			arrays = append(arrays, raw)
			continue
		}
		ta, err := c.TermA(t)
		if err != nil {
			c.Report("layer", "", st.Depth, "converting the store: %v", err)
			return
		}
		if store[i], err = refclient.EncodeA(ta); err != nil {
			c.Report("layer", "", st.Depth, "encoding the store: %v", err)
			return
		}
	}
	prog, err := refclient.EncodeStmt(st.Prog.Stmt())
	if err != nil {
		c.Report("layer", "", st.Depth, "encoding the program: %v", err)
		return
	}
	refs, err := c.Ref.ExpandA(pcJSON, store, c.Names, arrays, prog)
	if err != nil {
		c.Report("reference", "", st.Depth, "expand of %s: %v", checker.StateString(st, c.Slots), err)
		return
	}
	if len(refs) != len(succs) {
		c.Report("step-replay/successors", "", st.Depth, "state %s: the engine has %d successors, the reference %d:\n  engine:\n%s  reference:\n%s",
			checker.StateString(st, c.Slots), len(succs), len(refs), c.engineSuccs(succs), c.refSuccs(refs))
		return
	}
	for i, s := range succs {
		c.Sum.SuccessorsCompared++
		r := refs[i]
		if a, b := refclient.Canon(s.Prog.Stmt()), refclient.Canon(r.Prog); a != b {
			c.Report("step-replay/program", "", st.Depth, "state %s, successor %d: programs differ:\n    engine:    %s\n    reference: %s", checker.StateString(st, c.Slots), i, a, b)
			continue
		}
		c.comparePC(st, i, s, r)
		c.compareStore(st, i, s, r)
	}
}

func (c *unitChecker) engineSuccs(ss []*engine.State) string {
	var b strings.Builder
	for _, s := range ss {
		b.WriteString("    " + checker.StateString(s, c.Slots) + "\n")
	}
	return b.String()
}

func (c *unitChecker) refSuccs(rs []refclient.SymSucc) string {
	var b strings.Builder
	for _, r := range rs {
		var parts []string
		for i, x := range c.Names {
			parts = append(parts, x+" = "+syntax.PrintA(r.Store[i]))
		}
		fmt.Fprintf(&b, "    ⟨%s | %s | %s⟩\n", syntax.PrintB(r.PC), strings.Join(parts, ", "), refclient.Canon(r.Prog))
	}
	return b.String()
}

func (c *unitChecker) comparePC(st *engine.State, i int, s *engine.State, r refclient.SymSucc) {
	f := s.PC.Formula()
	fa, err := c.FormulaB(f)
	if err != nil {
		c.Report("layer", "", st.Depth, "converting the path condition: %v", err)
		return
	}
	for _, v := range c.Valuations(s.PC.Witness) {
		eng, def := f.EvalOK(v)
		mine, err := refclient.EvalBE(fa, v)
		if !def || err != nil {
			continue // a quantifier range too large to evaluate under v: no claim
		}
		if mine != eng {
			c.Report("layer", c.InputString(v), st.Depth, "the engine's formula %s evaluates to %v, its syntax tree to %v", s.PC.String(c.Slots), eng, mine)
			return
		}
		if ref, err := refclient.EvalBE(r.PC, v); err == nil && ref != eng {
			c.Report("step-replay/pc-valuation", c.InputString(v), st.Depth, "state %s, successor %d: under %s the engine's path condition %s is %v, the reference's %s is %v",
				checker.StateString(st, c.Slots), i, c.InputString(v), s.PC.String(c.Slots), eng, syntax.PrintB(r.PC), ref)
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
		f1, _ = c.FormulaB(s.PC.Conj) // a subformula of fa: converted above
	}
	parent, _ := c.FormulaB(st.PC.Formula()) // an ancestor of fa: converted above
	if and, ok := r.PC.(*syntax.BinB); ok && f1 != nil && and.Op == syntax.And && syntax.PrintB(and.L) == syntax.PrintB(parent) {
		if verdict, _ := c.Prover.Equivalent(f1, and.R, c.Names); verdict == prover.Valid {
			return
		}
	}
	switch verdict, m := c.Prover.Equivalent(fa, r.PC, c.Names); verdict {
	case prover.Invalid:
		c.Report("step-replay/pc-z3", c.InputString(m), st.Depth, "state %s, successor %d: the path conditions are not equivalent (they differ under %s):\n    engine:    %s\n    reference: %s",
			checker.StateString(st, c.Slots), i, c.InputString(m), s.PC.String(c.Slots), syntax.PrintB(r.PC))
	}
}

func (c *unitChecker) compareStore(st *engine.State, i int, s *engine.State, r refclient.SymSucc) {
	var el, rl []syntax.AExpr
	for j := range c.Names {
		ea, err := c.TermA(s.Store[j])
		if err != nil {
			c.Report("layer", "", st.Depth, "converting the store: %v", err)
			return
		}
		if syntax.PrintA(ea) != syntax.PrintA(r.Store[j]) {
			el, rl = append(el, ea), append(rl, r.Store[j])
		}
	}
	c.compareArrays(st, i, s, r)
	if len(el) == 0 {
		return
	}
	for _, v := range c.Valuations(s.PC.Witness) {
		for j, x := range c.Names {
			eng := s.Store[j].Eval(v)
			if ref := refclient.EvalA(r.Store[j], v); !ref.Equal(eng) {
				c.Report("step-replay/store-valuation", c.InputString(v), st.Depth, "state %s, successor %d: under %s variable %s is %s = %s in the engine, %s = %s in the reference",
					checker.StateString(st, c.Slots), i, c.InputString(v), x, s.Store[j].String(c.Slots), eng, syntax.PrintA(r.Store[j]), ref)
				return
			}
		}
	}
	if verdict, m := c.Prover.EqualTerms(el, rl, c.Names); verdict == prover.Invalid {
		var diff []string
		for k := range el {
			if a, b := refclient.EvalA(el[k], m), refclient.EvalA(rl[k], m); !a.Equal(b) {
				diff = append(diff, fmt.Sprintf("%s (engine) = %s, %s (reference) = %s", syntax.PrintA(el[k]), a, syntax.PrintA(rl[k]), b))
			}
		}
		c.Report("step-replay/store-z3", c.InputString(m), st.Depth, "state %s, successor %d: the stores differ under %s: %s",
			checker.StateString(st, c.Slots), i, c.InputString(m), strings.Join(diff, "; "))
	}
}

// tooLarge reports whether the path condition or store of st or of one of its successors, written
// as trees, pass conv.MaxTreeNodes: the state is then left out of the step replay (conv.ErrTree).
func tooLarge(st *engine.State, succs []*engine.State) bool {
	fs := []*sym.Formula{st.PC.Formula()}
	ts := append([]*sym.Term(nil), st.Store...)
	for _, s := range succs {
		fs = append(fs, s.PC.Formula())
		ts = append(ts, s.Store...)
	}
	return conv.TooLarge(fs, ts)
}
