// Package sarif writes the SARIF 2.1.0 logs (OASIS Static Analysis Results Interchange Format) of
// certsym run --sarif FILE (a result per confirmed bug) and certsym verify --sarif FILE (a result
// per claim). Its tests validate the logs against the standard's JSON schema (testdata/).
package sarif

import (
	"certsym/sym"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"

	"certsym/cmd/certsym/internal/outfile"
	"certsym/cmd/certsym/internal/report"
	"certsym/engine"
	"certsym/verify"
)

// Invocation is what a log says of the command that wrote it.
type Invocation struct {
	Version     string   // certsym's module version, the tool driver's version
	CommandLine []string // the command line: "certsym", the command, its arguments
	ExitCode    int      // the command's exit status
	Successful  bool     // whether the command did its work (false after a usage or internal error)
}

// Log is the SARIF log of one run of certsym: one SARIF run, for one program file.
type Log struct{ run sarifRun }

// WriteFile writes the log, indented JSON, to path.
func (l *Log) WriteFile(path string) error {
	return writeSARIF(path, l.run)
}

const sarifSchemaURI = "https://json.schemastore.org/sarif-2.1.0.json"

type sarifLog struct {
	Schema  string     `json:"$schema"`
	Version string     `json:"version"`
	Runs    []sarifRun `json:"runs"`
}

type sarifRun struct {
	Tool        sarifTool         `json:"tool"`
	Invocations []sarifInvocation `json:"invocations"`
	Artifacts   []sarifArtifact   `json:"artifacts"`
	Results     []sarifResult     `json:"results"`
}

type sarifTool struct {
	Driver sarifDriver `json:"driver"`
}

type sarifDriver struct {
	Name           string      `json:"name"`
	Version        string      `json:"version,omitempty"`
	InformationURI string      `json:"informationUri,omitempty"`
	Rules          []sarifRule `json:"rules"`
}

type sarifRule struct {
	ID               string       `json:"id"`
	Name             string       `json:"name"`
	ShortDescription sarifMessage `json:"shortDescription"`
	DefaultConfig    *sarifConfig `json:"defaultConfiguration,omitempty"`
}

type sarifConfig struct {
	Level string `json:"level"`
}

type sarifMessage struct {
	Text string `json:"text"`
}

type sarifInvocation struct {
	CommandLine         string              `json:"commandLine,omitempty"`
	ExecutionSuccessful bool                `json:"executionSuccessful"`
	ExitCode            int                 `json:"exitCode"`
	Notifications       []sarifNotification `json:"toolExecutionNotifications,omitempty"`
	Properties          map[string]any      `json:"properties,omitempty"`
}

type sarifNotification struct {
	Level   string       `json:"level"`
	Message sarifMessage `json:"message"`
}

type sarifArtifact struct {
	Location sarifArtifactLocation `json:"location"`
}

type sarifArtifactLocation struct {
	URI   string `json:"uri"`
	Index *int   `json:"index,omitempty"`
}

type sarifResult struct {
	RuleID     string          `json:"ruleId"`
	RuleIndex  int             `json:"ruleIndex"`
	Kind       string          `json:"kind"`
	Level      string          `json:"level"`
	Message    sarifMessage    `json:"message"`
	Locations  []sarifLocation `json:"locations"`
	Properties map[string]any  `json:"properties,omitempty"`
}

type sarifLocation struct {
	PhysicalLocation sarifPhysical `json:"physicalLocation"`
}

type sarifPhysical struct {
	ArtifactLocation sarifArtifactLocation `json:"artifactLocation"`
	Region           sarifRegion           `json:"region"`
}

type sarifRegion struct {
	StartLine   int `json:"startLine"`
	StartColumn int `json:"startColumn,omitempty"`
}

// sarifURI is the file as a relative URI reference (forward slashes), or a file: URI when it is
// absolute.
func sarifURI(file string) string {
	f := filepath.ToSlash(file)
	if filepath.IsAbs(file) {
		return "file://" + f
	}
	return strings.TrimPrefix(f, "./")
}

