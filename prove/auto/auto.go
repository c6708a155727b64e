// Package auto is the proof mode with inferred invariants (certsym prove --infer): the loops
// without clauses get the invariants package prove/infer finds, with the proof mode itself
// (prove.Check) as Houdini's oracle, and the program is then checked with them. An answer proved
// is always prove.Check's answer for the program with those clauses: inference only proposes.
package auto

import (
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
// clauses the transitions show (prove.Transition.Clauses: the given ones come last, in order).
type oracle struct {
	prog    *syntax.Program
	opts    prove.Options
	refuted *prove.Result // set when a round refutes the program itself
	until   time.Time     // Options.InferTime's end, or zero
}

func (o *oracle) check(set infer.Set) ([]infer.Refutation, error) {
	if !o.until.IsZero() && time.Now().After(o.until) {
		return nil, nil
	}
	owner := map[*syntax.Fail]infer.Refutation{}
	opts := o.opts
	opts.Monitor = nil
	opts.ReachStates = 1
	opts.OnTransition = func(t *prove.Transition) {
		cs := set[t.Loop]
		if len(cs) == 0 || len(t.Clauses) < len(cs) {
			return
		}
		given := t.Clauses[len(t.Clauses)-len(cs):]
		for i, a := range given {
			r := infer.Refutation{Loop: t.Loop, Cand: cs[i]}
			for _, f := range []*syntax.Fail{a.Violation, a.Err, a.IdxErr} {
				if f != nil {
					owner[f] = r
				}
			}
		}
	}
	res, err := prove.Check(o.prog, Given(set), opts)
	if err != nil {
		return nil, err
	}
	if res.Answer == prove.Refuted {
		// a run that breaks a given clause refutes that candidate (the replay checks the given
		// clauses at each arrival); a run that breaks the program's own claim refutes the program
		if r, ok := failing(o.prog, set, res.Bug); ok {
			return []infer.Refutation{r}, nil
		}
		o.refuted = res
		return nil, nil
	}
	var out []infer.Refutation
	seen := map[*infer.Candidate]bool{}
	for _, f := range res.Failures {
		if f.Claim != prove.EntryClaim && f.Claim != prove.PreservationClaim {
			continue
		}
		r, ok := owner[f.Fail]
		if !ok || seen[r.Cand] {
			continue
		}
		seen[r.Cand] = true
		r.Entry = f.Claim == prove.EntryClaim
		out = append(out, r)
	}
	return out, nil
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
	if o.refuted != nil {
		return &Outcome{Result: o.refuted, Invariants: inv, Infer: ir}, nil
	}
	res, err := prove.Check(prog, Given(inv), opts.Prove)
	if err != nil {
		return nil, err
	}
	return &Outcome{Result: res, Invariants: inv, Infer: ir}, nil
}

// failing replays the refutation's input on the concrete semantics and returns the first
// candidate false or undefined at an arrival at its loop's head, in the order prove's replay
// checks given clauses; ok is false when the run breaks none (the program's own claim failed).
func failing(prog *syntax.Program, set infer.Set, bug *prove.Bug) (infer.Refutation, bool) {
	arrival := map[syntax.Stmt]*syntax.While{}
	for w := range set {
		if w.Loop != nil {
			arrival[w.Loop] = w
		} else {
			arrival[w] = w
		}
	}
	st := spec.State{Store: append(spec.Store(nil), bug.Input...), Prog: prog.Body}
	for n := 0; n <= bug.Steps; n++ {
		if w := arrival[spec.Head(st.Prog)]; w != nil {
			for _, c := range set[w] {
				if v, ok := spec.EvalB(c.Cond, st.Store); !ok || !v {
					return infer.Refutation{Loop: w, Cand: c, Entry: bug.Claim == prove.EntryClaim}, true
				}
			}
		}
		next, out := spec.Step(st)
		if out != spec.Stepped {
			break
		}
		st = next
	}
	return infer.Refutation{}, false
}
