// Package shard is the JSON report of a sharded run (certsym run --shard I/N --json) and its
// merge (certsym merge): the verdict of the whole run from the reports of its N shards.
package shard

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
	"sort"
	"strings"

	"certsym/cmd/certsym/internal/flags"
	"certsym/cmd/certsym/internal/report"
	"certsym/engine"
)

// Bug is one bug of a shard report: the fields of run --json's bugs, and its breadth-first
// position.
type Bug struct {
	Line          int                        `json:"line"`
	Column        int                        `json:"column"`
	Kind          string                     `json:"kind"`
	PathCondition string                     `json:"path_condition"`
	Input         map[string]json.RawMessage `json:"input"` // a number, or a list for an array
	Store         string                     `json:"store"`
	Steps         int                        `json:"steps,omitempty"`
	Reproduce     string                     `json:"reproduce"`
	Position      Position                   `json:"position"`
}

// Position is a bug's breadth-first position (engine.Position, its path as digits) and the id
// of its error (engine.FailIDs).
type Position struct {
	Depth int    `json:"depth"`
	Path  string `json:"path"`
	Seq   int    `json:"seq"`
	Fail  int    `json:"fail"`
}

// NewPosition is p of the error fail.
func NewPosition(p engine.Position, fail int) Position {
	return Position{Depth: p.Depth, Path: p.PathString(), Seq: p.Seq, Fail: fail}
}

func (p Position) engine() engine.Position {
	b := []byte(p.Path)
	for i := range b {
		b[i] -= '0'
	}
	return engine.Position{Depth: p.Depth, Path: b, Seq: p.Seq}
}

// Info says which shard a report is and what the merge checks.
type Info struct {
	Index         int    `json:"index"`
	Count         int    `json:"count"`
	Level         int    `json:"level"`
	Program       string `json:"program"`
	ProgramSHA256 string `json:"program_sha256"`
	// Options are the options that change the answer, as one string: the shards of one run
	// share them.
	Options string `json:"options"`
	AllBugs bool   `json:"all_bugs"`
	// Finished: the shard's exploration ended without a bound (it may have stopped at its first
	// bug).
	Finished bool `json:"finished"`
	// Dropped: successors left to the other shards; Shared: states expanded above the split
	// (by every shard).
	Dropped int `json:"dropped"`
	Shared  int `json:"shared"`
}

// Report is run --shard --json's object: run --json's fields, each bug with its position, and
// the shard.
type Report struct {
	Verdict       string          `json:"verdict"`
	States        int             `json:"states"`
	Bugs          []Bug           `json:"bugs"`
	Reason        string          `json:"reason,omitempty"`
	SolverQueries int             `json:"solver_queries"`
	Coverage      json.RawMessage `json:"coverage,omitempty"`
	Shard         Info            `json:"shard"`

	file string
}

// Read reads one run --shard --json report.
func Read(file string) (*Report, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	dec.DisallowUnknownFields()
	var r Report
	if err := dec.Decode(&r); err != nil {
		return nil, fmt.Errorf("%s: not a report of certsym run --shard --json: %v", file, err)
	}
	if r.Shard.Count < 1 {
		return nil, fmt.Errorf("%s: not a report of certsym run --shard --json (no \"shard\" object)", file)
	}
	switch r.Verdict {
	case "bug", "safe", "unknown":
	default:
		return nil, fmt.Errorf("%s: unknown verdict %q", file, r.Verdict)
	}
	r.file = file
	return &r, nil
}

// Line is one shard's line in the merged report.
type Line struct {
	Index         int    `json:"index"`
	File          string `json:"file"`
	Verdict       string `json:"verdict"`
	Reason        string `json:"reason,omitempty"`
	States        int    `json:"states"`
	SolverQueries int    `json:"solver_queries"`
	Bugs          int    `json:"bugs"`
	Finished      bool   `json:"finished"`
}

// Merged is certsym merge's report (its --json object): run's fields for the whole run, and the
// shards.
type Merged struct {
	Verdict       string `json:"verdict"`
	States        int    `json:"states"`
	Bugs          []Bug  `json:"bugs"`
	Reason        string `json:"reason,omitempty"`
	SolverQueries int    `json:"solver_queries"`
	Program       string `json:"program"`
	Count         int    `json:"count"`
	Shards        []Line `json:"shards"`
}

