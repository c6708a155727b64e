package main

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"certsym/engine"
	"certsym/spec"
)

// testCaseFormat is the version of the test case files run --tests writes and replay reads.
const testCaseFormat = 1

// testCase is one test case file (run --tests DIR, read by certsym replay): an input and the
// behaviour symbolic execution predicts for it on the concrete semantics. It plays the part of
// KLEE's .ktest files.
type testCase struct {
	Format int `json:"certsym_test"`
	// Program is the program file as given on run's command line; ProgramSHA256 is the hash of
	// its bytes then, so that replay can say when the program has changed since.
	Program       string       `json:"program"`
	ProgramSHA256 string       `json:"program_sha256"`
	Input         orderedInput `json:"input"`
	Expected      recordedEnd  `json:"expected"`
	PathCondition string       `json:"path_condition"`
}

// recordedEnd is the recorded end of a concrete run.
type recordedEnd struct {
	// Outcome is "normal" (the program finished), "bug" (it reached an error) or "infeasible"
	// (it stopped at an assume whose condition is false).
	Outcome string `json:"outcome"`
	// Kind is the kind of error (fail, assert, division-by-zero), for a bug.
	Kind string `json:"kind,omitempty"`
	// Line and Col locate the error statement (bug), the assume (infeasible), nothing (normal).
	Line int `json:"line,omitempty"`
	Col  int `json:"col,omitempty"`
	// Steps is the number of steps of the concrete semantics to that end.
	Steps int `json:"steps"`
}

func (x recordedEnd) String() string {
	switch x.Outcome {
	case "bug":
		return fmt.Sprintf("bug (%s at %d:%d) after %d steps", x.Kind, x.Line, x.Col, x.Steps)
	case "infeasible":
		return fmt.Sprintf("infeasible (the assume at %d:%d is false) after %d steps", x.Line, x.Col, x.Steps)
	case "step-bound":
		return fmt.Sprintf("no end within %d steps", x.Steps)
	}
	return fmt.Sprintf("%s after %d steps", x.Outcome, x.Steps)
}

// posOf is the position reports give for a statement: the macro call's for an inlined one.
func posOf(l spec.Loc) spec.Pos {
	if l.Site.Line != 0 {
		return l.Site
	}
	return l.P
}

// stmtPos returns the position of a statement, or the zero Pos for a sequence.
func stmtPos(s spec.Stmt) spec.Pos {
	switch s := s.(type) {
	case *spec.Skip:
		return posOf(s.Loc)
	case *spec.Fail:
		return posOf(s.Loc)
	case *spec.Assign:
		return posOf(s.Loc)
	case *spec.If:
		return posOf(s.Loc)
	case *spec.While:
		return posOf(s.Loc)
	case *spec.Assume:
		return posOf(s.Loc)
	case *spec.Assert:
		return posOf(s.Loc)
	}
	return spec.Pos{}
}

// testSet is what run --tests writes: the test cases of the terminal paths explored, and how
// many terminal paths gave none.
type testSet struct {
	cases []testCase
	// dups counts the terminal paths whose input and recordedEnd an earlier case already has;
	// noModel counts those without a model (the solver answered unknown, or --no-prune kept an
	// unsatisfiable path).
	dups, noModel int
}

// testCases turns the terminal paths the recorder saw into test cases, in the order the run
// explored them, without duplicates.
func (r *recorder) testCases(file string, src []byte) testSet {
	sum := sha256.Sum256(src)
	hash := hex.EncodeToString(sum[:])
	var set testSet
	seen := map[string]bool{}
	for _, t := range r.tests {
		if t.input == nil {
			set.noModel++
			continue
		}
		key := spec.InputString(t.input, r.prog.Vars) + "|" + t.end.String()
		if seen[key] {
			set.dups++
			continue
		}
		seen[key] = true
		set.cases = append(set.cases, testCase{Format: testCaseFormat, Program: file, ProgramSHA256: hash,
			Input: orderedInput{names: r.prog.Vars, vals: t.input}, Expected: t.end, PathCondition: t.pc})
	}
	return set
}

// writeTests writes the test cases to dir (created if missing) as test000001.json, ...; files of
// an earlier run with those names are replaced, others are left alone. It returns the paths.
func writeTests(dir string, set testSet) ([]string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	var paths []string
	for i, tc := range set.cases {
		b, err := json.MarshalIndent(tc, "", "  ")
		if err != nil {
			return nil, err
		}
		p := filepath.Join(dir, fmt.Sprintf("test%06d.json", i+1))
		if err := os.WriteFile(p, append(b, '\n'), 0o644); err != nil {
			return nil, err
		}
		paths = append(paths, p)
	}
	return paths, nil
}

// shellQuote quotes s for a POSIX shell when it needs it.
func shellQuote(s string) string {
	if s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_./=,+:@%", r))
	}) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// reproduceCommand is the certsym exec command line that runs a bug's input on the concrete
// semantics and reaches its error.
func reproduceCommand(file string, b *engine.Bug, names []string) string {
	var kv []string
	for i, v := range b.Input {
		kv = append(kv, names[i]+"="+v.String())
	}
	cmd := "certsym exec " + shellQuote(file)
	if len(kv) > 0 {
		cmd += " --input " + shellQuote(strings.Join(kv, ","))
	}
	if b.Replay.Steps >= 10_000_000 {
		cmd += fmt.Sprintf(" --max-steps %d", b.Replay.Steps+1)
	}
	return cmd
}
