package refinement

import (
	"bytes"
	"fmt"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"

	"certsym/pathcond"
	"certsym/refinement/prover"
	"certsym/refinement/refclient"
	"certsym/spec/syntax"
)

// The crosscheck of the engine's solver-free decisions (check "crosscheck/<rule>"): every
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
// decision reaches the worker (and the Z3 context) of its own program.

var (
	xcMu      sync.Mutex
	xcWorkers = map[uint64]*checker{}
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

// xcRegister routes the decisions of the current goroutine to c (nil: unregisters). Run
// installs the engine hook before its workers start and removes it after they end.
func xcRegister(c *checker) {
	id := goid()
	xcMu.Lock()
	defer xcMu.Unlock()
	if c != nil {
		xcWorkers[id] = c
		return
	}
	delete(xcWorkers, id)
}

func xcHook(d pathcond.Decision) {
	id := goid()
	xcMu.Lock()
	c := xcWorkers[id]
	xcMu.Unlock()
	if c != nil && c.xc != nil {
		c.crossDecision(d)
	}
}

// xcState is one worker's crosscheck state for the current program.
type xcState struct {
	prover  *prover.Prover
	seen    map[string]bool
	queries int // Z3 queries asked for the current program
}

// xcQueriesPerProgram bounds the crosscheck's Z3 queries per program (decisions beyond it are
// still counted, and their witnesses still checked).
const xcQueriesPerProgram = 150

// RuleCount is how often a rule decided, and how often the crosscheck asked Z3 about it.
type RuleCount struct{ Fired, Checked, Undecided int }

func (c *checker) crossDecision(d pathcond.Decision) {
	s := c.sum
	if s.Rules == nil {
		s.Rules = map[string]*RuleCount{}
	}
	rc := s.Rules[d.Rule]
	if rc == nil {
		rc = &RuleCount{}
		s.Rules[d.Rule] = rc
	}
	rc.Fired++
	if d.Kind == "unsat-parent" {
		return // nothing new: the parent's unsatisfiability is itself a checked decision or Z3's
	}
	names := c.names
	nslots := c.u.Prog.Slots()
	phi := c.formulaB(d.Parent.Formula())
	f := c.formulaB(d.Conj)
	both := &syntax.BinB{Op: syntax.And, L: phi, R: f}
	check := "crosscheck/" + d.Rule
	switch d.Kind {
	case "cache-witness":
		if ok, err := refclient.EvalBE(both, d.Witness); len(d.Witness) != nslots || (err == nil && !ok) {
			c.report(check, c.inputString(d.Witness), -1, "the solver's caching (%s) says %s ∧ %s is satisfied by %s, the layer's evaluation says it is not",
				d.Rule, syntax.PrintB(phi), syntax.PrintB(f), c.inputString(d.Witness))
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
			c.report(check, c.inputString(w), -1, "the engine says %s ∧ %s is satisfied by its witness (%s), the layer's evaluation says %s is not",
				syntax.PrintB(phi), syntax.PrintB(f), d.Rule, syntax.PrintB(claim))
		}
		rc.Checked++
	}
	xc := c.xc
	if xc.queries >= xcQueriesPerProgram || c.expired() {
		return
	}
	ask := func(rc *RuleCount, q syntax.BExpr, what string) {
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
				c.report("prover", c.inputString(m), -1, "crosscheck: Z3 model does not satisfy %s", syntax.PrintB(q))
				return
			}
			c.report(check, c.inputString(m), -1, "the engine decided without Z3 (rule %s) that %s, but under %s it is false: %s",
				d.Rule, what, c.inputString(m), syntax.PrintB(q))
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
	for _, g := range d.Parent.Facts(c.slots) {
		oldFacts[syntax.PrintB(g)] = true
	}
	for _, g := range d.Result.Facts(c.slots) {
		g = c.elemVars(g)
		if oldFacts[syntax.PrintB(g)] {
			continue
		}
		fr := s.Rules["fact/"+d.Rule]
		if fr == nil {
			fr = &RuleCount{}
			s.Rules["fact/"+d.Rule] = fr
		}
		fr.Fired++
		ask(fr, &syntax.BinB{Op: syntax.And, L: both, R: &syntax.Not{X: g}}, fmt.Sprintf("%s ∧ %s implies the recorded fact %s", syntax.PrintB(phi), syntax.PrintB(f), syntax.PrintB(g)))
	}
}

// startCrossCheck begins the crosscheck of a program (Config.CrossCheck).
func (c *checker) startCrossCheck() {
	if c.xc == nil {
		c.xc = &xcState{prover: prover.New(c.cfg.ProverRLimit, c.cfg.ProverTimeout)}
	}
	c.xc.seen = map[string]bool{}
	c.xc.prover.Arrays = c.u.Prog.Arrays
	c.xc.queries = 0
	c.xc.prover.Budget = 2 * maxUndecidedPerProgram
	c.xc.prover.ResetBudget()
}

func (c *checker) stopCrossCheck() {
	if c.xc != nil {
		c.sum.ProverQueries += c.xc.prover.Queries
		c.sum.ProverUndecided += c.xc.prover.Undecided
		c.sum.ProverSkipped += c.xc.prover.Skipped
		c.xc.prover.Queries, c.xc.prover.Undecided, c.xc.prover.Skipped = 0, 0, 0
	}
}

// ReportRules writes how often each solver-free rule decided and how often the crosscheck
// asked Z3 about it.
func (s *Summary) ReportRules(w interface{ Write([]byte) (int, error) }) {
	var keys []string
	for k := range s.Rules {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	for _, k := range keys {
		r := s.Rules[k]
		fmt.Fprintf(&b, "refinement:   crosscheck rule %-28s fired %7d  checked %6d  z3 undecided %4d\n", k, r.Fired, r.Checked, r.Undecided)
	}
	w.Write([]byte(b.String()))
}