// Merge combines the reports of the N shards of one run. It refuses (an error) reports that are
// not all N shards of one run: a shard missing or given twice, another program (its hash) or
// other options. The verdict is bug if a shard found a bug (the bugs in breadth-first order,
// each error once, as the first shard to reach it in that order reported it; without
// --all-bugs only the first), safe if every shard finished safe, unknown otherwise, the reason
// naming the shards that did not finish.
func Merge(rs []*Report) (*Merged, error) {
	if len(rs) == 0 {
		return nil, errors.New("no shard report given")
	}
	first := rs[0]
	n := first.Shard.Count
	byIndex := make([]*Report, n)
	for _, r := range rs {
		s := r.Shard
		switch {
		case s.Count != n:
			return nil, fmt.Errorf("%s is shard %d/%d, %s is shard %d/%d: not shards of one run", first.file, first.Shard.Index, n, r.file, s.Index, s.Count)
		case s.ProgramSHA256 != first.Shard.ProgramSHA256:
			return nil, fmt.Errorf("%s and %s are reports on different programs (%s, sha256 %.12s; %s, sha256 %.12s)", first.file, r.file,
				first.Shard.Program, first.Shard.ProgramSHA256, s.Program, s.ProgramSHA256)
		case s.Options != first.Shard.Options || s.Level != first.Shard.Level || s.AllBugs != first.Shard.AllBugs:
			return nil, fmt.Errorf("%s and %s were run with different options:\n  %s\n  %s", first.file, r.file, first.Shard.Options, s.Options)
		case s.Index < 0 || s.Index >= n:
			return nil, fmt.Errorf("%s: shard index %d out of 0..%d", r.file, s.Index, n-1)
		case byIndex[s.Index] != nil:
			return nil, fmt.Errorf("shard %d/%d is given twice: %s and %s", s.Index, n, byIndex[s.Index].file, r.file)
		}
		byIndex[s.Index] = r
	}
	var missing []string
	for i, r := range byIndex {
		if r == nil {
			missing = append(missing, fmt.Sprintf("%d/%d", i, n))
		}
	}
	if len(missing) > 0 {
		return nil, fmt.Errorf("shard report missing: %s (a merge needs all %d shards of the run)", strings.Join(missing, ", "), n)
	}
	m := &Merged{Bugs: []Bug{}, Program: first.Shard.Program, Count: n}
	type found struct {
		b     Bug
		shard int
	}
	var bugs []found
	var unfinished []string
	anyBug := false
	for _, r := range byIndex {
		m.States += r.States
		m.SolverQueries += r.SolverQueries
		m.Shards = append(m.Shards, Line{Index: r.Shard.Index, File: r.file, Verdict: r.Verdict, Reason: r.Reason,
			States: r.States, SolverQueries: r.SolverQueries, Bugs: len(r.Bugs), Finished: r.Shard.Finished})
		for _, b := range r.Bugs {
			bugs = append(bugs, found{b, r.Shard.Index})
		}
		anyBug = anyBug || r.Verdict == "bug"
		if !r.Shard.Finished || r.Verdict == "unknown" || r.Reason != "" {
			why := r.Reason
			if why == "" {
				why = "did not finish"
			}
			unfinished = append(unfinished, fmt.Sprintf("shard %d/%d (%s)", r.Shard.Index, n, why))
		}
	}
	sort.SliceStable(bugs, func(i, j int) bool {
		return engine.ComparePositions(bugs[i].b.Position.engine(), bugs[i].shard, bugs[j].b.Position.engine(), bugs[j].shard) < 0
	})
	seen := map[int]bool{}
	for _, f := range bugs {
		if seen[f.b.Position.Fail] {
			continue // the error was reached earlier in breadth-first order, in another shard
		}
		seen[f.b.Position.Fail] = true
		m.Bugs = append(m.Bugs, f.b)
		if !first.Shard.AllBugs {
			break
		}
	}
	switch {
	case anyBug:
		m.Verdict = "bug"
		if first.Shard.AllBugs && len(unfinished) > 0 {
			m.Reason = "shards that did not finish: " + strings.Join(unfinished, "; ")
		}
	case len(unfinished) == 0:
		m.Verdict = "safe"
	default:
		m.Verdict = "unknown"
		m.Reason = "shards that did not finish: " + strings.Join(unfinished, "; ")
	}
	return m, nil
}

var describe = map[string]string{"assert": "assertion violated", "division-by-zero": "division by zero", "fail": "fail reached",
	"index-out-of-range": "index out of range", "invariant": "loop invariant violated"}

