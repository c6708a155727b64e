// Package fault names the deliberate defects that can be switched on in the engine to show that
// the refinement layer catches them (mutation checking). Faults exist only in binaries built with
// the build tag "faults": in a normal build Active is the constant None, every `fault.Active ==
// fault.X` test is a constant false, and the compiler removes the faulty code paths entirely.
package fault

// Fault is one deliberate defect, of a kind published against real symbolic engines.
type Fault uint8

// The faults.
const (
	None Fault = iota
	// EuclideanDiv: / and % are Euclidean instead of truncating (folding and the Z3 encoding).
	EuclideanDiv
	// DropElseNegation: the else branch of a condition gets the condition instead of its negation.
	DropElseNegation
	// LostStoreUpdate: an assignment of a constant 0 does not update the symbolic store.
	LostStoreUpdate
	// Precedence: the parser makes '-' bind tighter than '+' (a - b + c reads a - (b + c)).
	Precedence
	// LoopBoundOffByOne: the bounded interpreter allows one more iteration than the loop bound.
	LoopBoundOffByOne
	// PruneOnUnknown: a state whose path condition the solver cannot decide is pruned.
	PruneOnUnknown
	// WrapInt64: constant folding in the engine wraps around at 64 bits.
	WrapInt64
	// SwapComparison: < is treated as <= in symbolic conditions.
	SwapComparison
	// NoDivZeroBranch: expand forgets the division-by-zero successor.
	NoDivZeroBranch
	// ConfirmWithoutReplay: a bug is reported with the parent's stale witness as input, without
	// replaying it on the concrete semantics.
	ConfirmWithoutReplay
	// VerifyIgnoresCutoffs: certsym verify does not relate loop and depth cutoffs to the claims
	// they reach (VERIFIED? reads VERIFIED, UNCOVERED reads DEAD).
	VerifyIgnoresCutoffs
	// VerifySkipsUndefined: certsym verify does not ask whether a claim's own evaluation divides
	// by zero (an undefined claim reads TRUE).
	VerifySkipsUndefined

	// Faults of one class each: the search at scale, the solver-free deciders, the
	// conclusions the layer did not check before (verdict, all-bugs, claim set, status strength).

	// FrontierReclaimLoss: when the BFS queue reclaims its consumed prefix (only after more than
	// 1024 states were taken), the last pending state is lost.
	FrontierReclaimLoss
	// ShaveWrongEnd: x != v at the low end of x's interval moves the high end instead.
	ShaveWrongEnd
	// MulRangeStraddle: the range of a product of two finite intervals is taken from lo*lo and
	// hi*hi only (wrong when a range straddles zero).
	MulRangeStraddle
	// ModRangeSign: the range of x % y keeps x's positive low end (x % y may be smaller than x).
	ModRangeSign
	// LinFactNegScale: the range of g·F + c from F's interval forgets to swap the ends when g < 0.
	LinFactNegScale
	// VerdictDropsUnknown: an error state the solver cannot decide is not recorded, so the
	// verdict reads safe instead of unknown.
	VerdictDropsUnknown
	// AllBugsDedupByLine: --all-bugs reports one error per line instead of per statement and
	// kind (an assert that can also divide by zero loses one of its two errors).
	AllBugsDedupByLine
	// VerifyDropsAssumeClaims: verify forgets the division claims of assume statements.
	VerifyDropsAssumeClaims
	// VerifyUnknownAsTrue: verify collects a solver unknown as TRUE (VERIFIED instead of
	// VERIFIED? or UNKNOWN).
	VerifyUnknownAsTrue
	// StatusDontKnowWeak: the status table reads a summary of TRUE and DONTKNOW results as
	// VERIFIED? instead of INDETERMINATE (a status stronger than the evidence).
	StatusDontKnowWeak
	// MacroNestedArgs: the inliner does not rewrite the arguments of a macro call made inside
	// another macro's body, so a parameter of the outer macro passed on to the inner one reads
	// the program variable of that name instead of the outer call's argument.
	MacroNestedArgs
	// EarlyStop: the search stops after 40 states, naming the time bound, though the time bound
	// has not passed (a stopped run is a prefix of the stream, so every check of a prefix passes).
	EarlyStop

	// The fault of the fair strategies.

	// StarveState: the fairness pick of the fair strategies (coverage, random-path) takes the
	// second oldest pending state instead of the oldest once more than 3 are pending: an unfair
	// scheduler, under which the oldest state may never be expanded.
	StarveState
	// Faults of the solver caching (solver/cache.go).

	// CexSkipsNewest: the counterexample cache's model check skips the newest conjunct of the
	// query, so a stored model that violates it (the parent's own model) is taken as a model.
	CexSkipsNewest
	// CacheStaleUnsat: the counterexample cache's subset check ignores the newest formula of a
	// stored unsatisfiable set, so a query that is not a superset of it is answered unsat.
	CacheStaleUnsat

	// Faults of arrays and quantifiers (sym/array.go, solver/encode.go).

	// IndexHiOffByOne: the range check of an element access allows Hi + 1 (off by one at the
	// upper bound).
	IndexHiOffByOne
	// SelectSkipsStore: a read walks past a store at a symbolic index that may equal its own
	// (a read after a store at another symbolic index ignores the store).
	SelectSkipsStore
	// EmptyQuantFalse: a quantifier over an empty constant range is false (forall included).
	EmptyQuantFalse
	// ModelIndexShift: an array's model is read back with a shifted index (element j gets the
	// value of element j+1).
	ModelIndexShift

	// Faults of verify, after the xSymExe paper.

	// SupportNoPrecedence: CHECKCLAIM gives a developer claim its defining claim's result even
	// where a supporting claim is FALSE, FALSE? or DONTKNOW (Section IV-C's first match ignored).
	SupportNoPrecedence
	// OverNotInherited: the flag g (bounded.State.Over) is dropped when a constraint is added,
	// so the successors of a flagged state past its next branch are not flagged (xSymExe,
	// Section III-B3: the flag holds for the state and all its successors).
	OverNotInherited

	// The fault of the concrete fast path (its machine, engine/burst).

	// BurstSkipsError: a burst steps past the error state of a concrete assignment that
	// divides by zero (it assigns 0 and goes on), so the error is never queued.
	BurstSkipsError

	// Faults of verify's conclusions that the layer's checks did not exercise before: a stopped
	// exploration, the order of the status table's rows, the control-flow graph's back edges.

	// VerifyForgetsStop: when the state, time or memory bound stops the exploration, verify does
	// not record the stop as a cutoff of every claim, so the claims the exploration did not reach
	// read DEAD and those it found true VERIFIED (instead of UNCOVERED and VERIFIED?).
	VerifyForgetsStop
	// StatusRowOrder: the status table tries REFUTED? (FALSE? ∈ S) before FAULTY (UNDEFINED ∈
	// S), so a claim undefined on one path and possibly false on another, {UNDEFINED, FALSE?},
	// reads REFUTED? instead of FAULTY.
	StatusRowOrder
	// CFGNoBackEdge: the control-flow graph has no back edge from the end of a loop's body to the
	// loop (the body goes on to what follows the loop), so a cutoff inside an inner loop does
	// not reach the claims an outer loop's next iteration meets before it.
	CFGNoBackEdge

	// Faults of the merge of states (package merge).

	// MergeIteSwapped: the conditional term of a variable whose terms differ takes the branches
	// the other way round (the first state's term where its guard does not hold).
	MergeIteSwapped
	// MergeDropDisjunct: the merged path condition leaves out the last state's disjunct.
	MergeDropDisjunct
	// MergeDifferentContinuations: states whose remaining programs differ are merged (into the
	// first one's program) instead of being refused.
	MergeDifferentContinuations
	// MergeWrongModel: the constituent an input of the merged state follows is read back one off
	// (the next constituent's, whose guard the input need not satisfy).
	MergeWrongModel

	// Faults of the proof mode (package prove).

	// ModifiesMissesArrayWrite: the modifies set of a loop body leaves out the arrays its
	// element assignments write, so the invariant transition keeps their values from before the
	// loop instead of havocking them.
	ModifiesMissesArrayWrite
	// InvNotAssumedAfterLoop: the exit successor of the invariant transition does not assume
	// the invariant (only the negated condition) on the havocked store.
	InvNotAssumedAfterLoop
	// PreservationBeforeBody: the body successor checks the invariant before running the body
	// instead of after it, so the preservation claim is the assumed invariant itself.
	PreservationBeforeBody
	// InvHavocKeepsVars: the invariant mode of the bounded interpreter (verify --loops
	// invariant) havocs no scalar variable of a loop's modifies set, so the states after the
	// transition keep their values from before the loop.
	InvHavocKeepsVars

	// Faults of the inference of invariants (package prove/infer).

	// HoudiniKeepsEntryRefuted: a step of Houdini's fixpoint keeps the candidates refuted on
	// entry to their loop (it drops only those not preserved).
	HoudiniKeepsEntryRefuted

	// The fault of the distributed runs (package distrib).

	// AckBeforeStore: a worker acknowledges a job to the broker before it has stored the job's
	// result and split-off jobs, so a worker killed in between loses them (the broker has
	// removed the job and will not deliver it again).
	AckBeforeStore
	// AssembleByJob: the coordinator's assembly orders the error states of different jobs by
	// their jobs' roots before their own (depth, path), so a job's deeper bug comes before a
	// shallower bug of a job whose root comes later (the first bug, and the order of --all-bugs,
	// are not the single run's).
	AssembleByJob
	// ConfirmWrongChoice: the coordinator's confirming engine walks a bug's path with its last
	// branch choice flipped (job.Walk), so it confirms a sibling state's model in the bug's place.
	ConfirmWrongChoice

	// Faults of the partitioned runs (package engine/steal).

	// StealWrongPrefix: a stolen job is replayed from a wrong prefix (the last branch choice of
	// its path flipped), so the thief explores a sibling subtree in its place.
	StealWrongPrefix
	// FirstBugEarly: without --all-bugs, the first bug a worker hands in is reported before every
	// worker has passed its depth, though a bug earlier in breadth-first order may still come.
	FirstBugEarly
	// StealRedecide: a thief asks its own solver again on the path condition of a stolen job
	// rather than taking the answer of the worker that queued it, so that where a bound cuts one
	// of the two solvers short the job's state is classified, and its subtree expanded, under
	// another answer than the single run's.
	StealRedecide
	count
)

