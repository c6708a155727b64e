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
//   - bounded: the same oracles, and the ghost mode, for the bounded interpreter;
//   - verify: the statuses of certsym verify against concrete runs (verify.go).
package refinement

import (
	"encoding/json"
	"fmt"
	"math/rand"
	"sort"
	"strings"
	"sync/atomic"
	"time"

	"certsym/engine"
	"certsym/internal/budget"
	"certsym/spec"
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
		RefPath: DefaultRefPath(), MaxStates: 150, GhostInputs: 4, GhostSteps: 150, OracleInputs: 8,
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
	Prog    *spec.Program
	RefBody spec.Stmt
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
	StreamStates       int // states of the unpruned stream compared with the reference's run stream
	// BoundedNotExhaustive counts concrete runs no bounded result covers: expected (loop unrolling
	// is not exhaustive); Example is one of them.
	BoundedNotExhaustive int
	// BoundedStoppedRuns counts concrete runs checked against a bounded run that a budget
	// stopped: each must be covered by a result or by a stopped path.
	BoundedStoppedRuns int
	BoundedExample     string
	RefCalls           int
	ProverQueries      int
	ProverUndecided    int
	ProverSkipped      int // queries not asked: the program's budget of undecided queries was spent
	OverBudget         int // programs whose time budget ran out before all checks were done
	RunsCut            int // reference runs cut short because their values exceeded 4096 bits
	Mismatches         int
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
	s.StreamStates += o.StreamStates
	s.BoundedNotExhaustive += o.BoundedNotExhaustive
	s.BoundedStoppedRuns += o.BoundedStoppedRuns
	if s.BoundedExample == "" {
		s.BoundedExample = o.BoundedExample
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
	ref    *Ref
	prover *Prover
	rng    *rand.Rand
	sum    *Summary
	u      *Unit
	names  []string
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
	ref, err := StartRef(cfg.RefPath)
	if err != nil {
		return nil, err
	}
	return &checker{cfg: cfg, ref: ref, prover: NewProver(cfg.ProverRLimit, cfg.ProverTimeout),
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

func (c *checker) inputString(v []spec.Int) string { return spec.InputString(v, c.names) }

// randomValuation draws values mostly small (where branches, zero divisors and sign changes
// are), some large, some beyond 64 bits.
func (c *checker) randomValuation() []spec.Int {
	v := make([]spec.Int, len(c.names))
	for i := range v {
		switch r := c.rng.Intn(16); {
		case r < 3:
			v[i] = spec.IntOf(0)
		case r < 12:
			v[i] = spec.IntOf(int64(c.rng.Intn(13) - 4))
		case r < 14:
			v[i] = spec.IntOf(int64(c.rng.Intn(2001) - 1000))
		case r < 15:
			v[i] = hugeConstants[c.rng.Intn(len(hugeConstants))]
		default:
			v[i] = spec.IntOf(c.rng.Int63()).Mul(spec.IntOf(c.rng.Int63() - c.rng.Int63()))
		}
	}
	return v
}

// CheckUnit runs every check on one program. A panic anywhere (engine or layer) is reported as
// a mismatch of check "panic", never propagated.
func (c *checker) CheckUnit(u *Unit) {
	c.u, c.names, c.traces = u, u.Prog.Vars, map[string]*trace{}
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
			c.report("panic", "", -1, "panic: %v", r)
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
	if c.stream != nil {
		c.checkAllBugs(c.stream)
	}
	if n := c.streamBudget(); n > 0 && !c.expired() {
		c.streamCompare(n)
	}
}

// --- the reference's concrete runs -----------------------------------------------------------

// refState is a concrete state of the reference.
type refState struct {
	store ConcStore
	prog  json.RawMessage
	canon string
}

// trace is the reference's run from one input, as far as it was needed; end is the kind of the
// last step request ("final", "error", "stuck") once the run has ended.
type trace struct {
	states []refState
	end    string
	err    error
}

// cutRun is the end of a reference run cut short because its values grew too large (repeated
// squaring in a loop doubles the digits at each iteration): such runs are checked up to the cut.
const cutRun = "cut"

// maxBits bounds the values of the concrete runs the layer follows.
const maxBits = 4096

func tooBig(s ConcStore) bool {
	for _, v := range s {
		if tooBigInt(v) {
			return true
		}
	}
	return false
}

// tooBigInt reports whether v has more than maxBits bits.
func tooBigInt(v spec.Int) bool { return !v.IsSmall() && v.Big().BitLen() > maxBits }

func (c *checker) concStore(v []spec.Int) ConcStore {
	s := ConcStore{}
	for i, x := range c.names {
		s[x] = v[i]
	}
	return s
}

func (c *checker) canonRaw(raw json.RawMessage) (string, error) {
	p, err := decodeProg(raw, newDecoder(c.names))
	if err != nil {
		return "", err
	}
	return Canon(p), nil
}

// traceTo returns the reference's run from input v extended to n steps (or to its end).
func (c *checker) traceTo(v []spec.Int, n int) *trace {
	key := c.inputString(v)
	t, ok := c.traces[key]
	if !ok {
		raw, err := EncodeStmt(c.u.RefBody)
		t = &trace{err: err}
		if err == nil {
			t.states = []refState{{store: c.concStore(v), prog: raw, canon: Canon(c.u.RefBody)}}
		}
		if len(c.traces) > 2000 {
			c.traces = map[string]*trace{}
		}
		c.traces[key] = t
	}
	for t.err == nil && t.end == "" && len(t.states) <= n {
		last := t.states[len(t.states)-1]
		r, err := c.ref.Step(last.store, c.names, last.prog)
		if err != nil {
			t.err = err
			break
		}
		if r.Kind != "next" {
			t.end = r.Kind
			break
		}
		cs, err := c.canonRaw(r.Prog)
		if err != nil {
			t.err = err
			break
		}
		t.states = append(t.states, refState{store: r.Store, prog: r.Prog, canon: cs})
		if tooBig(r.Store) {
			t.end = cutRun
			c.sum.RunsCut++
			break
		}
	}
	return t
}

// concretizes reports whether the symbolic state (store, prog) concretizes under v to the
// reference's state r; otherwise it says how they differ.
func (c *checker) concretizes(store []*sym.Term, prog spec.Stmt, v []spec.Int, r refState) (bool, string) {
	for i, x := range c.names {
		want := r.store[x] // absent: 0
		if got := store[i].Eval(v); !got.Equal(want) {
			return false, fmt.Sprintf("variable %s: symbolic %s = %s, reference %s", x, store[i].String(c.names), got, want)
		}
	}
	if got := Canon(prog); got != r.canon {
		return false, fmt.Sprintf("programs differ:\n    symbolic:  %s\n    reference: %s", got, r.canon)
	}
	return true, ""
}

func stateString(st *engine.State, names []string) string {
	return fmt.Sprintf("⟨%s | %s | %s⟩", st.PC.String(names), sym.StoreString(st.Store, names), Canon(st.Prog.Stmt()))
}

func refStateString(r refState, names []string) string {
	var parts []string
	for _, x := range names {
		parts = append(parts, x+"="+r.store[x].String())
	}
	return fmt.Sprintf("(%s | %s)", strings.Join(parts, ", "), r.canon)
}

// model returns a valuation satisfying the state's path condition: the engine's witness when it
// has one (checked against the path condition), else the layer's own Z3 model. ok is false when
// the path condition is unsatisfiable or undecided.
func (c *checker) model(pc *sym.PC) ([]spec.Int, bool) {
	if pc.Status == sym.Sat && pc.Witness != nil {
		if !pc.Formula().Eval(pc.Witness) {
			c.report("oracle/witness", c.inputString(pc.Witness), -1, "the engine's witness does not satisfy its path condition %s", pc.String(c.names))
			return nil, false
		}
		return pc.Witness, true
	}
	if pc.Status == sym.Unsat {
		return nil, false
	}
	st, m := c.prover.Model(pc.Formula().BExpr(c.names), c.names)
	if st != Valid {
		return nil, false
	}
	if !pc.Formula().Eval(m) {
		c.report("prover", c.inputString(m), -1, "Z3 model does not satisfy %s", pc.String(c.names))
		return nil, false
	}
	return m, true
}

// precise is the precision check of one symbolic state: the model of its path condition, run on
// the reference for as many steps as the state's depth, reaches a concretization of the state.
// It returns false when there was nothing to check (unsatisfiable or undecided).
func (c *checker) precise(check string, st *engine.State) bool {
	v, ok := c.model(st.PC)
	if !ok {
		return false
	}
	c.sum.PrecisionReplays++
	t := c.traceTo(v, st.Depth)
	if t.err != nil {
		c.report("reference", c.inputString(v), st.Depth, "%v", t.err)
		return true
	}
	if len(t.states) <= st.Depth && t.end == cutRun {
		return true
	}
	if len(t.states) <= st.Depth {
		c.report(check, c.inputString(v), st.Depth, "imprecise: the model of the symbolic state %s ends (%s) after %d steps on the reference, before reaching depth %d",
			stateString(st, c.names), t.end, len(t.states)-1, st.Depth)
		return true
	}
	r := t.states[st.Depth]
	if ok, why := c.concretizes(st.Store, st.Prog.Stmt(), v, r); !ok {
		c.report(check, c.inputString(v), st.Depth, "imprecise: the model of the symbolic state %s reaches %s on the reference: %s",
			stateString(st, c.names), refStateString(r, c.names), why)
	}
	return true
}

// --- step replay, bug replay and the whole-run oracles ----------------------------------------

func (c *checker) engineOptions() engine.Options {
	return engine.Options{Limits: budget.Limits{MaxStates: c.cfg.MaxStates, RLimit: c.cfg.EngineRLimit,
		QueryTimeout: c.cfg.EngineTimeout, Timeout: c.left(32 * time.Second)}, AllBugs: true}
}

// newEngine creates an engine whose solver queries also end at the program's deadline.
func (c *checker) newEngine(opts engine.Options) *engine.Engine {
	e := engine.New(c.u.Prog, opts)
	if !c.deadline.IsZero() {
		if d := e.Solver().Deadline; d.IsZero() || c.deadline.Before(d) {
			e.Solver().Deadline = c.deadline
		}
	}
	return e
}

// streamBudget is the number of states of the unpruned stream compared for the current unit.
func (c *checker) streamBudget() int {
	if c.u.Long && c.cfg.LongStreamStates > c.cfg.StreamStates {
		return c.cfg.LongStreamStates
	}
	return c.cfg.StreamStates
}

func (c *checker) engineRun() {
	opts := c.engineOptions()
	if c.u.Long && c.cfg.LongStates > opts.MaxStates {
		opts.MaxStates = c.cfg.LongStates
	}
	e := c.newEngine(opts)
	taken := 0
	byDepth := map[int][]*engine.State{}
	var leaves []*engine.State
	last, finished := 0, false
	sr := &streamRun{}
	reported := map[*spec.Fail]bool{}
	complete := false // the stream ended by itself (Finished or Stopped), not by the layer
	for !c.expired() {
		s, err := e.Next()
		if err != nil {
			c.report("oracle/engine-replay", "", -1, "the engine's own bug replay failed: %v", err)
			break
		}
		sr.observe(s, reported)
		if s.Kind == engine.Finished {
			finished, complete = true, true
			break
		}
		if s.Kind == engine.Stopped {
			complete = true
			break
		}
		st := s.State
		if taken++; taken <= c.cfg.MaxStates {
			c.stepReplay(e, st)
		}
		byDepth[st.Depth] = append(byDepth[st.Depth], st)
		last = st.Depth
		if st.IsFinal() || st.ErrorOf() != nil {
			leaves = append(leaves, st)
		}
		if s.Kind == engine.BugFound {
			c.bugReplay(s.Bug)
		}
	}
	// is_probably_precise: final and error states' models replay to them.
	for i, st := range leaves {
		if i >= c.cfg.PreciseStates {
			break
		}
		c.precise("oracle/precise", st)
	}
	if complete {
		c.checkVerdict("verdict", e, sr)
		c.stream = sr
	}
	depth := last - 1 // every state of depth < last was expanded
	if finished {
		depth = 1 << 30
	}
	c.exhaustive("oracle/exhaustive", e, byDepth, depth, c.cfg.OracleInputs)
}

// stepReplay compares the engine's successors of st with certsym-ref expand's.
func (c *checker) stepReplay(e *engine.Engine, st *engine.State) {
	c.sum.StatesReplayed++
	succs := e.Expand(st, nil)
	pcJSON, err := EncodeB(st.PC.Formula().BExpr(c.names))
	if err != nil {
		c.report("layer", "", st.Depth, "encoding the path condition: %v", err)
		return
	}
	store := make([]json.RawMessage, len(st.Store))
	for i, t := range st.Store {
		if store[i], err = EncodeA(t.AExpr(c.names)); err != nil {
			c.report("layer", "", st.Depth, "encoding the store: %v", err)
			return
		}
	}
	prog, err := EncodeStmt(st.Prog.Stmt())
	if err != nil {
		c.report("layer", "", st.Depth, "encoding the program: %v", err)
		return
	}
	refs, err := c.ref.Expand(pcJSON, store, c.names, prog)
	if err != nil {
		c.report("reference", "", st.Depth, "expand of %s: %v", stateString(st, c.names), err)
		return
	}
	if len(refs) != len(succs) {
		c.report("step-replay/successors", "", st.Depth, "state %s: the engine has %d successors, the reference %d:\n  engine:\n%s  reference:\n%s",
			stateString(st, c.names), len(succs), len(refs), c.engineSuccs(succs), c.refSuccs(refs))
		return
	}
	for i, s := range succs {
		c.sum.SuccessorsCompared++
		r := refs[i]
		if a, b := Canon(s.Prog.Stmt()), Canon(r.Prog); a != b {
			c.report("step-replay/program", "", st.Depth, "state %s, successor %d: programs differ:\n    engine:    %s\n    reference: %s", stateString(st, c.names), i, a, b)
			continue
		}
		c.comparePC(st, i, s, r)
		c.compareStore(st, i, s, r)
	}
}

func (c *checker) engineSuccs(ss []*engine.State) string {
	var b strings.Builder
	for _, s := range ss {
		b.WriteString("    " + stateString(s, c.names) + "\n")
	}
	return b.String()
}

func (c *checker) refSuccs(rs []SymSucc) string {
	var b strings.Builder
	for _, r := range rs {
		var parts []string
		for i, x := range c.names {
			parts = append(parts, x+" = "+spec.PrintA(r.Store[i]))
		}
		fmt.Fprintf(&b, "    ⟨%s | %s | %s⟩\n", spec.PrintB(r.PC), strings.Join(parts, ", "), Canon(r.Prog))
	}
	return b.String()
}

// valuations are the random valuations of one comparison, plus the given ones.
func (c *checker) valuations(extra ...[]spec.Int) [][]spec.Int {
	vs := make([][]spec.Int, 0, c.cfg.Valuations+len(extra))
	for _, e := range extra {
		if e != nil {
			vs = append(vs, e)
		}
	}
	for i := 0; i < c.cfg.Valuations; i++ {
		vs = append(vs, c.randomValuation())
	}
	return vs
}

func (c *checker) comparePC(st *engine.State, i int, s *engine.State, r SymSucc) {
	f := s.PC.Formula()
	fa := f.BExpr(c.names)
	for _, v := range c.valuations(s.PC.Witness) {
		eng := f.Eval(v)
		if mine := EvalB(fa, v); mine != eng {
			c.report("layer", c.inputString(v), st.Depth, "the engine's formula %s evaluates to %v, its syntax tree to %v", s.PC.String(c.names), eng, mine)
			return
		}
		if ref := EvalB(r.PC, v); ref != eng {
			c.report("step-replay/pc-valuation", c.inputString(v), st.Depth, "state %s, successor %d: under %s the engine's path condition %s is %v, the reference's %s is %v",
				stateString(st, c.names), i, c.inputString(v), s.PC.String(c.names), eng, spec.PrintB(r.PC), ref)
			return
		}
	}
	// Both path conditions extend the parent's φ (sent as is to the reference, which answers
	// φ ∧ g): when the engine's new conjunct f is equivalent to g on its own, φ ∧ f ⇔ φ ∧ g
	// follows without φ (a small query); otherwise decide the full equivalence.
	var f1 spec.BExpr
	switch {
	case s.PC == st.PC:
		f1 = &spec.BoolLit{Val: true}
	case s.PC.Parent == st.PC:
		f1 = s.PC.Conj.BExpr(c.names)
	}
	if and, ok := r.PC.(*spec.BinB); ok && f1 != nil && and.Op == spec.And && spec.PrintB(and.L) == spec.PrintB(st.PC.Formula().BExpr(c.names)) {
		if verdict, _ := c.prover.Equivalent(f1, and.R, c.names); verdict == Valid {
			return
		}
	}
	switch verdict, m := c.prover.Equivalent(fa, r.PC, c.names); verdict {
	case Invalid:
		c.report("step-replay/pc-z3", c.inputString(m), st.Depth, "state %s, successor %d: the path conditions are not equivalent (they differ under %s):\n    engine:    %s\n    reference: %s",
			stateString(st, c.names), i, c.inputString(m), s.PC.String(c.names), spec.PrintB(r.PC))
	}
}

func (c *checker) compareStore(st *engine.State, i int, s *engine.State, r SymSucc) {
	var el, rl []spec.AExpr
	for j := range c.names {
		ea := s.Store[j].AExpr(c.names)
		if spec.PrintA(ea) != spec.PrintA(r.Store[j]) {
			el, rl = append(el, ea), append(rl, r.Store[j])
		}
	}
	if len(el) == 0 {
		return
	}
	for _, v := range c.valuations(s.PC.Witness) {
		for j, x := range c.names {
			eng := s.Store[j].Eval(v)
			if ref := EvalA(r.Store[j], v); !ref.Equal(eng) {
				c.report("step-replay/store-valuation", c.inputString(v), st.Depth, "state %s, successor %d: under %s variable %s is %s = %s in the engine, %s = %s in the reference",
					stateString(st, c.names), i, c.inputString(v), x, s.Store[j].String(c.names), eng, spec.PrintA(r.Store[j]), ref)
				return
			}
		}
	}
	if verdict, m := c.prover.EqualTerms(el, rl, c.names); verdict == Invalid {
		var diff []string
		for k := range el {
			if a, b := EvalA(el[k], m), EvalA(rl[k], m); !a.Equal(b) {
				diff = append(diff, fmt.Sprintf("%s (engine) = %s, %s (reference) = %s", spec.PrintA(el[k]), a, spec.PrintA(rl[k]), b))
			}
		}
		c.report("step-replay/store-z3", c.inputString(m), st.Depth, "state %s, successor %d: the stores differ under %s: %s",
			stateString(st, c.names), i, c.inputString(m), strings.Join(diff, "; "))
	}
}

// bugReplay checks the evidence of a reported bug on the reference: its input, run for as many
// steps as the bug's depth, reaches an error state that concretizes the symbolic error state.
func (c *checker) bugReplay(b *engine.Bug) {
	c.sum.BugsReplayed++
	st := b.State
	t := c.traceTo(b.Input, st.Depth)
	in := c.inputString(b.Input)
	if t.err != nil {
		c.report("reference", in, st.Depth, "%v", t.err)
		return
	}
	if len(t.states) <= st.Depth && t.end == cutRun {
		return
	}
	if len(t.states) <= st.Depth {
		c.report("oracle/bug-replay", in, st.Depth, "the reported bug's input ends (%s) after %d steps on the reference, the bug is at depth %d: %s",
			t.end, len(t.states)-1, st.Depth, stateString(st, c.names))
		return
	}
	r := t.states[st.Depth]
	if ok, why := c.concretizes(st.Store, st.Prog.Stmt(), b.Input, r); !ok {
		c.report("oracle/bug-replay", in, st.Depth, "the reported bug %s does not replay on the reference: reached %s: %s", stateString(st, c.names), refStateString(r, c.names), why)
		return
	}
	if !strings.HasPrefix(r.canon, "fail") {
		c.report("oracle/bug-replay", in, st.Depth, "the reported bug's input reaches %s on the reference, not an error state", refStateString(r, c.names))
	}
}

// inputs draws n inputs: random ones, and models of states the run reached (they go deep).
func (c *checker) inputs(n int, states map[int][]*engine.State) [][]spec.Int {
	var deep []*engine.State
	for _, ss := range states {
		for _, s := range ss {
			if s.PC.Status == sym.Sat && s.PC.Witness != nil {
				deep = append(deep, s)
			}
		}
	}
	sort.Slice(deep, func(i, j int) bool { return deep[i].Depth > deep[j].Depth })
	var out [][]spec.Int
	for i := 0; i < n; i++ {
		if i%2 == 1 && len(deep) > 0 {
			s := deep[c.rng.Intn((len(deep)+1)/2)]
			out = append(out, s.PC.Witness)
			continue
		}
		out = append(out, c.randomValuation())
	}
	return out
}

// exhaustive is is_probably_exhaustive: the reference's concrete run of each input is covered,
// at every step up to the depth the engine's run explored completely, by a symbolic state of that
// depth whose path condition holds under the input and which concretizes to the concrete state.
func (c *checker) exhaustive(check string, e *engine.Engine, byDepth map[int][]*engine.State, complete, n int) {
	maxDepth := 0
	for d := range byDepth {
		if d > maxDepth {
			maxDepth = d
		}
	}
	if complete > maxDepth {
		complete = maxDepth
	}
	for _, v := range c.inputs(n, byDepth) {
		c.sum.ExhaustiveRuns++
		t := c.traceTo(v, complete)
		if t.err != nil {
			c.report("reference", c.inputString(v), -1, "%v", t.err)
			return
		}
		for k := 0; k < len(t.states) && k <= complete; k++ {
			r := t.states[k]
			covered := false
			for _, s := range byDepth[k] {
				if !s.PC.Formula().Eval(v) {
					continue
				}
				if ok, _ := c.concretizes(s.Store, s.Prog.Stmt(), v, r); ok {
					covered = true
					break
				}
			}
			if !covered {
				c.report(check, c.inputString(v), k, "not exhaustive: the reference's state %s at step %d is covered by none of the %d symbolic states of depth %d (run %s)",
					refStateString(r, c.names), k, len(byDepth[k]), k, e.Stopped())
				break
			}
		}
	}
}

// starvedRun is is_probably_exhaustive for a run whose solver is starved (rlimit 1, so it can
// decide nothing): unknown must never prune, so the run must still cover every concrete run.
func (c *checker) starvedRun() {
	opts := c.engineOptions()
	opts.MaxStates, opts.RLimit = c.cfg.StarvedStates, 1
	e := c.newEngine(opts)
	byDepth := map[int][]*engine.State{}
	last, finished := 0, false
	sr := &streamRun{}
	reported := map[*spec.Fail]bool{}
	complete := false
	for !c.expired() {
		s, err := e.Next()
		if err != nil {
			c.report("oracle/engine-replay", "", -1, "starved solver: the engine's own bug replay failed: %v", err)
			break
		}
		sr.observe(s, reported)
		if s.Kind == engine.Finished || s.Kind == engine.Stopped {
			finished, complete = s.Kind == engine.Finished, true
			break
		}
		st := s.State
		if s.Kind == engine.BugFound {
			c.bugReplay(s.Bug)
		}
		byDepth[st.Depth] = append(byDepth[st.Depth], st)
		last = st.Depth
	}
	if complete {
		c.checkVerdict("verdict-starved-solver", e, sr)
	}
	depth := last - 1
	if finished {
		depth = 1 << 30
	}
	c.exhaustive("oracle/exhaustive-starved-solver", e, byDepth, depth, (c.cfg.OracleInputs+1)/2)
}

// --- ghost runs -----------------------------------------------------------------------------

func (c *checker) ghostRuns() {
	e := c.newEngine(c.engineOptions())
	// Inputs: random, and models of deep states of a short run (they get past assumes).
	pre := c.newEngine(engine.Options{Limits: budget.Limits{MaxStates: 60, RLimit: c.cfg.EngineRLimit, QueryTimeout: c.cfg.EngineTimeout}})
	byDepth := map[int][]*engine.State{}
	for {
		st, ok := pre.NextState()
		if !ok {
			break
		}
		byDepth[st.Depth] = append(byDepth[st.Depth], st)
	}
	for _, v := range c.inputs(c.cfg.GhostInputs, byDepth) {
		if c.expired() {
			return
		}
		c.ghostRun(e, v)
	}
}

func outcomeKind(o spec.Outcome) string {
	return [...]string{spec.Stepped: "next", spec.Final: "final", spec.Failed: "error", spec.Blocked: "stuck"}[o]
}

// ghostRun follows the concrete run of input v on the reference, with the engine's symbolic
// state alongside (the ghost valuation is v) and spec's concrete state as a third party.
func (c *checker) ghostRun(e *engine.Engine, v []spec.Int) {
	in := c.inputString(v)
	cur := e.Initial()
	conc := spec.State{Store: append(spec.Store(nil), v...), Prog: c.u.Prog.Body}
	precisionBudget := 40
	for step := 0; step < c.cfg.GhostSteps && !c.expired(); step++ {
		t := c.traceTo(v, step+1)
		if t.err != nil {
			c.report("reference", in, step, "%v", t.err)
			return
		}
		r := t.states[step]
		c.sum.GhostChecks++
		if ok, why := c.concretizes(cur.Store, cur.Prog.Stmt(), v, r); !ok {
			c.report("ghost/concretization", in, step, "the symbolic state %s does not concretize to the reference's %s: %s", stateString(cur, c.names), refStateString(r, c.names), why)
			return
		}
		if !c.concreteStep(in, step, conc, r) {
			return
		}
		refKind := "next"
		if len(t.states) <= step+1 {
			refKind = t.end
		}
		if refKind == cutRun {
			return
		}
		if step%3 == 2 { // deep states too are replayed against certsym-ref expand
			c.stepReplay(e, cur)
		}
		succs := e.Expand(cur, nil)
		var follow []*engine.State
		for _, s := range succs {
			f := s.PC.Formula()
			holds := f.Eval(v)
			if mine := EvalB(f.BExpr(c.names), v); mine != holds {
				c.report("layer", in, step, "path condition %s: engine evaluation %v, syntax tree %v", s.PC.String(c.names), holds, mine)
			}
			if holds {
				follow = append(follow, s)
			}
		}
		if refKind != "next" {
			if len(follow) != 0 {
				c.report("ghost/exhaustive", in, step, "the reference's run ends (%s) at %s but %d symbolic successors hold under the input:\n%s",
					refKind, refStateString(r, c.names), len(follow), c.engineSuccs(follow))
			}
			return
		}
		next := t.states[step+1]
		if len(follow) != 1 {
			c.report("ghost/exhaustive", in, step, "%d symbolic successors of %s hold under the input, want exactly 1 (the reference steps to %s):\n%s",
				len(follow), stateString(cur, c.names), refStateString(next, c.names), c.engineSuccs(succs))
			return
		}
		s := follow[0]
		if ok, why := c.concretizes(s.Store, s.Prog.Stmt(), v, next); !ok {
			c.report("ghost/exhaustive", in, step, "the successor %s that holds under the input does not concretize to the reference's successor %s: %s",
				stateString(s, c.names), refStateString(next, c.names), why)
			return
		}
		if e.Solver().Check(s.PC) == sym.Unsat {
			c.report("ghost/exhaustive", in, step, "the successor %s holds under the input but the engine decides its path condition unsatisfiable", stateString(s, c.names))
			return
		}
		for _, o := range succs {
			if o != s && precisionBudget > 0 && o.PC != s.PC {
				if c.precise("ghost/precise", o) {
					precisionBudget--
				}
			}
		}
		cur = s
		next2, _ := spec.Step(conc)
		conc = next2
	}
}

// concreteStep compares spec.Step on conc with the reference's step on the same state, and conc
// with the reference's own run at this step r. It returns false when the run cannot go on.
func (c *checker) concreteStep(in string, step int, conc spec.State, r refState) bool {
	cs := c.concStore(conc.Store)
	for _, x := range c.names {
		if !cs[x].Equal(r.store[x]) {
			c.report("concrete-step", in, step, "spec's run has %s = %s, the reference's %s", x, cs[x], r.store[x])
			return false
		}
	}
	if got := Canon(conc.Prog); got != r.canon {
		c.report("concrete-step", in, step, "spec's run is at %s, the reference's at %s", got, r.canon)
		return false
	}
	raw, err := EncodeStmt(conc.Prog)
	if err != nil {
		c.report("layer", in, step, "encoding: %v", err)
		return false
	}
	want, err := c.ref.Step(cs, c.names, raw)
	if err != nil {
		c.report("reference", in, step, "%v", err)
		return false
	}
	c.sum.ConcreteSteps++
	next, out := spec.Step(conc)
	if k := outcomeKind(out); k != want.Kind {
		c.report("concrete-step", in, step, "spec.Step of (%s | %s) is %s, the reference's step is %s", spec.InputString(conc.Store, c.names), Canon(conc.Prog), k, want.Kind)
		return false
	}
	if out != spec.Stepped {
		return true
	}
	for i, x := range c.names {
		if !next.Store[i].Equal(want.Store[x]) {
			c.report("concrete-step", in, step, "spec.Step of %s gives %s = %s, the reference %s", Canon(conc.Prog), x, next.Store[i], want.Store[x])
			return false
		}
	}
	wc, err := c.canonRaw(want.Prog)
	if err != nil {
		c.report("reference", in, step, "%v", err)
		return false
	}
	if got := Canon(next.Prog); got != wc {
		c.report("concrete-step", in, step, "spec.Step of %s gives %s, the reference %s", Canon(conc.Prog), got, wc)
		return false
	}
	return true
}
