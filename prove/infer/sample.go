package infer

import (
	"math/rand"
	"strings"

	"certsym/engine"
	"certsym/internal/budget"
	"certsym/pathcond"
	"certsym/spec"
	"certsym/spec/integer"
	"certsym/spec/syntax"
)

// Loops lists the loops of the program in the order of its text (outer loops before the loops
// they contain).
func Loops(prog *syntax.Program) []*syntax.While {
	var ws []*syntax.While
	syntax.Inspect(prog.Body, func(n syntax.Node) bool {
		if w, ok := n.(*syntax.While); ok {
			ws = append(ws, w)
		}
		return true
	})
	return ws
}

// States are concrete stores at the heads of the loops: for each loop, the stores in which runs
// arrived at its head (every clause of its own checked, before its condition), without repeats.
type States map[*syntax.While][]spec.Store

// SampleOptions bound the sampling of loop-head states.
type SampleOptions struct {
	// Runs is the number of runs on random inputs (0: DefaultRuns).
	Runs int
	// Steps bounds each run (0: DefaultSteps).
	Steps int
	// EngineStates is the number of states the bug finder explores for inputs of its paths
	// (0: DefaultEngineStates; < 0: none).
	EngineStates int
	// PerLoop bounds the states kept for each loop (0: DefaultPerLoop).
	PerLoop int
	// Seed seeds the random inputs.
	Seed int64
	// Work bounds the whole sampling: the concrete steps of all runs times the length of the
	// program's stores, which each step may copy (0: DefaultWork).
	Work int
}

// The defaults of SampleOptions.
const (
	DefaultRuns         = 60
	DefaultSteps        = 20000
	DefaultEngineStates = 300
	DefaultPerLoop      = 400
	DefaultWork         = 4_000_000
)

// Sample runs the concrete semantics (spec.Step) on random inputs and on the inputs of the bug
// finder's paths (the models of their path conditions), in the manner of Daikon, and collects
// the stores at the loops' heads. A run that errs or blocks on an assume still contributes the
// stores it passed through: every one of them was reached by a run of the program.
func Sample(prog *syntax.Program, opts SampleOptions) States {
	if opts.Runs == 0 {
		opts.Runs = DefaultRuns
	}
	if opts.Steps == 0 {
		opts.Steps = DefaultSteps
	}
	if opts.EngineStates == 0 {
		opts.EngineStates = DefaultEngineStates
	}
	if opts.PerLoop == 0 {
		opts.PerLoop = DefaultPerLoop
	}
	if opts.Work == 0 {
		opts.Work = DefaultWork
	}
	slots := max(prog.Slots(), 8)
	if slots > 256 && opts.EngineStates > 50 {
		opts.EngineStates = 50
	}
	arrival := map[syntax.Stmt]*syntax.While{}
	for _, w := range Loops(prog) {
		if w.Loop != nil {
			arrival[w.Loop] = w
		} else {
			arrival[w] = w
		}
	}
	s := &sampler{prog: prog, arrival: arrival, opts: opts, out: States{}, seen: map[*syntax.While]map[string]bool{},
		left: opts.Work / slots}
	// The bug finder's inputs fill at most half of each loop's states, so that the random
	// inputs vary what they leave the same; no single run fills more than a share of them.
	s.limit = opts.PerLoop / 2
	s.perRun = max(opts.PerLoop/8, 1)
	for _, in := range engineInputs(prog, opts.EngineStates) {
		s.run(in)
	}
	s.limit = opts.PerLoop
	s.perRun = max(opts.PerLoop/4, 1)
	rng := rand.New(rand.NewSource(opts.Seed + 1))
	consts := Constants(prog)
	for r := 0; r < opts.Runs && s.left > 0; r++ {
		s.run(randomInput(prog, rng, consts, r))
	}
	return s.out
}

type sampler struct {
	prog    *syntax.Program
	arrival map[syntax.Stmt]*syntax.While
	opts    SampleOptions
	out     States
	seen    map[*syntax.While]map[string]bool
	left    int // the steps left of the sampling's work
	limit   int // the states kept for each loop in the current phase
	perRun  int // the new states one run may add to a loop
	added   map[*syntax.While]int
}

// run steps the program from the input and records its loop-head stores.
func (s *sampler) run(in spec.Store) {
	st := spec.State{Store: in, Prog: s.prog.Body}
	s.added = map[*syntax.While]int{}
	for n := 0; n < s.opts.Steps && s.left > 0; n++ {
		s.left--
		if w := s.arrival[spec.Head(st.Prog)]; w != nil {
			s.record(w, st.Store)
		}
		next, out := spec.Step(st)
		if out != spec.Stepped {
			return
		}
		st = next
	}
}

func (s *sampler) record(w *syntax.While, st spec.Store) {
	if len(s.out[w]) >= s.limit || s.added[w] >= s.perRun {
		return
	}
	m := s.seen[w]
	if m == nil {
		m = map[string]bool{}
		s.seen[w] = m
	}
	var b strings.Builder
	for _, v := range st {
		b.WriteString(v.String())
		b.WriteByte(',')
	}
	k := b.String()
	if m[k] {
		return
	}
	m[k] = true
	s.added[w]++
	s.out[w] = append(s.out[w], append(spec.Store(nil), st...))
}

// randomInput is an input of small values (most between -3 and 12), some of them near the
// program's constants.
func randomInput(prog *syntax.Program, rng *rand.Rand, consts []int64, run int) spec.Store {
	in := make(spec.Store, prog.Slots())
	for i := range in {
		var v int64
		switch r := rng.Intn(10); {
		case run == 0:
			v = 0
		case r < 6:
			v = int64(rng.Intn(16)) - 3
		case r < 8 && len(consts) > 0:
			v = consts[rng.Intn(len(consts))] + int64(rng.Intn(3)) - 1
		default:
			v = int64(rng.Intn(201)) - 100
		}
		in[i] = integer.Of(v)
	}
	return in
}

// engineInputs are the models of the path conditions of the states the bug finder explores
// breadth-first within the bound: inputs that pass the program's assumes and take its branches
// both ways.
func engineInputs(prog *syntax.Program, states int) []spec.Store {
	if states <= 0 {
		return nil
	}
	e := engine.New(prog, engine.Options{Strategy: engine.BFS, Limits: budget.Limits{MaxStates: states}})
	defer e.Close()
	seen := map[string]bool{}
	var out []spec.Store
	for {
		st, ok := e.NextState()
		if !ok {
			break
		}
		if st.PC.Status != pathcond.Sat || len(st.PC.Witness) < prog.Slots() {
			continue
		}
		w := spec.Store(st.PC.Witness[:prog.Slots()])
		k := spec.StoreString(prog, w)
		if seen[k] {
			continue
		}
		seen[k] = true
		out = append(out, append(spec.Store(nil), w...))
	}
	return out
}
