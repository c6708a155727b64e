// Command compare-strategies runs the search strategies on every buggy program of testdata/
// (`# expect: bug` in the header, internal/expect) and on the PyWiSE programs beside the
// repository, and prints, per program and strategy, the states expanded up to the first bug
// (the generational search: concrete steps executed), the time, and whether the bug was found;
// then a summary: the median ratio best fair strategy / BFS over the case studies (the mutants
// of testdata and the PyWiSE buggy programs), the worst ratio of each strategy, and the bugs
// each missed that BFS found. Each run has a state bound and a time bound; only the times vary
// from one run to the next (-times=false leaves them out).
//
// Usage (make compare-strategies): go run ./scripts/compare-strategies [-max-states N]
// [-timeout D] [-seed S] [-pywise DIR] [-times=false] [-match REGEXP]
package main

import (
	"flag"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"text/tabwriter"
	"time"

	"certsym/engine"
	"certsym/internal/budget"
	"certsym/internal/expect"
	"certsym/spec/syntax"
	"certsym/spec/syntax/parser"
)

// result is one run of one strategy on one program.
type result struct {
	states int
	took   time.Duration
	found  bool
	note   string // why there is no result ("n/a"), or ""
	depth  int    // the depth of the bug found
	// timedOut: the time bound stopped the run (its state count then varies between runs).
	timedOut bool
}

var strategies = []string{"bfs", "dfs", "coverage", "random-path", "generational"}

// fair are the fair strategies the summary takes the best of.
var fair = []string{"coverage", "random-path"}

