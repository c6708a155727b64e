// Package refinement is certsym's refinement layer: it replays the Go engine against certsym-ref,
// the IMP semantics extracted from the Coq development (proofs/ref), and checks the engine's runs
// against concrete runs of the reference. See README.md in this folder for what is checked and
// what a green run guarantees.
//
// The checks, each named in mismatch reports:
//
//   - step-replay: every state the engine expands is sent to certsym-ref expand; the successor
//     lists must correspond one to one with the same remaining program, equivalent path
//     conditions and equal stores (Z3 validity in the layer's own context, and random
//     valuations evaluated independently of Z3);
//   - concrete-step: spec.Step against certsym-ref step on the states of concrete runs;
//   - ghost: along the concrete run of a random input (computed by the reference), exactly one
//     symbolic successor holds under the input and concretizes to the reference's successor
//     (exhaustiveness), and every other satisfiable successor's model replays on the reference
//     to a concretization of it (precision);
//   - oracle: the whole-run oracles is_probably_exhaustive and is_probably_precise of the
//     correctness chapter of the Symbolic Execution Book, and the replay of every bug the
//     engine reports;
//   - stop: a run the engine stops early names a bound the layer gave and the run reached
//     (oracles.go, checkStop; on runs with and without a time bound);
//   - the oracles again on runs of the fair strategies, whose picks sched/fair checks against
//     the layer's model of the K-interleaved scheduler (fair.go, refinement/sched);
//   - bounded: the same oracles, and the ghost mode, for the bounded interpreter;
//   - verify: the statuses of certsym verify against concrete runs (verify.go).
package refinement

import (
	"fmt"
	"math/rand"
	"runtime/debug"
	"sort"
	"strings"
	"sync/atomic"
	"time"

	"certsym/engine"
	"certsym/refinement/gen"
	"certsym/refinement/prover"
	"certsym/refinement/refclient"
	"certsym/spec"
	"certsym/spec/integer"
	"certsym/spec/syntax"
	"certsym/sym"
)

// Config sets the budgets of a run of the layer.
type Config struct {
	RefPath        string
	MaxStates      int           // states the engine expands per program (step replay, oracles)
	GhostInputs    int           // random inputs per program followed step by step (ghost checks)
	GhostSteps     int           // steps per ghost run
	OracleInputs   int           // random inputs per program for is_probably_exhaustive
	PreciseStates  int           // final/error states per program checked by is_probably_precise
	Valuations     int           // random valuations per compared pair of states
	StarvedStates  int           // states of the run with a starved solver (0: none)
	BoundedN       int           // loop limit of the bounded interpreter checks (0: none)
	ProverRLimit   uint          // Z3 resource limit per query of the layer's prover
	ProverTimeout  time.Duration // time limit per query of the layer's prover
	EngineRLimit   uint          // the engine's own solver bounds
	EngineTimeout  time.Duration
	Workers        int  // programs checked in parallel (each worker: its own certsym-ref and Z3)
	StopAtMismatch bool // check no further program once a mismatch is found (mutation check)
	// CrossCheck asks the layer's Z3 every question the engine decides without Z3
	// (crosscheck.go).
	CrossCheck bool
	// StreamStates is how many states of the engine's unpruned stream are compared with the
	// reference's run stream per program (stream.go; 0: none).
	StreamStates int
	// StreamOnly runs the whole-stream comparison alone (make check-refinement-stream).
	StreamOnly bool
	// LongStates and LongStreamStates are the budgets of the programs that want a large budget
	// (Unit.Long: a long countdown loop): the engine's run goes on to LongStates states (step
	// replay on the first MaxStates; the verdict, the bug replays and the exhaustiveness oracle
	// on all), and LongStreamStates states of its unpruned stream are compared.
	LongStates, LongStreamStates int
	// ProgramBudget bounds the time spent on one program: the checks still to come are skipped
	// once it is spent (the summary counts such programs).
	ProgramBudget time.Duration
	Log           func(format string, args ...any)
}

// DefaultConfig is the configuration of the default run.
func DefaultConfig() Config {
	return Config{
		RefPath: refclient.DefaultPath(), MaxStates: 150, GhostInputs: 4, GhostSteps: 150, OracleInputs: 8,
		PreciseStates: 12, Valuations: 10, StarvedStates: 60, BoundedN: 2,
		ProverRLimit: 1_000_000, ProverTimeout: 500 * time.Millisecond,
		EngineRLimit: 2_000_000, EngineTimeout: 500 * time.Millisecond, Workers: 2,
		ProgramBudget: 8 * time.Second, CrossCheck: true,
		StreamStates: 40, LongStates: 1500, LongStreamStates: 1200,
	}
}

