// Package crosscheck is the refinement layer's crosscheck of the engine's solver-free decisions
// (check "crosscheck/<rule>"): every
// conjunct the engine adds to a path condition while the layer checks a program passes through
// the crosscheck hook of its solver chain, and the layer asks its own Z3 encoding (a prover of its own,
// separate from the step replay's) the question the engine answered without Z3:
//
//   - implied (the conjunct was dropped): φ ∧ ¬f must be unsatisfiable;
//   - contradicted (the successor is known unsatisfiable): φ ∧ f must be unsatisfiable (a Z3
//     model of it is checked by the layer's own evaluator before it is reported);
//   - witness (the parent's witness, or the clamped witness of bounds only): the witness must
//     satisfy φ ∧ f under the layer's evaluator (no Z3 needed);
//   - every bound and linear fact the new path condition records (PC.Facts) must be implied by
//     φ ∧ f: φ ∧ f ∧ ¬fact unsatisfiable;
//   - an answer of the solver's caching layers (solver/cache.go; rules cache/query-cache,
//     cache/cex-model, cache/cex-unsat-subset, cache/repair, cache/slice-empty, and cache/slice for Z3's
//     answer about a slice): a witness must satisfy the whole path condition under the layer's
//     evaluator (no Z3 needed), an unsat answer must be confirmed by the layer's Z3 (a model of
//     the path condition is checked by the evaluator before it is reported).
//
// The hook is an option of the solver chain of each engine, bounded interpreter and verification
// a checker makes (solver.Options.CrossCheck, through checker.Checker.XC), so a decision reaches
// the worker (and the Z3 context) of its own program. Each of Run's workers makes a Worker, gives
// its Hook to its checker, and starts and stops it around each program.

package crosscheck

import (
	"fmt"

	"certsym/pathcond"
	"certsym/refinement/checker"
	"certsym/refinement/conv"
	"certsym/refinement/prover"
	"certsym/refinement/refclient"
	"certsym/spec/syntax"
)

// Worker is the crosscheck of one of Run's workers: its prover and the state of the program it
// checks.
type Worker struct {
	c       *checker.Checker
	prover  *prover.Prover
	on      bool // between Start and Stop
	seen    map[string]bool
	queries int // Z3 queries asked for the current program
}

// New makes the crosscheck of the checker c (its prover has c's bounds).
func New(c *checker.Checker) *Worker {
	return &Worker{c: c, prover: prover.New(c.Cfg.ProverRLimit, c.Cfg.ProverTimeout)}
}

// Hook is the crosscheck hook of the checker's solver chains (checker.Checker.XC): it hands the
// decision to w while w is checking a program.
func (w *Worker) Hook(d pathcond.Decision) {
	if w.on {
		w.crossDecision(d)
	}
}

// xcQueriesPerProgram bounds the crosscheck's Z3 queries per program (decisions beyond it are
// still counted, and their witnesses still checked).
const xcQueriesPerProgram = 150

