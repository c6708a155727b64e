// Package testprog holds what the tests of the analysis packages (sym, engine, bounded, verify)
// and of the command share: parsing a program from source, the corpus of programs, random
// inputs, interrupting a run in a solver query, and finding the external tools a test needs.
// Only tests import it.
package testprog

import (
	"certsym/internal/corpus"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	fuzz "github.com/google/gofuzz"

	"certsym/internal/budget"
	"certsym/spec"
	"certsym/spec/integer"
	"certsym/spec/syntax"
	"certsym/spec/syntax/parser"
)

// Parse parses src (named test.imp) or fails the test.
func Parse(t testing.TB, src string) *syntax.Program {
	t.Helper()
	p, err := parser.Parse("test.imp", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// Root is the repository's root directory: the nearest directory above the working directory
// (a test's package directory) that holds go.mod.
func Root() string { return corpus.Root() }

// Corpus returns the programs of testdata/ and of the PyWiSE corpus beside the repository
// (../shared/corpus/pywise; see internal/corpus for what happens when it is absent).
func Corpus(t testing.TB) []string {
	files, _ := filepath.Glob(filepath.Join(Root(), "testdata", "*.imp"))
	return append(files, corpus.Optional(t)...)
}

// InputFuzzer draws inputs mostly small (where branches and divisions by zero happen), some
// large, some beyond 64 bits. gofuzz needs a custom function for integer.Int, whose fields are
// unexported.
func InputFuzzer(seed int64) *fuzz.Fuzzer {
	return fuzz.NewWithSeed(seed).Funcs(func(v *integer.Int, c fuzz.Continue) {
		switch c.Intn(8) {
		case 0:
			*v = integer.Of(c.Int63n(2000) - 1000)
		case 1:
			*v = integer.Of(c.Int63()).Mul(integer.Of(c.Int63() - c.Int63()))
		default:
			*v = integer.Of(c.Int63n(13) - 4)
		}
	})
}

// RandomInput draws an input of n values.
func RandomInput(f *fuzz.Fuzzer, n int) spec.Store {
	in := make(spec.Store, n)
	for i := range in {
		f.Fuzz(&in[i])
	}
	return in
}

// Fermat is a program whose one solver query (x³ + y³ = z³ over positive integers) Z3 does not
// answer in any reasonable time: the tests of interrupts and query bounds run it.
const Fermat = "assume x > 0;\nassume y > 0;\nassume z > 0;\nif x*x*x + y*y*y == z*z*z then\n  fail\nfi\n"

// InterruptInQuery calls m.Interrupt once a solver query has run for 200 ms.
func InterruptInQuery(m *budget.Monitor) {
	for m.Snapshot().InQuery < 200*time.Millisecond {
		time.Sleep(10 * time.Millisecond)
	}
	m.Interrupt()
}

// NeedTool returns the path of an external program a test needs. make check installs it
// (scripts/install-deps.sh GROUP); a plain go test without it skips, except under CI, where a
// missing tool fails the test.
func NeedTool(t testing.TB, name, group string) string {
	t.Helper()
	p, err := exec.LookPath(name)
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("%s is not installed (scripts/install-deps.sh %s installs it)", name, group)
		}
		t.Skipf("%s is not installed (scripts/install-deps.sh %s installs it)", name, group)
	}
	return p
}

// IndependentIfs is n independent ifs on inputs, then an assert that fails on every path: 2^n
// paths reach the assert, each with n conjuncts.
func IndependentIfs(n int) string {
	var b strings.Builder
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "if x%d > 0 then y = y + 1 else skip fi;\n", i)
	}
	b.WriteString("assert y >= 0\n")
	return b.String()
}

// UnevenIfs is IndependentIfs whose then branches add k assignments to z after y's (k ≥ 0): the
// paths through a then branch reach the next if 2k+1 steps after those through its else branch
// (k = 0: IndependentIfs, one step).
func UnevenIfs(n, k int) string {
	then := "y = y + 1" + strings.Repeat("; z = z + 1", k)
	return strings.ReplaceAll(IndependentIfs(n), "y = y + 1", then)
}

// NonlinearIfs is n independent ifs whose conditions are products, each joining its two branches
// at once: if xK * y > z + K then s = s + xK else s = s - 1 fi, for K = 1 … n (2^n paths, each
// branch one assignment, so that the paths meet after each if at the same depth).
func NonlinearIfs(n int) string {
	var b strings.Builder
	for i := 1; i <= n; i++ {
		if i > 1 {
			b.WriteString(";\n")
		}
		fmt.Fprintf(&b, "if x%d * y > z + %d then s = s + x%d else s = s - 1 fi", i, i, i)
	}
	return b.String() + "\n"
}