// Unit is one program to check: the parsed program the engine runs, and the tree the reference
// runs (for a generated program, the generated tree, not the parsed one, so that a parser defect
// shows up as a disagreement).
type Unit struct {
	Name    string
	Seed    int64 // the generator seed, or -1 for a file
	Prog    *syntax.Program
	RefBody syntax.Stmt
	Text    string
	// Long marks a program that wants a large budget (Config.LongStates).
	Long bool
	// ParseMismatch, when set, says how the parsed program differs from the generated tree in
	// its variables (a defect of the parser or of its macro inliner): the unit is then reported
	// as a mismatch of check "parser" and not run, since the two sides disagree on the inputs.
	ParseMismatch string
}

// Mismatch is one disagreement, with what is needed to reproduce it.
type Mismatch struct {
	Check   string
	Program string
	Seed    int64
	Text    string
	Input   string
	Step    int
	Detail  string
}

// String renders the mismatch with its program, seed, input, step and details.
func (m Mismatch) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "MISMATCH [%s] program %s", m.Check, m.Program)
	if m.Seed >= 0 {
		fmt.Fprintf(&b, " (generator seed %d)", m.Seed)
	}
	if m.Input != "" {
		fmt.Fprintf(&b, ", input %s", m.Input)
	}
	if m.Step >= 0 {
		fmt.Fprintf(&b, ", step %d", m.Step)
	}
	fmt.Fprintf(&b, "\n  %s\n  program:\n", m.Detail)
	for _, l := range strings.Split(strings.TrimRight(m.Text, "\n"), "\n") {
		b.WriteString("    " + l + "\n")
	}
	return b.String()
}

// Summary counts what a run did.
type Summary struct {
	Programs           int
	StatesReplayed     int // engine states replayed against certsym-ref expand
	SuccessorsCompared int
	ConcreteSteps      int // spec.Step compared with certsym-ref step
	GhostChecks        int // steps of ghost runs checked (exhaustiveness), engine and bounded
	PrecisionReplays   int // models replayed on the reference (precision)
	ExhaustiveRuns     int // concrete runs checked for coverage by a whole engine run
	BugsReplayed       int // bugs reported by the engine replayed on the reference
	BoundedResults     int // result states of the bounded interpreter checked
	VerifyClaims       int // claims of certsym verify checked
	VerifyRuns         int // concrete runs checked against verify's statuses
	VerifyCutRuns      int // of which runs cut off by the loop limit and followed beyond it
	VerifyMaybe        int // FALSE? and UNDEFINED? counterexamples checked (verify/maybe)
	StreamStates       int // states of the unpruned stream compared with the reference's run stream
	BurstRuns          int // programs whose runs with and without bursts were compared (burst.go)
	// BoundedNotExhaustive counts concrete runs no bounded result covers: expected (loop unrolling
	// is not exhaustive); Example is one of them.
	BoundedNotExhaustive int
	// BoundedStoppedRuns counts concrete runs checked against a bounded run that a budget
	// stopped: each must be covered by a result or by a stopped path.
	BoundedStoppedRuns int
	BoundedExample     string
	// ArrayPrograms counts the programs with arrays (issue 13); UnclaimedIndex the runs that fail
	// with an index out of range inside a quantifier's body, which verify makes no claim of.
	ArrayPrograms, UnclaimedIndex int
	UnclaimedExample              string
	RefCalls                      int
	ProverQueries                 int
	ProverUndecided               int
	ProverSkipped                 int // queries not asked: the program's budget of undecided queries was spent
	OverBudget                    int // programs whose time budget ran out before all checks were done
	RunsCut                       int // reference runs cut short because their values exceeded 4096 bits
	Mismatches                    int
	// Rules counts the solver-free decisions by rule (crosscheck).
	Rules   map[string]*RuleCount
	ByCheck map[string]int
	Details []Mismatch // the first mismatches in full
}

