package concolic

import (
	"container/heap"
	"fmt"

	"certsym/engine"
	"certsym/internal/budget"
	"certsym/pathcond"
	"certsym/solver"
	"certsym/spec"
	"certsym/spec/syntax"
)

// GenOptions configure Generational.
type GenOptions struct {
	// SeedInput is the first input (a flat store: a value for every variable, indexed like
	// Program.Vars, then every array element, Program.Slots; nil: every input 0).
	SeedInput spec.Store
	// Limits bound the search: MaxStates bounds the concrete steps executed over all runs (0:
	// none), Timeout and MaxMemory the whole search, QueryTimeout and RLimit each solver query.
	budget.Limits
	// MaxRunSteps bounds each run (0: DefaultMaxSteps). A run cut by it leaves the verdict
	// unknown: the paths beyond it are not enumerated.
	MaxRunSteps int
	// AllBugs goes on after the first bug, reporting each error (statement and kind) once.
	AllBugs bool
	// Monitor, when set, receives the live counters and can interrupt the search.
	Monitor *budget.Monitor
	// OnBug, when set, is called with each bug as it is confirmed.
	OnBug func(*engine.Bug)
}

// child is an input of the worklist: its concolic run, its generation bound (the branch points
// before it are not negated again), its score and its creation number.
type child struct {
	path  *Path
	bound int
	score int
	seq   int
}

// worklist is a priority queue of inputs: highest score first, then first created.
type worklist []*child

func (w worklist) Len() int { return len(w) }
func (w worklist) Less(i, j int) bool {
	if w[i].score != w[j].score {
		return w[i].score > w[j].score
	}
	return w[i].seq < w[j].seq
}
func (w worklist) Swap(i, j int) { w[i], w[j] = w[j], w[i] }
func (w *worklist) Push(x any)   { *w = append(*w, x.(*child)) }
func (w *worklist) Pop() (x any) { old := *w; x = old[len(old)-1]; *w = old[:len(old)-1]; return x }

type branchKey struct {
	s    syntax.Stmt
	side Side
}

// search is the state of one generational search.
type search struct {
	t      *tracer
	opts   GenOptions
	sv     *solver.Chain
	meter  *budget.Meter
	mon    *budget.Monitor
	stats  engine.Stats
	runs   int
	seq    int
	work   worklist
	stmts  map[syntax.Stmt]bool
	branch map[branchKey]bool

	polls    int
	stopped  string
	unknowns []string // the branch sides the solver could not decide
	cut      []string // runs ended by a bound before their end
	reported map[*syntax.Fail]bool
	bugs     []*engine.Bug
}