// WriteText prints the merged report as run prints its own: each bug, the verdict, the
// counters, and a line per shard.
func (m *Merged) WriteText(w io.Writer) {
	for _, b := range m.Bugs {
		fmt.Fprintf(w, "BUG: %s at %s:%d:%d\n", describe[b.Kind], m.Program, b.Line, b.Column)
		fmt.Fprintf(w, "  path condition: %s\n", report.Abbrev(b.PathCondition, " and ", "conjunct", false))
		fmt.Fprintf(w, "  input:          %s\n", inputText(b.Input))
		fmt.Fprintf(w, "  symbolic store: %s\n", report.Abbrev(b.Store, ", ", "variable", false))
		fmt.Fprintf(w, "  confirmed:      the concrete run of this input reaches the error after %s\n", report.Plural(b.Steps, "step"))
		fmt.Fprintf(w, "  reproduce:      %s\n", b.Reproduce)
	}
	fmt.Fprintf(w, "verdict: %s", m.Verdict)
	switch {
	case m.Verdict == "safe":
		fmt.Fprint(w, " (every shard finished: no error state is reachable)")
	case m.Verdict == "bug" && m.Reason != "":
		fmt.Fprintf(w, " (%s; the list of bugs may be incomplete: %s)", report.Plural(len(m.Bugs), "bug"), m.Reason)
	case m.Reason != "":
		fmt.Fprintf(w, " (%s)", m.Reason)
	}
	fmt.Fprintf(w, "\n%d shards, %s expanded, %s\n", m.Count, report.Plural(m.States, "state"), report.Plural(m.SolverQueries, "solver query"))
	for _, s := range m.Shards {
		fmt.Fprintf(w, "  shard %d/%d: %s, %s, %s (%s)\n", s.Index, m.Count, s.Verdict, report.Plural(s.States, "state"), report.Plural(s.Bugs, "bug"), s.File)
	}
}

// inputText is a JSON input as x=3, y=-2, a=[5, 0, 7], the names sorted.
func inputText(in map[string]json.RawMessage) string {
	names := make([]string, 0, len(in))
	for k := range in {
		names = append(names, k)
	}
	sort.Strings(names)
	var parts []string
	for _, k := range names {
		v := string(in[k])
		var elems []json.Number
		if json.Unmarshal(in[k], &elems) == nil {
			strs := make([]string, len(elems))
			for i, e := range elems {
				strs[i] = string(e)
			}
			v = "[" + strings.Join(strs, ", ") + "]"
		}
		parts = append(parts, k+"="+v)
	}
	return strings.Join(parts, ", ")
}

// Flags are run's --shard and --shard-level, and what a sharded run records for its report.
type Flags struct {
	spec  *string
	level *int
	shard engine.Shard
	eng   *engine.Engine
	// positions and failIDs of the bugs reported so far, in report order.
	positions []engine.Position
	failIDs   []int
}

// AddFlags defines --shard and --shard-level on fs.
func AddFlags(fs *flag.FlagSet) *Flags {
	return &Flags{
		spec: fs.String("shard", "", "explore only shard `I/N` of a partition of the execution tree (bfs only; combine the N reports with certsym merge)"),
		level: fs.Int("shard-level", 0,
			"with --shard: the number of branchings above the split (default: the least with at least 8N subtrees)"),
	}
}

// Setup reads the flags (set: the names of those given) into opts; ok is false after a usage
// error (reported on stderr).
func (sf *Flags) Setup(set map[string]bool, opts *engine.Options, stderr io.Writer) bool {
	switch {
	case set["shard-level"] && !set["shard"]:
		fmt.Fprintf(stderr, "certsym run: --shard-level applies with --shard only\n")
		return false
	case !set["shard"]:
		return true
	case set["loop-bound"]:
		fmt.Fprintf(stderr, "certsym run: --shard does not apply with --loop-bound (it partitions the bug finder's breadth-first search)\n")
		return false
	}
	s, err := engine.ParseShard(*sf.spec)
	if err != nil {
		fmt.Fprintf(stderr, "certsym run: --shard: %v\n", err)
		return false
	}
	s.Level = *sf.level
	opts.Shard = s.Resolved()
	if err := opts.Validate(); err != nil {
		fmt.Fprintf(stderr, "certsym run: --shard: %v\n", err)
		return false
	}
	sf.shard = opts.Shard
	return true
}

