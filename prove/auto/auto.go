// Package auto is the proof mode with inferred invariants (certsym prove --infer): the loops
// without clauses get the invariants package prove/infer finds, with the proof mode itself
// (prove.Check) as Houdini's oracle, and the program is then checked with them. An answer proved
// is always prove.Check's answer for the program with those clauses: inference only proposes.
package auto

import (
	"fmt"
	"time"

	"certsym/prove"
	"certsym/prove/infer"
	"certsym/spec"
	"certsym/spec/syntax"
)

// Options configure Prove.
type Options struct {
	// Prove are the options of the final check (and, with a small search bound, of the oracle's).
	Prove prove.Options
	// Sample bounds the sampling of loop-head states.
	Sample infer.SampleOptions
	// MaxRounds bounds Houdini's rounds (0: its default).
	MaxRounds int
	// InferTime bounds Houdini's time (0: none): past it, the oracle refutes nothing more and the
	// candidates left are checked as they are (the answer is then rarely proved, never wrongly).
	InferTime time.Duration
}

// Outcome is what Prove found.
type Outcome struct {
	// Result is the proof mode's result for the program with the inferred clauses.
	Result *prove.Result
	// Invariants are the inferred clauses of each loop without clauses of its own (inductive
	// unless the oracle stopped early: see Result).
	Invariants infer.Set
	// Infer is the inference's own account (states, candidates, Houdini's rounds).
	Infer *infer.Result
	// Fixpoint is Houdini's result, before the final check; Complete says that Houdini reached
	// it (its oracle was not stopped by InferTime), so that every clause of it is an invariant.
	Fixpoint infer.Set
	Complete bool
}

// Given are the inferred clauses as clauses given beside the program (prove.Invariants).
func Given(set infer.Set) prove.Invariants {
	inv := prove.Invariants{}
	for w, cs := range set {
		if len(cs) == 0 {
			continue
		}
		var conds []syntax.BExpr
		for _, c := range cs {
			conds = append(conds, c.Cond)
		}
		inv[w.Pos()] = prove.Clauses{Conds: conds}
	}
	return inv
}

// oracle is the proof mode as Houdini's oracle: the candidates given beside the program, the
// failed entry and preservation claims of given clauses read back as candidates through the
// clauses the failures name (prove.Failure.Loop, Clause: a loop's own clauses first, then the
// given ones, in order).
type oracle struct {
	prog    *syntax.Program
	opts    prove.Options
	refuted *prove.Result // set when a round refutes the program itself
	until   time.Time     // Options.InferTime's end, or zero
	stopped bool          // the oracle was stopped by InferTime, or a round by a bound of the proof
}

func (o *oracle) check(set infer.Set) ([]infer.Refutation, error) {
	opts := o.opts
	opts.Monitor = nil
	opts.ReachStates = 1
	opts.ReplaySteps = oracleReplaySteps
	if opts.QueryTimeout <= 0 || opts.QueryTimeout > oracleQueryTimeout {
		opts.QueryTimeout = oracleQueryTimeout
	}
	if !o.until.IsZero() {
		// a round ends with the inference's time: the final check has the rest
		left := time.Until(o.until)
		if left <= 0 { // the inference's time is spent (a Timeout of 0 would be no bound)
			o.stopped = true
			return nil, nil
		}
		if opts.Timeout <= 0 || left < opts.Timeout {
			opts.Timeout = left
		}
	}
	res, err := prove.Check(o.prog, Given(set), opts)
	if err != nil {
		return nil, err
	}
	if res.Answer != prove.Refuted && res.Stopped != "" {
		// the claims of the paths left unexplored were not checked: what this round did not
		// refute is no fixpoint
		o.stopped = true
		return nil, nil
	}
	if res.Answer == prove.Refuted {
		// a run that breaks a given clause refutes that candidate (the replay checks the given
		// clauses at each arrival), and the claims failed before it refute theirs; a run that
		// breaks the program's own claim refutes the program
		rs, ok := failing(o.prog, set, res.Bug)
		if !ok {
			o.refuted = res
			return nil, nil
		}
		return append(rs, unshown(set, res.Failures, rs)...), nil
	}
	return unshown(set, res.Failures, nil), nil
}

// unshown are the candidates of the set whose entry or preservation claims failed, other than
// those of known (a candidate is given beside the program as the loop's clause after its own).
func unshown(set infer.Set, fs []prove.Failure, known []infer.Refutation) []infer.Refutation {
	var out []infer.Refutation
	seen := map[*infer.Candidate]bool{}
	for _, r := range known {
		seen[r.Cand] = true
	}
	for _, f := range fs {
		if f.Claim != prove.EntryClaim && f.Claim != prove.PreservationClaim || f.Loop == nil {
			continue
		}
		cs := set[f.Loop]
		i := f.Clause - len(f.Loop.Invariants)
		if i < 0 || i >= len(cs) || seen[cs[i]] {
			continue
		}
		seen[cs[i]] = true
		out = append(out, infer.Refutation{Loop: f.Loop, Cand: cs[i], Entry: f.Claim == prove.EntryClaim})
	}
	return out
}

