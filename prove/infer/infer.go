package infer

import (
	"fmt"

	"certsym/spec"
	"certsym/spec/syntax"
)

// Candidates are the candidate invariants of each loop of the program (docs/infer.md, the
// grammar), without repeats, kept only when defined and true in every sampled state of the loop
// (the cheap filter before the solver) and when they read a variable or array the loop
// modifies: the invariant rule havocs only those, so a fact of the others that holds on entry
// is kept by the path condition, and as a clause would only cost the solver. A loop no run reached keeps the candidates that need
// no state.
func Candidates(prog *syntax.Program, states States) Set {
	consts := Constants(prog)
	moduli := Moduli(prog)
	set := Set{}
	for _, w := range Loops(prog) {
		p := w.Pos()
		ss := states[w]
		var all []*Candidate
		all = append(all, conditionCands(prog, p)...)
		all = append(all, claimCands(prog, p)...)
		all = append(all, templateCands(prog, p, ss, consts)...)
		all = append(all, Equalities(prog, p, ss)...)
		all = append(all, arrayCands(prog, p)...)
		all = append(all, Quadratic(prog, w, ss)...)
		all = append(all, modularCands(prog, p, ss, moduli)...)
		all = append(all, exitCands(w, moduli)...)
		all = append(all, slackCands(prog, w)...)
		all = append(all, guardCands(prog, w, ss)...)
		all = append(all, conditionalCands(prog, w, ss, consts, moduli)...)
		seen := map[string]bool{}
		var kept []*Candidate
		vars, arrs := assignedVars(w), assignedArrays(w)
		for _, c := range all {
			if seen[c.Text] {
				continue
			}
			seen[c.Text] = true
			if readsModified(c.Cond, vars, arrs) && holdsOn(c.Cond, ss) {
				kept = append(kept, c)
			}
		}
		set[w] = kept
	}
	return set
}

// Options configure Infer.
type Options struct {
	Sample SampleOptions
	// Oracle decides the candidates' claims (Houdini); nil: the candidates filtered by the
	// sampled states are the result, not known to be inductive.
	Oracle Oracle
	// MaxRounds bounds Houdini's rounds (0: Houdini's default).
	MaxRounds int
}

// Result is what Infer found.
type Result struct {
	// Invariants are the candidates kept for each loop: inductive when an oracle was given.
	Invariants Set
	// States are the sampled loop-head states; Generated the candidates that passed them.
	States    States
	Generated int
	Houdini   HoudiniStats
}

// Infer samples the loop-head states, generates the candidates that hold in them, and, with an
// oracle, keeps their largest inductive subset (Houdini). Inference is incomplete: a program may
// need an invariant outside the grammar, and a loop then gets one too weak to prove its claims;
// it is never a reason to answer proved, which only the proof mode's check of the clauses gives.
func Infer(prog *syntax.Program, opts Options) (*Result, error) {
	states := Sample(prog, opts.Sample)
	set := Candidates(prog, states)
	res := &Result{States: states, Generated: set.Size(), Invariants: set}
	if opts.Oracle == nil {
		return res, nil
	}
	inv, st, err := Houdini(set, opts.Oracle, opts.MaxRounds)
	res.Houdini = st
	if err != nil {
		return nil, err
	}
	res.Invariants = inv
	return res, nil
}

// Violation is an inferred invariant false or undefined in a loop-head state a run reached: an
// invariant no inductive set can hold.
type Violation struct {
	Loop  *syntax.While
	Cand  *Candidate
	State spec.Store
}

func (v Violation) String() string {
	return fmt.Sprintf("the invariant %s of the loop at %d:%d fails at a loop-head state a run reaches", v.Cand.Text, v.Loop.Pos().Line, v.Loop.Pos().Col)
}

// CheckStates checks every invariant of the set in the loop-head states (the refinement-level
// check of inference: an invariant is true in every state a run reaches at its loop's head, so a
// violation is a defect of the inference or of its oracle).
func CheckStates(set Set, states States) []Violation {
	var out []Violation
	for _, w := range sortedLoops(set) {
		for _, c := range set[w] {
			for _, s := range states[w] {
				if v, ok := spec.EvalB(c.Cond, s); !ok || !v {
					out = append(out, Violation{Loop: w, Cand: c, State: s})
					break
				}
			}
		}
	}
	return out
}

// sortedLoops lists the loops of the set in the order of their positions.
func sortedLoops(set Set) []*syntax.While {
	var ws []*syntax.While
	for w := range set {
		ws = append(ws, w)
	}
	for i := 1; i < len(ws); i++ {
		for j := i; j > 0 && less(ws[j].Pos(), ws[j-1].Pos()); j-- {
			ws[j], ws[j-1] = ws[j-1], ws[j]
		}
	}
	return ws
}

func less(a, b syntax.Pos) bool { return a.Line < b.Line || a.Line == b.Line && a.Col < b.Col }
