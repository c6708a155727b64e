package verifyhtml

import (
	"fmt"
	"sort"
	"strings"

	"certsym/cmd/certsym/internal/report"
	"certsym/solver"
	"certsym/spec"
	"certsym/spec/syntax"
	"certsym/sym"
	"certsym/verify"
)

// Version is the version of the JSON report (certsym verify --json): 2 adds the primitive
// claims, the evidence of every collected result, the numbered paths and the summary by kind;
// 3 lists the first paths only (verify.Options.MaxPaths: certsym verify --paths, --all-paths),
// with the number of paths numbered (path_count) and each cut-off path's cutoff.
const Version = 3

// DefaultPaths is how many paths the reports list by default (certsym verify --paths): the paths
// after them are numbered and counted, but neither rendered nor tested (verify.Options.MaxPaths),
// so that the report of a program with very many paths stays short and its memory bounded.
const DefaultPaths = 100

// Doc is the report of certsym verify in the POGS style of xSymExe (Section VI): the developer
// claims, each with its overall status and one row per primitive claim, the summary by kind
// (explicit, implicit) with the totals, and the numbered paths as tests. It is the JSON output;
// the text and HTML outputs are rendered from it, so the three agree.
type Doc struct {
	Version         int         `json:"version"`
	Claims          []Claim     `json:"claims"`
	Overall         string      `json:"overall"`
	OverallToken    string      `json:"overall_token"`
	Reason          string      `json:"reason,omitempty"`
	Conclusive      int         `json:"conclusive"`
	Inconclusive    int         `json:"inconclusive"`
	LoopBound       int         `json:"loop_bound"`
	DepthBound      int         `json:"depth_bound"`
	Abstract        bool        `json:"abstract_nonlinear"`
	InvariantLoops  bool        `json:"invariant_loops,omitempty"` // verify --loops invariant
	Summary         []KindRow   `json:"summary"`
	Paths           []Path      `json:"paths"`      // the first of the paths numbered (verify.Options.MaxPaths)
	PathCount       int         `json:"path_count"` // how many paths were numbered
	Statements      int         `json:"statements"`
	Covered         int         `json:"covered"`
	UncoveredLines  []int       `json:"uncovered_lines"` // lines with a statement never executed (a macro call's: its expansion never entered)
	report.CodeJSON             // statement by statement: dead versus uncovered, macro calls, chops
	CoveredLines    []int       `json:"covered_lines"` // lines whose statements every one some explored path executed
	Cutoffs         []Cutoff    `json:"cutoffs"`
	Nonlinear       []Unhandled `json:"nonlinear,omitempty"`
	SolverQueries   int         `json:"solver_queries"`
	Results         [4]int      `json:"results"` // explored paths ending normal, error, infeasible, cut off
	ReplayErrors    []string    `json:"replay_errors,omitempty"`
	// Cut lists the phases after the exploration that an interrupt or the time or memory bound
	// cut short (the replay of the tests, the rendering of the report), with what each left out.
	Cut     []string `json:"cut,omitempty"`
	names   []string
	elapsed float64
	solver  solver.Stats
}

// Claim is a developer claim of the report.
type Claim struct {
	Line      int      `json:"line"`
	Column    int      `json:"column"`
	Kind      string   `json:"kind"`
	Explicit  bool     `json:"explicit"`
	Claim     string   `json:"claim"`
	Division  string   `json:"division,omitempty"`
	Status    string   `json:"status"`
	Token     string   `json:"token"`
	Collected []string `json:"collected"`
	Letters   string   `json:"letters"`
	// Explication cites the paths of each result ("Failing Path (0@8), Paths (1,2)").
	Explication string `json:"explication"`
	// The counterexample that goes with the status (REFUTED, FAULTY and their '?' forms).
	Counterexample     *report.Input     `json:"counterexample,omitempty"`
	CounterexampleText string            `json:"counterexample_text,omitempty"`
	PathCondition      string            `json:"path_condition,omitempty"`
	Replay             string            `json:"replay,omitempty"`
	Reproduce          string            `json:"reproduce,omitempty"` // REFUTED and FAULTY: the command that replays it
	Paths              int               `json:"paths"`
	Results            map[string]int    `json:"results"`
	FirstPaths         map[string]string `json:"first_paths,omitempty"`
	OverApproximation  []int             `json:"over_approximation,omitempty"`
	OverLoops          []int             `json:"over_loops,omitempty"` // verify --loops invariant: the loops run by their invariants on the paths of FALSE?/UNDEFINED?
	Cutoffs            []Cutoff          `json:"cutoffs,omitempty"`
	Unhandled          []Unhandled       `json:"unhandled,omitempty"`
	Evidence           []Evidence        `json:"evidence"`
	Primitives         []Prim            `json:"primitives"`
}

