package refinement

import (
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"time"

	"certsym/engine"
	"certsym/internal/budget"
	"certsym/refinement/gen"
	"certsym/spec/syntax"
	"certsym/spec/syntax/parser"
)

// ReducedRun is the layer's fast entry point for mutation testing (make mutation, gremlins): a
// fixed set of targeted corner programs (TargetedCornerUnits), case studies and generated
// programs (corner-only, macro and large-budget ones among them) under smaller budgets, stopping at the first mismatch. root is the module's root
// (for testdata/ and engine/testdata/). It returns the summary; a run with no mismatch is the
// "tests pass" of a mutant.
func ReducedRun(root string, out io.Writer) (*Summary, error) {
	var files []string
	for _, f := range []string{"testdata/gcd_subtractive_correct.imp", "testdata/div_by_zero_while_symbolic.imp",
		"testdata/div_by_zero_unreachable_branch_safe.imp", "engine/testdata/gcd.imp", "testdata/assume_narrowing_safe.imp",
		"testdata/many_paths_safe.imp", "testdata/mod_by_zero_constant.imp", "testdata/all_bugs_assert_div_one_statement.imp",
		"testdata/comparison_boundaries_safe.imp", "testdata/bigint_int64_boundary_arith_safe.imp"} {
		files = append(files, filepath.Join(root, f))
	}
	units, err := LoadFiles(files...)
	if err != nil {
		return nil, err
	}
	generated, err := GeneratedUnits(reducedSeed, reducedPrograms, gen.Default)
	if err != nil {
		return nil, err
	}
	// and programs with at least two corner snippets (the solver-free deciders at work)
	for s, n := int64(reducedCornerSeed), 0; n < reducedCornerPrograms; s++ {
		g, err := gen.Generate(s, gen.Default)
		if err != nil {
			return nil, err
		}
		if g.Corners < 2 || g.Long {
			continue
		}
		u, err := GeneratedUnit(s, gen.Default)
		if err != nil {
			return nil, err
		}
		generated = append(generated, u)
		n++
	}
	long, err := FirstLongUnit(mutationLongSeed, 1100)
	if err != nil {
		return nil, err
	}
	units = append(units, long) // one large-budget program: the search at scale
	// and, first, the targeted corner programs (gen/corner.go): the shapes where an unsound variant
	// of an interval rule decides a branch (small programs, so a kill ends the run early)
	targeted, err := TargetedCornerUnits()
	if err != nil {
		return nil, err
	}
	units = append(targeted, units...)
	// and the targeted array programs (arrays.go), after the corner programs
	arrays, err := ArrayTargetUnits()
	if err != nil {
		return nil, err
	}
	units = append(units[:len(targeted):len(targeted)], append(arrays, units[len(targeted):]...)...)
	cfg := DefaultConfig()
	cfg.MaxStates, cfg.GhostInputs, cfg.GhostSteps, cfg.OracleInputs, cfg.PreciseStates = 50, 2, 60, 4, 4
	cfg.StarvedStates, cfg.StreamStates, cfg.LongStates, cfg.LongStreamStates = 30, 40, 1200, 1100
	cfg.ProgramBudget = 6 * time.Second
	cfg.StopAtMismatch = true
	start := time.Now()
	sum, err := Run(cfg, append(units, generated...))
	if err != nil {
		return nil, err
	}
	fmt.Fprintf(out, "refinement: reduced run: %d programs, %d mismatches, %v\n", sum.Programs, sum.Mismatches, time.Since(start).Round(time.Millisecond))
	for i, m := range sum.Details {
		if i < 2 {
			fmt.Fprintln(out, m.String())
		}
	}
	return sum, nil
}

const reducedSeed, reducedPrograms = 3000, 16

// reducedCornerSeed, reducedCornerPrograms: the corner-rich programs of the reduced run.
const reducedCornerSeed, reducedCornerPrograms = 4000, 16

// mutationLongSeed is where the search for a large-budget program starts (mutation check, reduced run).
const mutationLongSeed = 2000

// FirstLongUnit is the first generated program from seed on that is of the large-budget kind
// (Unit.Long), whose engine run (pruning on) takes at least states states, and whose unpruned
// stream has, when the BFS queue first reclaims its consumed prefix (after 1,024 states), at
// least two pending states of which the last is taken within the first states states: the search
// at scale is checked on it (a reclaim that loses or reorders pending states then changes the
// stream the layer compares with the reference's; a countdown whose frontier holds one state
// would not show it).
func FirstLongUnit(seed int64, states int) (*Unit, error) {
	for s := seed; s < seed+100000; s++ {
		u, err := GeneratedUnit(s, gen.Default)
		if err != nil {
			return nil, err
		}
		if !u.Long {
			continue
		}
		e := engine.New(u.Prog, engine.Options{Limits: budget.Limits{MaxStates: states, RLimit: 200_000, QueryTimeout: 200 * time.Millisecond}})
		n := 0
		for {
			if _, ok := e.NextState(); !ok {
				break
			}
			n++
		}
		if n >= states && reclaimVisible(u, states) {
			return u, nil
		}
	}
	return nil, fmt.Errorf("no large-budget program from seed %d on", seed)
}

// reclaimVisible reports whether the unpruned run of u (the stream the layer compares) has, at the
// first reclaim of the BFS queue's consumed prefix, at least two pending states, the last of which
// is taken within the first states states, and whose states up to there have small path
// conditions (so that the stream comparison gets there). The queue (engine/search.go, frontier.pop) reclaims
// when, after the h-th pop, h > 1024 and 2h exceeds the number of states pushed so far; the states
// still pending then are the ones the reclaim moves.
func reclaimVisible(u *Unit, states int) bool {
	e := engine.New(u.Prog, engine.Options{NoPrune: true, Limits: budget.Limits{MaxStates: states}})
	defer e.Close()
	for h := 1; h <= states; h++ {
		before := e.Pending()
		pushed := before + h - 1 // pending before the h-th pop, plus the h-1 states taken
		if h > 1024 && 2*h > pushed {
			n := before - 1 // pending after the pop: what the reclaim moves
			return n >= 2 && h+n <= states
		}
		st, ok := e.NextState()
		if !ok || st.PC.Depth > reclaimMaxDepth {
			return false
		}
	}
	return false
}

// reclaimMaxDepth bounds the path conditions of the states reclaimVisible accepts (in conjuncts):
// the stream comparison ends at a state of the reference whose terms exceed its limit, which a
// symbolic countdown of a few hundred iterations reaches before the queue's first reclaim.
const reclaimMaxDepth = 64

// TargetedCornerUnits are the units of targetedCorners (names corner-<name>); the reference runs
// the built tree, the engine the parsed text.
func TargetedCornerUnits() ([]*Unit, error) {
	var out []*Unit
	for _, t := range gen.Targeted() {
		text := syntax.Print(t.Tree)
		name := "corner-" + t.Name
		p, err := parser.Parse(name, []byte(text))
		if err != nil {
			return nil, fmt.Errorf("targeted corner program %s does not parse: %w\n%s", name, err, text)
		}
		u := &Unit{Name: name, Seed: -1, Prog: p, RefBody: t.Tree, Text: text}
		if a, b := strings.Join(syntax.VarsOf(t.Tree), ","), strings.Join(p.Vars, ","); a != b {
			u.ParseMismatch = fmt.Sprintf("the built program's variables are %s, the parsed program's %s", a, b)
		}
		out = append(out, u)
	}
	return out, nil
}
