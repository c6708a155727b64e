package prove

import (
	"fmt"

	"certsym/havoc"
	"certsym/internal/fault"
	"certsym/pathcond"
	"certsym/solver"
	"certsym/spec/syntax"
	"certsym/step"
	"certsym/sym"
)

// tag says what a frame of a remaining program is: a statement of the program, the havoc
// point of a loop (its entry claims checked: the transition's other successors start there),
// a clause checked as the entry or the preservation claim, or the end of a body successor's
// path.
type tag uint8

const (
	tagStmt tag = iota
	tagHavoc
	tagEntry
	tagPres
	tagStop
)

// kont is a remaining program: s (with its tag) then next.
type kont struct {
	s    syntax.Stmt
	tag  tag
	loop *loopInfo
	next *kont
}

// head returns k with a sequence at its head flattened.
func (k *kont) head() *kont {
	for {
		seq, ok := k.s.(*syntax.Seq)
		if !ok {
			return k
		}
		k = &kont{s: seq.First, tag: k.tag, loop: k.loop, next: &kont{s: seq.Second, tag: k.tag, loop: k.loop, next: k.next}}
	}
}

// frame is the transition whose body a path is in: the loop and the havocked store its body
// started from (the pre-state of a counterexample to induction).
type frame struct {
	loop *loopInfo
	pre  []*sym.Term
}

// state is a symbolic state of the proof mode: ⟨φ, S, p⟩ with, besides, whether the
// transition produced it or one of its ancestors (over: the state over-approximates), the
// generations of fresh symbols the path has used, the arrivals at each loop without clauses,
// the innermost body the path is in, and, for an error state, the claim that fails.
type state struct {
	pc     *pathcond.PC
	store  []*sym.Term
	k      *kont
	over   bool
	gen    int
	unroll []int
	fr     *frame
	claim  Claim
	depth  int
}

// exec is one symbolic execution of the proof mode (or, with transition false, of the
// concrete semantics: every loop unrolled, for the search of a reachable pre-state).
type exec struct {
	sy         *havoc.Layout
	ls         *loops
	chain      *solver.Chain
	transition bool
	unroll     int // the arrivals at a loop without clauses allowed on a path (0: no bound)
	stats      *Stats
	cut        map[*syntax.While]bool // the loops whose unrolling bound cut a path
	cutOrder   []*syntax.While
	gensOut    bool // a path needed more generations than laid out
	// onTransition, when not nil, is shown each application of the transition
	// (Options.OnTransition).
	onTransition func(*Transition)
}

// succ builds a successor of st.
func (x *exec) succ(st *state, pc *pathcond.PC, store []*sym.Term, k *kont) *state {
	return &state{pc: pc, store: store, k: k, over: st.over, gen: st.gen, unroll: st.unroll, fr: st.fr, depth: st.depth + 1}
}

// expand appends the successors of st to out: the symbolic semantics (engine.Expand's rules,
// through the step kernel) at every statement, the invariant transition at the head of a loop
// with clauses (when x.transition). A final state has none.
//
// Coq: pstep (proofs/coq/Invariant.v): P_Sym where no loop with an invariant is at the head,
// P_Inv with inv_succ where one is.
func (x *exec) expand(st *state, out []*state) []*state {
	k := st.k.head()
	ts := x.sy.Terms
	n := ts.Slots()
	ext := func(f *sym.Formula) *pathcond.PC { return pathcond.Extend(st.pc, f, n) }
	errSucc := func(pc *pathcond.PC, store []*sym.Term, f *syntax.Fail, claim Claim) {
		s := x.succ(st, pc, store, &kont{s: f, tag: k.tag, loop: k.loop})
		s.claim = claim
		out = append(out, s)
	}
	claim := ProgramClaim
	switch k.tag {
	case tagEntry:
		claim = EntryClaim
	case tagPres:
		claim = PreservationClaim
	case tagStop:
		return out
	case tagHavoc:
		return x.invSucc(st, k, out)
	}
	switch s := k.s.(type) {
	case *syntax.Skip:
		if k.next != nil {
			out = append(out, x.succ(st, st.pc, st.store, k.next))
		}
	case *syntax.Fail: // an error state: no successor
	case *syntax.Assign:
		as := step.Assign(ts, s, st.store)
		if as.Def == nil {
			out = append(out, x.succ(st, st.pc, as.Store, &kont{s: step.Skip, next: k.next}))
			break
		}
		out = append(out, x.succ(st, ext(as.Def), as.Store, &kont{s: step.Skip, next: k.next}))
		if as.Err != nil {
			errSucc(ext(as.Err), st.store, s.Err, claim)
		}
		if as.IdxErr != nil {
			errSucc(ext(as.IdxErr), st.store, s.IdxErr, claim)
		}
	case *syntax.ArrAssign:
		as := step.ArrAssign(ts, s, st.store)
		out = append(out, x.succ(st, ext(as.Def), as.Store, &kont{s: step.Skip, next: k.next}))
		if as.Err != nil {
			errSucc(ext(as.Err), st.store, s.Err, claim)
		}
		if as.IdxErr != nil {
			errSucc(ext(as.IdxErr), st.store, s.IdxErr, claim)
		}
	case *syntax.If:
		sp := step.SplitKinds(ts, s.Cond, st.store, s.Err != nil, s.IdxErr != nil)
		out = append(out, x.succ(st, ext(sp.Then), st.store, &kont{s: s.Then, next: k.next}),
			x.succ(st, ext(sp.Else), st.store, &kont{s: s.Else, next: k.next}))
		if sp.Err != nil {
			errSucc(ext(sp.Err), st.store, s.Err, claim)
		}
		if sp.IdxErr != nil {
			errSucc(ext(sp.IdxErr), st.store, s.IdxErr, claim)
		}
	case *syntax.Assert:
		sp := step.SplitKinds(ts, s.Cond, st.store, s.Err != nil, s.IdxErr != nil)
		out = append(out, x.succ(st, ext(sp.Then), st.store, &kont{s: step.Skip, next: k.next}))
		errSucc(ext(sp.Else), st.store, s.Violation, claim)
		if sp.Err != nil {
			errSucc(ext(sp.Err), st.store, s.Err, claim)
		}
		if sp.IdxErr != nil {
			errSucc(ext(sp.IdxErr), st.store, s.IdxErr, claim)
		}
	case *syntax.Assume:
		sp := step.SplitKinds(ts, s.Cond, st.store, s.Err != nil, s.IdxErr != nil)
		out = append(out, x.succ(st, ext(sp.Then), st.store, &kont{s: step.Skip, next: k.next}))
		if sp.Err != nil {
			errSucc(ext(sp.Err), st.store, s.Err, claim)
		}
		if sp.IdxErr != nil {
			errSucc(ext(sp.IdxErr), st.store, s.IdxErr, claim)
		}
	case *syntax.While:
		if li := x.ls.inv[s]; li != nil && x.transition {
			// The entry claims, in order, then the havoc point of the transition.
			next := &kont{tag: tagHavoc, loop: li, next: k.next, s: s}
			for i := len(li.clauses) - 1; i >= 0; i-- {
				next = &kont{s: li.clauses[i], tag: tagEntry, loop: li, next: next}
			}
			out = append(out, x.succ(st, st.pc, st.store, next))
			break
		}
		s2 := x.succ(st, st.pc, st.store, &kont{s: s.Entry, next: k.next})
		if i, ok := x.ls.plain[s]; ok && x.unroll > 0 {
			c := append([]int(nil), st.unroll...)
			for len(c) <= i {
				c = append(c, 0)
			}
			c[i]++
			if c[i] > x.unroll {
				if !x.cut[s] {
					x.cut[s] = true
					x.cutOrder = append(x.cutOrder, s)
				}
				break
			}
			s2.unroll = c
		}
		out = append(out, s2)
	default:
		panic(fmt.Sprintf("prove.expand: unknown statement %T", k.s))
	}
	return out
}

