package refinement

import (
	"certsym/internal/corpus"
	"certsym/refinement/gen"
	"certsym/refinement/refclient"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// envInt reads an integer environment variable, def when unset or empty.
func envInt(t testing.TB, name string, def int64) int64 {
	s := os.Getenv(name)
	if s == "" {
		return def
	}
	v, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		t.Fatalf("%s=%q is not an integer", name, s)
	}
	return v
}

// needRef skips the test when certsym-ref is not built yet (plain go test may run before
// make check-proofs builds it) and in short mode; run.sh (REFINEMENT_FULL) and
// CERTSYM_REQUIRE_REF=1 (make check-go) never skip.
func needRef(t *testing.T) {
	t.Helper()
	if testing.Short() {
		t.Skip("short mode: the tests against certsym-ref run in make check")
	}
	if _, err := os.Stat(refclient.DefaultPath()); err != nil && os.Getenv("CERTSYM_REQUIRE_REF") == "1" {
		t.Fatalf("certsym-ref not built (%v), and CERTSYM_REQUIRE_REF=1 requires it; make ref builds it", err)
	} else if err != nil && os.Getenv("REFINEMENT_FULL") == "" {
		t.Skipf("certsym-ref not built (%v); make check-refinement builds it and runs this test (CERTSYM_REQUIRE_REF=1 makes this a failure)", err)
	}
}

// corpusUnits are the programs of testdata/, engine/testdata/ and, when present, the PyWiSE
// corpus beside the repository.
func corpusUnits(t testing.TB) []*Unit {
	patterns := []string{"../testdata/*.imp", "../engine/testdata/*.imp"}
	if corpus.Optional(t) != nil {
		patterns = append(patterns, filepath.Join(corpus.Dir(), "*.imp"))
	}
	us, err := LoadFiles(patterns...)
	if err != nil {
		t.Fatal(err)
	}
	return us
}

// TestRefinement is the layer's normal run: the corpus and REFINEMENT_N random programs from
// REFINEMENT_SEED (default: the time), every check, and no mismatch allowed.
//
// Plain `go test ./...` (make check-go) runs a quick version: two case studies and a few random
// programs. refinement/run.sh sets REFINEMENT_FULL=1 for the whole corpus.
func TestRefinement(t *testing.T) {
	needRef(t)
	full := os.Getenv("REFINEMENT_FULL") != ""
	seed := envInt(t, "REFINEMENT_SEED", time.Now().UnixNano()%1_000_000_000)
	def := int64(8)
	if full {
		def = 150
	}
	n := int(envInt(t, "REFINEMENT_N", def))
	var units []*Unit
	switch {
	case os.Getenv("REFINEMENT_NO_CORPUS") != "":
	case full:
		units = corpusUnits(t)
		targets, err := VerifyTargetUnits() // the shapes of verify's checks random programs seldom reach
		if err != nil {
			t.Fatal(err)
		}
		units = append(units, targets...)
		proves, err := ProveTargetUnits() // loops with invariant clauses, for certsym prove's checks
		if err != nil {
			t.Fatal(err)
		}
		units = append(units, proves...)
	default:
		var err error
		if units, err = LoadFiles("../engine/testdata/gcd.imp"); err != nil {
			t.Fatal(err)
		}
	}
	gcfg := gen.Default
	if g := os.Getenv("REFINEMENT_GEN"); g != "" { // stmts,nesting,exprdepth,loops
		if _, err := fmt.Sscanf(g, "%d,%d,%d,%d", &gcfg.MaxStmts, &gcfg.MaxNesting, &gcfg.MaxExprDepth, &gcfg.MaxLoops); err != nil || gcfg.MaxStmts < 1 {
			t.Fatalf("REFINEMENT_GEN=%q: want stmts,nesting,exprdepth,loops (e.g. 6,3,4,3)", g)
		}
	}
	generated, err := GeneratedUnits(seed, n, gcfg)
	if err != nil {
		t.Fatalf("seed %d: %v", seed, err)
	}
	t.Logf("refinement: seed=%d random_programs=%d corpus_programs=%d", seed, n, len(units))
	cfg := DefaultConfig()
	cfg.Log = t.Logf
	start := time.Now()
	sum, err := Run(cfg, shardUnits(t, units, generated)) // REFINEMENT_SHARD (shard_test.go)
	if err != nil {
		t.Fatal(err)
	}
	writeSummary(t, seed, n, sum)
	sum.Report(os.Stdout, "normal")
	for _, m := range sum.Details {
		t.Log(m.String())
	}
	t.Logf("wall time %v", time.Since(start).Round(time.Millisecond))
	if sum.Mismatches != 0 {
		t.Fatalf("%d mismatches (run seed %d; reproduce one random program with make check-refinement SEED=<its generator seed> N=1)", sum.Mismatches, seed)
	}
}

