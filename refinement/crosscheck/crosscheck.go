// Package crosscheck is the refinement layer's crosscheck of the engine's solver-free decisions
// (check "crosscheck/<rule>"): every
// conjunct the engine adds to a path condition while the layer checks a program passes through
// sym.SetCrossCheck's hook, and the layer asks its own Z3 encoding (a prover of its own,
// separate from the step replay's) the question the engine answered without Z3:
//
//   - implied (the conjunct was dropped): φ ∧ ¬f must be unsatisfiable;
//   - contradicted (the successor is known unsatisfiable): φ ∧ f must be unsatisfiable (a Z3
//     model of it is checked by the layer's own evaluator before it is reported);
//   - witness (the parent's witness, or the clamped witness of bounds only): the witness must
//     satisfy φ ∧ f under the layer's evaluator (no Z3 needed);
//   - every bound and linear fact the new path condition records (PC.Facts) must be implied by
//     φ ∧ f: φ ∧ f ∧ ¬fact unsatisfiable;
//   - an answer of the solver's caching layers (sym/cache.go; rules cache/query-cache,
//     cache/cex-model, cache/cex-unsat-subset, cache/repair, cache/slice-empty, and cache/slice for Z3's
//     answer about a slice): a witness must satisfy the whole path condition under the layer's
//     evaluator (no Z3 needed), an unsat answer must be confirmed by the layer's Z3 (a model of
//     the path condition is checked by the evaluator before it is reported).
//
// The hook runs on the goroutine that runs the engine; each worker registers its goroutine, so a
// decision reaches the worker (and the Z3 context) of its own program. Run installs the hook
// (sym.SetCrossCheck(Hook)) before the workers start and removes it after they end; each worker
// makes a Worker, registers it on its goroutine and starts and stops it around each program.

package crosscheck

import (
	"bytes"
	"fmt"
	"runtime"
	"strconv"
	"sync"

	"certsym/pathcond"
	"certsym/refinement/checker"
	"certsym/refinement/conv"
	"certsym/refinement/prover"
	"certsym/refinement/refclient"
	"certsym/spec"
	"certsym/spec/syntax"
)

var (
	mu      sync.Mutex
	workers = map[uint64]*Worker{}
)

// goid is the current goroutine's id, read from its stack header ("goroutine 12 [...").
func goid() uint64 {
	var buf [64]byte
	b := buf[:runtime.Stack(buf[:], false)]
	b = bytes.TrimPrefix(b, []byte("goroutine "))
	if i := bytes.IndexByte(b, ' '); i > 0 {
		b = b[:i]
	}
	n, _ := strconv.ParseUint(string(b), 10, 64)
	return n
}

// Worker is one checker's crosscheck: its own prover and the state of the current program.
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

// Register routes the decisions taken on the current goroutine to w (nil: unregisters).
func Register(w *Worker) {
	id := goid()
	mu.Lock()
	defer mu.Unlock()
	if w != nil {
		workers[id] = w
		return
	}
	delete(workers, id)
}

// Hook is the engine's crosscheck hook (sym.SetCrossCheck): it hands the decision to the worker
// registered on the current goroutine, if that worker is checking a program.
func Hook(d pathcond.Decision) {
	id := goid()
	mu.Lock()
	w := workers[id]
	mu.Unlock()
	if w != nil && w.on {
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
	phi := c.FormulaB(d.Parent.Formula())
	f := c.FormulaB(d.Conj)
	both := &syntax.BinB{Op: syntax.And, L: phi, R: f}
	check := "crosscheck/" + d.Rule
	switch d.Kind {
	case "cache-witness":
		if ok, err := refclient.EvalBE(both, d.Witness); len(d.Witness) != nslots || (err == nil && !ok) {
			c.Report(check, spec.StoreString(c, d.Witness), -1, "the solver's caching (%s) says %s ∧ %s is satisfied by %s, the layer's evaluation says it is not",
				d.Rule, syntax.PrintB(phi), syntax.PrintB(f), spec.StoreString(c, d.Witness))
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
			c.Report(check, spec.StoreString(c, w), -1, "the engine says %s ∧ %s is satisfied by its witness (%s), the layer's evaluation says %s is not",
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
				c.Report("prover", spec.StoreString(c, m), -1, "crosscheck: Z3 model does not satisfy %s", syntax.PrintB(q))
				return
			}
			c.Report(check, spec.StoreString(c, m), -1, "the engine decided without Z3 (rule %s) that %s, but under %s it is false: %s",
				d.Rule, what, spec.StoreString(c, m), syntax.PrintB(q))
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
