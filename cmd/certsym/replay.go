package main

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"

	"certsym/cmd/certsym/internal/inputs"
	"certsym/cmd/certsym/internal/report"
	"certsym/cmd/certsym/internal/testcase"
	"certsym/spec"
	"certsym/spec/syntax"
	"certsym/spec/syntax/parser"
)

// replayResult is one line of replay's report.
type replayResult struct {
	File     string       `json:"file"`
	Status   string       `json:"status"` // "ok" or "differs"
	Expected testcase.End `json:"expected"`
	Observed testcase.End `json:"observed"`
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
	files, err := testcase.Files(target)
	if err != nil {
		fmt.Fprintf(stderr, "certsym replay: %v\n", err)
		return exitUsage
	}
	progs := map[string]*syntax.Program{}
	hashes := map[string]string{}
	var results []replayResult
	differ := 0
	for _, f := range files {
		t, _, err := testcase.Read(f)
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
			if prog, err = parser.ParseFile(pf); err != nil {
				fmt.Fprintf(stderr, "%v\n", err)
				return exitUsage
			}
			sum := sha256.Sum256(src)
			progs[pf], hashes[pf] = prog, hex.EncodeToString(sum[:])
		}
		store, _, err := inputs.FromJSON(t.Input, prog)
		if err != nil {
			fmt.Fprintf(stderr, "certsym replay: %s: %v (program %s)\n", f, err, pf)
			return exitUsage
		}
		// RunFast gives Run's result (tested equal in spec/runfast_test.go) without rebuilding the
		// program at each step.
		got := testcase.Observed(spec.RunFast(prog, store, *maxSteps))
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
		fmt.Fprintf(stdout, "%s replayed, %d behave as recorded, %d differ\n", report.Plural(len(results), "test"), len(results)-differ, differ)
	}
	if differ > 0 {
		return exitBug
	}
	return exitSafe
}
