package prove

import (
	"certsym/havoc"
	"certsym/pathcond"
	"certsym/spec"
	"certsym/spec/integer"
	"certsym/spec/syntax"
	"certsym/sym"
)

// A Transition is one application of the invariant transition, shown to Options.OnTransition
// (the refinement layer's check of its exhaustiveness, refinement/provecheck): the state it was
// applied at, after the entry claims, and its successors.
type Transition struct {
	Loop *syntax.While
	// Clauses are the loop's clauses (its own and the given ones) as asserts.
	Clauses []*syntax.Assert
	// PC and Store are the state's; Slots is the length of the program's flat store, a prefix
	// of the attempt's symbols (Terms).
	PC    *pathcond.PC
	Store []*sym.Term
	Terms *sym.Terms
	Slots int
	// Body, Exit and CondErr are the successors (Body's program is the loop's body, then the
	// preservation claims; CondErr's the Fail of the condition's error).
	Body, Exit Successor
	CondErr    []Successor
	// Arrival is the statement a concrete run of the loop is at when it arrives at its head,
	// every clause of its source checked.
	Arrival syntax.Stmt
	sy      *havoc.Layout
	gen     int
	li      *loopInfo
}

// Successor is a successor of a Transition.
type Successor struct {
	PC    *pathcond.PC
	Store []*sym.Term
	Fail  *syntax.Fail // the condition's error, for CondErr
}

// Fresh returns the valuation v (of the attempt's symbols) with the transition's fresh symbols
// set so that the havocked store concretizes to the concrete store s (of the program) on the
// modified variables and arrays: the V' of inv_exhaustive (proofs/coq/Invariantproof.v),
// which differs from v on the fresh symbols only.
func (t *Transition) Fresh(v []integer.Int, s spec.Store) []integer.Int {
	return t.sy.Fresh(v, s, t.li.mods, t.gen)
}

// observe shows the transition at state st, with its successors, to the hook.
func (x *exec) observe(st *state, li *loopInfo, body *state, condErr []*state, exit *state) {
	t := &Transition{Loop: li.w, Clauses: li.clauses, PC: st.pc, Store: st.store, Terms: x.sy.Terms, Slots: x.sy.Prog.Slots(),
		Arrival: li.arrival, sy: x.sy, gen: st.gen, li: li,
		Body: Successor{PC: body.pc, Store: body.store}, Exit: Successor{PC: exit.pc, Store: exit.store}}
	for _, s := range condErr {
		t.CondErr = append(t.CondErr, Successor{PC: s.pc, Store: s.store, Fail: s.errorOf()})
	}
	x.onTransition(t)
}