// Generational is SAGE's generational search (Godefroid, Levin and Molnar, Automated Whitebox
// Fuzz Testing, NDSS 2008) over concolic runs. It runs the seed input concolically, with
// generation bound 0. Then, repeatedly, it takes the input of highest score from the worklist
// (ties: the first created) and, for each of its run's branch points at or after its bound and
// each other side of it (Branch.Sides), solves the path condition before the branch point ∧ that
// side's constraint; each model is a child input, with bound the branch point's index + 1, which
// is run concolically at once, checked for a bug, scored by the statements and branch sides its
// run covers that no run covered before, and put on the worklist. Every run is the concrete
// semantics' run of its input (a run reaching an error is replayed with spec.Run to the same error
// after the same number of steps before it is reported, as the engine confirms its bugs), and a
// child that does not take the side it was solved for is an internal error.
//
// The report: bugs as engine.Bug (State is the symbolic state of the run at the error: its path
// condition, symbolic store and remaining program); Stats.Expanded counts the concrete steps of
// all runs (comparable with the states the symbolic strategies expand), Produced the child inputs
// generated, Pruned the sides found unsatisfiable, MaxDepth the longest run, Solver the queries.
// The verdict is bug when a bug is confirmed (the first stops the search unless AllBugs); safe
// only when the worklist is exhausted and every side of every branch point at or after each
// run's bound was answered unsat or sat and run to its end: then every path of the program's
// execution tree (but paths blocked by an assume, which hold no error) was run, which happens
// only for a finite tree; unknown otherwise, with the reason: a bound (steps, time, memory, a run's
// step bound, the integer bound), an interrupt, or unknown solver answers.
//
// Completeness. On a finite execution tree whose every query is answered, the search enumerates
// every path: the child created by flipping branch point j of a run shares the run's sides before
// j and differs at j, its bound j+1 makes its own children differ after j, so each side of each
// node of the tree is asked for exactly once and the sat ones are run. It is not complete in
// general, and not relatively complete as the breadth-first engine is: (1) a side the solver
// answers unknown drops that child and the whole subtree under it, for good; (2) a branch point
// before a run's generation bound is never negated again in that run, so a side is asked for only
// under the one prefix the search first reached it with (the same statement reached by another
// prefix is asked again, but only if that run is picked); (3) on an infinite tree (a loop whose
// iterations depend on the input) the worklist ordering by coverage score is not fair: a path
// may be starved for ever, so a reachable bug may never be found, whatever the budget. It is not
// part of the fair-scheduler proofs of package engine.
//
// Deterministic: the same program, options and seed input give the same report (Z3's answers
// being deterministic for the same sequence of queries).
func Generational(prog *syntax.Program, opts GenOptions) (*engine.Report, error) {
	g := &search{t: newTracer(prog), opts: opts, stmts: map[syntax.Stmt]bool{}, branch: map[branchKey]bool{},
		reported: map[*syntax.Fail]bool{}}
	if g.opts.MaxRunSteps <= 0 {
		g.opts.MaxRunSteps = DefaultMaxSteps
	}
	g.meter = budget.NewMeter(opts.Limits)
	g.mon = opts.Monitor
	if g.mon == nil {
		g.mon = budget.NewMonitor()
	}
	g.sv = solver.New(prog, solver.Options{})
	defer g.sv.Close()
	g.sv.SetLimits(opts.Limits, g.meter.Deadline())
	g.sv.SetMonitor(g.mon)
	seed := opts.SeedInput
	if seed == nil {
		seed = make(spec.Store, prog.Slots())
	}
	if len(seed) != prog.Slots() {
		return nil, fmt.Errorf("concolic: the seed input has %d values, the program %d inputs", len(seed), prog.Slots())
	}
	done, err := g.runChild(seed, 0, nil)
	if err != nil || done {
		return g.finish(), err
	}
	for g.work.Len() > 0 {
		c := heap.Pop(&g.work).(*child)
		g.mon.SetPending(g.work.Len())
		done, err := g.expand(c)
		if err != nil {
			return nil, err
		}
		if done {
			break
		}
	}
	return g.finish(), nil
}

// expand negates each branch point of c's run at or after its bound, runs the children.
func (g *search) expand(c *child) (done bool, err error) {
	p := c.path
	n := g.t.prog.Slots()
	for j := c.bound; j < len(p.Branches); j++ {
		b := p.Branches[j]
		for _, s := range b.Sides() {
			if r := g.bound(); r != "" {
				g.stopped = r
				return true, nil
			}
			phi := pathcond.Extend(b.Prefix, b.sides[s], n)
			switch g.sv.Check(phi) {
			case pathcond.Unsat:
				g.stats.Pruned++
				continue
			case pathcond.Unknown:
				if g.mon.Interrupted() {
					g.stopped = "interrupted"
					return true, nil
				}
				g.unknowns = append(g.unknowns, fmt.Sprintf("the %s side of the %s at line %d (%s)", b.SideName(s), b.Kind, b.Pos.Line, phi.Reason))
				continue
			}
			in := append(spec.Store(nil), phi.Witness...)
			g.stats.Produced++
			done, err := g.runChild(in, j+1, func(q *Path) error {
				if len(q.Branches) <= j && (q.Outcome == StepBound || q.Outcome == Stopped) {
					return nil // cut short by a bound before the branch point
				}
				return diverges(p, j, s, q, g.t.prog)
			})
			if err != nil {
				return true, err
			}
			if done {
				return true, nil
			}
		}
	}
	return false, nil
}

