package prove_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"certsym/prove"
	"certsym/spec"
	"certsym/spec/syntax/parser"
)

// expectRE reads a program's expected answer: "# prove: ANSWER [cti-unreachable|cti-reachable]".
var expectRE = regexp.MustCompile(`(?m)^# prove: (proved|refuted|unknown)( cti-unreachable| cti-reachable)?\s*$`)

// TestProveTestdata checks the answer of every program of testdata/prove against the one its
// header expects; a refutation's input must reach an error on the concrete semantics, and an
// expected counterexample to induction must be there, with its pre-state satisfying the clause
// and its reachability as expected.
func TestProveTestdata(t *testing.T) {
	files, err := filepath.Glob("../testdata/prove/*.imp")
	if err != nil || len(files) == 0 {
		t.Fatalf("no testdata/prove programs: %v", err)
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			src, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			m := expectRE.FindSubmatch(src)
			if m == nil {
				t.Fatal("no '# prove: ANSWER' line")
			}
			prog, err := parser.Parse(f, src)
			if err != nil {
				t.Fatal(err)
			}
			res, err := prove.Check(prog, nil, prove.Options{})
			if err != nil {
				t.Fatal(err)
			}
			if got := res.Answer.String(); got != string(m[1]) {
				t.Fatalf("answer %s, want %s (%s)", res, m[1], res.Reason)
			}
			switch res.Answer {
			case prove.Refuted:
				r := spec.Run(prog, res.Bug.Input, -1)
				if r.Outcome != spec.Failed {
					t.Errorf("the refuting input %v does not reach an error: %v", res.Bug.Input, r.Outcome)
				}
			case prove.Unknown:
				if res.Reason == "" {
					t.Error("unknown without a reason")
				}
			}
			if want := strings.TrimSpace(string(m[2])); want != "" {
				if res.CTI == nil {
					t.Fatalf("no counterexample to induction (%s)", res.Reason)
				}
				if got := res.CTI.Reachable; got != (want == "cti-reachable") {
					t.Errorf("CTI reachable %v, want %s (%s)", got, want, res.CTI.Why)
				}
			}
		})
	}
}