// Prim is one row of a developer claim's table: a primitive claim.
type Prim struct {
	Name        string     `json:"name"` // KIND@LINE
	Kind        string     `json:"kind"`
	Line        int        `json:"line"`
	Column      int        `json:"column"`
	Defining    bool       `json:"defining"`
	Quantified  bool       `json:"quantified,omitempty"`
	Claim       string     `json:"claim"`
	Status      string     `json:"status"`
	Token       string     `json:"token"`
	Collected   []string   `json:"collected"`
	Letters     string     `json:"letters"`
	Explication string     `json:"explication"`
	Evidence    []Evidence `json:"evidence"`
}

// Evidence is the explication of one collected result (verify.Evidence).
type Evidence struct {
	Result        string        `json:"result"`
	Count         int           `json:"count"`
	Paths         []int         `json:"paths"`
	Path          int           `json:"path"`
	Input         *report.Input `json:"input,omitempty"`
	InputText     string        `json:"input_text,omitempty"`
	PathCondition string        `json:"path_condition,omitempty"`
	Replay        string        `json:"replay,omitempty"`
	Over          []int         `json:"over_approximation,omitempty"`
	Unhandled     []Unhandled   `json:"unhandled,omitempty"`
}

// Path is a numbered path as a test: its input (pre-state) and the final store of its bounded
// concrete replay (post-state).
type Path struct {
	ID            int           `json:"id"`
	Line          int           `json:"line"`
	PathCondition string        `json:"path_condition"`
	Input         *report.Input `json:"input,omitempty"`
	InputText     string        `json:"input_text,omitempty"`
	Final         *report.Input `json:"final,omitempty"`
	FinalText     string        `json:"final_text,omitempty"`
	Ends          string        `json:"ends"`
	Lines         []int         `json:"lines,omitempty"`
	// CutAt and CutReason are, for the partial path of a cutoff point (Cutoff.Path), the cutoff's
	// line and reason: the exploration stopped the path there (its test, a concrete run, is not
	// bounded by the depth bound, and may go on).
	CutAt     int    `json:"cut_at,omitempty"`
	CutReason string `json:"cut_reason,omitempty"`
}

// Cutoff is a cutoff point; in a claim, with the control-flow chop to the claim.
type Cutoff struct {
	Line    int    `json:"line,omitempty"`
	Reason  string `json:"reason"`
	Paths   int    `json:"paths,omitempty"`
	Path    int    `json:"path"` // the partial path cut off there (Doc.Paths), -1 for none
	CFGPath []int  `json:"cfg_path,omitempty"`
}

// Unhandled is an unhandled-theory location.
type Unhandled struct {
	Line int    `json:"line"`
	What string `json:"what"`
}

// KindRow is a row of the summary by kind: the claims of the kind and how many have each status.
type KindRow struct {
	Kind     string         `json:"kind"` // explicit, implicit, total
	Total    int            `json:"total"`
	Statuses map[string]int `json:"statuses"`
}

// Tokens are the status tokens of Section VI, by status.
var Tokens = map[verify.Status]string{verify.StatusDead: "D", verify.StatusVerified: "V", verify.StatusRefuted: "R",
	verify.StatusFaulty: "F", verify.StatusRefutedQ: "R?", verify.StatusFaultyQ: "F?", verify.StatusUncovered: "U",
	verify.StatusVerifiedQ: "V?", verify.StatusIndeterminate: "I"}

// Letters are the letters of the collected results in the Col column.
var Letters = map[verify.Result]string{verify.ResTrue: "T", verify.ResFalse: "F", verify.ResUndefined: "U",
	verify.ResDontKnow: "D", verify.ResFalseQ: "F?", verify.ResUndefinedQ: "U?", verify.ResCutoff: "C"}

// LegendText explains the status tokens and the letters.
const LegendText = "S: D DEAD, V VERIFIED, R REFUTED, F FAULTY, R? REFUTED?, F? FAULTY?, U UNCOVERED, V? VERIFIED?, I INDETERMINATE. " +
	"Col: T TRUE, F FALSE, U UNDEFINED, D DONTKNOW, F? FALSE?, U? UNDEFINED?, C CUTOFF. " +
	"Explication: the ids of the paths each result was collected on (p@line: at the claim's line); the paths are listed as tests below."

// explicationOrder and explicationWords give the order and the words of the explication column.
var explicationOrder = []verify.Result{verify.ResFalse, verify.ResUndefined, verify.ResFalseQ, verify.ResUndefinedQ,
	verify.ResDontKnow, verify.ResTrue, verify.ResCutoff}

