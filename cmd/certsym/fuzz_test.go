package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// stdinSyntaxError is the shape of a syntax error from standard input: one line, with line and column.
var stdinSyntaxError = regexp.MustCompile(`^<stdin>:[0-9]+:[0-9]+: [^\n]+\n$`)

// FuzzPipeline feeds arbitrary text to the whole command line, as a user would: parse, run (the
// bug finder), run --loop-bound and verify, each with small budgets so that one input takes
// milliseconds. On any input each command must end with a documented status: 2 only with one
// positioned syntax error line on stderr (and, --json being given, a JSON error object on stdout), otherwise 0, 1 or 3 with one JSON object on stdout; never 4 (a
// panic, or a bug whose input does not replay: certsym's own defect) and never a crash. The seed
// corpus is every program of testdata/.
//
// go test runs the seeds; go test -run '^$' -fuzz FuzzPipeline -parallel 1 ./cmd/certsym explores
// further (-parallel 1: the command reads standard input through a package variable).
func FuzzPipeline(f *testing.F) {
	var seeds []string
	for _, pat := range []string{"../../testdata/*.imp", "../../testdata/verify/*.imp", "../../engine/testdata/*.imp"} {
		fs, _ := filepath.Glob(pat)
		seeds = append(seeds, fs...)
	}
	if len(seeds) < 50 {
		f.Fatalf("found %d seed programs, want the testdata corpus", len(seeds))
	}
	for _, s := range seeds {
		src, err := os.ReadFile(s)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(src)
	}
	f.Add([]byte("\xEF\xBB\xBFx = ((((1"))
	f.Add([]byte("macro m(a) begin a = a / 0 end\nm(x); assert x * x != 2"))
	// Arrays and quantifiers.
	f.Add([]byte("array a[0..3];\na[i] = a[i + 1] / x; assert forall k in 0..3: a[k] >= 0"))
	f.Add([]byte("x = 1;\nassert exists k in 0..x: k == x"))
	budget := []string{"--quiet", "--json", "--max-states", "60", "--query-timeout", "100ms", "--rlimit", "2000000", "--timeout", "1s", "--max-memory", "512"}
	cmds := [][]string{
		{"run", "-"},
		{"run", "-", "--all-bugs", "--strategy", "dfs"},
		{"run", "-", "--loop-bound", "2"},
		{"verify", "-", "--loop-bound", "2"},
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		defer func() { stdin = os.Stdin }()
		// Each command closes its solvers, and the solver package collects every few closes
		// (solver/release.go): the Z3 memory of thousands of inputs does not pile up.
		var code0 int
		for i, c := range cmds {
			stdin = bytes.NewReader(src)
			var stdout, stderr bytes.Buffer
			code := run(append(append([]string{}, c...), budget...), &stdout, &stderr)
			if i == 0 {
				code0 = code
			}
			switch {
			case code == exitUsage:
				var je map[string]any
				if !stdinSyntaxError.MatchString(stderr.String()) || json.Unmarshal(stdout.Bytes(), &je) != nil || je["error"] != "syntax" {
					t.Fatalf("%v: exit 2 without one positioned syntax error (stderr) and its JSON object (stdout): stderr %q stdout %q", c, stderr.String(), stdout.String())
				}
				if code0 != exitUsage {
					t.Fatalf("%v: syntax error, but %v accepted the program", c, cmds[0])
				}
			case code == exitSafe || code == exitBug || code == exitUnknown:
				var out map[string]any
				if err := json.Unmarshal(stdout.Bytes(), &out); err != nil {
					t.Fatalf("%v: exit %d, stdout is not one JSON object (%v): %q", c, code, err, stdout.String())
				}
				if strings.Contains(stderr.String(), "internal error") {
					t.Fatalf("%v: %s", c, stderr.String())
				}
			default:
				t.Fatalf("%v: exit %d: %s", c, code, stderr.String())
			}
			if code == exitUsage {
				return
			}
		}
	})
}
