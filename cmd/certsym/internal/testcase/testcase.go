// Package testcase is the test case files of certsym run --tests DIR, read back by certsym replay:
// one JSON file per explored terminal path, with an input and the end symbolic execution
// predicts for it on the concrete semantics (in the manner of KLEE's .ktest files); writing them,
// reading and checking them, and the end a concrete run observes, to compare with the recorded
// one.
package testcase

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"certsym/cmd/certsym/internal/outfile"
	"certsym/cmd/certsym/internal/report"
	"certsym/spec"
	"certsym/spec/syntax"
)

// Format is the version of the test case files run --tests writes and replay reads.
const Format = 1

// Case is one test case file (run --tests DIR, read by certsym replay): an input and the
// behaviour symbolic execution predicts for it on the concrete semantics. It plays the part of
// KLEE's .ktest files.
type Case struct {
	Format int `json:"certsym_test"` // the file format's version: Format
	// Program is the program file as given on run's command line; ProgramSHA256 is the hash of
	// its bytes then, so that replay can say when the program has changed since.
	Program       string       `json:"program"`
	ProgramSHA256 string       `json:"program_sha256"`
	Input         report.Input `json:"input"`          // a value for every variable
	Expected      End          `json:"expected"`       // the end symbolic execution predicts
	PathCondition string       `json:"path_condition"` // the path's condition, in IMP syntax
}

// End is the end of a concrete run, as a test case records it and as replay observes it.
type End struct {
	// Outcome is "normal" (the program finished), "bug" (it reached an error) or "infeasible"
	// (it stopped at an assume whose condition is false); a run replay observes may also end
	// "step-bound" (its step bound reached) or "stopped" (another bound stopped it at Line:Col:
	// Reason says which).
	Outcome string `json:"outcome"`
	// Reason says why a run "stopped": the integer bound, the time or memory bound, an interrupt.
	Reason string `json:"reason,omitempty"`
	// Kind is the kind of error (fail, assert, division-by-zero), for a bug.
	Kind string `json:"kind,omitempty"`
	// Line and Col locate the error statement (bug), the assume (infeasible), nothing (normal).
	Line int `json:"line,omitempty"`
	Col  int `json:"col,omitempty"`
	// Steps is the number of steps of the concrete semantics to that end.
	Steps int `json:"steps"`
}

// String describes the end: "bug (assert at 2:3) after 2 steps", "normal after 5 steps".
func (x End) String() string {
	switch x.Outcome {
	case "bug":
		return fmt.Sprintf("bug (%s at %d:%d) after %d steps", x.Kind, x.Line, x.Col, x.Steps)
	case "infeasible":
		return fmt.Sprintf("infeasible (the assume at %d:%d is false) after %d steps", x.Line, x.Col, x.Steps)
	case "step-bound":
		return fmt.Sprintf("no end within %d steps", x.Steps)
	case "stopped":
		return fmt.Sprintf("stopped at %d:%d after %d steps: %s", x.Line, x.Col, x.Steps, x.Reason)
	}
	return fmt.Sprintf("%s after %d steps", x.Outcome, x.Steps)
}

// Path is an explored path that ends: its model, predicted end and path condition.
type Path struct {
	End   End        // how the path ends
	Input spec.Store // its model; nil when the path condition has no model (solver unknown)
	PC    string     // its path condition, printed (or a note that it is too large to print)
}

// Set is what run --tests writes: the test cases of the terminal paths explored, and how many
// terminal paths gave none.
type Set struct {
	Cases []Case
	// Dups counts the terminal paths whose input and End an earlier case already has; NoModel
	// counts those without a model (the solver answered unknown, or --no-prune kept an
	// unsatisfiable path).
	Dups, NoModel int
}

// Collect turns the terminal paths of a run of the program file (whose bytes are src and whose
// variables are names) into test cases, in the order the run explored them, without duplicates.
func Collect(file string, src []byte, names []string, paths []Path) Set {
	return collect(file, src, names, nil, paths)
}

// CollectProg is Collect for the program prog, arrays included: each input gives
// every variable and every array (the list of its elements).
func CollectProg(file string, src []byte, prog *syntax.Program, paths []Path) Set {
	return collect(file, src, prog.Vars, prog, paths)
}

func collect(file string, src []byte, names []string, prog *syntax.Program, paths []Path) Set {
	sum := sha256.Sum256(src)
	hash := hex.EncodeToString(sum[:])
	var set Set
	seen := map[string]bool{}
	for _, t := range paths {
		if t.Input == nil {
			set.NoModel++
			continue
		}
		var kb strings.Builder
		for _, v := range t.Input {
			kb.WriteString(v.String())
			kb.WriteByte(',')
		}
		key := kb.String() + "|" + t.End.String()
		if seen[key] {
			set.Dups++
			continue
		}
		seen[key] = true
		set.Cases = append(set.Cases, Case{Format: Format, Program: file, ProgramSHA256: hash,
			Input: input(names, prog, t.Input), Expected: t.End, PathCondition: t.PC})
	}
	return set
}

// Write writes the test cases to dir (created if missing) as test000001.json, ...; files of an
// earlier run with those names are replaced, others are left alone. Each file is written to a
// temporary name in dir and renamed (outfile.Write), so that none is ever half-written. stop is asked
// before each file: true ends the writing there (the caller says so). It returns the paths
// written.
func Write(dir string, set Set, stop func() bool) ([]string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	var paths []string
	for i, tc := range set.Cases {
		if stop() {
			break
		}
		b, err := json.MarshalIndent(tc, "", "  ")
		if err != nil {
			return paths, err
		}
		p := filepath.Join(dir, fmt.Sprintf("test%06d.json", i+1))
		if err := outfile.Write(p, append(b, '\n')); err != nil {
			return paths, err
		}
		paths = append(paths, p)
	}
	return paths, nil
}

func input(names []string, prog *syntax.Program, vals spec.Store) report.Input {
	if prog != nil {
		return report.ProgInput(prog, vals)
	}
	return report.Input{Names: names, Vals: vals}
}