// TestStream is the whole-stream comparison alone (stream.go): REFINEMENT_STREAM states of the
// unpruned stream per program (skipped when unset) on the case studies of testdata/ and
// engine/testdata/ and REFINEMENT_N random programs (default 20) of the large-budget
// generator, against the reference's extracted run stream. make check-refinement-stream runs it
// with budgets that compare more than 20,000 states.
func TestStream(t *testing.T) {
	if os.Getenv("REFINEMENT_STREAM") == "" {
		t.Skip("the whole-stream soak runs with REFINEMENT_STREAM set (make check-refinement-stream)")
	}
	needRef(t)
	seed := envInt(t, "REFINEMENT_SEED", 1)
	n := int(envInt(t, "REFINEMENT_N", 20))
	units, err := LoadFiles(strings.Fields(os.Getenv("REFINEMENT_STREAM_FILES"))...)
	if err != nil {
		t.Fatal(err)
	}
	if os.Getenv("REFINEMENT_STREAM_FILES") == "" {
		units = corpusUnits(t)
	}
	generated, err := GeneratedUnits(seed, n, gen.Default)
	if err != nil {
		t.Fatal(err)
	}
	cfg := DefaultConfig()
	cfg.Log = t.Logf
	cfg.StreamOnly = true
	cfg.StreamStates = int(envInt(t, "REFINEMENT_STREAM", 2000))
	cfg.ProgramBudget = time.Duration(envInt(t, "REFINEMENT_STREAM_BUDGET", 30)) * time.Second
	start := time.Now()
	sum, err := Run(cfg, append(units, generated...))
	if err != nil {
		t.Fatal(err)
	}
	sum.Report(os.Stdout, "stream")
	for _, m := range sum.Details {
		t.Log(m.String())
	}
	t.Logf("wall time %v", time.Since(start).Round(time.Millisecond))
	if sum.Mismatches != 0 {
		t.Fatalf("%d mismatches", sum.Mismatches)
	}
}

// TestRefinementInvariants runs every check of the layer on the programs with loop invariants:
// those of testdata/ and testdata/verify/ and the first random programs whose loops have clauses
// (gen.InvariantShare), correct, weak and wrong ones. The engine steps a loop with clauses to its
// meaning ([E-While-Inv]) and the reference runs the desugared loop (refclient.DesugarInvariants):
// no mismatch is allowed.
func TestRefinementInvariants(t *testing.T) {
	needRef(t)
	units, err := LoadFiles("../testdata/inv_*.imp", "../testdata/verify/inv_*.imp")
	if err != nil {
		t.Fatal(err)
	}
	corpusN := len(units)
	for seed := int64(1); len(units) < corpusN+6 && seed < 1000; seed++ {
		g, err := gen.Generate(seed, gen.Default)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(g.Text, "invariant") {
			continue
		}
		u, err := GeneratedUnit(seed, gen.Default)
		if err != nil {
			t.Fatal(err)
		}
		units = append(units, u)
	}
	if corpusN < 10 || len(units) < corpusN+6 {
		t.Fatalf("%d programs with invariants in testdata, %d random ones", corpusN, len(units)-corpusN)
	}
	cfg := DefaultConfig()
	cfg.Log = t.Logf
	sum, err := Run(cfg, units)
	if err != nil {
		t.Fatal(err)
	}
	sum.Report(os.Stdout, "invariants")
	for _, m := range sum.Details {
		t.Log(m.String())
	}
	if sum.Mismatches != 0 {
		t.Fatalf("%d mismatches on the programs with invariants", sum.Mismatches)
	}
}