// On reports whether the run is sharded.
func (sf *Flags) On() bool { return sf.shard.Enabled() }

// Wrap returns onBug recording each bug's breadth-first position and error id, for Report.
func (sf *Flags) Wrap(eng *engine.Engine, onBug func(*engine.Bug)) func(*engine.Bug) {
	if !sf.On() {
		return onBug
	}
	sf.eng = eng
	ids := engine.FailIDs(eng.Prog)
	return func(b *engine.Bug) {
		p, ok := eng.ShardPosition(b.State)
		if !ok {
			panic("run --shard: a bug without its breadth-first position")
		}
		sf.positions = append(sf.positions, p)
		sf.failIDs = append(sf.failIDs, ids[b.Fail])
		onBug(b)
	}
}

// optionsKey is the options of a run that a merge requires the shards to share, as one string.
func optionsKey(opts engine.Options) string {
	return fmt.Sprintf("strategy=%v max-states=%d timeout=%v max-memory=%d query-timeout=%v rlimit=%d no-prune=%v all-bugs=%v level=%d",
		opts.Strategy, opts.MaxStates, opts.Timeout, opts.MaxMemory>>20, opts.QueryTimeout, opts.RLimit, opts.NoPrune, opts.AllBugs, opts.Shard.Level)
}

// Report returns run --shard --json's object: run's JSON object out (read back through its
// encoding, whose fields Report shares), each bug with its position, and the shard's Info; out
// itself when the run is not sharded.
func (sf *Flags) Report(out any, rep *engine.Report, opts engine.Options, file string, src []byte) any {
	if !sf.On() {
		return out
	}
	data, err := json.Marshal(out)
	if err != nil {
		panic(err)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var r Report
	if err := dec.Decode(&r); err != nil {
		panic(err)
	}
	if len(r.Bugs) != len(sf.positions) {
		panic(fmt.Sprintf("run --shard: %d bugs, %d positions", len(r.Bugs), len(sf.positions)))
	}
	for i := range r.Bugs {
		r.Bugs[i].Position = NewPosition(sf.positions[i], sf.failIDs[i])
	}
	sum := sha256.Sum256(src)
	r.Shard = Info{Index: sf.shard.Index, Count: sf.shard.Count, Level: sf.shard.Level, Program: file,
		ProgramSHA256: hex.EncodeToString(sum[:]), Options: optionsKey(opts), AllBugs: opts.AllBugs,
		Finished: sf.eng.Stopped() == "" && rep.Verdict != engine.VerdictUnknown}
	r.Shard.Dropped, r.Shard.Shared = sf.eng.ShardCounts()
	return &r
}

// Text prints the line run --shard adds to its text report (nothing when not sharded).
func (sf *Flags) Text(w io.Writer) {
	if !sf.On() {
		return
	}
	dropped, shared := sf.eng.ShardCounts()
	fmt.Fprintf(w, "shard %v (split below %d branchings): %d states above the split (every shard expands them), %d successors left to the other shards\n",
		sf.shard, sf.shard.Level, shared, dropped)
}

// Command is certsym merge: it reads the shard reports named in args (flags: --json) and
// prints the merged report. It returns the merged verdict, or "" after a usage error or an
// unreadable or refused report (said on stderr), or "help" after -h.
func Command(args []string, stdout, stderr io.Writer) string {
	fs := flag.NewFlagSet("merge", flag.ContinueOnError)
	asJSON := fs.Bool("json", false, "print one JSON object on stdout")
	files, err := flags.Parse(fs, args, stderr)
	if errors.Is(err, flag.ErrHelp) {
		return "help"
	} else if err != nil {
		return ""
	}
	if len(files) == 0 {
		fmt.Fprintf(stderr, "certsym merge: expected the JSON reports of certsym run --shard I/N --json, found no FILE\n")
		return ""
	}
	var rs []*Report
	for _, f := range files {
		r, err := Read(f)
		if err != nil {
			fmt.Fprintf(stderr, "certsym merge: %v\n", err)
			return ""
		}
		rs = append(rs, r)
	}
	m, err := Merge(rs)
	if err != nil {
		fmt.Fprintf(stderr, "certsym merge: %v\n", err)
		return ""
	}
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		enc.SetEscapeHTML(false)
		if err := enc.Encode(m); err != nil {
			fmt.Fprintf(stderr, "certsym merge: %v\n", err)
			return ""
		}
	} else {
		m.WriteText(stdout)
	}
	return m.Verdict
}