func main() {
	maxStates := flag.Int("max-states", 200_000, "state bound of each run")
	timeout := flag.Duration("timeout", 60*time.Second, "time bound of each run")
	seed := flag.Int64("seed", 1, "seed of random-path")
	pywise := flag.String("pywise", findPyWiSE(), "the PyWiSE corpus (its *_buggy.imp programs are case studies)")
	times := flag.Bool("times", true, "print the times (the only part of the output that varies between runs)")
	match := flag.String("match", "", "only the programs whose path matches this regular expression")
	flag.Parse()
	re := regexp.MustCompile(*match)

	progs, err := programs(*pywise)
	if err != nil {
		fmt.Fprintln(os.Stderr, "compare-strategies:", err)
		os.Exit(2)
	}
	lim := budget.Limits{MaxStates: *maxStates, Timeout: *timeout, MaxMemory: 3 << 30}
	fmt.Printf("compare-strategies: state bound %d, time bound %v, random-path seed %d, fairness period K=%d\n\n",
		*maxStates, *timeout, *seed, engine.FairnessPeriod)
	tw := tabwriter.NewWriter(os.Stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Println("A cell is STATES@DEPTH: the states expanded (generational: concrete steps) up to the first bug and the")
	fmt.Println("depth of that bug; (STATES) miss: no bug within the bounds. min is BFS's bug depth + 1: BFS finds a")
	fmt.Println("shallowest bug, and reaching a bug at depth d expands at least d+1 states, so no strategy needs fewer.")
	fmt.Println("(time) miss: the time bound stopped the run before any bug. Generational counts concrete steps, so")
	fmt.Println("its count may be below min (one concrete run of d steps reaches a bug at depth d).")
	fmt.Println()
	head := "program\tmin\t"
	for _, s := range strategies {
		head += s + "\t"
		if *times {
			head += "time\t"
		}
	}
	fmt.Fprintln(tw, head)
	table := map[string]map[string]result{}
	var names []string
	for _, p := range progs {
		if !re.MatchString(p.path) {
			continue
		}
		prog, err := parser.ParseFile(p.path)
		if err != nil {
			fmt.Fprintln(os.Stderr, "compare-strategies:", err)
			os.Exit(2)
		}
		row := map[string]result{}
		var cells string
		for _, s := range strategies {
			r := run(prog, s, lim, *seed)
			row[s] = r
			cells += cell(r) + "\t"
			if *times {
				cells += timeCell(r) + "\t"
			}
		}
		min := "-"
		if b := row["bfs"]; b.found {
			min = fmt.Sprint(b.depth + 1)
		}
		table[p.name] = row
		names = append(names, p.name)
		fmt.Fprintln(tw, p.name+"\t"+min+"\t"+cells)
		fmt.Fprintf(os.Stderr, "compare-strategies: %s done\n", p.name)
	}
	tw.Flush()
	summary(progs, names, table)
}

// findPyWiSE is the first shared/corpus/pywise found going up from the working directory.
func findPyWiSE() string {
	dir, _ := os.Getwd()
	for d := dir; ; d = filepath.Dir(d) {
		p := filepath.Join(d, "shared", "corpus", "pywise")
		if st, err := os.Stat(p); err == nil && st.IsDir() {
			return p
		}
		if filepath.Dir(d) == d {
			return filepath.Join("..", "shared", "corpus", "pywise")
		}
	}
}

// prog is one program of the comparison.
type prog struct {
	path, name string
	caseStudy  bool
}

// programs lists the buggy programs of testdata and the PyWiSE corpus's programs.
func programs(pywise string) ([]prog, error) {
	files, err := filepath.Glob("testdata/*.imp")
	if err != nil {
		return nil, err
	}
	sort.Strings(files)
	var out []prog
	for _, f := range files {
		x, err := expect.Read(f)
		if err != nil {
			return nil, err
		}
		if x.Verdict != "bug" {
			continue
		}
		out = append(out, prog{path: f, name: strings.TrimSuffix(filepath.Base(f), ".imp"), caseStudy: strings.Contains(f, "mutant")})
	}
	py, _ := filepath.Glob(filepath.Join(pywise, "*_buggy.imp"))
	if len(py) == 0 {
		fmt.Fprintf(os.Stderr, "compare-strategies: no PyWiSE buggy programs in %s (left out)\n", pywise)
	}
	sort.Strings(py)
	for _, f := range py {
		out = append(out, prog{path: f, name: "pywise/" + strings.TrimSuffix(filepath.Base(f), ".imp"), caseStudy: true})
	}
	return out, nil
}

// run runs one strategy to the first bug.
func run(p *syntax.Program, strategy string, lim budget.Limits, seed int64) result {
	if strategy == "generational" {
		return generational(p, lim)
	}
	s, err := engine.ParseStrategy(strategy)
	if err != nil {
		panic(err)
	}
	start := time.Now()
	e := engine.New(p, engine.Options{Strategy: s, Limits: lim, Seed: seed})
	rep, err := e.FindBugs(nil)
	return resultOf(rep, err, start)
}

// resultOf is the row cell of a run that started at start and ended with rep or err.
func resultOf(rep *engine.Report, err error, start time.Time) result {
	if err != nil {
		return result{note: "error: " + err.Error()}
	}
	r := result{states: rep.Stats.Expanded, took: time.Since(start), found: rep.Verdict == engine.VerdictBug,
		timedOut: strings.HasPrefix(rep.Reason, "time bound")}
	if r.found {
		r.depth = rep.Bugs[0].State.Depth
	}
	return r
}

func cell(r result) string {
	switch {
	case r.note != "":
		return r.note
	case r.found:
		return fmt.Sprintf("%d@%d", r.states, r.depth)
	case r.timedOut:
		return "(time) miss"
	}
	return fmt.Sprintf("(%d) miss", r.states)
}

func timeCell(r result) string {
	if r.note != "" {
		return "-"
	}
	return fmt.Sprintf("%.2fs", r.took.Seconds())
}

// ratio is states(s)/states(bfs) on a program where both found the bug, or +Inf when s missed
// a bug BFS found, NaN when BFS found none.
func ratio(row map[string]result, s string) float64 {
	b, r := row["bfs"], row[s]
	switch {
	case !b.found || b.note != "" || r.note != "":
		return math.NaN()
	case !r.found:
		return math.Inf(1)
	}
	return float64(r.states) / float64(b.states)
}

func summary(progs []prog, names []string, table map[string]map[string]result) {
	cs := map[string]bool{}
	for _, p := range progs {
		cs[p.name] = p.caseStudy
	}
	fmt.Println()
	fmt.Println("summary (ratio: states to the first bug over BFS's; best fair: the better of coverage and random-path on each program)")
	var best []float64
	for _, n := range names {
		if !cs[n] {
			continue
		}
		b := math.Inf(1)
		for _, s := range fair {
			if r := ratio(table[n], s); !math.IsNaN(r) && r < b {
				b = r
			}
		}
		if !math.IsNaN(ratio(table[n], "bfs")) {
			best = append(best, b)
		}
	}
	var low []float64
	for _, n := range names {
		if b := table[n]["bfs"]; cs[n] && b.found {
			low = append(low, float64(b.depth+1)/float64(b.states))
		}
	}
	fmt.Printf("  case studies (%d): median ratio best-fair/BFS %s; the least possible, median min/BFS: %s\n", len(best), fmtRatio(median(best)), fmtRatio(median(low)))
	for _, s := range strategies[1:] {
		var rs []float64
		for _, n := range names {
			if r := ratio(table[n], s); cs[n] && !math.IsNaN(r) {
				rs = append(rs, r)
			}
		}
		if len(rs) > 0 {
			fmt.Printf("  case studies: median ratio %s/BFS %s\n", s, fmtRatio(median(rs)))
		}
	}
	for _, s := range strategies[1:] {
		worst, at := math.NaN(), ""
		var missed []string
		na := 0
		for _, n := range names {
			r := ratio(table[n], s)
			if table[n][s].note != "" {
				na++
			}
			if math.IsNaN(r) {
				continue
			}
			if math.IsInf(r, 1) {
				missed = append(missed, n)
			}
			if math.IsNaN(worst) || r > worst {
				worst, at = r, n
			}
		}
		if na == len(names) {
			fmt.Printf("  %-12s not run (%s)\n", s, table[names[0]][s].note)
			continue
		}
		m := "none"
		if len(missed) > 0 {
			m = strings.Join(missed, ", ")
		}
		fmt.Printf("  %-12s worst ratio %s (%s); bugs BFS finds that it misses: %s\n", s, fmtRatio(worst), at, m)
	}
	var bfsMissed []string
	for _, n := range names {
		if !table[n]["bfs"].found {
			bfsMissed = append(bfsMissed, n)
		}
	}
	if len(bfsMissed) > 0 {
		fmt.Printf("  bfs misses within the bounds: %s\n", strings.Join(bfsMissed, ", "))
	}
}

func median(xs []float64) float64 {
	if len(xs) == 0 {
		return math.NaN()
	}
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

func fmtRatio(r float64) string {
	switch {
	case math.IsNaN(r):
		return "-"
	case math.IsInf(r, 1):
		return "inf (missed)"
	}
	return fmt.Sprintf("%.3f", r)
}
