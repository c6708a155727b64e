package bounded

import (
	"fmt"

	"certsym/havoc"
	"certsym/internal/fault"
	"certsym/spec"
	"certsym/spec/syntax"
	"certsym/step"
	"certsym/sym"
)

// Invariants is the invariant mode of the interpreter (certsym verify --loops invariant): each
// loop with invariant clauses is executed by the invariant transition instead of being unrolled;
// the loops without clauses are unrolled up to the loop bound as before. The transition is the
// one of certsym prove (inv_succ of proofs/coq/Invariant.v): the clauses are checked on entry
// (the entry claims); the loop's syntactic modifies set is havocked (fresh symbols of the path's
// next generation, package havoc) and the clauses are assumed; then the body runs once under the
// condition and the clauses are checked again at its end (the preservation claims), the path
// ending there; the condition's errors are leaves; and the program goes on after the loop under
// the condition's negation. Every state after the havoc over-approximates: it may admit stores
// no concrete run reaches, and it is flagged (State.Over, an OverApprox with Loop set).
//
// The interpreter of an invariant mode runs over the layout's extended program (Layout.Ext,
// whose extra arrays are the fresh symbols: NewInvariant builds it), so its results' stores
// and path conditions name the fresh symbols too; the first Prog.Slots() of a model are the
// program's input.
type Invariants struct {
	Layout *havoc.Layout
	sets   map[*syntax.While]havoc.Set
}

// NewInvariant lays out the fresh symbols of the invariant mode for prog with loop bound n: one
// generation per application of the transition a path can make (Generations).
func NewInvariant(prog *syntax.Program, n int) *Invariants {
	inv := &Invariants{sets: map[*syntax.While]havoc.Set{}}
	var sets []havoc.Set
	syntax.Inspect(prog.Body, func(nd syntax.Node) bool {
		if w, ok := nd.(*syntax.While); ok && len(w.Invariants) > 0 {
			s := havoc.Of(w.Body)
			inv.sets[w] = s
			sets = append(sets, s)
		}
		return true
	})
	inv.Layout = havoc.NewLayout(prog, sets, max(1, Generations(prog.Body, n)))
	return inv
}

// Generations bounds the applications of the transition on one path of s with loop bound n:
// a path runs a loop with clauses once (its body once, the path ending after it), and a loop
// without clauses up to n times.
func Generations(s syntax.Stmt, n int) int {
	switch s := s.(type) {
	case *syntax.Seq:
		return Generations(s.First, n) + Generations(s.Second, n)
	case *syntax.If:
		return max(Generations(s.Then, n), Generations(s.Else, n))
	case *syntax.While:
		if len(s.Invariants) > 0 {
			return 1 + Generations(s.Body, n)
		}
		return n * Generations(s.Body, n)
	case *syntax.Skip, *syntax.Fail, *syntax.Assign, *syntax.ArrAssign, *syntax.Assume, *syntax.Assert:
		return 0
	default:
		panic(fmt.Sprintf("bounded.Generations: unknown statement %T", s))
	}
}

// transition executes the loop w, which has invariant clauses, by the invariant transition from
// st: the entry claims (the clauses, as asserts, in order), then, from each state in which they
// all hold, the havoc (havocked).
//
// Coq: inv_succ (proofs/coq/Invariant.v), with V_EntryErr and V_EntryFalse the clauses'
// asserts; prove's (*exec).invSucc is the same transition in the proof mode.
func (b *Interp) transition(st State, w *syntax.While, yield func(Result)) {
	b.clauses(st, w, 0, func(st State) { b.havocked(st, w, yield) }, yield)
}

// havocked is the transition after the entry claims: the modifies set of w havocked with the
// symbols of the path's next generation and the clauses assumed (each defined and true), then
// the loop's condition: under it the body once and the preservation claims (the clauses again,
// as asserts), after which the path ends (an Infeasible result at w: nothing of the program
// runs after it); under its negation the program goes on (a Normal result); its errors are
// leaves. The condition is a program point of the observer (its implicit claims), in the
// havocked state.
func (b *Interp) havocked(st State, w *syntax.While, yield func(Result)) {
	lay := b.Invariant.Layout
	if st.Gen >= lay.Gens {
		if b.stopped == "" {
			b.stopped = fmt.Sprintf("too many fresh symbols for the havocs of the loops with invariant clauses on one path (%d generations)", lay.Gens)
		}
		yield(cutResult(st, w))
		return
	}
	set := b.Invariant.sets[w]
	if fault.Active == fault.InvHavocKeepsVars {
		set.Vars = nil // fault injection (build tag faults only)
	}
	h := lay.Havoc(st.Store, set, st.Gen)
	assumed := sym.True
	for _, c := range w.Invariants {
		sp := step.SplitKinds(b.terms, c.Cond, h, c.Err != nil, c.IdxErr != nil)
		assumed = sym.And(assumed, sp.Then)
	}
	// The ghost (a concrete run) does not follow the over-approximating states: it is dropped.
	hs, a := b.branch(State{Store: h, PC: st.PC, Over: &OverApprox{Loop: w, Prev: st.Over}, Gen: st.Gen + 1}, assumed)
	switch a {
	case exhausted:
		yield(cutResult(hs, w))
		return
	case prune: // the clauses hold in no store: no successor
		return
	}
	if qs := b.sites(w.Cond); len(qs) > 0 {
		b.quantCases(hs, w, w.Cond, qs, func(hs State) { b.invCond(hs, w, yield) }, yield)
		return
	}
	b.invCond(hs, w, yield)
}

// invCond is havocked at the loop's condition (QuantLoop's case split, if any, done): the
// observer, then the condition's branches.
func (b *Interp) invCond(hs State, w *syntax.While, yield func(Result)) {
	if b.Observer != nil && !b.Observer.At(hs, w) {
		yield(Result{State: hs, Behaviour: spec.Incomplete, At: w, Cut: CutObserver})
		return
	}
	br, ans := b.condBranches(hs, w, w.Cond, w.Unfold.Err != nil, w.Unfold.IdxErr != nil)
	switch ans[0] {
	case exhausted:
		yield(cutResult(br[0], w))
	case keep: // V_Body: the body, the preservation claims, the end of the path
		rs := b.results(br[0], w.Body)
		for i, r := range rs {
			rs[i] = Result{}
			if r.Behaviour != spec.Normal {
				yield(r)
				continue
			}
			b.clauses(r.State, w, 0, func(st State) { yield(Result{State: st, Behaviour: spec.Infeasible, At: w}) }, yield)
		}
	}
	leaf(ans[1], Result{State: br[1], Behaviour: spec.Normal}, w, yield) // V_Exit
	leaf(ans[2], Result{State: br[2], Behaviour: spec.Error, Fail: w.Unfold.Err}, w, yield)
	leaf(ans[3], Result{State: br[3], Behaviour: spec.Error, Fail: w.Unfold.IdxErr}, w, yield)
}