func newSarifRun(file string, rules []sarifRule, inv Invocation) sarifRun {
	return sarifRun{
		Tool: sarifTool{Driver: sarifDriver{Name: "certsym", Version: inv.Version, Rules: rules}},
		Invocations: []sarifInvocation{{CommandLine: strings.Join(inv.CommandLine, " "), ExecutionSuccessful: inv.Successful,
			ExitCode: inv.ExitCode}},
		Artifacts: []sarifArtifact{{Location: sarifArtifactLocation{URI: sarifURI(file)}}},
		Results:   []sarifResult{},
	}
}

func sarifLocAt(file string, line, col int) []sarifLocation {
	zero := 0
	return []sarifLocation{{PhysicalLocation: sarifPhysical{
		ArtifactLocation: sarifArtifactLocation{URI: sarifURI(file), Index: &zero},
		Region:           sarifRegion{StartLine: max(line, 1), StartColumn: col}}}}
}

func writeSARIF(path string, run sarifRun) error {
	b, err := json.MarshalIndent(sarifLog{Schema: sarifSchemaURI, Version: "2.1.0", Runs: []sarifRun{run}}, "", "  ")
	if err != nil {
		return err
	}
	// A temporary file in the same directory renamed over path: never a half-written log.
	return outfile.Write(path, append(b, '\n'))
}

// runRules are the rules of run's results: one per kind of error.
var runRules = []sarifRule{
	{ID: "assert", Name: "AssertionViolated", ShortDescription: sarifMessage{"An assert's condition is false on a reachable state."}},
	{ID: "division-by-zero", Name: "DivisionByZero", ShortDescription: sarifMessage{"A division or remainder by zero is reachable."}},
	{ID: "fail", Name: "FailReached", ShortDescription: sarifMessage{"A fail statement is reachable."}},
	{ID: "index-out-of-range", Name: "IndexOutOfRange", ShortDescription: sarifMessage{"An array element outside the array's bounds is read or written on a reachable state."}},
	{ID: "invariant", Name: "InvariantViolated", ShortDescription: sarifMessage{"A loop invariant is false at an arrival at the loop's head on a reachable state."}},
}

func ruleIndex(rules []sarifRule, id string) int {
	for i, r := range rules {
		if r.ID == id {
			return i
		}
	}
	return -1
}

// FromRun is the SARIF log of certsym run on file: each confirmed bug of rep is an error result at
// its statement, with its input, path condition, steps and reproducing command in its
// properties; names are the program's variables.
func FromRun(file string, inv Invocation, rep *engine.Report, names []string) *Log {
	run := newSarifRun(file, runRules, inv)
	ri := &run.Invocations[0]
	ri.Properties = map[string]any{"verdict": rep.Verdict.String(), "states": rep.Stats.Expanded,
		"solver_queries": rep.Stats.Solver.Queries}
	if rep.Reason != "" {
		ri.Properties["reason"] = rep.Reason
		ri.Notifications = []sarifNotification{{Level: "warning", Message: sarifMessage{"no verdict: " + rep.Reason}}}
	}
	for _, b := range rep.Bugs {
		p := b.Fail.Pos()
		run.Results = append(run.Results, sarifResult{
			RuleID: b.Kind(), RuleIndex: ruleIndex(runRules, b.Kind()), Kind: "fail", Level: "error",
			Message: sarifMessage{fmt.Sprintf("%s at %d:%d, on the input %s (replayed on the concrete semantics in %d steps)",
				report.DescribeFail(b.Fail), p.Line, p.Col, report.InputText(b.Input, names), b.Replay.Steps)},
			Locations: sarifLocAt(file, p.Line, p.Col),
			Properties: map[string]any{"input": report.InputJSON(b.Input, names),
				"pathCondition": b.State.PC.String(names), "steps": b.Replay.Steps,
				"reproduce": report.ReproduceCommand(file, b, names)},
		})
	}
	return &Log{run}
}

