//go:build faults

package refinement

import (
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"certsym/internal/fault"
	"certsym/refinement/gen"
)

// mutationUnits is the fixed corpus of the mutation check: a few case studies and generated
// programs of fixed seeds. It is parsed anew under each fault (the precedence fault is in the
// parser).
func mutationUnits(t *testing.T) []*Unit {
	files, err := LoadFiles(os.Getenv("REFINEMENT_MUTATION_FILES"))
	if err != nil {
		t.Fatal(err)
	}
	generated, err := GeneratedUnits(mutationSeed, mutationPrograms, gen.Default)
	if err != nil {
		t.Fatal(err)
	}
	// and, first, a program of the large-budget kind: the search at scale (more than 1024 states
	// taken) is checked on it (the checks of the programs in flight end at the first mismatch).
	// The program is chosen once, with no fault on (a fault such as early-stop would make the
	// choice fail), and generated anew under each fault like the others.
	if mutationLong < 0 {
		active := fault.Active
		fault.Active = fault.None
		u, err := FirstLongUnit(mutationLongSeed, 1100)
		fault.Active = active
		if err != nil {
			t.Fatal(err)
		}
		mutationLong = u.Seed
	}
	long, err := GeneratedUnit(mutationLong, gen.Default)
	if err != nil {
		t.Fatal(err)
	}
	generated = append([]*Unit{long}, generated...)
	targets, err := ArrayTargetUnits()
	if err != nil {
		t.Fatal(err)
	}
	bursts, err := BurstTargetUnits()
	if err != nil {
		t.Fatal(err)
	}
	verifies, err := VerifyTargetUnits()
	if err != nil {
		t.Fatal(err)
	}
	proves, err := ProveTargetUnits()
	if err != nil {
		t.Fatal(err)
	}
	targets = append(append(append(bursts, targets...), verifies...), proves...)
	return append(append(files, targets...), generated...)
}

const mutationSeed, mutationPrograms = 1000, 30

// mutationLong is the seed of the mutation check's large-budget program (-1 until chosen).
var mutationLong int64 = -1

func mutationConfig() Config {
	cfg := DefaultConfig()
	cfg.MaxStates, cfg.GhostInputs, cfg.GhostSteps, cfg.OracleInputs, cfg.PreciseStates = 80, 3, 100, 6, 8
	cfg.StarvedStates = 40
	cfg.ProgramBudget = 16 * time.Second
	cfg.LongStates, cfg.LongStreamStates = 1200, 1100
	return cfg
}

// faultConfig is mutationConfig stopping at the first program with a mismatch.
func faultConfig() Config {
	cfg := mutationConfig()
	cfg.StopAtMismatch = true
	return cfg
}

