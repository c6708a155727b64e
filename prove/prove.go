// Package prove is certsym's proof mode: a symbolic execution in which every loop with
// invariant clauses is executed by the invariant transition instead of being unrolled, so that
// an answer holds for every input with no bound on the iterations (certsym prove,
// docs/prove.md). It is the Go side of proofs/coq/Invariant.v: the modifies set (mods, amods),
// the transition (inv_succ) and the proof mode (pstep), whose soundness is prove_sound
// (Invariantproof.v).
//
// The transition over-approximates: the states it produces after the havoc of the modifies set
// represent stores no run may reach. A claim that fails in such a state is a proof failure, not
// a bug, unless its counterexample replays on the concrete semantics from the program's start.
// Loops without clauses are unrolled up to Options.Unroll iterations on each path; a path cut
// there leaves the answer unknown.
//
// Check is the entry point; the clauses of a loop may be given beside the program
// (Invariants), replacing or extending its own, so that an inference of invariants can try
// candidates without printing and parsing the program again.
package prove

import (
	"fmt"
	"time"

	"certsym/internal/budget"
	"certsym/spec"
	"certsym/spec/syntax"
)

// Answer is the answer of a proof attempt.
type Answer uint8

// The answers: Proved, every claim of the program (its asserts, fails, divisions, element
// reads and writes, and the entry and preservation claims of its invariants) holds for every
// input; Refuted, an input whose concrete run reaches an error (replayed); Unknown, neither,
// with a reason (Result.Reason).
const (
	Unknown Answer = iota
	Proved
	Refuted
)

var answerText = [...]string{Unknown: "unknown", Proved: "proved", Refuted: "refuted"}

func (a Answer) String() string { return answerText[a] }

// Clauses are invariant clauses given for one loop beside the program. Replace drops the
// loop's own clauses (those of its source) and uses Conds alone; otherwise Conds are checked
// after the loop's own, in order. Each condition must be resolved against the program (its
// variables' Index and arrays as the parser sets them), for instance by parsing a program that
// declares the same variables in the same order (ResolveCond).
type Clauses struct {
	Conds   []syntax.BExpr
	Replace bool
}

// Invariants are the clauses given beside the program, by loop: the key is the loop's
// position (the position of its 'while' keyword, syntax.While.Pos).
type Invariants map[syntax.Pos]Clauses

// Options configure a proof attempt. The zero value has no bounds besides the defaults of
// Unroll and ReachStates.
type Options struct {
	// Limits bound the attempt: Timeout and MaxMemory the whole of it, MaxStates the states of
	// the proof's execution (0: none), QueryTimeout and RLimit each solver query.
	budget.Limits
	// Monitor, when set, sees the attempt's counters and can interrupt it.
	Monitor *budget.Monitor
	// Unroll is the number of iterations a loop without clauses may run on each path (its
	// arrivals at the loop's head, counted on the path; 0: DefaultUnroll). A path that goes
	// further is cut: the answer cannot then be proved.
	Unroll int
	// ReachStates bounds the searches made after a failed claim (0: DefaultReachStates): the
	// search for a reachable pre-state of a counterexample to induction and the bug finder's
	// search for an input that reaches an error.
	ReachStates int
	// NoSearch leaves out the searches made after a failed claim (the bug finder's and the
	// reachability of a counterexample to induction's pre-state): a caller that tries many
	// candidate invariants wants the proof's answer and its counterexample only. A refutation is
	// then found only as a counterexample that replays.
	NoSearch bool
	// ReplaySteps bounds each concrete run that replays a counterexample (0:
	// DefaultReplaySteps): a caller that tries many candidate invariants of a long-running loop
	// wants a short replay, a counterexample that does not replay being a failure all the same.
	ReplaySteps int
	// OnTransition, when not nil, is shown each application of the invariant transition of the
	// proof's execution, with its successors (the refinement layer's exhaustiveness check).
	OnTransition func(*Transition)
}

// The defaults of Options.Unroll and Options.ReachStates.
const (
	DefaultUnroll      = 8
	DefaultReachStates = 5000
)

// Claim says which claim a failure is of: a claim of the program (an assert, a fail, an
// evaluation error), or the entry or preservation claim of an invariant clause.
type Claim uint8

// The kinds of claims.
const (
	ProgramClaim Claim = iota
	EntryClaim
	PreservationClaim
)

var claimText = [...]string{ProgramClaim: "program", EntryClaim: "entry", PreservationClaim: "preservation"}