// verifyRules are the rules of verify's results: one per kind of claim.
var verifyRules = []sarifRule{
	{ID: "claim-assert", Name: "AssertClaim", ShortDescription: sarifMessage{"The condition of an assert holds on every input."}},
	{ID: "claim-division", Name: "DivisionClaim", ShortDescription: sarifMessage{"A divisor is never zero."}},
	{ID: "claim-index", Name: "IndexClaim", ShortDescription: sarifMessage{"An array index is within the array's bounds."}},
	{ID: "claim-invariant", Name: "InvariantClaim", ShortDescription: sarifMessage{"A loop invariant holds at every arrival at the loop's head."}},
}

// claimRule is the rule of verify's results for claims of kind k.
func claimRule(k verify.ClaimKind) string {
	switch k {
	case verify.ClaimAssert:
		return "claim-assert"
	case verify.ClaimDivision:
		return "claim-division"
	case verify.ClaimIndex:
		return "claim-index"
	case verify.ClaimInvariant:
		return "claim-invariant"
	}
	panic(fmt.Sprintf("sarif: no rule for claims of kind %d", k))
}

// verifySARIFLevel maps a claim status to a SARIF kind and level, and says whether the claim is a
// result at all. REFUTED and FAULTY are errors (kind fail): a replayed input violates the claim.
// REFUTED? and FAULTY? are warnings (kind fail): a counterexample on an over-approximated path,
// which did not replay. The inconclusive VERIFIED?, UNCOVERED and INDETERMINATE are left open
// (kind open), and SARIF 2.1.0 (§3.27.10) requires the level none of every kind but fail.
// VERIFIED and DEAD are proofs, not findings: they are no results (a code-scanning service that
// reads no kind would show a result of kind pass as an alert); the invocation counts them.
func verifySARIFLevel(s verify.Status) (kind, level string, result bool) {
	switch s {
	case verify.StatusRefuted, verify.StatusFaulty:
		return "fail", "error", true
	case verify.StatusRefutedQ, verify.StatusFaultyQ:
		return "fail", "warning", true
	case verify.StatusVerified, verify.StatusDead:
		return "", "", false
	case verify.StatusVerifiedQ, verify.StatusUncovered, verify.StatusIndeterminate:
		return "open", "none", true
	}
	panic(fmt.Sprintf("sarif: no kind for the claim status %v", s))
}

// FromVerify is the SARIF log of certsym verify on file: one result per claim of rep.
func FromVerify(file string, inv Invocation, rep *verify.Report) *Log {
	run := newSarifRun(file, verifyRules, inv)
	names := sym.SlotNames(rep.Prog)
	statuses := map[string]int{}
	run.Invocations[0].Properties = map[string]any{"overall": rep.Overall.String(), "loop_bound": rep.Opts.LoopBound,
		"depth_bound": rep.Opts.DepthBound, "solver_queries": rep.Solver.Queries, "claims": statuses}
	for _, cl := range rep.Claims {
		statuses[cl.Status.String()]++
		id := claimRule(cl.Kind)
		kind, level, result := verifySARIFLevel(cl.Status)
		if !result {
			continue
		}
		line, col := cl.Line, cl.Col
		msg := fmt.Sprintf("%s: the claim %s at line %d", cl.Status, cl.Text, cl.Line)
		if cl.Where != "" {
			msg += " (" + cl.Where + ")"
		}
		props := map[string]any{"status": cl.Status.String(), "claim": cl.Text, "collected": cl.Summary.String(), "paths": cl.Paths}
		if w := cl.Counterexample(); w != nil {
			msg += ", counterexample " + report.InputText(w.Input, names)
			props["input"] = report.InputJSON(w.Input, names)
			props["pathCondition"] = w.PathCondition
			if w.Replay != "" {
				props["replay"] = w.Replay
			}
			if cl.Status == verify.StatusRefuted || cl.Status == verify.StatusFaulty { // replayed: the input reaches the error
				props["reproduce"] = report.ReproduceInput(file, w.Input, names)
			}
		}
		run.Results = append(run.Results, sarifResult{RuleID: id, RuleIndex: ruleIndex(verifyRules, id), Kind: kind, Level: level,
			Message: sarifMessage{msg}, Locations: sarifLocAt(file, line, col), Properties: props})
	}
	return &Log{run}
}
