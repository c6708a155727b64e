package distrib_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"certsym/internal/corpus"
	"certsym/internal/expect"
	"certsym/refinement/gen"
)

// program is a program the identity tests run, with the options of its single run.
type program struct {
	file string
	opts []string
}

// distributable reports whether a distributed run takes opts (bfs only, no bounded interpreter).
func distributable(opts []string) bool {
	for _, o := range opts {
		if o == "--strategy" || o == "--loop-bound" || o == "--burst" {
			return false
		}
	}
	return true
}

// corpusPrograms are the programs of testdata/ a distributed run takes, with their options.
func corpusPrograms(t *testing.T) []program {
	files, _ := filepath.Glob(filepath.Join(corpus.Root(), "testdata", "*.imp"))
	if len(files) < 40 {
		t.Fatalf("found %d programs in testdata/, want at least 40", len(files))
	}
	var ps []program
	for _, f := range files {
		exp, err := expect.Read(f)
		if err != nil {
			t.Fatal(err)
		}
		if distributable(exp.Options) {
			ps = append(ps, program{f, exp.Options})
		}
	}
	return ps
}

// randomPrograms writes n random programs of the refinement layer's generator (seeds from
// seed) and returns them with a state bound their single runs must finish within.
func randomPrograms(t *testing.T, seed int64, n int) []program {
	dir := t.TempDir()
	var ps []program
	for s := seed; s < seed+int64(n); s++ {
		g, err := gen.Generate(s, gen.Default)
		if err != nil {
			t.Fatal(err)
		}
		f := filepath.Join(dir, fmt.Sprintf("gen%d.imp", s))
		if err := os.WriteFile(f, []byte(g.Text), 0o644); err != nil {
			t.Fatal(err)
		}
		ps = append(ps, program{f, []string{"--max-states", "3000"}})
	}
	return ps
}

// long reports whether the long variants run (CERTSYM_DIST_LONG=1, make check-distributed).
func long() bool { return os.Getenv("CERTSYM_DIST_LONG") == "1" }

// compareRun runs p with run --workers 2 and distributed on the broker at url (the workers
// already running), with split states a job, and returns "" when the outputs are identical (the
// run's time left out), or what differs; skip is set when the run with workers is stopped by its
// state bound (the distributed run counts its bound over the whole run's work, so the two stop at
// different places), or when the two differ and one of them says a bound cut an answer short, and
// nothing is compared.
func compareRun(t *testing.T, bin, url string, p program, split int, extra ...string) (diff string, skip bool) {
	t.Helper()
	single, serr, scode := runCertsym(t, bin, append(append([]string{"run", p.file, "--quiet", "--workers", "2"}, p.opts...), extra...)...)
	if strings.Contains(single, "bound reached") {
		return "", true
	}
	args := append(append([]string{"run", p.file, "--quiet", "--distributed", url, "--split", fmt.Sprint(split), "--lease", "2s", "--timeout", "2m"}, p.opts...), extra...)
	dist, derr, dcode := runCertsym(t, bin, args...)
	switch {
	case scode != dcode:
		return fmt.Sprintf("exit %d, run --workers 2's %d\n%s%s\nrun --workers 2:\n%s%s", dcode, scode, dist, derr, single, serr), false
	case normalize(single) != normalize(dist) && (strings.Contains(single, cutNote) || strings.Contains(dist, cutNote)):
		// a bound cut a query short in one of the runs (under load, a query time bound): which
		// ones depends on the load and the solvers' histories, and the report says so
		return "", true
	case normalize(single) != normalize(dist):
		return fmt.Sprintf("the outputs differ at %s\nrun --workers 2:\n%s\ndistributed:\n%s%s", firstDiff(normalize(single), normalize(dist)), single, dist, derr), false
	}
	return "", false
}

// cutNote is how a partitioned run's reason says that a bound cut answers short (steal.WithCutNote).
const cutNote = "cut short by a time or resource bound"

// TestDistributedEqualsWorkers runs the programs of testdata/ and random programs of the
// refinement layer's generator with run --workers 2 and distributed over 1, 2 and 4 worker
// processes, a job split after a few states (so that even small programs make many jobs), and
// requires the distributed run's output to be run --workers's byte for byte, its time left out:
// verdict, bugs, inputs, counters (run --workers prints the same for every number of workers, and
// the single run's tree: package steal's tests). make check runs a sixth of the programs (every
// eighteenth with each number of workers, from 48 random ones); CERTSYM_DIST_LONG=1 (make
// check-distributed) runs each with 1, 2 and 4 workers, and 150 random ones.
func TestDistributedEqualsWorkers(t *testing.T) {
	if testing.Short() {
		t.Skip("short mode: make check runs it")
	}
	url := startNATS(t)
	bin := certsym(t, "")
	progs := corpusPrograms(t)
	nRandom := 48
	if long() {
		nRandom = 150
	}
	progs = append(progs, randomPrograms(t, 7000, nRandom)...)
	workers := newPool(t, bin, url)
	compared, skipped, want := 0, 0, 0
	for k, n := range []int{1, 2, 4} {
		workers.start(n - workers.size())
		for i, p := range progs {
			if !long() && i%18 != 6*k {
				continue
			}
			want++
			split := []int{3, 8, 40}[i%3]
			diff, skip := compareRun(t, bin, url, p, split)
			if skip {
				skipped++
				continue
			}
			compared++
			if diff != "" {
				t.Errorf("%s %v, %d workers, split %d: %s", filepath.Base(p.file), p.opts, n, split, diff)
			}
		}
	}
	t.Logf("%d runs compared, %d skipped (the run with workers stopped by its state bound, or an answer cut short by a bound under load)", compared, skipped)
	if compared < want*2/3 {
		t.Errorf("only %d of %d runs compared", compared, want)
	}
}

// TestDistributedOptions: the options a distributed run does not take are refused.
func TestDistributedOptions(t *testing.T) {
	bin := certsym(t, "")
	file := filepath.Join(corpus.Root(), "testdata", "div_by_zero_assert.imp")
	for _, opts := range [][]string{{"--strategy", "dfs"}, {"--loop-bound", "3"}, {"--shard", "0/2"}, {"--burst", "10"}, {"--tests", t.TempDir()}} {
		_, stderr, code := runCertsym(t, bin, append([]string{"run", file, "--distributed", "nats://127.0.0.1:1"}, opts...)...)
		if code != 2 || !strings.Contains(stderr, "does not apply with --distributed") {
			t.Errorf("run --distributed %v: exit %d, %q; want a usage error", opts, code, stderr)
		}
	}
	_, stderr, code := runCertsym(t, bin, "run", file, "--split", "5")
	if code != 2 || !strings.Contains(stderr, "--split applies with --distributed only") {
		t.Errorf("run --split without --distributed: exit %d, %q", code, stderr)
	}
}
