package main

import (
	"crypto/sha256"
	"encoding/hex"
	"flag"
	"fmt"
	"io"
	"os"

	"certsym/cmd/certsym/internal/flags"
	"certsym/cmd/certsym/internal/inputs"
	"certsym/cmd/certsym/internal/jsonout"
	"certsym/cmd/certsym/internal/report"
	"certsym/cmd/certsym/internal/testcase"
	"certsym/cmd/certsym/internal/watch"
	"certsym/internal/budget"
	"certsym/spec"
	"certsym/spec/syntax"
	"certsym/spec/syntax/parser"
)

// replayResult is one line of replay's report.
type replayResult struct {
	File string `json:"file"`
	// Status is "ok", "differs", or "stopped" when a bound (--max-steps, the integer bound, the
	// time or memory bound, an interrupt) stopped the run before its end.
	Status   string       `json:"status"`
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
	outcomeOnly := fs.Bool("outcome-only", false, "compare the outcome and the place of the error or assume only, not the number of steps (for regression tests of a changed program)")
	limits := flags.Time(fs)
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
	differ, stopped := 0, 0
	mon, stop := watch.Start(limits(), stderr, exitUnknown)
	defer stop()
	mon.Enter("replay of the test cases")
	for _, f := range files {
		if mon.Stop() != "" {
			break
		}
		t, _, err := testcase.Read(f)
		if err != nil {
			fmt.Fprintf(stderr, "certsym replay: %v\n", err)
			return exitUsage
		}
		pf := t.ProgramFile(f)
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
		// RunFastLimited gives Run's result (tested equal in spec/runfast_test.go) without
		// rebuilding the program at each step, within the bounds of exec.
		r := spec.RunFastLimited(prog, store, concreteLimits(*maxSteps, mon))
		got := testcase.Observed(r)
		if r.Cut == budget.CutStop {
			got.Reason = mon.Stop()
		}
		res := replayResult{File: f, Status: "ok", Expected: t.Expected, Observed: got, Changed: hashes[pf] != t.ProgramSHA256}
		switch {
		case got == t.Expected, *outcomeOnly && got.SameOutcome(t.Expected):
		case r.Outcome == spec.Stepped: // a bound stopped the run: it says nothing of its end
			res.Status = "stopped"
			stopped++
		default:
			res.Status = "differs"
			differ++
		}
		results = append(results, res)
	}
	// The test cases a stop left out (the time or memory bound, an interrupt).
	var cut string
	if len(results) < len(files) {
		cut = fmt.Sprintf("%s: %d of %d test cases not replayed", mon.Stop(), len(files)-len(results), len(files))
	}
	if *asJSON {
		out := struct {
			Replayed int            `json:"replayed"`
			Differ   int            `json:"differ"`
			Stopped  int            `json:"stopped,omitempty"`
			Cut      string         `json:"cut,omitempty"`
			Results  []replayResult `json:"results"`
		}{len(results), differ, stopped, cut, results}
		jsonout.Write(stdout, out)
	} else {
		for _, r := range results {
			note := ""
			if r.Changed {
				note = " (the program has changed since the test was recorded)"
			}
			switch r.Status {
			case "ok":
				if r.Observed.Steps != r.Expected.Steps { // --outcome-only
					note = fmt.Sprintf(" (recorded after %s)", report.Plural(r.Expected.Steps, "step")) + note
				}
				fmt.Fprintf(stdout, "ok       %s: %s%s\n", r.File, r.Observed, note)
			case "stopped":
				fmt.Fprintf(stdout, "STOPPED  %s: recorded %s, now %s%s\n", r.File, r.Expected, r.Observed, note)
			default:
				fmt.Fprintf(stdout, "DIFFERS  %s: recorded %s, now %s%s\n", r.File, r.Expected, r.Observed, note)
			}
		}
		same := len(results) - differ - stopped
		fmt.Fprintf(stdout, "%s replayed, %d %s as recorded, %d %s", report.Plural(len(results), "test"),
			same, report.Verb(same, "behaves", "behave"), differ, report.Verb(differ, "differs", "differ"))
		if stopped > 0 {
			fmt.Fprintf(stdout, ", %d stopped by a bound", stopped)
		}
		fmt.Fprintln(stdout)
		if cut != "" {
			fmt.Fprintf(stdout, "cut short: %s\n", cut)
		}
	}
	switch {
	case differ > 0:
		return exitBug
	case stopped > 0 || cut != "":
		return exitUnknown
	}
	return exitSafe
}