func (s *Summary) add(o *Summary) {
	s.Programs += o.Programs
	s.StatesReplayed += o.StatesReplayed
	s.SuccessorsCompared += o.SuccessorsCompared
	s.ConcreteSteps += o.ConcreteSteps
	s.GhostChecks += o.GhostChecks
	s.PrecisionReplays += o.PrecisionReplays
	s.ExhaustiveRuns += o.ExhaustiveRuns
	s.BugsReplayed += o.BugsReplayed
	s.BoundedResults += o.BoundedResults
	s.VerifyClaims += o.VerifyClaims
	s.VerifyRuns += o.VerifyRuns
	s.VerifyCutRuns += o.VerifyCutRuns
	s.VerifyMaybe += o.VerifyMaybe
	s.StreamStates += o.StreamStates
	s.BurstRuns += o.BurstRuns
	s.BoundedNotExhaustive += o.BoundedNotExhaustive
	s.BoundedStoppedRuns += o.BoundedStoppedRuns
	if s.BoundedExample == "" {
		s.BoundedExample = o.BoundedExample
	}
	s.ArrayPrograms += o.ArrayPrograms
	s.UnclaimedIndex += o.UnclaimedIndex
	if s.UnclaimedExample == "" {
		s.UnclaimedExample = o.UnclaimedExample
	}
	s.RefCalls += o.RefCalls
	s.ProverQueries += o.ProverQueries
	s.ProverUndecided += o.ProverUndecided
	s.ProverSkipped += o.ProverSkipped
	s.OverBudget += o.OverBudget
	s.RunsCut += o.RunsCut
	s.Mismatches += o.Mismatches
	if s.ByCheck == nil {
		s.ByCheck = map[string]int{}
	}
	for k, v := range o.ByCheck {
		s.ByCheck[k] += v
	}
	if s.Rules == nil {
		s.Rules = map[string]*RuleCount{}
	}
	for k, v := range o.Rules {
		r := s.Rules[k]
		if r == nil {
			r = &RuleCount{}
			s.Rules[k] = r
		}
		r.Fired += v.Fired
		r.Checked += v.Checked
		r.Undecided += v.Undecided
	}
	for _, d := range o.Details {
		if len(s.Details) < 20 {
			s.Details = append(s.Details, d)
		}
	}
}