// TestMutation switches on each deliberate fault of internal/fault in turn, runs the layer on a
// fixed corpus, and fails unless every fault is detected (and the fault-free run is clean). It
// prints the table of faults and the checks that caught each.
func TestMutation(t *testing.T) {
	if !fault.Enabled {
		t.Fatal("build with -tags faults")
	}
	defer func() { fault.Active = fault.None }()
	start := time.Now()
	fault.Active = fault.None
	base, err := Run(mutationConfig(), mutationUnits(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("fault-free run: %v", time.Since(start).Round(time.Millisecond))
	if base.Mismatches != 0 {
		for _, m := range base.Details {
			t.Log(m.String())
		}
		t.Fatalf("the fault-free run has %d mismatches", base.Mismatches)
	}
	var rows []string
	detected := 0
	faults := fault.Refinement()
	if only := os.Getenv("REFINEMENT_FAULTS"); only != "" { // a subset, by name (comma-separated)
		faults = nil
		for _, f := range fault.Refinement() {
			if strings.Contains(","+only+",", ","+f.String()+",") {
				faults = append(faults, f)
			}
		}
	}
	catchers := readCatchers(t)
	var moved []string
	for _, f := range faults {
		fault.Active = f
		t0 := time.Now()
		hint := catchers[f.String()]
		sum, err := Run(faultConfig(), catcherFirst(mutationUnits(t), hint))
		took := time.Since(t0).Round(time.Millisecond)
		if err != nil {
			t.Fatalf("fault %s: %v", f, err)
		}
		checks := sum.Checks()
		status := "DETECTED"
		if sum.Mismatches == 0 {
			status = "MISSED"
		} else {
			detected++
			if got := sum.Details[0].Program; got != hint {
				moved = append(moved, fmt.Sprintf("%s: caught first by %s, not by %q of %s", f, got, hint, catchersFile))
				catchers[f.String()] = got
			}
			t.Logf("fault %s, first mismatch:\n%s", f, sum.Details[0].String())
			for _, m := range sum.Details[1:] {
				if m.Check == "panic" { // a panic is never expected, even under a fault: show it
					t.Logf("fault %s, panic:\n%s", f, m.String())
				}
			}
		}
		var parts []string
		for _, k := range checks {
			parts = append(parts, fmt.Sprintf("%s (%d)", k, sum.ByCheck[k]))
		}
		rows = append(rows, fmt.Sprintf("refinement: fault %-24s %-9s after %2d programs, %6v: %s", f, status, sum.Programs, took, strings.Join(parts, ", ")))
	}
	fault.Active = fault.None
	fmt.Fprintf(os.Stdout, "refinement: mutation check: fault-free run clean on %d programs (generator seeds %d..%d); each fault runs them until a mismatch; %v\n",
		base.Programs, mutationSeed, mutationSeed+mutationPrograms-1, time.Since(start).Round(time.Millisecond))
	for _, r := range rows {
		fmt.Fprintln(os.Stdout, r)
	}
	for _, m := range moved {
		fmt.Fprintln(os.Stdout, "refinement: mutation check: "+m)
	}
	if len(moved) > 0 && os.Getenv("REFINEMENT_MUTATION_CATCHERS") == "update" {
		writeCatchers(t, catchers)
	}
	fmt.Fprintf(os.Stdout, "refinement: faults detected %d/%d\n", detected, len(faults))
	if detected != len(faults) {
		t.Fatalf("%d of %d faults missed", len(faults)-detected, len(faults))
	}
}

// catchersFile names, for each fault, the program of the mutation corpus that caught it in a full
// run; TestMutation checks that program first (catcherFirst), so that a fault usually costs one
// program, not the programs before its catcher in the corpus's order.
const catchersFile = "testdata/mutation-catchers.txt"

// readCatchers reads catchersFile: fault name to program name.
func readCatchers(t *testing.T) map[string]string {
	data, err := os.ReadFile(catchersFile)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for i, line := range strings.Split(string(data), "\n") {
		if line = strings.TrimSpace(line); line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.Fields(line)
		if len(f) != 2 {
			t.Fatalf("%s:%d: want a fault and a program, got %q", catchersFile, i+1, line)
		}
		out[f[0]] = f[1]
	}
	return out
}

// writeCatchers rewrites catchersFile with its header and the faults in fault.Refinement's order.
func writeCatchers(t *testing.T, catchers map[string]string) {
	data, err := os.ReadFile(catchersFile)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for _, line := range strings.Split(string(data), "\n") {
		if strings.HasPrefix(line, "#") {
			b.WriteString(line + "\n")
		}
	}
	for _, f := range fault.Refinement() {
		if p, ok := catchers[f.String()]; ok {
			fmt.Fprintf(&b, "%-30s %s\n", f, p)
		}
	}
	if err := os.WriteFile(catchersFile, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

// catcherFirst returns units with the unit named name moved to the front (units unchanged when
// none is named so). The checks of a unit depend on the unit alone, so the order changes which
// mismatch is found first and how soon, not whether the corpus catches the fault.
func catcherFirst(units []*Unit, name string) []*Unit {
	for i, u := range units {
		if u.Name == name {
			out := append([]*Unit{u}, units[:i]...)
			return append(out, units[i+1:]...)
		}
	}
	return units
}
