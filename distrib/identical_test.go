package distrib_test

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
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

// compareRun runs p once alone and once distributed on the broker at url (the workers already
// running), with split states a job, and returns "" when the outputs are identical (the run's
// time left out), or what differs; model is set when they differ only in the bugs' inputs (and
// so their reproduce lines), each of which then reproduces its bug; skip is set when the single run is stopped by its state
// bound (the distributed run counts its bound over the whole run's work, so the two stop at
// different places) and nothing is compared.
func compareRun(t *testing.T, bin, url string, p program, split int, extra ...string) (diff string, skip, model bool) {
	t.Helper()
	single, serr, scode := runCertsym(t, bin, append(append([]string{"run", p.file, "--quiet"}, p.opts...), extra...)...)
	if strings.Contains(single, "bound reached") {
		return "", true, false
	}
	args := append(append([]string{"run", p.file, "--quiet", "--distributed", url, "--split", fmt.Sprint(split), "--lease", "2s", "--timeout", "2m"}, p.opts...), extra...)
	dist, derr, dcode := runCertsym(t, bin, args...)
	switch {
	case scode != dcode:
		return fmt.Sprintf("exit %d, the single run's %d\n%s%s\nsingle:\n%s%s", dcode, scode, dist, derr, single, serr), false, false
	case normalize(single) == normalize(dist):
		return "", false, false
	case withoutHistory(normalize(single)) != withoutHistory(normalize(dist)):
		return fmt.Sprintf("the outputs differ at %s\nsingle:\n%s\ndistributed:\n%s%s", firstDiff(normalize(single), normalize(dist)), single, dist, derr), false, false
	}
	// Only what the solver's history decides differs: each input must reach its bug's error (the
	// reproduce line, run).
	for _, line := range strings.Split(dist, "\n") {
		cmd, ok := strings.CutPrefix(line, "  reproduce:      certsym exec ")
		if !ok {
			continue
		}
		words, err := shellWords(cmd)
		if err != nil {
			return fmt.Sprintf("reproduce line %q: %v", line, err), false, true
		}
		out, _, code := runCertsym(t, bin, append([]string{"exec"}, words...)...)
		if code != 1 {
			return fmt.Sprintf("the distributed run's input does not reproduce its bug: certsym exec %s: exit %d, %s", cmd, code, out), false, true
		}
	}
	return "", false, true
}

// inputLines are the lines of a bug that show its input: the solver's model of its path
// condition, which depends on the queries its process asked before (the caches, Z3's state).
var inputLines = regexp.MustCompile(`(?m)^  (input|reproduce): .*$`)

// satQueries is the count of the queries and of those answered sat, which depend on the same
// history: a state whose parent's model (or a model the caches hold) satisfies its path condition
// needs no query, and the models differ. The unsat and unknown answers, which decide the tree,
// must agree.
var satQueries = regexp.MustCompile(`[0-9]+ solver queries \([0-9]+ sat, `)

// withoutHistory is the output without what depends on the solver's history.
func withoutHistory(out string) string {
	return satQueries.ReplaceAllString(inputLines.ReplaceAllString(out, "  (input)"), "Q solver queries (S sat, ")
}

// shellWords splits a reproduce line's arguments (words, and words in single quotes).
func shellWords(s string) ([]string, error) {
	var words []string
	for s = strings.TrimSpace(s); s != ""; s = strings.TrimSpace(s) {
		var w string
		if s[0] == '\'' {
			end := strings.IndexByte(s[1:], '\'')
			if end < 0 {
				return nil, fmt.Errorf("unclosed quote")
			}
			w, s = s[1:1+end], s[2+end:]
		} else if i := strings.IndexByte(s, ' '); i >= 0 {
			w, s = s[:i], s[i:]
		} else {
			w, s = s, ""
		}
		words = append(words, w)
	}
	return words, nil
}

// TestDistributedEqualsSingleRun runs the programs of testdata/ and random programs of the
// refinement layer's generator alone and distributed over 1, 2 and 4 worker processes, a job
// split after a few states (so that even small programs make many jobs), and requires the
// distributed run's output to be the single run's byte for byte, its time left out: verdict,
// bugs, inputs, counters; or to differ only in what the solver's history decides (a bug's input,
// which must reproduce the bug, and the count of queries answered sat), logged and counted. make
// check runs a sixth of the programs (every eighteenth with each number of workers, from 48
// random ones); CERTSYM_DIST_LONG=1 (make check-distributed) runs each with 1, 2 and 4 workers,
// and 150 random ones.
func TestDistributedEqualsSingleRun(t *testing.T) {
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
	compared, skipped, models, want := 0, 0, 0, 0
	for k, n := range []int{1, 2, 4} {
		workers.start(n - workers.size())
		for i, p := range progs {
			if !long() && i%18 != 6*k {
				continue
			}
			want++
			split := []int{3, 8, 40}[i%3]
			diff, skip, model := compareRun(t, bin, url, p, split)
			if model {
				models++
				t.Logf("%s, %d workers, split %d: the same but for a bug's input or the count of queries answered sat, which the solver's history decides (each input reproduces its bug)", filepath.Base(p.file), n, split)
			}
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
	t.Logf("%d runs compared: %d identical, %d identical but for a bug's input or the count of queries answered sat; %d skipped (the single run stopped by its state bound)",
		compared, compared-models, models, skipped)
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
