// Package provecmd is certsym prove FILE: the proof mode of package prove on a program whose
// loops carry invariant clauses, its text and JSON reports and its exit status (0 proved,
// 1 refuted, 3 unknown, as run's safe, bug and no verdict).
package provecmd

import (
	"bytes"
	"os"

	"certsym/prove/auto"
	"certsym/prove/cert"
	"certsym/prove/infer"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"strings"
	"time"

	"certsym/cmd/certsym/internal/flags"
	"certsym/cmd/certsym/internal/report"
	"certsym/cmd/certsym/internal/watch"
	"certsym/internal/budget"
	"certsym/prove"
	"certsym/spec"
	"certsym/spec/syntax"
	"certsym/sym"
)

// Exit statuses (cmd/certsym's).
const (
	exitProved   = 0
	exitRefuted  = 1
	exitUsage    = 2
	exitUnknown  = 3
	exitInternal = 4
)

// Env is what the command takes from cmd/certsym: the parsing of a command's one FILE (ok
// false: end with status code) and the loading of the program (a JSON error object on stdout
// when asJSON).
type Env struct {
	OneFile func(fs *flag.FlagSet, args []string, stderr io.Writer) (file string, code int, ok bool)
	Load    func(file string, asJSON bool, stdout, stderr io.Writer) (*syntax.Program, []byte, bool)
}

// Main is certsym prove with its arguments; it returns the exit status.
func Main(args []string, stdout, stderr io.Writer, env Env) int {
	fs := flag.NewFlagSet("prove", flag.ContinueOnError)
	limits := flags.Budget(fs, "stop after `N` states of the proof's symbolic execution (0: no bound)",
		"bound each solver query to this `duration` (0: none); a claim whose query is unanswered leaves the answer unknown")
	unroll := flags.Count(fs, "unroll", prove.DefaultUnroll, "iterations of each loop without invariant clauses on a path: a path that goes further is cut and the answer cannot be proved (`N` > 0)")
	reach := flags.Count(fs, "reach-states", prove.DefaultReachStates, "states of the searches made when the proof fails: the bug finder's search for an input that reaches an error, and the search for a run reaching a counterexample's pre-state (`N` > 0)")
	asJSON := fs.Bool("json", false, "print one JSON object on stdout")
	quiet := fs.Bool("quiet", false, "no progress reports")
	inferFlag := fs.Bool("infer", false, "infer invariant clauses for the loops that have none before the proof, whatever its answer without them (docs/infer.md)")
	noInfer := fs.Bool("no-infer", false, "infer no invariant clause: a loop without clauses is only unrolled (by default, an answer unknown is tried again with inferred clauses)")
	certFile := fs.String("certificate", "", "write the WhyML certificate of the program with the invariants used to `FILE.mlw` (docs/infer.md)")
	file, code, ok := env.OneFile(fs, args, stderr)
	if !ok {
		return code
	}
	if *inferFlag && *noInfer {
		fmt.Fprintf(stderr, "certsym prove: --infer and --no-infer exclude each other\n")
		return exitUsage
	}
	if *unroll == 0 || *reach == 0 {
		fmt.Fprintf(stderr, "certsym prove: --unroll and --reach-states must be positive\n")
		return exitUsage
	}
	prog, _, ok := env.Load(file, *asJSON, stdout, stderr)
	if !ok {
		return exitUsage
	}
	lim := limits()
	mon, stopSignals := watch.Start(lim, stderr, exitUnknown)
	defer stopSignals()
	mon.Enter("proof")
	stopTicker := func() {}
	if !*quiet {
		stopTicker = mon.Tick(time.Second, func(p budget.Snapshot) { fmt.Fprintln(stderr, report.Progress(p, true)) })
	}
	popts := prove.Options{Limits: lim, Monitor: mon, Unroll: *unroll, ReachStates: *reach}
	var res *prove.Result
	var inferred infer.Set
	var err error
	if *inferFlag {
		var out *auto.Outcome
		out, err = auto.Prove(prog, auto.Options{Prove: popts, InferTime: lim.Timeout / 2})
		if err == nil {
			res, inferred = out.Result, out.Invariants
		}
	} else {
		res, err = prove.Check(prog, nil, popts)
		// By default an unknown answer (not cut by a bound or an interrupt) of a program with a
		// loop without clauses is tried again with inferred clauses: proved and refuted stay.
		if err == nil && !*noInfer && res.Answer == prove.Unknown && mon.Stop() == "" && bareLoop(prog) {
			var out *auto.Outcome
			out, err = auto.Prove(prog, auto.Options{Prove: popts, InferTime: lim.Timeout / 2})
			if err == nil && out.Result.Answer != prove.Unknown {
				res, inferred = out.Result, out.Invariants
			}
		}
	}
	stopTicker()
	if err != nil {
		fmt.Fprintf(stderr, "certsym: %v\n", err)
		return exitInternal
	}
	if *certFile != "" {
		extra := cert.Invariants{}
		for w, cs := range inferred {
			for _, c := range cs {
				extra[w] = append(extra[w], c.Cond)
			}
		}
		var b bytes.Buffer
		if err := cert.Write(&b, prog, extra); err == nil {
			err = os.WriteFile(*certFile, b.Bytes(), 0o644)
		}
		if err != nil {
			fmt.Fprintf(stderr, "certsym: the certificate: %v\n", err)
			return exitInternal
		}
	}
	mon.Enter("report")
	cuts := mon.Cuts()
	if *asJSON {
		enc := json.NewEncoder(stdout) // as every --json object: indented, no HTML escaping
		enc.SetIndent("", "  ")
		enc.SetEscapeHTML(false)
		if err := enc.Encode(JSON(prog, file, res, cuts)); err != nil {
			fmt.Fprintf(stderr, "certsym: %v\n", err)
			return exitInternal
		}
	} else {
		Text(stdout, prog, file, res, cuts)
	}
	switch {
	case res.Answer == prove.Refuted:
		return exitRefuted
	case res.Answer == prove.Proved && len(cuts) == 0:
		return exitProved
	}
	return exitUnknown
}

