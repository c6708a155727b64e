// Package checker is what every check of the refinement layer shares: the configuration of a
// run, the program under check (Unit), the mismatch reports and the summary, and the checker
// itself, one worker with its own certsym-ref process and Z3 prover, which draws the random
// valuations and inputs of a program from its seed, follows the reference's concrete runs of
// them (trace.go) and relates the engine's states to the reference's (concretization, models of
// path conditions). The checks themselves are in the packages beside it (refinement, its
// bounded, verify, crosscheck and stream checks), each a function of a *Checker.
package checker

import (
	"fmt"
	"hash/fnv"
	"io"
	"math/rand"
	"path/filepath"
	"sort"
	"strings"
	"sync/atomic"
	"time"

	"certsym/bounded"
	"certsym/engine"
	"certsym/internal/budget"
	"certsym/pathcond"
	"certsym/refinement/conv"
	"certsym/refinement/gen"
	"certsym/refinement/prover"
	"certsym/refinement/refclient"
	"certsym/solver"
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

// RuleCount is how often a solver-free rule decided, and how often the crosscheck asked Z3
// about it.
type RuleCount struct{ Fired, Checked, Undecided int }

// Summary counts what a run did.
type Summary struct {
	Programs       int
	StatesReplayed int // engine states replayed against certsym-ref expand
	// TooLarge counts the states left out of the step replay because their path condition or
	// store, written as trees, pass conv.MaxTreeNodes (conv.ErrTree).
	TooLarge           int
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
	VerifyStopped      int // verify reports of a stopped exploration checked (verify/stopped)
	// VerifyBackEdgeRuns counts the runs cut off by verify's bounds that meet again, after the
	// cut, a statement with claims they met before it (through a loop's back edge: verify/cutoff).
	VerifyBackEdgeRuns int
	// VerifyOrder counts the claims whose summary matched two cases of the status table, by the
	// pair: "REFUTED over REFUTED?" (the first case gives the status; verify/status).
	VerifyOrder  map[string]int
	StreamStates int // states of the unpruned stream compared with the reference's run stream
	BurstRuns    int // programs whose runs with and without bursts were compared (burst.go)
	// Merges and MergeInputs count the merges of states checked and the inputs checked against
	// them (refinement/mergecheck).
	Merges, MergeInputs int
	// ProveTransitions, ProveLoopRuns and Proved count the applications of the invariant
	// transition checked, the concrete runs of loops compared with them and the programs proved
	// (provecheck).
	ProveTransitions, ProveLoopRuns, Proved int
	// MergeRuns counts the programs whose run with state merging (run --merge) went through the
	// whole-run oracles, and MergeRunMerges the merges those runs made (mergerun.go).
	MergeRuns, MergeRunMerges int
	// DistRuns counts the programs whose distributed run (run --distributed, explored in the
	// layer's process) was compared with the single run, DistJobs the jobs of those runs;
	// DistStopped the programs left out because the single run's state bound stopped it, and
	// DistSkipped those left out for an unknown answer of the solver or too many jobs
	// (refinement/distcheck).
	DistRuns, DistJobs, DistStopped, DistSkipped int
	// DistTime is the time the check of the distributed runs took, summed over the programs.
	DistTime time.Duration
	// BoundedNotExhaustive counts concrete runs no bounded result covers: expected (loop unrolling
	// is not exhaustive); Example is one of them.
	BoundedNotExhaustive int
	// BoundedStoppedRuns counts concrete runs checked against a bounded run that a budget
	// stopped: each must be covered by a result or by a stopped path.
	BoundedStoppedRuns int
	BoundedExample     string
	// ArrayPrograms counts the programs with arrays; UnclaimedIndex the runs that fail
	// with an index out of range inside a quantifier's body, which verify makes no claim of.
	ArrayPrograms, UnclaimedIndex int
	UnclaimedExample              string
	// Z3Bytes is the most memory Z3 held (prover.Z3Allocated: every context of the process) at
	// the end of a program, before its Z3 objects were collected; Z3BytesCollected the most it
	// still held once they were (what the other worker's program in flight and the layer's
	// provers hold, and whatever the collection could not free).
	Z3Bytes, Z3BytesCollected uint64
	RefCalls                  int
	ProverQueries             int
	ProverUndecided           int
	ProverSkipped             int // queries not asked: the program's budget of undecided queries was spent
	OverBudget                int // programs whose time budget ran out before all checks were done
	MemoryCut                 int // programs whose checks the run's memory ceiling cut short (refinement.Run)
	RunsCut                   int // reference runs cut short because their values exceeded 4096 bits
	Mismatches                int
	// Rules counts the solver-free decisions by rule (crosscheck).
	Rules   map[string]*RuleCount
	ByCheck map[string]int
	Details []Mismatch // the first mismatches in full
}

// Add adds the counts of o to s (the first mismatches of o are kept while there is room).
func (s *Summary) Add(o *Summary) {
	s.Programs += o.Programs
	s.StatesReplayed += o.StatesReplayed
	s.TooLarge += o.TooLarge
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
	s.VerifyStopped += o.VerifyStopped
	s.VerifyBackEdgeRuns += o.VerifyBackEdgeRuns
	if len(o.VerifyOrder) > 0 && s.VerifyOrder == nil {
		s.VerifyOrder = map[string]int{}
	}
	for k, v := range o.VerifyOrder {
		s.VerifyOrder[k] += v
	}
	s.StreamStates += o.StreamStates
	s.BurstRuns += o.BurstRuns
	s.Merges += o.Merges
	s.MergeInputs += o.MergeInputs
	s.ProveTransitions += o.ProveTransitions
	s.ProveLoopRuns += o.ProveLoopRuns
	s.Proved += o.Proved
	s.MergeRuns += o.MergeRuns
	s.MergeRunMerges += o.MergeRunMerges
	s.DistRuns += o.DistRuns
	s.DistJobs += o.DistJobs
	s.DistStopped += o.DistStopped
	s.DistSkipped += o.DistSkipped
	s.DistTime += o.DistTime
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
	s.Z3Bytes = max(s.Z3Bytes, o.Z3Bytes)
	s.Z3BytesCollected = max(s.Z3BytesCollected, o.Z3BytesCollected)
	s.RefCalls += o.RefCalls
	s.ProverQueries += o.ProverQueries
	s.ProverUndecided += o.ProverUndecided
	s.ProverSkipped += o.ProverSkipped
	s.OverBudget += o.OverBudget
	s.MemoryCut += o.MemoryCut
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

// MaxUndecidedPerProgram is how many queries the prover may give up on for one program before
// the layer stops asking it (for that program; the random valuations still check everything).
const MaxUndecidedPerProgram = 6

// Checker is one worker: its own certsym-ref process and Z3 prover, and the state of the program
// it checks.
type Checker struct {
	Cfg    Config
	Ref    *refclient.Client
	Prover *prover.Prover
	Rng    *rand.Rand
	Sum    *Summary
	U      *Unit
	Names  []string
	// Slots names every symbol of the program's flat store (variables, then a[j]): renderings.
	Slots []string
	// Traces caches the reference's concrete runs of the current unit, by input.
	Traces map[string]*Trace
	// Deadline ends the checks of the current unit (ProgramBudget; zero: none).
	Deadline time.Time
	// XC is the crosscheck hook given to the solver chain of every engine, bounded interpreter and
	// verification the checker makes (solver.Options.CrossCheck): nil when the crosscheck is off.
	XC func(pathcond.Decision)
	// Stop, with StopAtMismatch, is set by the first mismatch of any worker: the checks of the
	// programs in flight end (the run's answer is known).
	Stop *atomic.Bool
	// Cut is set by the run's memory guard (refinement.Run) while the process is over its memory
	// ceiling: the current program's checks end as if its time budget were spent. Start clears it.
	Cut atomic.Bool
}

// Expired reports whether the current program's time budget is spent, or the memory guard cut
// the program. With StopAtMismatch, it is also true once any worker of the run has found a
// mismatch.
func (c *Checker) Expired() bool {
	return (c.Stop != nil && c.Stop.Load()) || c.Cut.Load() || (!c.Deadline.IsZero() && time.Now().After(c.Deadline))
}

// Left is the time left for the current program, at most d (d when there is no budget). Once the
// budget is spent, or the program cut, a check that has started still gets 100 ms (or d, if
// less).
func (c *Checker) Left(d time.Duration) time.Duration {
	if c.Cut.Load() {
		return min(d, 100*time.Millisecond)
	}
	if c.Deadline.IsZero() {
		return d
	}
	l := time.Until(c.Deadline)
	if l < 100*time.Millisecond {
		l = 100 * time.Millisecond
	}
	if l < d {
		return l
	}
	return d
}

// New starts a checker with its own certsym-ref process (cfg.RefPath) and prover; seed seeds its
// random choices until Start reseeds them for a program.
func New(cfg Config, seed int64) (*Checker, error) {
	ref, err := refclient.Start(cfg.RefPath)
	if err != nil {
		return nil, err
	}
	return &Checker{Cfg: cfg, Ref: ref, Prover: prover.New(cfg.ProverRLimit, cfg.ProverTimeout),
		Rng: rand.New(rand.NewSource(seed)), Sum: &Summary{ByCheck: map[string]int{}}}, nil
}

// Flush moves the counters of the reference and the prover into the summary.
func (c *Checker) Flush() {
	c.Sum.RefCalls += c.Ref.Calls
	c.Sum.ProverQueries += c.Prover.Queries
	c.Sum.ProverUndecided += c.Prover.Undecided
	c.Sum.ProverSkipped += c.Prover.Skipped
	c.Ref.Calls, c.Prover.Queries, c.Prover.Undecided, c.Prover.Skipped = 0, 0, 0, 0
}

// Close ends the checker's certsym-ref process (its counters go to the summary first).
func (c *Checker) Close() {
	c.Flush()
	c.Ref.Close()
}

// Report records a mismatch of check on the current program (input and step say where, -1 and
// "" for none); with StopAtMismatch it also ends the run's other checks.
func (c *Checker) Report(check, input string, step int, format string, args ...any) {
	if c.Stop != nil {
		c.Stop.Store(true)
	}
	c.Sum.Mismatches++
	c.Sum.ByCheck[check]++
	if c.Sum.ByCheck[check] <= 3 && len(c.Sum.Details) < 20 {
		c.Sum.Details = append(c.Sum.Details, Mismatch{Check: check, Program: c.U.Name, Seed: c.U.Seed, Text: c.U.Text,
			Input: input, Step: step, Detail: fmt.Sprintf(format, args...)})
	}
}

// InputString renders a flat store of the current program (variables, then array elements).
func (c *Checker) InputString(v []integer.Int) string {
	if len(c.U.Prog.Arrays) > 0 && len(v) == c.U.Prog.Slots() {
		return spec.StoreString(c.U.Prog, v)
	}
	if len(v) > len(c.Names) && len(v) <= len(c.Slots) {
		return spec.InputString(v, c.Slots)
	}
	if len(v) > len(c.Names) {
		return fmt.Sprint(v)
	}
	return spec.InputString(v, c.Names)
}

// RandomValuation draws values mostly small (where branches, zero divisors and sign changes
// are), some large, some beyond 64 bits.
func (c *Checker) RandomValuation() []integer.Int {
	v := make([]integer.Int, c.U.Prog.Slots())
	for i := range v {
		if i >= len(c.Names) { // array elements: small values, where the comparisons are
			v[i] = integer.Of(int64(c.Rng.Intn(13) - 6))
			continue
		}
		switch r := c.Rng.Intn(16); {
		case r < 3:
			v[i] = integer.Of(0)
		case r < 12:
			v[i] = integer.Of(int64(c.Rng.Intn(13) - 4))
		case r < 14:
			v[i] = integer.Of(int64(c.Rng.Intn(2001) - 1000))
		case r < 15:
			v[i] = gen.HugeConstants[c.Rng.Intn(len(gen.HugeConstants))]
		default:
			v[i] = integer.Of(c.Rng.Int63()).Mul(integer.Of(c.Rng.Int63() - c.Rng.Int63()))
		}
	}
	return v
}

// UnitSeed is the seed of a unit's random choices: its generator seed, or a hash of a file's
// name, so that a program is checked the same way in any run.
func UnitSeed(u *Unit) int64 {
	if u.Seed >= 0 {
		return u.Seed
	}
	h := fnv.New64a()
	io.WriteString(h, filepath.Base(u.Name))
	return int64(h.Sum64() >> 1)
}

// Start makes u the checker's current program: a fresh summary, random choices seeded by the
// unit, the reference's and the prover's arrays, the prover's budget of undecided queries, and
// the program's time budget.
func (c *Checker) Start(u *Unit) {
	c.Rng = rand.New(rand.NewSource(UnitSeed(u)))
	c.Sum = &Summary{ByCheck: map[string]int{}}
	c.U, c.Names, c.Traces = u, u.Prog.Vars, map[string]*Trace{}
	c.Ref.Arrays, c.Prover.Arrays = u.Prog.Arrays, u.Prog.Arrays
	c.Slots = sym.SlotNames(u.Prog)
	if len(u.Prog.Arrays) > 0 {
		c.Sum.ArrayPrograms++
	}
	c.Prover.Budget = MaxUndecidedPerProgram
	c.Prover.ResetBudget()
	c.Sum.Programs++
	c.Cut.Store(false)
	c.Deadline = time.Time{}
	if c.Cfg.ProgramBudget > 0 {
		b := c.Cfg.ProgramBudget
		if u.Long {
			b *= 2
		}
		c.Deadline = time.Now().Add(b)
	}
}

// FormulaB is the engine formula f as IMP syntax over the program's store (arrays included); a
// formula over the conditional terms of a merged state is written as their cases, or is an
// error when they are too many (conv.Formula).
func (c *Checker) FormulaB(f *sym.Formula) (syntax.BExpr, error) { return conv.Formula(c.U.Prog, f) }

// TermA is the engine term t as IMP syntax over the program's store (arrays included); an error
// for a conditional term (conv.Term).
func (c *Checker) TermA(t *sym.Term) (syntax.AExpr, error) { return conv.Term(c.U.Prog, t) }

// ConcArrays are the arrays of the flat concrete store v.
func (c *Checker) ConcArrays(v []integer.Int) refclient.ConcArrays { return conv.Arrays(c.U.Prog, v) }

// ConcStore is the reference's concrete store of the variables of the flat store v.
func (c *Checker) ConcStore(v []integer.Int) refclient.ConcStore { return ConcStore(c.Names, v) }

// ConcStore is the reference's concrete store of the variables names of the flat store v.
func ConcStore(names []string, v []integer.Int) refclient.ConcStore {
	s := refclient.ConcStore{}
	for i, x := range names {
		s[x] = v[i]
	}
	return s
}

// Valuations are the random valuations of one comparison, plus the given ones.
func (c *Checker) Valuations(extra ...[]integer.Int) [][]integer.Int {
	vs := make([][]integer.Int, 0, c.Cfg.Valuations+len(extra))
	for _, e := range extra {
		if e != nil {
			vs = append(vs, e)
		}
	}
	for i := 0; i < c.Cfg.Valuations; i++ {
		vs = append(vs, c.RandomValuation())
	}
	return vs
}

// Inputs draws n inputs: random ones, and models of states the run reached (they go deep).
func (c *Checker) Inputs(n int, states map[int][]*engine.State) [][]integer.Int {
	var deep []*engine.State
	for _, ss := range states {
		for _, s := range ss {
			if s.PC.Status == pathcond.Sat && s.PC.Witness != nil {
				deep = append(deep, s)
			}
		}
	}
	sort.Slice(deep, func(i, j int) bool { return deep[i].Depth > deep[j].Depth })
	var out [][]integer.Int
	for i := 0; i < n; i++ {
		if i%2 == 1 && len(deep) > 0 {
			s := deep[c.Rng.Intn((len(deep)+1)/2)]
			out = append(out, s.PC.Witness)
			continue
		}
		out = append(out, c.RandomValuation())
	}
	return out
}

// EngineOptions are the options of the engine's runs the layer replays: the state bound, the
// engine's solver bounds, the program's time left, all bugs.
func (c *Checker) EngineOptions() engine.Options {
	return engine.Options{Limits: budget.Limits{MaxStates: c.Cfg.MaxStates, RLimit: c.Cfg.EngineRLimit,
		QueryTimeout: c.Cfg.EngineTimeout, Timeout: c.Left(32 * time.Second)}, AllBugs: true}
}

// NewBounded creates the bounded interpreter of the current program with loop bound n, its solver
// chain with the checker's crosscheck hook.
func (c *Checker) NewBounded(n int) *bounded.Interp {
	return bounded.NewWith(c.U.Prog, n, solver.Options{CrossCheck: c.XC})
}

// NewEngine creates an engine whose solver queries also end at the program's deadline (and whose
// solver chain has the checker's crosscheck hook unless opts gives one).
func (c *Checker) NewEngine(opts engine.Options) *engine.Engine {
	if opts.CrossCheck == nil {
		opts.CrossCheck = c.XC
	}
	e := engine.New(c.U.Prog, opts)
	if !c.Deadline.IsZero() {
		if d := e.Solver().Deadline(); d.IsZero() || c.Deadline.Before(d) {
			e.Solver().SetDeadline(c.Deadline)
		}
	}
	return e
}

// StreamBudget is the number of states of the unpruned stream compared for the current unit.
func (c *Checker) StreamBudget() int {
	if c.U.Long && c.Cfg.LongStreamStates > c.Cfg.StreamStates {
		return c.Cfg.LongStreamStates
	}
	return c.Cfg.StreamStates
}

// CheckStop is the check "stop": a run the engine stops before Finished names a bound that the
// layer gave it (opts) and that the run reached by the layer's own count and clock (the run began
// at start): the state bound once MaxStates states are expanded, the time bound once Timeout has
// passed; the layer sets no memory bound and interrupts nothing. The integer bound (a value of
// more than step.MaxIntBits bits at an assignment) is taken on trust beyond its position naming
// an assignment of the program. An engine that stops early would otherwise pass every other
// check: a stopped run is a prefix of the stream.
func (c *Checker) CheckStop(check string, e *engine.Engine, opts engine.Options, start time.Time) {
	r := e.Stopped()
	var ok bool
	switch {
	case r == "":
		return
	case strings.HasPrefix(r, "state bound reached"):
		ok = opts.MaxStates > 0 && e.Stats.Expanded >= opts.MaxStates
	case strings.HasPrefix(r, "time bound reached"):
		ok = opts.Timeout > 0 && time.Since(start) >= opts.Timeout
	case strings.HasPrefix(r, "memory bound reached"):
		ok = opts.MaxMemory > 0
	case strings.HasPrefix(r, "integer bound reached"):
		ok = c.assignmentAt(r)
	}
	if !ok {
		c.Report(check, "", -1, "the engine stopped the run after %d states and %v (%s), but the layer gave it a state bound of %d, a time bound of %v, no memory bound and no interrupt",
			e.Stats.Expanded, time.Since(start).Round(time.Millisecond), r, opts.MaxStates, opts.Timeout)
	}
}

// assignmentAt reports whether the integer bound's reason ("... assigned at L:C)") names the
// position of an assignment of the program.
func (c *Checker) assignmentAt(reason string) bool {
	i := strings.LastIndex(reason, " at ")
	if i < 0 {
		return false
	}
	var line, col int
	if _, err := fmt.Sscanf(reason[i+len(" at "):], "%d:%d)", &line, &col); err != nil {
		return false
	}
	found := false
	syntax.Inspect(c.U.Prog.Body, func(n syntax.Node) bool {
		if a, ok := n.(*syntax.Assign); ok {
			if p := a.Pos(); p.Line == line && p.Col == col {
				found = true
			}
		}
		return !found
	})
	return found
}

// BoundedMaxStates bounds the branch states of each run of the bounded interpreter and of
// certsym verify (a variable so that a test can stop runs early).
var BoundedMaxStates = 600

// BoundedRefSteps bounds the reference runs the bounded and verify checks compare results with.
const BoundedRefSteps = 400

// RefEnd runs the reference from v to the end of the run (at most maxSteps steps); ok is false
// when the run is longer.
func (c *Checker) RefEnd(v []integer.Int, maxSteps int) (kind string, last RefState, ok bool, err error) {
	t := c.TraceTo(v, maxSteps)
	if t.Err != nil {
		return "", RefState{}, false, t.Err
	}
	if t.End == "" || t.End == CutRun {
		return "", RefState{}, false, nil
	}
	return t.End, t.States[len(t.States)-1], true, nil
}

// Report writes the summary in the form refinement/run.sh reads (lines starting with
// "refinement:").
func (s *Summary) Report(w io.Writer, label string) {
	fmt.Fprintf(w, "refinement: %s programs=%d states_replayed=%d successors_compared=%d concrete_steps=%d ghost_checks=%d precision_replays=%d exhaustive_runs=%d bugs_replayed=%d bounded_results=%d verify_claims=%d verify_runs=%d verify_cut_runs=%d stream_states=%d burst_runs=%d ref_calls=%d z3_queries=%d z3_undecided=%d z3_skipped=%d over_budget=%d runs_cut=%d mismatches=%d\n",
		label, s.Programs, s.StatesReplayed, s.SuccessorsCompared, s.ConcreteSteps, s.GhostChecks, s.PrecisionReplays,
		s.ExhaustiveRuns, s.BugsReplayed, s.BoundedResults, s.VerifyClaims, s.VerifyRuns, s.VerifyCutRuns, s.StreamStates, s.BurstRuns, s.RefCalls, s.ProverQueries, s.ProverUndecided, s.ProverSkipped, s.OverBudget, s.RunsCut, s.Mismatches)
	for _, k := range s.Checks() {
		fmt.Fprintf(w, "refinement:   mismatches of %s: %d\n", k, s.ByCheck[k])
	}
	s.ReportRules(w)
	if s.MemoryCut > 0 {
		fmt.Fprintf(w, "refinement:   programs whose checks the memory ceiling cut short: %d (the log names them, their checks and what the process held)\n", s.MemoryCut)
	}
	if s.TooLarge > 0 {
		fmt.Fprintf(w, "refinement:   states left out of the step replay, their terms too large to write as trees: %d (conv.MaxTreeNodes)\n", s.TooLarge)
	}
	if s.Merges > 0 {
		fmt.Fprintf(w, "refinement:   merges of states checked %d, on %d inputs (mergecheck)\n", s.Merges, s.MergeInputs)
	}
	if s.ProveTransitions > 0 || s.Proved > 0 {
		fmt.Fprintf(w, "refinement:   invariant transitions checked %d, against %d concrete runs of their loops; %d proofs whose random runs were checked (provecheck)\n",
			s.ProveTransitions, s.ProveLoopRuns, s.Proved)
	}
	if s.MergeRuns > 0 {
		fmt.Fprintf(w, "refinement:   runs with state merging checked %d, %d merges in them (the whole-run oracles)\n", s.MergeRuns, s.MergeRunMerges)
	}
	if s.DistRuns+s.DistStopped+s.DistSkipped > 0 {
		fmt.Fprintf(w, "refinement:   distributed runs checked %d, %d jobs in them; left out: %d stopped by the single run's state bound, %d with an unknown answer or too many jobs; %v (distcheck)\n",
			s.DistRuns, s.DistJobs, s.DistStopped, s.DistSkipped, s.DistTime.Round(time.Millisecond))
	}
	if s.ArrayPrograms > 0 {
		fmt.Fprintf(w, "refinement:   array programs %d (of %d); index failures inside a quantifier that verify has no claim for (a known gap of verify, not counted as mismatches): %d, e.g. %s\n",
			s.ArrayPrograms, s.Programs, s.UnclaimedIndex, s.UnclaimedExample)
	}
	if s.Z3Bytes > 0 {
		fmt.Fprintf(w, "refinement:   Z3 memory at the end of a program: at most %d MiB, at most %d MiB once its Z3 objects were collected\n", s.Z3Bytes>>20, s.Z3BytesCollected>>20)
	}
	if s.VerifyStopped > 0 || s.VerifyBackEdgeRuns > 0 {
		fmt.Fprintf(w, "refinement:   verify: %d reports of a stopped exploration checked (verify/stopped); %d runs cut off that meet a claim again through a loop's back edge (verify/cutoff)\n", s.VerifyStopped, s.VerifyBackEdgeRuns)
	}
	if len(s.VerifyOrder) > 0 {
		var keys []string
		for k := range s.VerifyOrder {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		var parts []string
		for _, k := range keys {
			parts = append(parts, fmt.Sprintf("%s %d", k, s.VerifyOrder[k]))
		}
		fmt.Fprintf(w, "refinement:   verify: claims whose status the order of the status table decides: %s\n", strings.Join(parts, ", "))
	}
	if s.VerifyMaybe > 0 {
		fmt.Fprintf(w, "refinement:   verify: %d FALSE?/UNDEFINED? counterexamples of over-approximating states checked (verify/maybe)\n", s.VerifyMaybe)
	}
	if s.BoundedStoppedRuns > 0 {
		fmt.Fprintf(w, "refinement:   bounded runs stopped by a budget: %d concrete runs covered by a result or a stopped path\n", s.BoundedStoppedRuns)
	}
	if s.BoundedNotExhaustive > 0 {
		fmt.Fprintf(w, "refinement:   bounded interpreter not exhaustive (expected, loop unrolling): %d concrete runs uncovered, e.g. %s\n", s.BoundedNotExhaustive, s.BoundedExample)
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
