package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"certsym/spec"
)

// storedTest is a test case file as replay reads it.
type storedTest struct {
	Format        int             `json:"certsym_test"`
	Program       string          `json:"program"`
	ProgramSHA256 string          `json:"program_sha256"`
	Input         json.RawMessage `json:"input"`
	Expected      recordedEnd     `json:"expected"`
	PathCondition string          `json:"path_condition"`
}

// readTest reads and checks one test case file.
func readTest(path string) (*storedTest, map[string]json.Number, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, nil, err
	}
	var t storedTest
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&t); err != nil {
		return nil, nil, fmt.Errorf("%s: not a certsym test case: %v", path, err)
	}
	if t.Format != testCaseFormat {
		return nil, nil, fmt.Errorf("%s: certsym_test is %d, want %d", path, t.Format, testCaseFormat)
	}
	switch t.Expected.Outcome {
	case "normal", "bug", "infeasible":
	default:
		return nil, nil, fmt.Errorf("%s: expected.outcome is %q, want normal, bug or infeasible", path, t.Expected.Outcome)
	}
	in := map[string]json.Number{}
	d := json.NewDecoder(bytes.NewReader(t.Input))
	d.UseNumber()
	if err := d.Decode(&in); err != nil {
		return nil, nil, fmt.Errorf("%s: input: %v", path, err)
	}
	return &t, in, nil
}

// observed is the end of a concrete run, in the terms of a recordedEnd.
func observed(r spec.Result) recordedEnd {
	switch r.Outcome {
	case spec.Final:
		return recordedEnd{Outcome: "normal", Steps: r.Steps}
	case spec.Failed:
		p := posOf(r.Fail.Loc)
		return recordedEnd{Outcome: "bug", Kind: r.Fail.Kind.String(), Line: p.Line, Col: p.Col, Steps: r.Steps}
	case spec.Blocked:
		p := stmtPos(spec.Head(r.Final.Prog))
		return recordedEnd{Outcome: "infeasible", Line: p.Line, Col: p.Col, Steps: r.Steps}
	}
	return recordedEnd{Outcome: "step-bound", Steps: r.Steps}
}

// replayResult is one line of replay's report.
type replayResult struct {
	File     string      `json:"file"`
	Status   string      `json:"status"` // "ok" or "differs"
	Expected recordedEnd `json:"expected"`
	Observed recordedEnd `json:"observed"`
	// Changed says that the program's bytes are not those the test case was recorded on.
	Changed bool `json:"program_changed,omitempty"`
}

// cmdReplay is certsym replay FILE|DIR: each test case written by run --tests is run on the
// concrete semantics, and its end compared with the recorded one.
func cmdReplay(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("replay", flag.ContinueOnError)
	program := fs.String("program", "", "replay on this program `FILE` instead of the one each test case names")
	maxSteps := fs.Int("max-steps", 10_000_000, "stop each run after `N` steps")
	asJSON := fs.Bool("json", false, "print one JSON object on stdout")
	target, code, ok := oneFile(fs, args, stderr)
	if !ok {
		return code
	}
	if *maxSteps < 0 {
		fmt.Fprintf(stderr, "certsym replay: --max-steps must not be negative\n")
		return exitUsage
	}
	files, err := testFiles(target)
	if err != nil {
		fmt.Fprintf(stderr, "certsym replay: %v\n", err)
		return exitUsage
	}
	progs := map[string]*spec.Program{}
	hashes := map[string]string{}
	var results []replayResult
	differ := 0
	for _, f := range files {
		t, in, err := readTest(f)
		if err != nil {
			fmt.Fprintf(stderr, "certsym replay: %v\n", err)
			return exitUsage
		}
		pf := t.Program
		if *program != "" {
			pf = *program
		}
		prog, seen := progs[pf]
		if !seen {
			src, err := os.ReadFile(pf)
			if err != nil {
				fmt.Fprintf(stderr, "certsym replay: %s: %v\n", f, err)
				return exitUsage
			}
			if prog, err = spec.ParseFile(pf); err != nil {
				fmt.Fprintf(stderr, "%v\n", err)
				return exitUsage
			}
			sum := sha256.Sum256(src)
			progs[pf], hashes[pf] = prog, hex.EncodeToString(sum[:])
		}
		store := make(spec.Store, len(prog.Vars))
		for name, v := range in {
			i := prog.VarIndex(name)
			if i < 0 {
				fmt.Fprintf(stderr, "certsym replay: %s: the program %s has no variable %q\n", f, pf, name)
				return exitUsage
			}
			n, okn := spec.ParseInt(v.String())
			if !okn {
				fmt.Fprintf(stderr, "certsym replay: %s: input %s: expected an integer, found %s\n", f, name, v)
				return exitUsage
			}
			store[i] = n
		}
		got := observed(spec.Run(prog, store, *maxSteps))
		res := replayResult{File: f, Status: "ok", Expected: t.Expected, Observed: got, Changed: hashes[pf] != t.ProgramSHA256}
		if got != t.Expected {
			res.Status = "differs"
			differ++
		}
		results = append(results, res)
	}
	if *asJSON {
		out := struct {
			Replayed int            `json:"replayed"`
			Differ   int            `json:"differ"`
			Results  []replayResult `json:"results"`
		}{len(results), differ, results}
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		enc.SetEscapeHTML(false)
		enc.Encode(out)
	} else {
		for _, r := range results {
			note := ""
			if r.Changed {
				note = " (the program has changed since the test was recorded)"
			}
			if r.Status == "ok" {
				fmt.Fprintf(stdout, "ok       %s: %s%s\n", r.File, r.Observed, note)
			} else {
				fmt.Fprintf(stdout, "DIFFERS  %s: recorded %s, now %s%s\n", r.File, r.Expected, r.Observed, note)
			}
		}
		fmt.Fprintf(stdout, "%s replayed, %d behave as recorded, %d differ\n", plural(len(results), "test"), len(results)-differ, differ)
	}
	if differ > 0 {
		return exitBug
	}
	return exitSafe
}

// testFiles returns target when it is a file, or the .json files in the directory target, sorted.
func testFiles(target string) ([]string, error) {
	fi, err := os.Stat(target)
	if err != nil {
		return nil, err
	}
	if !fi.IsDir() {
		return []string{target}, nil
	}
	entries, err := os.ReadDir(target)
	if err != nil {
		return nil, err
	}
	var files []string
	for _, e := range entries {
		if !e.IsDir() && strings.HasSuffix(e.Name(), ".json") {
			files = append(files, filepath.Join(target, e.Name()))
		}
	}
	sort.Strings(files)
	if len(files) == 0 {
		return nil, errors.New(target + ": no test case (.json) in this directory")
	}
	return files, nil
}
