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

	"certsym/cmd/certsym/internal/outfile"
	"certsym/cmd/certsym/internal/report"
	"certsym/spec"
	"certsym/spec/syntax"
)

// Format is the version of the test case files run --tests writes. Replay reads it and the
// format before it (1), which differs only in where its program path starts from (Stored.ProgramFile).
const Format = 2

// Case is one test case file (run --tests DIR, read by certsym replay): an input and the
// behaviour symbolic execution predicts for it on the concrete semantics. It plays the part of
// KLEE's .ktest files.
type Case struct {
	Format int `json:"certsym_test"` // the file format's version: Format
	// Program is the program file, relative to the directory of the test case file unless it
	// is absolute ("-" for a program read from standard input); ProgramSHA256 is the hash of its
	// bytes when the case was recorded, so that replay can say when the program has changed
	// since.
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

// SameOutcome reports whether x and y are the same end but for their number of steps: the same
// outcome, at the same place (the error and its kind, or the assume), for the same reason.
func (x End) SameOutcome(y End) bool {
	x.Steps = y.Steps
	return x == y
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

// Set is what run --tests writes: the test cases of the terminal paths explored, and how many
// terminal paths gave none.
type Set struct {
	Cases []Case
	// Dups counts the terminal paths whose input and End an earlier case already has; NoModel
	// counts those without a model (the solver answered unknown, or --no-prune kept an
	// unsatisfiable path); Over counts those left out by the maximum number of cases (run
	// --max-tests), not counting duplicates.
	Dups, NoModel, Over int
}

// A Collector gathers the test cases of a run's terminal paths as they end, in the order the run
// explores them: without duplicates, and at most a maximum number. It keeps of a path left out
// only a hash of its input and end, so that the paths over the maximum cost no rendering of their
// path conditions and little memory.
type Collector struct {
	prog *syntax.Program
	max  int // 0: no maximum
	seen map[[sha256.Size]byte]bool
	set  Set
}

// NewCollector returns a collector for a run of prog that keeps at most max test cases (0: no
// maximum).
func NewCollector(prog *syntax.Program, max int) *Collector {
	return &Collector{prog: prog, max: max, seen: map[[sha256.Size]byte]bool{}}
}

// Add adds the terminal path that ends with end on the model input (nil when its path condition
// has no model: the solver answered unknown). pc renders its path condition: it is called only
// for a path that gives a test case.
func (c *Collector) Add(end End, input spec.Store, pc func() string) {
	if input == nil {
		c.set.NoModel++
		return
	}
	h := sha256.New()
	for _, v := range input {
		h.Write([]byte(v.String()))
		h.Write([]byte{','})
	}
	h.Write([]byte("|" + end.String()))
	var key [sha256.Size]byte
	h.Sum(key[:0])
	switch {
	case c.seen[key]:
		c.set.Dups++
		return
	case c.max > 0 && len(c.set.Cases) >= c.max:
		c.set.Over++
	default:
		in := report.ProgInput(c.prog, append(spec.Store(nil), input...))
		c.set.Cases = append(c.set.Cases, Case{Format: Format, Input: in, Expected: end, PathCondition: pc()})
	}
	c.seen[key] = true
}

// Set returns the test cases gathered, each naming the program file whose bytes are src (the
// file as given on the command line: Write makes it relative to the directory of the tests).
func (c *Collector) Set(file string, src []byte) Set {
	sum := sha256.Sum256(src)
	hash := hex.EncodeToString(sum[:])
	set := c.set
	set.Cases = append([]Case(nil), c.set.Cases...)
	for i := range set.Cases {
		set.Cases[i].Program, set.Cases[i].ProgramSHA256 = file, hash
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
		tc.Program = relativeTo(dir, tc.Program)
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

// relativeTo is the path of file from the directory dir (both relative to the working directory
// or absolute), or file itself when it is "-" (standard input) or has no relative path from dir.
func relativeTo(dir, file string) string {
	if file == "-" {
		return file
	}
	d, err1 := filepath.Abs(dir)
	f, err2 := filepath.Abs(file)
	if err1 != nil || err2 != nil {
		return file
	}
	rel, err := filepath.Rel(d, f)
	if err != nil {
		return f
	}
	return rel
}