var explicationWords = map[verify.Result]string{verify.ResFalse: "Failing", verify.ResUndefined: "Undefined",
	verify.ResFalseQ: "Failing?", verify.ResUndefinedQ: "Undefined?", verify.ResDontKnow: "Unknown", verify.ResTrue: "", verify.ResCutoff: "Cutoff"}

// maxCited is the most path ids an explication cites per result.
const maxCited = 12

// explication is the Explication column of an outcome: for each result, the paths it was
// collected on ("Failing Path (0@68), Paths (1,2)").
func explication(o *verify.Outcome, line int) string {
	var parts []string
	for _, r := range explicationOrder {
		e := o.Evidence[r]
		if e == nil || len(e.Paths) == 0 {
			continue
		}
		var ids []string
		for i, p := range e.Paths {
			if i == maxCited {
				ids = append(ids, fmt.Sprintf("… %d more", len(e.Paths)-maxCited))
				break
			}
			if r == verify.ResTrue || r == verify.ResCutoff {
				ids = append(ids, fmt.Sprint(p))
			} else {
				ids = append(ids, fmt.Sprintf("%d@%d", p, line))
			}
		}
		word := strings.TrimSpace(explicationWords[r] + " " + report.Nouns(len(e.Paths), "Path"))
		parts = append(parts, fmt.Sprintf("%s (%s)", word, strings.Join(ids, ",")))
	}
	if len(parts) == 0 && o.Summary == 0 {
		return "no path reaches it"
	}
	return strings.Join(parts, ", ")
}

func collected(s verify.Summary) ([]string, string) {
	names, letters := []string{}, ""
	for _, r := range s.Results() {
		names = append(names, r.String())
		letters += Letters[r]
	}
	return names, letters
}

func (d *Doc) input(in spec.Store, prog *syntax.Program) (*report.Input, string) {
	if in == nil {
		return nil, ""
	}
	ci := report.ProgInput(prog, in)
	return &ci, report.InputText(in, d.names)
}

func (d *Doc) evidence(o *verify.Outcome, prog *syntax.Program) []Evidence {
	out := []Evidence{}
	for _, e := range o.Evidence {
		if e == nil {
			continue
		}
		je := Evidence{Result: e.Result.String(), Count: e.Count, Paths: append([]int{}, e.Paths...), Path: e.Path,
			PathCondition: e.PathCondition, Replay: e.Replay, Over: e.Over}
		je.Input, je.InputText = d.input(e.Input, prog)
		for _, u := range e.Unhandled {
			je.Unhandled = append(je.Unhandled, Unhandled{u.Line, u.What})
		}
		out = append(out, je)
	}
	return out
}

// Model builds the report of the verification of file.
func Model(file string, rep *verify.Report) Doc {
	return ModelWithin(file, rep, func() string { return "" })
}