// runChild runs the input in concolically with generation bound bound, checks its run (check,
// when not nil: that it takes the side it was solved for), reports its bug, scores it and puts it
// on the worklist. done is true when the search must stop: a bug (without AllBugs), a bound.
func (g *search) runChild(in spec.Store, bound int, check func(*Path) error) (done bool, err error) {
	if r := g.bound(); r != "" {
		g.stopped = r
		return true, nil
	}
	max, global := g.opts.MaxRunSteps, false
	if m := g.opts.MaxStates; m > 0 && m-g.stats.Expanded < max {
		max, global = m-g.stats.Expanded, true
	}
	base := g.stats.Expanded
	poll := func(steps int) string {
		g.mon.SetStates(base + steps)
		return g.poll()
	}
	p, err := g.t.run(in, max, true, -1, poll)
	if err != nil {
		return true, err
	}
	g.runs++
	g.stats.Expanded += p.Steps
	g.mon.SetStates(g.stats.Expanded)
	if p.Steps > g.stats.MaxDepth {
		g.stats.MaxDepth = p.Steps
		g.mon.SetDepth(p.Steps)
	}
	if check != nil {
		if err := check(p); err != nil {
			return true, err
		}
	}
	switch p.Outcome {
	case StepBound:
		if p.quantCut { // its bound on quantifier instances: this run is cut, the search goes on
			g.cut = append(g.cut, fmt.Sprintf("the run of %s: %s", spec.StoreString(g.t.prog, in), p.Reason))
			break
		}
		if global {
			g.stopped = g.stateBound()
			return true, nil
		}
		g.cut = append(g.cut, fmt.Sprintf("the run of %s reached the per-run step bound (%d steps)", spec.StoreString(g.t.prog, in), max))
	case Stopped:
		if r := g.poll(); r != "" {
			g.stopped = r
			return true, nil
		}
		g.cut = append(g.cut, p.Reason)
	case Error:
		r := spec.Run(g.t.prog, in, p.Steps)
		if r.Outcome != spec.Failed || r.Fail != p.Fail || r.Steps != p.Steps {
			return true, fmt.Errorf("concolic: internal error: the input %s reaches the %s at line %d after %d steps in the concolic run, but its concrete run ends %s after %d steps",
				spec.StoreString(g.t.prog, in), p.Fail.Kind, p.Fail.Line(), p.Steps, r.Outcome, r.Steps)
		}
		if !g.reported[p.Fail] {
			bug := &engine.Bug{Fail: p.Fail, Input: p.Input, Replay: r,
				State: &engine.State{PC: p.PC, Store: p.Store, Prog: p.Kont, Depth: p.Steps}}
			g.bugs = append(g.bugs, bug)
			g.mon.SetBugs(len(g.bugs))
			if g.opts.OnBug != nil {
				g.opts.OnBug(bug)
			}
			if !g.opts.AllBugs {
				return true, nil
			}
			g.reported[p.Fail] = true
		}
	}
	score := 0
	for _, s := range p.Stmts {
		if !g.stmts[s] {
			g.stmts[s] = true
			score++
		}
	}
	for _, b := range p.Branches {
		if k := (branchKey{b.Stmt, b.Taken}); !g.branch[k] {
			g.branch[k] = true
			score++
		}
	}
	g.seq++
	heap.Push(&g.work, &child{path: p, bound: bound, score: score, seq: g.seq})
	g.mon.SetPending(g.work.Len())
	return false, nil
}

// poll returns the reason to stop now (an interrupt, the time or memory bound), or "".
func (g *search) poll() string {
	if g.mon.Interrupted() {
		return "interrupted"
	}
	g.polls++
	switch reached, used := g.meter.Poll(g.polls << 8); reached {
	case budget.TimeReached:
		return fmt.Sprintf("time bound reached (%v, %s)", g.opts.Timeout, g.progress())
	case budget.MemoryReached:
		return fmt.Sprintf("memory bound reached (heap %d MiB > %d MiB, %s)", used>>20, g.opts.MaxMemory>>20, g.progress())
	}
	return ""
}

// bound returns the reason to stop before the next query or run, or "".
func (g *search) bound() string {
	if m := g.opts.MaxStates; m > 0 && g.stats.Expanded >= m {
		return g.stateBound()
	}
	return g.poll()
}

func (g *search) stateBound() string { return "state bound reached (" + g.progress() + ")" }

func (g *search) progress() string {
	return fmt.Sprintf("%s in %s, %s pending", plural(g.stats.Expanded, "concrete step"), plural(g.runs, "run"), plural(g.work.Len(), "input"))
}

// finish computes the report of the search so far.
func (g *search) finish() *engine.Report {
	g.stats.Solver = g.sv.Stats
	rep := &engine.Report{Bugs: g.bugs, Stats: g.stats}
	var why []string
	if g.stopped != "" {
		why = append(why, g.stopped)
	}
	if n := len(g.unknowns); n > 0 {
		why = append(why, fmt.Sprintf("the solver answered unknown for %s, whose paths were not run (first: %s)", plural(n, "branch side"), g.unknowns[0]))
	}
	if n := len(g.cut); n > 0 {
		why = append(why, fmt.Sprintf("%s cut short, the paths beyond not enumerated (first: %s)", plural(n, "run"), g.cut[0]))
	}
	reason := ""
	for i, w := range why {
		if i > 0 {
			reason += "; "
		}
		reason += w
	}
	switch {
	case len(g.bugs) > 0:
		rep.Verdict = engine.VerdictBug
		if g.opts.AllBugs {
			rep.Reason = reason
		}
	case reason != "":
		rep.Verdict, rep.Reason = engine.VerdictUnknown, reason
	default:
		rep.Verdict = engine.VerdictSafe
	}
	return rep
}

// plural is "1 run", "2 runs".
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