// Prove infers invariants for the loops of the program that have no clauses and checks the
// program with them (prove.Check). Loops with clauses keep their own.
func Prove(prog *syntax.Program, opts Options) (*Outcome, error) {
	o := &oracle{prog: prog, opts: opts.Prove}
	if opts.InferTime > 0 {
		o.until = time.Now().Add(opts.InferTime)
	}
	states := infer.Sample(prog, opts.Sample)
	all := infer.Candidates(prog, states)
	set := infer.Set{}
	for w, cs := range all {
		if len(w.Invariants) == 0 {
			set[w] = cs
		}
	}
	ir := &infer.Result{States: states, Generated: set.Size(), Invariants: set}
	inv, st, err := infer.Houdini(set, o.check, opts.MaxRounds)
	ir.Houdini = st
	if err != nil {
		return nil, err
	}
	ir.Invariants = inv
	fix, complete := inv, !o.stopped && o.refuted == nil
	if o.refuted != nil {
		return &Outcome{Result: o.refuted, Invariants: inv, Infer: ir, Fixpoint: fix}, nil
	}
	// The final check. A refutation by a run that breaks an inferred clause (possible when
	// Houdini stopped at its time bound) refutes the clause, not the program: the clause is
	// dropped and the check made again, a few times at most; then the answer is unknown.
	for tries := 0; ; tries++ {
		res, err := prove.Check(prog, Given(inv), opts.Prove)
		if err != nil {
			return nil, err
		}
		if res.Answer == prove.Unknown {
			if r, weak, err := unquantified(prog, inv, opts); err != nil || r != nil {
				return &Outcome{Result: r, Invariants: weak, Infer: ir, Fixpoint: fix, Complete: complete}, err
			}
		}
		if res.Answer != prove.Refuted {
			return &Outcome{Result: res, Invariants: inv, Infer: ir, Fixpoint: fix, Complete: complete}, nil
		}
		rs, ok := failing(prog, inv, res.Bug)
		if !ok {
			return &Outcome{Result: res, Invariants: inv, Infer: ir, Fixpoint: fix, Complete: complete}, nil
		}
		r := rs[0]
		for _, x := range rs {
			inv = drop(inv, x.Cand)
		}
		ir.Invariants = inv
		if tries == finalTries {
			res.Answer, res.Bug = prove.Unknown, nil
			res.Reason = fmt.Sprintf("inference stopped before its invariants were inductive: the inferred clause %s of the loop at %d:%d fails on a run", r.Cand.Text, r.Loop.Pos().Line, r.Loop.Pos().Col)
			return &Outcome{Result: res, Invariants: inv, Infer: ir, Fixpoint: fix, Complete: complete}, nil
		}
	}
}

// unquantified checks the program again with the inferred clauses without quantifiers, when some
// have one, and reports whether that check proved or refuted it. A clause over an array's
// elements can make the claims' queries satisfiable only by models fixing every element, which
// the solver's instantiation does not reach (unknown), where the weaker clauses give a
// counterexample that replays from the program's start. Either answer stands on its own: the
// proof mode checks the clauses it is given, and a refutation is a concrete run. It returns that
// answer and the clauses it used, or nil.
func unquantified(prog *syntax.Program, inv infer.Set, opts Options) (*prove.Result, infer.Set, error) {
	weak := infer.Set{}
	for w, cs := range inv {
		for _, c := range cs {
			if !syntax.HasQuant(c.Cond) {
				weak[w] = append(weak[w], c)
			}
		}
	}
	if weak.Size() == inv.Size() {
		return nil, nil, nil
	}
	res, err := prove.Check(prog, Given(weak), opts.Prove)
	if err != nil || res.Answer == prove.Unknown {
		return nil, nil, err
	}
	return res, weak, nil
}

// oracleReplaySteps bounds the oracle's replays of counterexamples: a candidate whose
// counterexample does not replay within it is dropped all the same, and a program refuted by a
// longer run is refuted by the final check, whose replays have the proof mode's default bound.
const oracleReplaySteps = 20000

// oracleQueryTimeout bounds each query of the oracle's rounds: a candidate whose claim the solver
// cannot decide within it is dropped (as one it refutes), so that one query over nonlinear terms
// does not spend the inference's time; the final check keeps the proof mode's bound.
const oracleQueryTimeout = 2 * time.Second

// finalTries bounds the final checks made again after an inferred clause was refuted.
const finalTries = 3

// drop is the set without the candidate.
func drop(set infer.Set, c *infer.Candidate) infer.Set {
	out := infer.Set{}
	for w, cs := range set {
		for _, x := range cs {
			if x != c {
				out[w] = append(out[w], x)
			}
		}
	}
	return out
}

// failing replays the refutation's input on the concrete semantics (up to replaySteps steps)
// and returns every candidate false or undefined at an arrival at its loop's head on that run
// (each such state is reachable, so no invariant is false there); ok is false when the run
// breaks none (the program's own claim failed).
func failing(prog *syntax.Program, set infer.Set, bug *prove.Bug) ([]infer.Refutation, bool) {
	arrival := map[syntax.Stmt]*syntax.While{}
	for w := range set {
		if w.Loop != nil {
			arrival[w.Loop] = w
		} else {
			arrival[w] = w
		}
	}
	var out []infer.Refutation
	gone := map[*infer.Candidate]bool{}
	st := spec.State{Store: append(spec.Store(nil), bug.Input...), Prog: prog.Body}
	for n := 0; n <= max(bug.Steps, replaySteps); n++ {
		if w := arrival[spec.Head(st.Prog)]; w != nil {
			for _, c := range set[w] {
				if gone[c] {
					continue
				}
				if v, ok := spec.EvalB(c.Cond, st.Store); !ok || !v {
					gone[c] = true
					out = append(out, infer.Refutation{Loop: w, Cand: c, Entry: bug.Claim == prove.EntryClaim})
				}
			}
		}
		next, o := spec.Step(st)
		if o != spec.Stepped {
			break
		}
		st = next
	}
	return out, len(out) > 0
}

// replaySteps bounds the replay of a refutation's input.
const replaySteps = 100000
