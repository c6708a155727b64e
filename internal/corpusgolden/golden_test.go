package corpusgolden

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"certsym/internal/corpus"
	"certsym/internal/expect"
)

var update = flag.Bool("update", false, "rewrite "+golden+" with certsym's current answers")

// golden is the file of the expected answers, relative to this package's directory.
const golden = "testdata/corpus-outputs.txt"

// patterns are the corpus programs, relative to the repository's root, in the golden file's
// order (each pattern's files sorted by name).
var patterns = []string{"testdata/*.imp", "engine/testdata/*.imp", "testdata/verify/*.imp"}

// TestCorpusGolden builds certsym and compares what it answers on every corpus program with the
// golden file: for a program of testdata/verify, `verify` with the file's options; for every
// other program, `run` with its options and `verify` with the default options. The run of a
// program without a state bound of its own is cut at 20,000 states, verify's at 5,000 branch
// states: the bounds are state counts, never times, so that the answers are deterministic.
//
// The test builds the command itself, which go test's cache does not see: run it with -count=1.
func TestCorpusGolden(t *testing.T) {
	root := corpus.Root()
	bin := filepath.Join(t.TempDir(), "certsym")
	build := exec.Command("go", "build", "-o", bin, "./cmd/certsym")
	build.Dir = root
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build ./cmd/certsym: %v\n%s", err, out)
	}
	got := outputs(t, bin, root)

	if *update {
		if err := os.WriteFile(golden, got, 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("%s rewritten (%d lines)", golden, bytes.Count(got, []byte("\n")))
		return
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		diff := cmp.Diff(strings.Split(string(want), "\n"), strings.Split(string(got), "\n"))
		t.Errorf("certsym's answers on the corpus differ from %s (-golden +now):\n%s\n"+
			"If the change of answers is intended, rewrite the file with\n"+
			"\tgo test ./internal/corpusgolden -count=1 -run TestCorpusGolden -update\n"+
			"and review its diff.", golden, diff)
	}
}

// outputs returns the golden file's text for the certsym binary bin: one line per program and
// command, in the order of patterns. The programs are asked in parallel, one certsym process
// per processor; the lines keep their order.
func outputs(t *testing.T, bin, root string) []byte {
	var files []string
	for _, pat := range patterns {
		m, err := filepath.Glob(filepath.Join(root, pat))
		if err != nil {
			t.Fatal(err)
		}
		if len(m) == 0 {
			t.Fatalf("no corpus program matches %s under %s", pat, root)
		}
		sort.Strings(m)
		files = append(files, m...)
	}
	lines := make([]string, len(files))
	errs := make([]error, len(files))
	next := make(chan int)
	var wg sync.WaitGroup
	for w := 0; w < runtime.GOMAXPROCS(0); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				lines[i], errs[i] = answers(bin, root, files[i])
			}
		}()
	}
	for i := range files {
		next <- i
	}
	close(next)
	wg.Wait()
	var out bytes.Buffer
	for i, l := range lines {
		if errs[i] != nil {
			t.Fatalf("%s: %v", files[i], errs[i])
		}
		out.WriteString(l)
	}
	return out.Bytes()
}

// answers returns the golden lines of one program: its run's line (but for testdata/verify)
// and its verify line. certsym runs in root and is given the program's path relative to it, as
// on the command line.
func answers(bin, root, file string) (string, error) {
	rel, err := filepath.Rel(root, file)
	if err != nil {
		return "", err
	}
	rel = filepath.ToSlash(rel)
	exp, err := expect.Read(file)
	if err != nil {
		return "", err
	}
	opts := exp.Options
	var b strings.Builder
	if !strings.HasPrefix(rel, "testdata/verify/") {
		args := append([]string{"run", rel, "--json", "--quiet"}, withDefault(opts, "--max-states", "20000")...)
		s, err := runSummary(bin, root, args)
		if err != nil {
			return "", err
		}
		fmt.Fprintf(&b, "%s run %s\n", rel, s)
		opts = nil
	}
	args := append([]string{"verify", rel, "--json", "--quiet"}, withDefault(opts, "--max-states", "5000")...)
	s, err := verifySummary(bin, root, args)
	if err != nil {
		return "", err
	}
	fmt.Fprintf(&b, "%s verify %s\n", rel, s)
	return b.String(), nil
}

// withDefault returns opts with flag and value appended, unless opts already sets flag.
func withDefault(opts []string, flag, value string) []string {
	for _, o := range opts {
		if o == flag || strings.HasPrefix(o, flag+"=") {
			return opts
		}
	}
	return append(append([]string(nil), opts...), flag, value)
}

// invoke runs certsym in the directory dir and decodes its JSON object into v; the exit status
// is part of the answer, and an output without a JSON object is shown as the distinct status
// -100-code.
func invoke(bin, dir string, args []string, v any) (int, error) {
	cmd := exec.Command(bin, args...)
	cmd.Dir = dir
	var stdout bytes.Buffer
	cmd.Stdout = &stdout
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		return 0, err
	}
	dec := json.NewDecoder(&stdout)
	dec.UseNumber()
	if err := dec.Decode(v); err != nil {
		return -code - 100, nil
	}
	return code, nil
}

// line reads a location that is a line number or a "line:col" string, keeping only the line.
func line(raw json.RawMessage) string {
	s := strings.Trim(string(raw), `"`)
	if i := strings.IndexByte(s, ':'); i >= 0 {
		s = s[:i]
	}
	return s
}

// runSummary is the answer of `certsym run` in dir: exit status, verdict, and each bug's line and kind.
func runSummary(bin, dir string, args []string) (string, error) {
	var r struct {
		Verdict string `json:"verdict"`
		Bugs    []struct {
			Line json.RawMessage `json:"line"`
			Kind string          `json:"kind"`
		} `json:"bugs"`
	}
	code, err := invoke(bin, dir, args, &r)
	if err != nil {
		return "", err
	}
	parts := []string{fmt.Sprintf("exit=%d verdict=%s", code, r.Verdict)}
	for _, b := range r.Bugs {
		parts = append(parts, fmt.Sprintf("bug@%s:%s", line(b.Line), b.Kind))
	}
	return strings.Join(parts, " "), nil
}

// verifySummary is the answer of `certsym verify` in dir: exit status, overall status, and each claim's
// line, kind, text and status.
func verifySummary(bin, dir string, args []string) (string, error) {
	var r struct {
		Claims []struct {
			Line   json.RawMessage `json:"line"`
			Kind   string          `json:"kind"`
			Claim  string          `json:"claim"`
			Status string          `json:"status"`
		} `json:"claims"`
		Overall string `json:"overall"`
	}
	code, err := invoke(bin, dir, args, &r)
	if err != nil {
		return "", err
	}
	parts := []string{fmt.Sprintf("exit=%d overall=%s", code, r.Overall)}
	for _, c := range r.Claims {
		parts = append(parts, fmt.Sprintf("[%s %s %q %s]", line(c.Line), c.Kind, c.Claim, c.Status))
	}
	return strings.Join(parts, " "), nil
}