// ModelWithin is Model for a run whose rendering phase may be cut short: due is asked before
// each numbered path is listed, and a reason (an interrupt, the time or memory bound) ends the
// list there, Doc.Cut saying how many paths are left out. The claims, their statuses and
// evidence, and the summary are always whole.
func ModelWithin(file string, rep *verify.Report, due func() string) Doc {
	d := Doc{Version: Version, Claims: []Claim{}, Overall: rep.Overall.String(), OverallToken: Tokens[rep.Overall],
		Reason: rep.Stopped, Conclusive: rep.Conclusive, Inconclusive: len(rep.Claims) - rep.Conclusive,
		LoopBound: rep.Opts.LoopBound, DepthBound: rep.Opts.DepthBound, Abstract: rep.Opts.AbstractNonlinear, InvariantLoops: rep.Opts.InvariantLoops,
		Paths: []Path{}, Statements: len(rep.Stmts), UncoveredLines: []int{}, Cutoffs: []Cutoff{},
		PathCount: rep.NumPaths, SolverQueries: rep.Solver.Queries, Results: rep.Results, ReplayErrors: rep.ReplayErrors,
		Cut: append([]string(nil), rep.Cuts...), names: sym.SlotNames(rep.Prog), elapsed: rep.Elapsed.Seconds(), solver: rep.Solver}
	prog := rep.Prog
	seen := map[int]bool{}
	for _, s := range rep.Stmts {
		if rep.Covered[s] {
			d.Covered++
		}
	}
	cov := report.CodeCoverage(rep)
	d.UncoveredLines, d.CodeJSON = cov.UncoveredLines(), cov.JSON()
	for _, l := range d.UncoveredLines {
		seen[l] = true
	}
	d.CoveredLines = []int{}
	for _, s := range rep.Stmts {
		if l := s.Pos().Line; !seen[l] {
			seen[l] = true
			d.CoveredLines = append(d.CoveredLines, l)
		}
	}
	sort.Ints(d.CoveredLines)
	for _, c := range rep.Cutoffs {
		d.Cutoffs = append(d.Cutoffs, Cutoff{Line: c.Line, Reason: c.Reason, Paths: c.Paths, Path: c.Path})
	}
	for _, u := range rep.Nonlinear {
		d.Nonlinear = append(d.Nonlinear, Unhandled{u.Line, u.What})
	}
	cutOf := map[int]*verify.Cutoff{}
	for _, c := range rep.Cutoffs {
		if c.Path >= 0 && cutOf[c.Path] == nil {
			cutOf[c.Path] = c
		}
	}
	for i, p := range rep.Paths {
		if r := due(); r != "" {
			d.Cut = append(d.Cut, fmt.Sprintf("%s: the rendering of the report: paths %d to %d not listed", r, i, len(rep.Paths)-1))
			break
		}
		jp := Path{ID: p.ID, Line: p.Line, PathCondition: p.PathCondition, Ends: p.Ends, Lines: p.Lines}
		if c := cutOf[p.ID]; c != nil {
			jp.CutAt, jp.CutReason = c.Line, c.Reason
		}
		jp.Input, jp.InputText = d.input(p.Input, prog)
		jp.Final, jp.FinalText = d.input(p.Final, prog)
		d.Paths = append(d.Paths, jp)
	}
	rows := map[string]*KindRow{}
	for _, k := range []string{"explicit", "implicit", "total"} {
		rows[k] = &KindRow{Kind: k, Statuses: map[string]int{}}
	}
	for _, cl := range rep.Claims {
		d.Claims = append(d.Claims, d.claim(file, cl, prog))
		kind := "implicit"
		if cl.Kind.Explicit() {
			kind = "explicit"
		}
		for _, k := range []string{kind, "total"} {
			rows[k].Total++
			rows[k].Statuses[cl.Status.String()]++
		}
	}
	d.Summary = []KindRow{*rows["explicit"], *rows["implicit"], *rows["total"]}
	return d
}

func (d *Doc) claim(file string, cl *verify.Claim, prog *syntax.Program) Claim {
	jc := Claim{Line: cl.Line, Column: cl.Col, Kind: cl.Kind.String(), Explicit: cl.Kind.Explicit(), Claim: cl.Text,
		Division: cl.Where, Status: cl.Status.String(), Token: Tokens[cl.Status], Explication: explication(&cl.Outcome, cl.Line),
		Paths: cl.Paths, Results: map[string]int{}, Evidence: d.evidence(&cl.Outcome, prog), Primitives: []Prim{}}
	jc.Collected, jc.Letters = collected(cl.Summary)
	for _, r := range cl.Summary.Results() {
		jc.Results[r.String()] = cl.Counts[r]
		if cl.Example[r] != "" {
			if jc.FirstPaths == nil {
				jc.FirstPaths = map[string]string{}
			}
			jc.FirstPaths[r.String()] = cl.Example[r]
		}
	}
	if w := cl.Counterexample(); w != nil {
		jc.Counterexample, jc.CounterexampleText = d.input(w.Input, prog)
		jc.PathCondition, jc.Replay = w.PathCondition, w.Replay
		if cl.Status == verify.StatusRefuted || cl.Status == verify.StatusFaulty {
			jc.Reproduce = report.ReproduceInput(file, w.Input, d.names)
		}
	}
	for _, a := range cl.OverApprox {
		jc.OverApproximation = append(jc.OverApproximation, a.Line())
	}
	for _, w := range cl.OverLoops {
		jc.OverLoops = append(jc.OverLoops, w.Line())
	}
	for _, c := range cl.Cutoffs {
		jc.Cutoffs = append(jc.Cutoffs, Cutoff{Line: c.Cutoff.Line, Reason: c.Cutoff.Reason, Paths: c.Cutoff.Paths, Path: c.Cutoff.Path, CFGPath: c.Path})
	}
	for _, u := range cl.Unhandled {
		jc.Unhandled = append(jc.Unhandled, Unhandled{u.Line, u.What})
	}
	for _, p := range cl.Prims {
		jp := Prim{Name: p.Name(), Kind: p.Kind.String(), Line: p.Line, Column: p.Col, Defining: p.Defining, Quantified: p.Quantified,
			Claim: p.Text, Status: p.Status.String(), Token: Tokens[p.Status], Explication: explication(&p.Outcome, p.Line),
			Evidence: d.evidence(&p.Outcome, prog)}
		jp.Collected, jp.Letters = collected(p.Summary)
		jc.Primitives = append(jc.Primitives, jp)
	}
	return jc
}