// Checks returns the names of the checks that reported a mismatch, sorted.
func (s *Summary) Checks() []string {
	var out []string
	for k := range s.ByCheck {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// maxUndecidedPerProgram is how many queries the prover may give up on for one program before
// the layer stops asking it (for that program; the random valuations still check everything).
const maxUndecidedPerProgram = 6

// checker is one worker: its own certsym-ref process and Z3 prover.
type checker struct {
	cfg    Config
	ref    *refclient.Client
	prover *prover.Prover
	rng    *rand.Rand
	sum    *Summary
	u      *Unit
	names  []string
	// slots names every symbol of the program's flat store (variables, then a[j]): renderings.
	slots []string
	// traces caches the reference's concrete runs of the current unit, by input.
	traces map[string]*trace
	// deadline ends the checks of the current unit (ProgramBudget).
	deadline time.Time
	// xc is the crosscheck's state (nil: off).
	xc *xcState
	// stream is what the layer saw of the program's bug-finder run (nil: cut short by the layer).
	stream *streamRun
	// stop, with StopAtMismatch, is set by the first mismatch of any worker: the checks of the
	// programs in flight end (the run's answer is known).
	stop *atomic.Bool
}

// expired reports whether the current program's time budget is spent.
// With StopAtMismatch, it is also true once any worker of the run has found a mismatch.
func (c *checker) expired() bool {
	return (c.stop != nil && c.stop.Load()) || (!c.deadline.IsZero() && time.Now().After(c.deadline))
}

// left is the time left for the current program, at most d (d when there is no budget).
func (c *checker) left(d time.Duration) time.Duration {
	if c.deadline.IsZero() {
		return d
	}
	l := time.Until(c.deadline)
	if l < 100*time.Millisecond {
		l = 100 * time.Millisecond
	}
	if l < d {
		return l
	}
	return d
}

func newChecker(cfg Config, seed int64) (*checker, error) {
	ref, err := refclient.Start(cfg.RefPath)
	if err != nil {
		return nil, err
	}
	return &checker{cfg: cfg, ref: ref, prover: prover.New(cfg.ProverRLimit, cfg.ProverTimeout),
		rng: rand.New(rand.NewSource(seed)), sum: &Summary{ByCheck: map[string]int{}}}, nil
}

// flush moves the counters of the reference and the prover into the summary.
func (c *checker) flush() {
	c.sum.RefCalls += c.ref.Calls
	c.sum.ProverQueries += c.prover.Queries
	c.sum.ProverUndecided += c.prover.Undecided
	c.sum.ProverSkipped += c.prover.Skipped
	c.ref.Calls, c.prover.Queries, c.prover.Undecided, c.prover.Skipped = 0, 0, 0, 0
}

func (c *checker) close() {
	c.flush()
	c.ref.Close()
}

func (c *checker) report(check, input string, step int, format string, args ...any) {
	if c.stop != nil {
		c.stop.Store(true)
	}
	c.sum.Mismatches++
	c.sum.ByCheck[check]++
	if c.sum.ByCheck[check] <= 3 && len(c.sum.Details) < 20 {
		c.sum.Details = append(c.sum.Details, Mismatch{Check: check, Program: c.u.Name, Seed: c.u.Seed, Text: c.u.Text,
			Input: input, Step: step, Detail: fmt.Sprintf(format, args...)})
	}
}

func (c *checker) inputString(v []integer.Int) string {
	if len(c.u.Prog.Arrays) > 0 && len(v) == c.u.Prog.Slots() {
		return spec.StoreString(c.u.Prog, v)
	}
	if len(v) > len(c.names) && len(v) <= len(c.slots) {
		return spec.InputString(v, c.slots)
	}
	if len(v) > len(c.names) {
		return fmt.Sprint(v)
	}
	return spec.InputString(v, c.names)
}

// randomValuation draws values mostly small (where branches, zero divisors and sign changes
// are), some large, some beyond 64 bits.
func (c *checker) randomValuation() []integer.Int {
	v := make([]integer.Int, c.u.Prog.Slots())
	for i := range v {
		if i >= len(c.names) { // array elements: small values, where the comparisons are
			v[i] = integer.Of(int64(c.rng.Intn(13) - 6))
			continue
		}
		switch r := c.rng.Intn(16); {
		case r < 3:
			v[i] = integer.Of(0)
		case r < 12:
			v[i] = integer.Of(int64(c.rng.Intn(13) - 4))
		case r < 14:
			v[i] = integer.Of(int64(c.rng.Intn(2001) - 1000))
		case r < 15:
			v[i] = gen.HugeConstants[c.rng.Intn(len(gen.HugeConstants))]
		default:
			v[i] = integer.Of(c.rng.Int63()).Mul(integer.Of(c.rng.Int63() - c.rng.Int63()))
		}
	}
	return v
}

// CheckUnit runs every check on one program. A panic anywhere (engine or layer) is reported as
// a mismatch of check "panic", never propagated.
func (c *checker) CheckUnit(u *Unit) {
	c.u, c.names, c.traces = u, u.Prog.Vars, map[string]*trace{}
	c.ref.Arrays, c.prover.Arrays = u.Prog.Arrays, u.Prog.Arrays
	c.slots = sym.SlotNames(u.Prog)
	if len(u.Prog.Arrays) > 0 {
		c.sum.ArrayPrograms++
	}
	c.prover.Budget = maxUndecidedPerProgram
	c.prover.ResetBudget()
	c.sum.Programs++
	if u.ParseMismatch != "" {
		c.report("parser", "", -1, "%s", u.ParseMismatch)
		return
	}
	c.stream = nil
	c.deadline = time.Time{}
	if c.cfg.ProgramBudget > 0 {
		b := c.cfg.ProgramBudget
		if u.Long {
			b *= 2
		}
		c.deadline = time.Now().Add(b)
	}
	if c.cfg.CrossCheck {
		c.startCrossCheck()
	}
	defer func() {
		if r := recover(); r != nil {
			c.report("panic", "", -1, "panic: %v\n%s", r, panicSite(debug.Stack()))
		}
		if c.expired() {
			c.sum.OverBudget++
		}
		c.stopCrossCheck()
	}()
	if c.cfg.StreamOnly {
		c.streamCompare(c.streamBudget())
		return
	}
	c.engineRun()
	c.ghostRuns()
	if c.cfg.StarvedStates > 0 && !c.expired() {
		c.starvedRun()
	}
	if c.cfg.BoundedN > 0 && !c.expired() {
		c.boundedChecks()
	}
	if c.cfg.BoundedN > 0 && !c.expired() {
		c.verifyChecks()
	}
	for _, s := range []engine.Strategy{engine.Coverage, engine.RandomPath} {
		if !c.expired() {
			c.fairRun(s)
		}
	}
	if c.stream != nil {
		c.checkAllBugs(c.stream)
	}
	if !c.expired() {
		c.burstCompare()
	}
	if n := c.streamBudget(); n > 0 && !c.expired() {
		c.streamCompare(n)
	}
}

// panicSite is the part of a panic's stack that names the engine's or the layer's functions.
func panicSite(stack []byte) string {
	var out []string
	for _, l := range strings.Split(string(stack), "\n") {
		if strings.Contains(l, "/work/") || strings.Contains(l, "certsym/") {
			out = append(out, strings.TrimSpace(l))
		}
		if len(out) >= 12 {
			break
		}
	}
	return strings.Join(out, "\n    ")
}
