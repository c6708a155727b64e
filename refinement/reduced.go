package refinement

import (
	"fmt"
	"io"
	"path/filepath"
	"time"

	"certsym/engine"
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
	gen, err := GeneratedUnits(reducedSeed, reducedPrograms, DefaultGen)
	if err != nil {
		return nil, err
	}
	// and programs with at least two corner snippets (the solver-free deciders at work)
	for s, n := int64(reducedCornerSeed), 0; n < reducedCornerPrograms; s++ {
		g, err := Generate(s, DefaultGen)
		if err != nil {
			return nil, err
		}
		if g.Corners < 2 || g.Long {
			continue
		}
		u, err := GeneratedUnit(s, DefaultGen)
		if err != nil {
			return nil, err
		}
		gen = append(gen, u)
		n++
	}
	long, err := FirstLongUnit(mutationLongSeed, 1100)
	if err != nil {
		return nil, err
	}
	units = append(units, long) // one large-budget program: the search at scale
	// and, first, the targeted corner programs (gencorner.go): the shapes where an unsound variant
	// of an interval rule decides a branch (small programs, so a kill ends the run early)
	targeted, err := TargetedCornerUnits()
	if err != nil {
		return nil, err
	}
	units = append(targeted, units...)
	cfg := DefaultConfig()
	cfg.MaxStates, cfg.GhostInputs, cfg.GhostSteps, cfg.OracleInputs, cfg.PreciseStates = 50, 2, 60, 4, 4
	cfg.StarvedStates, cfg.StreamStates, cfg.LongStates, cfg.LongStreamStates = 30, 40, 1200, 1100
	cfg.ProgramBudget = 6 * time.Second
	cfg.StopAtMismatch = true
	start := time.Now()
	sum, err := Run(cfg, append(units, gen...))
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
// (Unit.Long) and whose engine run (pruning on) takes at least states states: the search at
// scale is checked on it (the BFS queue reclaims its consumed prefix after 1,024 states).
func FirstLongUnit(seed int64, states int) (*Unit, error) {
	for s := seed; s < seed+100000; s++ {
		u, err := GeneratedUnit(s, DefaultGen)
		if err != nil {
			return nil, err
		}
		if !u.Long {
			continue
		}
		e := engine.New(u.Prog, engine.Options{MaxStates: states, RLimit: 200_000, QueryTimeout: 200 * time.Millisecond})
		n := 0
		for {
			if _, ok := e.NextState(); !ok {
				break
			}
			n++
		}
		if n >= states {
			return u, nil
		}
	}
	return nil, fmt.Errorf("no large-budget program from seed %d on", seed)
}