// Text prints the report: the refuting bug as run prints a bug, the answer with its reason, the
// invariants used, the counterexample to induction, the counters.
func Text(w io.Writer, prog *syntax.Program, file string, res *prove.Result, cuts []string) {
	names := sym.SlotNames(prog)
	if b := res.Bug; b != nil {
		fmt.Fprintf(w, "BUG: %s at %s:%s\n", report.DescribeFail(b.Fail), prog.File, at(b.Fail.Pos()))
		fmt.Fprintf(w, "  input:          %s\n", report.InputText(b.Input, names))
		fmt.Fprintf(w, "  found:          %s\n", found(b))
		fmt.Fprintf(w, "  confirmed:      the concrete run of this input reaches the error after %s\n", report.Plural(b.Steps, "step"))
		fmt.Fprintf(w, "  reproduce:      %s\n", report.ReproduceInput(file, b.Input, names))
	}
	fmt.Fprintf(w, "answer: %s", res.Answer)
	switch res.Answer {
	case prove.Proved:
		fmt.Fprint(w, " (every claim holds for every input: each loop with invariant clauses by its invariant, no bound involved)")
	case prove.Refuted:
		fmt.Fprint(w, " (an input whose concrete run reaches an error)")
	default:
		fmt.Fprintf(w, " (%s)", res.Reason)
	}
	fmt.Fprintln(w)
	for _, l := range res.Loops {
		var cs []string
		for i, c := range l.Clauses {
			if l.Given[i] {
				c += " (given)"
			}
			cs = append(cs, c)
		}
		fmt.Fprintf(w, "invariant of the loop at %s:%s: %s\n", prog.File, at(l.Loop), strings.Join(cs, "; "))
	}
	if c := res.CTI; c != nil {
		fmt.Fprintf(w, "counterexample to induction: the clause %s at %s:%s\n", c.Clause, prog.File, at(c.At))
		fmt.Fprintf(w, "  pre-state:      %s (satisfies the invariant and the loop's condition)\n", report.InputText(c.Pre, names))
		fmt.Fprintf(w, "  post-state:     %s (after one iteration of the body: breaks the clause)\n", report.InputText(c.Post, names))
		if c.Reachable {
			fmt.Fprintf(w, "  reachable:      yes: the run of %s arrives at the loop's head with the pre-state\n", report.InputText(c.ReachInput, names))
		} else {
			fmt.Fprintf(w, "  reachable:      not found (%s)\n", c.Why)
		}
	}
	s := res.Stats
	fmt.Fprintf(w, "%s, %s (%s over-approximate), %s, %.2fs\n", report.Plural(s.States, "state"), report.Plural(s.Transitions, "invariant transition"),
		report.Plural(s.Over, "state"), report.Plural(s.Queries, "solver query"), s.Time.Seconds())
	for _, c := range cuts {
		fmt.Fprintf(w, "cut short: %s\n", c)
	}
}

func at(p syntax.Pos) string { return fmt.Sprintf("%d:%d", p.Line, p.Col) }

// found says how a refutation was found.
func found(b *prove.Bug) string {
	if b.Found == "search" {
		return "by the bug finder, after the proof failed"
	}
	return fmt.Sprintf("the counterexample of the %s claim, replayed from the program's start", b.Claim)
}

