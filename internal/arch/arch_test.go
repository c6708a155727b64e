// Package arch checks the shape of the Go code: the import graph reads top-down as
// docs/architecture.md draws it, and no package grows past the size one person can hold in mind.
package arch

import (
	"fmt"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"certsym/internal/corpus"
)

const module = "certsym"

// layer is the place of each package of the module in the import graph: a package may import
// only packages of a strictly lower layer (so engine and bounded, side by side, do not import
// each other). A package that is not listed fails TestImportGraph: a new package must be given
// its place here (and in docs/architecture.md's graph).
var layer = map[string]int{
	"internal/fault":     0,
	"internal/budget":    0,
	"internal/corpus":    0, // tests' access to the PyWiSE corpus beside the repository
	"internal/z3query":   2,
	"internal/z3worker":  2, // the solver chain's Z3, in a context and goroutine of its own
	"internal/expect":    3, // testdata annotations, read by cmd's tests and the corpus golden test (parses them)
	"sym":                3, // terms and formulas: no solver below them
	"pathcond":           4, // path conditions and their solver-free deciders
	"solver":             5, // the solver chain over Z3 (beside step, below the interpreters)
	"solver/trigger":     4, // the array indices at which the solver instantiates universal quantifiers
	"internal/testprog":  4, // tests' shared helper: parsing, corpus, random inputs
	"step":               4,
	"havoc":              4, // the invariant transition's modifies sets and fresh symbols (prove, verify --loops invariant)
	"internal/concrete":  5, // the bounds of the concrete runs beside the symbolic ones (replays, confirmations, concolic runs)
	"engine/search":      4, // the search heuristics the engine's loop drives (coverage, random path)
	"engine/burst":       5, // the concrete machine of the engine's fast path (run --burst)
	"engine":             6,
	"engine/steal":       7, // the partitioned runs of run --workers: work stealing over jobs named by their paths
	"engine/job":         7, // the subtrees distributed runs hand out: named by depth and path, replayed from the program
	"bounded":            6,
	"cfg":                2, // the statement graph: verify's cutoff reachability, coverage's distances (gonum)
	"verify/codecov":     6, // the coverage of the code by a verification (generic in verify's cutoffs)
	"verify/paths":       6, // verify's numbered paths, their rendering on the workers and their tests
	"verify":             7,
	"concolic":           7, // concolic runs and SAGE's generational search, over engine's Bug and Report
	"prove":              7, // certsym prove: the invariant transition and the proof mode over the step kernel
	"prove/infer":        7, // invariant inference: candidates, sampled loop-head states, Houdini over an oracle
	"prove/cert":         3, // the WhyML certificates of programs with loop invariants
	"prove/auto":         8, // certsym prove --infer: inference with the proof mode as its oracle
	"merge":              7, // the merge of engine states with the same remaining program (ite stores, disjoined path conditions)
	"engine/mergesearch": 8, // run --merge: the breadth-first frontier that merges the states of a depth (over merge)
	"distrib":            8, // distributed runs: jobs over a NATS JetStream broker, the coordinator's assembly of the single run's report
	// The command's own packages (cmd/certsym/internal): the shared words of its outputs and
	// exec's input analysis; the artifact writers; the recorder that feeds them from a run.
	"cmd/certsym/internal/catch":      7, // the process's signals from the start of main (held for the run, or answered before it)
	"cmd/certsym/internal/report":     8,
	"cmd/certsym/internal/inputs":     8,
	"cmd/certsym/internal/outfile":    8, // the output files: checked before the run, written whole
	"cmd/certsym/internal/watch":      8, // the signals and the grace of a command's run
	"cmd/certsym/internal/flags":      8, // the option types and option groups the commands share
	"cmd/certsym/internal/help":       8, // the usage text, the help topics, the man page and the completion script
	"cmd/certsym/internal/sarif":      9,
	"cmd/certsym/internal/dot":        9,
	"cmd/certsym/internal/coverage":   9,
	"cmd/certsym/internal/testcase":   9,
	"cmd/certsym/internal/verifyhtml": 9,
	"cmd/certsym/internal/pathout":    9,  // concolic's path report
	"cmd/certsym/internal/shard":      9,  // run --shard's JSON report and certsym merge
	"cmd/certsym/internal/hint":       9,  // the advice of run's partial report (--burst)
	"cmd/certsym/internal/buginput":   9,  // how run shows a bug's input: zeros where free, inputs read, its reproduce line
	"cmd/certsym/internal/jsonout":    10, // the JSON objects of --json and their encoding
	"cmd/certsym/internal/record":     10,
	"cmd/certsym/internal/provecmd":   10, // certsym prove: its options, reports and exit status
	"cmd/certsym/internal/distrun":    11, // certsym worker and run --distributed: flags, bug records, the single run's report
	"cmd/certsym":                     12,
	"scripts/compare-strategies":      11, // make compare-strategies: the search strategies side by side
	"scripts/benchsum":                11, // make bench: gonum/stat summaries of the benchmarks' runs
	"refinement/refclient":            10, // the certsym-ref client and the protocol's JSON codec (the prover reads its array terms)
	"refinement/prover":               11, // the layer's own Z3 encoding
	"refinement/memory":               12, // the layer's hold on its memory: collecting Z3's objects, the ceiling's guard
	"refinement/gen":                  11, // the layer's random and corner programs
	"refinement/sched":                11, // the layer's model of the fair scheduler
	"refinement/conv":                 11, // the conversions between the engine's states and the reference's
	"refinement/checker":              12, // what every check shares: configuration, program, checker, reports
	"refinement/mergecheck":           13, // the oracles of the merge of states (exhaustive and precise against the constituents)
	"refinement/infercheck":           13, // the checks of invariant inference (its invariants against concrete loop-head states)
	"refinement/verifycheck":          13, // the checks of certsym verify
	"refinement/provecheck":           13, // the checks of certsym prove (the invariant transition's exhaustiveness, the answers)
	"refinement/boundedcheck":         13, // the checks of the bounded interpreter
	"refinement/crosscheck":           13, // the crosscheck of the solver-free decisions and the caching's answers
	"refinement/streamcheck":          13, // the whole-stream comparison
	"refinement/stealcheck":           13, // the partitioned runs of run --workers against the single run
	"refinement/distcheck":            13, // the distributed runs of run --distributed, assembled in process, against the single run
	"refinement":                      14,
	"refinement/mutation":             15,
	"refinement/merge":                11, // merges the JSON summaries of a sharded soak (make check-refinement SHARD=I/N)
	"internal/layertest":              15, // the mutation run's test of sym, pathcond, engine and bounded (overlaid by refinement/mutation.sh)
	"proofs":                          0,  // proofs/table_test.go only
	"deploy":                          0,  // the scheduler recipes; deploy_test.go decodes them
	"docs":                            0,  // docs_test.go: the Markdown's links and the README's worked example
	"internal/arch":                   0,  // this test only

	// The language: its values (the integers, which the syntax tree's literals hold), its syntax
	// tree (with its walk and printer), its text (lexer, parser, macro inliner, name resolution)
	// and its concrete semantics, over the tree.
	"spec/integer":          0,
	"spec/syntax":           1,
	"spec/syntax/parser":    2,
	"spec":                  2,
	"internal/corpusgolden": 0, // golden_test.go only: certsym's answers on the corpus
}