// invSucc appends the successors of the invariant transition at the havoc point k of the state
// st, whose entry claims were checked: with the loop's modifies set havocked (fresh symbols of
// the path's next generation) and the clauses assumed (each defined and true), the body
// successor (the loop's condition true; the body, then the clauses checked again, the
// preservation claims; the path ends there), the error successors of the condition, and the
// exit (the condition false; the program goes on after the loop). Every one of them
// over-approximates.
//
// Coq: inv_succ (proofs/coq/Invariant.v): V_Body, V_CondErr, V_Exit (V_EntryErr and
// V_EntryFalse are the entry claims, checked before k as the clauses' asserts).
func (x *exec) invSucc(st *state, k *kont, out []*state) []*state {
	li := k.loop
	w := li.w
	if st.gen >= x.sy.Gens {
		x.gensOut = true
		return out
	}
	ts := x.sy.Terms
	n := ts.Slots()
	x.stats.Transitions++
	h := x.sy.Havoc(st.store, li.mods, st.gen)
	inv := sym.True
	for _, c := range li.clauses {
		sp := step.SplitKinds(ts, c.Cond, h, c.Err != nil, c.IdxErr != nil)
		inv = sym.And(inv, sp.Then)
	}
	div, idx := syntax.Fails(w)
	b := step.SplitKinds(ts, w.Cond, h, div != nil, idx != nil)
	with := func(f *sym.Formula, k2 *kont) *state {
		s := x.succ(st, pathcond.Extend(st.pc, f, n), h, k2)
		s.over, s.gen = true, st.gen+1
		x.stats.Over++
		return s
	}
	// The body successor: body; the clauses again (preservation); end of the path.
	end := &kont{tag: tagStop, loop: li, s: step.Skip}
	pres := end
	for i := len(li.clauses) - 1; i >= 0; i-- {
		pres = &kont{s: li.clauses[i], tag: tagPres, loop: li, next: pres}
	}
	var body *kont
	if fault.Active == fault.PreservationBeforeBody {
		last := pres
		for last.next != end {
			last = last.next
		}
		last.next = &kont{s: w.Body, next: end}
		body = pres
	} else {
		body = &kont{s: w.Body, next: pres}
	}
	bs := with(sym.And(inv, b.Then), body)
	bs.fr = &frame{loop: li, pre: h}
	out = append(out, bs)
	var errs []*state
	if b.Err != nil {
		errs = append(errs, with(sym.And(inv, b.Err), &kont{s: div}))
	}
	if b.IdxErr != nil {
		errs = append(errs, with(sym.And(inv, b.IdxErr), &kont{s: idx}))
	}
	out = append(out, errs...)
	exitC := sym.And(inv, b.Else)
	if fault.Active == fault.InvNotAssumedAfterLoop {
		exitC = b.Else
	}
	exit := with(exitC, &kont{s: step.Skip, next: k.next})
	out = append(out, exit)
	if x.onTransition != nil {
		x.observe(st, li, bs, errs, exit)
	}
	return out
}

// errorOf is the Fail at the head of the state's program, or nil.
func (st *state) errorOf() *syntax.Fail {
	k := st.k.head()
	if k.tag == tagStop || k.tag == tagHavoc {
		return nil
	}
	f, _ := k.s.(*syntax.Fail)
	return f
}

// final reports whether the state's path has ended normally: skip with nothing after it, or
// the end of a body successor.
func (st *state) final() bool {
	k := st.k.head()
	if k.tag == tagStop {
		return true
	}
	_, ok := k.s.(*syntax.Skip)
	return ok && k.next == nil
}