// Report is the JSON object of certsym prove --json.
type Report struct {
	Answer        string        `json:"answer"`
	Reason        string        `json:"reason,omitempty"`
	Invariants    []LoopJSON    `json:"invariants"`
	Bug           *BugJSON      `json:"bug,omitempty"`
	CTI           *CTIJSON      `json:"counterexample_to_induction,omitempty"`
	Unbounded     []PosJSON     `json:"loops_without_invariant_cut,omitempty"`
	States        int           `json:"states"`
	Transitions   int           `json:"transitions"`
	Over          int           `json:"over_approximate_states"`
	SolverQueries int           `json:"solver_queries"`
	Cut           []string      `json:"cut,omitempty"`
	Failures      []FailureJSON `json:"failures,omitempty"`
}

// PosJSON is a position.
type PosJSON struct {
	Line int `json:"line"`
	Col  int `json:"col"`
}

// LoopJSON is the invariant a loop was executed with.
type LoopJSON struct {
	PosJSON
	Clauses []ClauseJSON `json:"clauses"`
}

// ClauseJSON is one clause: its text and whether it was given beside the program.
type ClauseJSON struct {
	Text  string `json:"text"`
	Given bool   `json:"given,omitempty"`
}

// BugJSON is the refutation.
type BugJSON struct {
	PosJSON
	Kind      string                     `json:"kind"`
	Claim     string                     `json:"claim"`
	Found     string                     `json:"found"`
	Input     map[string]json.RawMessage `json:"input"`
	Steps     int                        `json:"steps"`
	Reproduce string                     `json:"reproduce"`
}

// CTIJSON is a counterexample to induction.
type CTIJSON struct {
	Loop       PosJSON                    `json:"loop"`
	Clause     string                     `json:"clause"`
	At         PosJSON                    `json:"at"`
	Pre        map[string]json.RawMessage `json:"pre"`
	Post       map[string]json.RawMessage `json:"post"`
	Reachable  bool                       `json:"reachable"`
	ReachInput map[string]json.RawMessage `json:"reach_input,omitempty"`
	Why        string                     `json:"why,omitempty"`
}

// FailureJSON is a claim the proof could not show.
type FailureJSON struct {
	PosJSON
	Kind   string `json:"kind"`
	Claim  string `json:"claim"`
	Over   bool   `json:"over_approximate"`
	Reason string `json:"reason"`
}

func pos(p syntax.Pos) PosJSON { return PosJSON{p.Line, p.Col} }

// JSON is the report of certsym prove --json.
func JSON(prog *syntax.Program, file string, res *prove.Result, cuts []string) Report {
	names := sym.SlotNames(prog)
	in := func(s spec.Store) map[string]json.RawMessage { return report.InputJSON(s, names) }
	r := Report{Answer: res.Answer.String(), Reason: res.Reason, Invariants: []LoopJSON{}, States: res.Stats.States,
		Transitions: res.Stats.Transitions, Over: res.Stats.Over, SolverQueries: res.Stats.Queries, Cut: cuts}
	for _, l := range res.Loops {
		lj := LoopJSON{PosJSON: pos(l.Loop)}
		for i, c := range l.Clauses {
			lj.Clauses = append(lj.Clauses, ClauseJSON{Text: c, Given: l.Given[i]})
		}
		r.Invariants = append(r.Invariants, lj)
	}
	if b := res.Bug; b != nil {
		r.Bug = &BugJSON{PosJSON: pos(b.Fail.Pos()), Kind: b.Fail.Kind.String(), Claim: b.Claim.String(), Found: b.Found,
			Input: in(b.Input), Steps: b.Steps, Reproduce: report.ReproduceInput(file, b.Input, names)}
	}
	if c := res.CTI; c != nil {
		r.CTI = &CTIJSON{Loop: pos(c.Loop), Clause: c.Clause, At: pos(c.At), Pre: in(c.Pre), Post: in(c.Post), Reachable: c.Reachable, Why: c.Why}
		if c.Reachable {
			r.CTI.ReachInput = in(c.ReachInput)
		}
	}
	for _, p := range res.Unbounded {
		r.Unbounded = append(r.Unbounded, pos(p))
	}
	for _, f := range res.Failures {
		r.Failures = append(r.Failures, FailureJSON{PosJSON: pos(f.Fail.Pos()), Kind: f.Fail.Kind.String(), Claim: f.Claim.String(), Over: f.Over, Reason: f.Reason})
	}
	return r
}

// bareLoop reports whether the program has a loop without invariant clauses.
func bareLoop(prog *syntax.Program) bool {
	for _, w := range infer.Loops(prog) {
		if len(w.Invariants) == 0 {
			return true
		}
	}
	return false
}
