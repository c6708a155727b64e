package provecmd

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"certsym/cmd/certsym/internal/flags"
	"certsym/spec/syntax"
	"certsym/spec/syntax/parser"
)

// env is the Env of the tests: cmd/certsym's parsing of the one FILE and loading, in short.
var env = Env{
	OneFile: func(fs *flag.FlagSet, args []string, stderr io.Writer) (string, int, bool) {
		pos, err := flags.Parse(fs, args, stderr)
		if errors.Is(err, flag.ErrHelp) {
			return "", 0, false
		}
		if err != nil || len(pos) != 1 {
			return "", exitUsage, false
		}
		return pos[0], 0, true
	},
	Load: func(file string, asJSON bool, stdout, stderr io.Writer) (*syntax.Program, []byte, bool) {
		p, err := parser.ParseFile(file)
		if err != nil {
			fmt.Fprintln(stderr, err)
			return nil, nil, false
		}
		return p, nil, true
	},
}

func runProve(args ...string) (int, string, string) {
	var out, errb bytes.Buffer
	code := Main(append(args, "--quiet"), &out, &errb, env)
	return code, out.String(), errb.String()
}

// TestExitStatusesAndJSON: the answers of the testdata/prove programs, their exit statuses and
// their JSON objects (the invariants used, the refutation, the counterexample to induction).
func TestExitStatusesAndJSON(t *testing.T) {
	for _, tc := range []struct {
		file, answer string
		code         int
	}{
		{"sum_proved.imp", "proved", exitProved},
		{"entry_refuted.imp", "refuted", exitRefuted},
		{"cti_unreachable.imp", "unknown", exitUnknown},
	} {
		code, out, stderr := runProve("--json", "../../../../testdata/prove/"+tc.file)
		if code != tc.code {
			t.Fatalf("%s: exit %d, want %d (%s)", tc.file, code, tc.code, stderr)
		}
		var r Report
		if err := json.Unmarshal([]byte(out), &r); err != nil {
			t.Fatalf("%s: %v\n%s", tc.file, err, out)
		}
		if r.Answer != tc.answer || len(r.Invariants) != 1 || len(r.Invariants[0].Clauses) == 0 {
			t.Errorf("%s: %+v", tc.file, r)
		}
		switch tc.answer {
		case "refuted":
			if r.Bug == nil || r.Bug.Kind != "invariant" || r.Bug.Claim != "entry" || !strings.Contains(r.Bug.Reproduce, "certsym exec") {
				t.Errorf("%s: bug %+v", tc.file, r.Bug)
			}
		case "unknown":
			if r.Reason == "" || r.CTI == nil || r.CTI.Reachable || r.CTI.Clause != "x != 1" || string(r.CTI.Pre["x"]) == string(r.CTI.Post["x"]) {
				t.Errorf("%s: reason %q, counterexample to induction %+v", tc.file, r.Reason, r.CTI)
			}
		}
	}
}

// TestBoundsAndUsage: a bound stops the proof with the partial report and status 3; bad options
// are usage errors.
func TestBoundsAndUsage(t *testing.T) {
	code, out, _ := runProve("--max-states", "3", "../../../../testdata/prove/sum_proved.imp")
	if code != exitUnknown || !strings.Contains(out, "answer: unknown (state bound reached") {
		t.Errorf("--max-states 3: exit %d\n%s", code, out)
	}
	for _, args := range [][]string{{"--unroll", "0", "x.imp"}, {"--bogus", "x.imp"}, {}} {
		if code, _, _ := runProve(args...); code != exitUsage {
			t.Errorf("%v: exit %d, want %d", args, code, exitUsage)
		}
	}
}

// TestInferByDefault: a loop without clauses whose unrolling leaves the answer unknown is proved
// with inferred clauses by default, stays unknown with --no-infer, and --infer with --no-infer
// is a usage error; a program proved by unrolling alone stays proved, with no clause inferred.
func TestInferByDefault(t *testing.T) {
	dir := t.TempDir()
	write := func(name, src string) string {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	bare := write("bare.imp", "assume n >= 0;\ni = 0;\nwhile i < n do i = i + 1 od;\nassert i == n\n")
	code, out, _ := runProve(bare)
	if code != exitProved || !strings.HasPrefix(out, "answer: proved") || !strings.Contains(out, "(given)") {
		t.Errorf("default: exit %d\n%s", code, out)
	}
	code, out, _ = runProve("--no-infer", bare)
	if code != exitUnknown || !strings.Contains(out, "has no invariant") {
		t.Errorf("--no-infer: exit %d\n%s", code, out)
	}
	if code, _, _ := runProve("--infer", "--no-infer", bare); code != exitUsage {
		t.Errorf("--infer --no-infer: exit %d, want %d", code, exitUsage)
	}
	short := write("short.imp", "i = 0;\nwhile i < 3 do i = i + 1 od;\nassert i == 3\n")
	code, out, _ = runProve(short)
	if code != exitProved || strings.Contains(out, "(given)") {
		t.Errorf("unrolled: exit %d\n%s", code, out)
	}
}