func (c Claim) String() string { return claimText[c] }

// LoopInvariant is the invariant a loop was executed with: its clauses, printed, each with
// where it came from ("program" or "given").
type LoopInvariant struct {
	Loop    syntax.Pos
	Clauses []string
	Given   []bool
}

// Bug is an input whose concrete run from the program's start reaches an error: the refutation.
type Bug struct {
	Fail  *syntax.Fail
	Input spec.Store
	// Steps is the length of the concrete run to the error.
	Steps int
	// Claim is the claim whose failure the input was found from; Found says how: "proof" (the
	// counterexample of a failed claim replayed) or "search" (the bug finder's search).
	Claim Claim
	Found string
}

// CTI is a counterexample to induction: a state at the head of a loop that satisfies the
// invariant and the loop's condition, from which one execution of the body ends in a state
// breaking the clause.
type CTI struct {
	Loop   syntax.Pos
	Clause string
	At     syntax.Pos // the clause's position
	// Pre and Post are the concrete stores before and after the body (the program's variables,
	// then its arrays' elements, spec.Store's layout).
	Pre, Post spec.Store
	// Reachable says whether a run from the program's start arrives at the loop's head with the
	// store Pre (found by a bounded search, ReachInput its input); otherwise Why says what the
	// search did ("no run found within N states"): the counterexample is then only a proof
	// failure.
	Reachable  bool
	ReachInput spec.Store
	Why        string
}

// Failure is a claim the proof could not show, in a state the transition over-approximates
// (Over) or because the solver could not decide it.
type Failure struct {
	Fail  *syntax.Fail
	Claim Claim
	Over  bool
	// Reason is why the failure is not a refutation.
	Reason string
	// Loop and Clause name the invariant clause of an entry or preservation claim: its loop and
	// its index among the loop's clauses (its own, then the given ones, as in Result.Loops);
	// Loop is nil for a claim of the program. A failure names its clause whether or not a state
	// ever passed the loop's entry claims (Options.OnTransition shows only those that did).
	Loop   *syntax.While
	Clause int
}

// Stats count the work of an attempt.
type Stats struct {
	// States are the symbolic states expanded by the proof's execution; Transitions the
	// applications of the invariant transition; Over the states it produced (over-approximate).
	States, Transitions, Over int
	// Queries are the solver queries of the whole attempt.
	Queries int
	Time    time.Duration
}

// Result is the outcome of Check.
type Result struct {
	Answer Answer
	// Reason says why the answer is Unknown (empty otherwise).
	Reason string
	// Loops are the invariants the loops were executed with, in the order of the program text.
	Loops []LoopInvariant
	// Bug is the refutation when Answer is Refuted.
	Bug *Bug
	// CTI is the first counterexample to induction found, when an invariant is not inductive.
	CTI *CTI
	// Failures are the claims the proof could not show, in the order found.
	Failures []Failure
	// Unbounded are the positions of the loops without clauses that were cut at the unrolling
	// bound.
	Unbounded []syntax.Pos
	// Stopped says why the proof's execution stopped before every path ended (a bound or an
	// interrupt; empty when none): claims on the paths left were neither shown nor failed.
	Stopped string
	Stats   Stats
}

// Check attempts to prove the program: the proof mode (pstep of Invariant.v) from its initial
// state, every loop with clauses (its own or given by inv) executed by the invariant transition
// (inv_succ), the others unrolled up to opts.Unroll iterations. It returns an error only for
// given clauses that name no loop of the program.
//
// Coq: pstep, psteps (proofs/coq/Invariant.v); prove_sound (Invariantproof.v) is what makes
// Proved an answer for every input.
func Check(prog *syntax.Program, inv Invariants, opts Options) (*Result, error) {
	loops, err := collectLoops(prog, inv)
	if err != nil {
		return nil, err
	}
	if opts.Unroll <= 0 {
		opts.Unroll = DefaultUnroll
	}
	if opts.ReachStates <= 0 {
		opts.ReachStates = DefaultReachStates
	}
	if opts.Monitor == nil {
		opts.Monitor = budget.NewMonitor()
	}
	opts.Monitor.SetLimits(opts.Limits)
	start := time.Now()
	res := run(prog, loops, opts)
	res.Stats.Time = time.Since(start)
	return res, nil
}

// String is a one-line account of the answer.
func (r *Result) String() string {
	if r.Reason != "" {
		return fmt.Sprintf("%s (%s)", r.Answer, r.Reason)
	}
	return r.Answer.String()
}
