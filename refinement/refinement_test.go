package refinement

import (
	"os"
	"strconv"
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

// corpusUnits are the programs of testdata/, engine/testdata/ and, when present, the PyWiSE
// corpus beside the repository.
func corpusUnits(t testing.TB) []*Unit {
	us, err := LoadFiles("../testdata/*.imp", "../engine/testdata/*.imp", "../../shared/corpus/pywise/*.imp")
	if err != nil {
		t.Fatal(err)
	}
	return us
}

// TestRefinement is the layer's normal run: the corpus and REFINEMENT_N random programs from
// REFINEMENT_SEED (default: the time), every check, and no mismatch allowed.
func TestRefinement(t *testing.T) {
	seed := envInt(t, "REFINEMENT_SEED", time.Now().UnixNano()%1_000_000_000)
	n := int(envInt(t, "REFINEMENT_N", 120))
	units := corpusUnits(t)
	if os.Getenv("REFINEMENT_NO_CORPUS") != "" {
		units = nil
	}
	gen, err := GeneratedUnits(seed, n, DefaultGen)
	if err != nil {
		t.Fatalf("seed %d: %v", seed, err)
	}
	t.Logf("refinement: seed=%d random_programs=%d corpus_programs=%d", seed, n, len(units))
	cfg := DefaultConfig()
	cfg.Log = t.Logf
	start := time.Now()
	sum, err := Run(cfg, append(units, gen...))
	if err != nil {
		t.Fatal(err)
	}
	sum.Report(os.Stdout, "normal")
	for _, m := range sum.Details {
		t.Log(m.String())
	}
	t.Logf("wall time %v", time.Since(start).Round(time.Millisecond))
	if sum.Mismatches != 0 {
		t.Fatalf("%d mismatches (seed %d; reproduce one program with REFINEMENT_SEED=<its seed> REFINEMENT_N=1)", sum.Mismatches, seed)
	}
}