// testOnly are the packages that only test files (and other test-only packages) may import.
var testOnly = map[string]bool{"internal/testprog": true, "internal/layertest": true, "internal/corpus": true}

// confined are third-party imports allowed only in the listed packages (non-test files): gonum
// in cfg (the statement graph) and in make bench's summarizer (gonum/stat), Z3 in the
// symbolic core's solver, its worker, the shared query helper and the refinement layer's own
// prover.
var confined = map[string][]string{
	"gonum.org/v1/gonum":            {"cfg", "scripts/benchsum"},
	"github.com/aclements/go-z3/z3": {"solver", "internal/z3query", "internal/z3worker", "refinement/prover"},
	"github.com/nats-io/nats.go":    {"distrib"},
}

// MaxLines is the most lines (as wc -l counts them) the non-test Go files of one package may have.
const MaxLines = 2000

// oversized lists the packages allowed over MaxLines, each with the ceiling it may not grow past.
// It is empty, and the data here is policy, as in Go's own deps_test.go: a ceiling is lowered
// when a package shrinks and never raised to make a build pass. A package that outgrows MaxLines
// is split by job (as spec, sym, engine and refinement were) instead.
var oversized = map[string]int{}

// ceilings lists packages held below MaxLines, each with the ceiling it may not grow past: a
// package that was split to make room keeps the room it gained (engine gave its concrete
// machine to engine/burst). Like oversized, it is policy: a ceiling is lowered, never raised.
var ceilings = map[string]int{"engine": 1850}

// pkg is what the check needs of one package: its import path relative to the module, the
// module packages and third-party paths its non-test files import, and their line count.
type pkg struct {
	rel     string
	imports map[string]bool // module-relative paths for the module's packages, full paths otherwise
	lines   int
}

// root is the module's root: the nearest directory above the working directory with go.mod
// (corpus.Root); the test fails when there is none.
func root(t *testing.T) string {
	d := corpus.Root()
	if _, err := os.Stat(filepath.Join(d, "go.mod")); err != nil {
		t.Fatal("no go.mod above the working directory")
	}
	return d
}