var names = [...]string{"none", "euclidean-div", "drop-else-negation", "lost-store-update", "precedence",
	"loop-bound-off-by-one", "prune-on-unknown", "wrap-int64", "swap-comparison", "no-div-zero-branch",
	"confirm-without-replay", "verify-ignores-cutoffs", "verify-skips-undefined",
	"frontier-reclaim-loss", "shave-wrong-end", "mul-range-straddle", "mod-range-sign", "linfact-neg-scale",
	"verdict-drops-unknown", "all-bugs-dedup-by-line", "verify-drops-assume-claims", "verify-unknown-as-true",
	"status-dontknow-weak", "macro-nested-args", "early-stop",
	"starve-state", "cex-skips-newest", "cache-stale-unsat",
	"index-hi-off-by-one", "select-skips-store", "empty-quant-false", "model-index-shift",
	"support-no-precedence", "over-not-inherited", "burst-skips-error",
	"verify-forgets-stop", "status-row-order", "cfg-no-back-edge",
	"merge-ite-swapped", "merge-drop-disjunct", "merge-different-continuations", "merge-wrong-model",
	"modifies-misses-array-write", "inv-not-assumed-after-loop", "preservation-before-body", "inv-havoc-keeps-vars",
	"houdini-keeps-entry-refuted",
	"ack-before-store", "assemble-by-job", "confirm-wrong-choice",
	"steal-wrong-prefix", "first-bug-early", "steal-redecide"}

func (f Fault) String() string { return names[f] }

// Refinement lists the faults that the refinement layer's mutation check (refinement's
// TestMutation) must catch: every fault but None and those of the distributed runs, which live
// in the broker's protocol, outside the engine the layer runs (distrib's kill test catches them),
// the fault of verify's invariant mode, which the layer's whole check does not run
// (refinement/verifycheck's TestInvariantModeFault catches it), and the thief that decides a
// stolen job again, which shows only where a bound cuts one solver short and not another, as no
// seeded schedule of the layer makes happen at will (engine/steal's TestStealRedecideFault
// catches it).
func Refinement() []Fault {
	var fs []Fault
	for _, f := range All() {
		if f != AckBeforeStore && f != InvHavocKeepsVars && f != StealRedecide {
			fs = append(fs, f)
		}
	}
	return fs
}

// Parse returns the fault named name (String's form); ok is false for an unknown name.
func Parse(name string) (f Fault, ok bool) {
	for i, n := range names {
		if n == name {
			return Fault(i), true
		}
	}
	return None, false
}

// All lists every fault but None.
func All() []Fault {
	var fs []Fault
	for f := None + 1; f < count; f++ {
		fs = append(fs, f)
	}
	return fs
}
