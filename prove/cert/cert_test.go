package cert

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"certsym/spec/syntax"
	"certsym/spec/syntax/parser"
)

func parseFile(t *testing.T, path string) *syntax.Program {
	t.Helper()
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	p, err := parser.Parse(path, src)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func programs(t *testing.T) []string {
	files, _ := filepath.Glob("../../testdata/invariants/*.imp")
	if len(files) < 20 {
		t.Fatalf("found %d programs in testdata/invariants", len(files))
	}
	return files
}

// TestWriteShape writes the certificate of every program of testdata/invariants and checks
// what the translation promises of its text: one parameter per input, one invariant per clause.
func TestWriteShape(t *testing.T) {
	for _, f := range programs(t) {
		p := parseFile(t, f)
		var b bytes.Buffer
		if err := Write(&b, p, nil); err != nil {
			t.Fatal(err)
		}
		text := b.String()
		for _, v := range p.Vars {
			if !strings.Contains(text, "("+vname(v)+"0 : int)") {
				t.Errorf("%s: no parameter for the input %s", f, v)
			}
		}
		clauses := 0
		syntax.Inspect(p.Body, func(n syntax.Node) bool {
			if w, ok := n.(*syntax.While); ok {
				clauses += len(w.Invariants)
			}
			return true
		})
		if got := strings.Count(text, "invariant {"); got != clauses {
			t.Errorf("%s: %d invariants for %d clauses", f, got, clauses)
		}
	}
}

// why3Dir is proofs/why3, with its check.sh and certificate/prelude.mlw.
const why3Dir = "../../proofs/why3"

// prove writes the certificate into dir (beside a copy of the prelude) and runs check.sh on it.
func prove(t *testing.T, dir, name string, p *syntax.Program, extra Invariants) (string, error) {
	t.Helper()
	var b bytes.Buffer
	if err := Write(&b, p, extra); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, name+".mlw")
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	conf, _ := filepath.Abs(filepath.Join(why3Dir, ".why3.conf"))
	script, _ := filepath.Abs(filepath.Join(why3Dir, "check.sh"))
	out, err := exec.Command(script, conf, path, "split_goal_full", "5", "cvc4", "z3", "eprover").CombinedOutput()
	return string(out), err
}

// TestCertificatesWhy3 proves the certificate of every program of testdata/invariants (their
// clauses are correct invariants) with Why3 and the Debian provers, as proofs/why3/check.sh
// does, and requires the certificate of sum2 with its clause i <= n dropped to fail: the
// invariant is then too weak for the assertion after the loop. It runs when why3 is installed
// and CERTSYM_WHY3 is set (make -C proofs/why3 check sets it).
func TestCertificatesWhy3(t *testing.T) {
	if os.Getenv("CERTSYM_WHY3") == "" {
		t.Skip("CERTSYM_WHY3 is not set (make -C proofs/why3 check runs this test)")
	}
	if _, err := exec.LookPath("why3"); err != nil {
		t.Fatal("why3 is not installed")
	}
	conf := filepath.Join(why3Dir, ".why3.conf")
	if _, err := os.Stat(conf); err != nil {
		if out, err := exec.Command("why3", "--config="+conf, "config", "detect").CombinedOutput(); err != nil {
			t.Fatalf("why3 config detect: %v\n%s", err, out)
		}
	}
	dir := t.TempDir()
	prelude, err := os.ReadFile(filepath.Join(why3Dir, "certificate", "prelude.mlw"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "prelude.mlw"), prelude, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, f := range programs(t) {
		name := strings.TrimSuffix(filepath.Base(f), ".imp")
		out, err := prove(t, dir, name, parseFile(t, f), nil)
		if err != nil {
			t.Errorf("%s: the certificate is not proved: %v\n%s", f, err, out)
			continue
		}
		t.Logf("%s", strings.TrimSpace(lastLine(out)))
	}
	// sum2 with its clause i <= n dropped: the invariant is inductive but too weak.
	p := parseFile(t, "../../testdata/invariants/sum2.imp")
	syntax.Inspect(p.Body, func(n syntax.Node) bool {
		if w, ok := n.(*syntax.While); ok {
			w.Invariants = w.Invariants[:len(w.Invariants)-1]
		}
		return true
	})
	out, err := prove(t, dir, "sum2_weak", p, nil)
	if err == nil {
		t.Errorf("the certificate of sum2 with a weakened invariant was proved:\n%s", out)
	} else {
		t.Logf("sum2 with a weakened invariant rejected: %s", strings.TrimSpace(lastLine(out)))
	}
}

func lastLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.LastIndexByte(s, '\n'); i >= 0 {
		return s[i+1:]
	}
	return s
}