func (w *Worker) crossDecision(d pathcond.Decision) {
	c := w.c
	s := c.Sum
	if s.Rules == nil {
		s.Rules = map[string]*checker.RuleCount{}
	}
	rc := s.Rules[d.Rule]
	if rc == nil {
		rc = &checker.RuleCount{}
		s.Rules[d.Rule] = rc
	}
	rc.Fired++
	if d.Kind == "unsat-parent" {
		return // nothing new: the parent's unsatisfiability is itself a checked decision or Z3's
	}
	names := c.Names
	nslots := c.U.Prog.Slots()
	phi, err1 := c.FormulaB(d.Parent.Formula())
	f, err2 := c.FormulaB(d.Conj)
	if err1 != nil || err2 != nil {
		return // conditional terms with too many cases to write in IMP: fired, not checked

	}
	both := &syntax.BinB{Op: syntax.And, L: phi, R: f}
	check := "crosscheck/" + d.Rule
	switch d.Kind {
	case "cache-witness":
		if ok, err := refclient.EvalBE(both, d.Witness); len(d.Witness) != nslots || (err == nil && !ok) {
			c.Report(check, c.InputString(d.Witness), -1, "the solver's caching (%s) says %s ∧ %s is satisfied by %s, the layer's evaluation says it is not",
				d.Rule, syntax.PrintB(phi), syntax.PrintB(f), c.InputString(d.Witness))
		}
		rc.Checked++
		return
	case "witness":
		// parent-witness: the parent's witness also satisfies f (whether it satisfies φ is the
		// parent's own claim: a Z3 model, or, with products abstracted in verify, a model of the
		// abstraction, which verify checks itself); pure-bounds-clamp: the clamped witness
		// satisfies all of φ ∧ f (bounds only).
		w := d.Result.Witness
		claim := f
		if d.Rule != "parent-witness" {
			claim = both
		}
		if ok, err := refclient.EvalBE(claim, w); len(w) != nslots || (err == nil && !ok) {
			c.Report(check, c.InputString(w), -1, "the engine says %s ∧ %s is satisfied by its witness (%s), the layer's evaluation says %s is not",
				syntax.PrintB(phi), syntax.PrintB(f), d.Rule, syntax.PrintB(claim))
		}
		rc.Checked++
	}
	xc := w
	if xc.queries >= xcQueriesPerProgram || c.Expired() {
		return
	}
	ask := func(rc *checker.RuleCount, q syntax.BExpr, what string) {
		key := what + "|" + syntax.PrintB(q)
		if xc.seen[key] {
			return
		}
		xc.seen[key] = true
		xc.queries++
		rc.Checked++
		v, m := xc.prover.Model(q, names)
		switch v {
		case prover.Undecided:
			rc.Undecided++
		case prover.Valid:
			if ok, err := refclient.EvalBE(q, m); err == nil && !ok {
				c.Report("prover", c.InputString(m), -1, "crosscheck: Z3 model does not satisfy %s", syntax.PrintB(q))
				return
			}
			c.Report(check, c.InputString(m), -1, "the engine decided without Z3 (rule %s) that %s, but under %s it is false: %s",
				d.Rule, what, c.InputString(m), syntax.PrintB(q))
		}
	}
	switch d.Kind {
	case "cache-unsat":
		ask(rc, both, fmt.Sprintf("%s ∧ %s is unsatisfiable", syntax.PrintB(phi), syntax.PrintB(f)))
		return
	case "implied":
		ask(rc, &syntax.BinB{Op: syntax.And, L: phi, R: &syntax.Not{X: f}}, fmt.Sprintf("%s implies %s", syntax.PrintB(phi), syntax.PrintB(f)))
	case "contradicted":
		ask(rc, both, fmt.Sprintf("%s contradicts %s", syntax.PrintB(phi), syntax.PrintB(f)))
	}
	if d.Kind == "contradicted" {
		return // an unsatisfiable path condition implies anything
	}
	if d.Result == d.Parent {
		return
	}
	oldFacts := map[string]bool{}
	for _, g := range d.Parent.Facts(c.Slots) {
		oldFacts[syntax.PrintB(g)] = true
	}
	for _, g := range d.Result.Facts(c.Slots) {
		g = conv.ElemVars(c.U.Prog, g)
		if oldFacts[syntax.PrintB(g)] {
			continue
		}
		fr := s.Rules["fact/"+d.Rule]
		if fr == nil {
			fr = &checker.RuleCount{}
			s.Rules["fact/"+d.Rule] = fr
		}
		fr.Fired++
		ask(fr, &syntax.BinB{Op: syntax.And, L: both, R: &syntax.Not{X: g}}, fmt.Sprintf("%s ∧ %s implies the recorded fact %s", syntax.PrintB(phi), syntax.PrintB(f), syntax.PrintB(g)))
	}
}

// Start begins the crosscheck of the checker's current program (Config.CrossCheck).
func (w *Worker) Start() {
	c := w.c
	w.on = true
	w.seen = map[string]bool{}
	w.prover.Arrays = c.U.Prog.Arrays
	w.queries = 0
	w.prover.Budget = 2 * checker.MaxUndecidedPerProgram
	w.prover.ResetBudget()
}

// Stop ends the crosscheck of the current program: its prover's counters go to the summary.
func (w *Worker) Stop() {
	c := w.c
	w.on = false
	c.Sum.ProverQueries += w.prover.Queries
	c.Sum.ProverUndecided += w.prover.Undecided
	c.Sum.ProverSkipped += w.prover.Skipped
	w.prover.Queries, w.prover.Undecided, w.prover.Skipped = 0, 0, 0
}