// loadPackages parses the imports of every non-test Go file of the module (build tags are
// ignored: every file counts) and counts their lines.
func loadPackages(t *testing.T, dir string) map[string]*pkg {
	pkgs := map[string]*pkg{}
	fset := token.NewFileSet()
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if n := d.Name(); path != dir && (strings.HasPrefix(n, ".") || strings.HasPrefix(n, "_") || n == "testdata") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		rel, _ := filepath.Rel(dir, filepath.Dir(path))
		rel = filepath.ToSlash(rel)
		p := pkgs[rel]
		if p == nil {
			p = &pkg{rel: rel, imports: map[string]bool{}}
			pkgs[rel] = p
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		p.lines += strings.Count(string(src), "\n")
		f, err := parser.ParseFile(fset, path, src, parser.ImportsOnly)
		if err != nil {
			return err
		}
		for _, im := range f.Imports {
			ip, _ := strconv.Unquote(im.Path.Value)
			if ip == module || strings.HasPrefix(ip, module+"/") {
				ip = strings.TrimPrefix(strings.TrimPrefix(ip, module), "/")
			}
			p.imports[ip] = true
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return pkgs
}

// violations returns what breaks the rules in pkgs: an unplaced package, an import of a package
// of the same or a higher layer, an import of a test-only package, a confined import outside
// its packages, a package over its line limit.
func violations(pkgs map[string]*pkg) []string {
	var out []string
	inModule := func(ip string) bool { _, ok := pkgs[ip]; return ok }
	for _, p := range pkgs {
		lp, ok := layer[p.rel]
		if !ok {
			out = append(out, fmt.Sprintf("%s: not placed in the import graph (arch_test.go, layer)", p.rel))
			continue
		}
		for ip := range p.imports {
			if inModule(ip) {
				li, ok := layer[ip]
				switch {
				case testOnly[ip] && !testOnly[p.rel]:
					out = append(out, fmt.Sprintf("%s imports %s, which only tests may import", p.rel, ip))
				case ok && li >= lp:
					out = append(out, fmt.Sprintf("%s (layer %d) imports %s (layer %d): imports must go down the graph", p.rel, lp, ip, li))
				}
				continue
			}
			for prefix, allowed := range confined {
				if ip == prefix || strings.HasPrefix(ip, prefix+"/") {
					if !contains(allowed, p.rel) {
						out = append(out, fmt.Sprintf("%s imports %s, which is confined to %v", p.rel, ip, allowed))
					}
				}
			}
		}
		limit := MaxLines
		if c, ok := oversized[p.rel]; ok {
			limit = c
		}
		if c, ok := ceilings[p.rel]; ok && c < limit {
			limit = c
		}
		if p.lines > limit {
			out = append(out, fmt.Sprintf("%s: %d non-test lines, more than %d", p.rel, p.lines, limit))
		}
	}
	sort.Strings(out)
	return out
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

// TestImportGraph: the module's packages import only down the graph, test helpers only from
// tests, gonum and Z3 only where they belong, and no package is over its line limit.
func TestImportGraph(t *testing.T) {
	pkgs := loadPackages(t, root(t))
	for _, want := range []string{"spec", "sym", "step", "engine", "bounded", "verify", "cmd/certsym", "refinement"} {
		if pkgs[want] == nil {
			t.Fatalf("package %s not found: the walk is broken", want)
		}
	}
	for _, v := range violations(pkgs) {
		t.Error(v)
	}
	var sizes []string
	for _, p := range pkgs {
		sizes = append(sizes, fmt.Sprintf("%s %d", p.rel, p.lines))
	}
	sort.Strings(sizes)
	t.Logf("non-test lines per package: %s", strings.Join(sizes, ", "))
}

// TestViolationsFound: the check reports each kind of violation (an import up the graph,
// between the two packages of one layer, of a test helper, of gonum outside cfg, an
// unplaced package, an oversized one), so that a green TestImportGraph means something.
func TestViolationsFound(t *testing.T) {
	imp := func(ips ...string) map[string]bool {
		m := map[string]bool{}
		for _, ip := range ips {
			m[ip] = true
		}
		return m
	}
	pkgs := map[string]*pkg{
		"spec":              {rel: "spec", imports: imp()},
		"sym":               {rel: "sym", imports: imp("spec", "engine")},
		"engine":            {rel: "engine", imports: imp("sym", "bounded", "internal/testprog")},
		"bounded":           {rel: "bounded", imports: imp("sym", "gonum.org/v1/gonum/graph"), lines: MaxLines + 1},
		"internal/testprog": {rel: "internal/testprog", imports: imp("spec")},
		"newpkg":            {rel: "newpkg", imports: imp()},
	}
	got := strings.Join(violations(pkgs), "\n")
	for _, want := range []string{
		"sym (layer 3) imports engine (layer 6)",
		"engine (layer 6) imports bounded (layer 6)",
		"engine imports internal/testprog, which only tests may import",
		"bounded imports gonum.org/v1/gonum/graph, which is confined to [cfg scripts/benchsum]",
		"bounded: 2001 non-test lines, more than 2000",
		"newpkg: not placed in the import graph",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("violation %q not reported; got:\n%s", want, got)
		}
	}
	clean := map[string]*pkg{"spec": {rel: "spec", imports: imp()}, "solver": {rel: "solver", imports: imp("spec", "github.com/aclements/go-z3/z3")}}
	if v := violations(clean); len(v) != 0 {
		t.Errorf("violations in a clean graph: %v", v)
	}
}
