package provecheck

import (
	"fmt"
	"math/rand"
	"path/filepath"
	"sort"
	"testing"
	"time"

	"certsym/internal/budget"
	"certsym/spec/integer"
	"certsym/spec/syntax/parser"
)

// mismatch is one mismatch an oracle reported.
type mismatch struct{ check, detail string }

// programs are the programs with invariant clauses of testdata (testdata/prove and the
// invariant programs of certsym run's tests), and a few with loops without clauses, which
// Check gives the clause true, by name.
func programs(t *testing.T) []string {
	t.Helper()
	var files []string
	for _, g := range []string{"../../testdata/prove/*.imp", "../../testdata/inv_*.imp", "../../testdata/arr_*.imp", "../../testdata/loop*.imp"} {
		fs, err := filepath.Glob(g)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, fs...)
	}
	sort.Strings(files)
	if len(files) < 10 {
		t.Fatalf("only %d programs", len(files))
	}
	return files
}

// runOracle checks one program with a fixed seed and returns the oracle and its mismatches.
func runOracle(t *testing.T, file string, seed int64) (*Oracle, []mismatch) {
	t.Helper()
	prog, err := parser.ParseFile(file)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewSource(seed))
	var ms []mismatch
	deadline := time.Now().Add(MaxTime)
	o := &Oracle{Prog: prog,
		Random: func() []integer.Int {
			v := make([]integer.Int, prog.Slots())
			for i := range v {
				v[i] = integer.Of(int64(rng.Intn(13) - 4))
			}
			return v
		},
		Expired: func() bool { return time.Now().After(deadline) },
		Limits:  budget.Limits{MaxStates: 20000, Timeout: MaxTime, QueryTimeout: 2 * time.Second},
		Report: func(check string, v []integer.Int, format string, args ...any) {
			ms = append(ms, mismatch{check, fmt.Sprintf("%v: ", v) + fmt.Sprintf(format, args...)})
		}}
	o.Check()
	return o, ms
}

// TestProveOracles: on the testdata programs with loops, the proof mode passes every oracle, and
// the oracles have work: transitions compared with concrete runs of their loops, and programs
// proved whose random runs were checked.
func TestProveOracles(t *testing.T) {
	trans, loops, proved := 0, 0, 0
	for _, f := range programs(t) {
		o, ms := runOracle(t, f, 1)
		for _, m := range ms {
			t.Errorf("%s: %s: %s", filepath.Base(f), m.check, m.detail)
		}
		trans, loops, proved = trans+o.Transitions, loops+o.Loops, proved+o.Proved
	}
	t.Logf("%d transitions, %d concrete runs of loops compared, %d proofs", trans, loops, proved)
	if trans < 10 || loops < 50 || proved < 5 {
		t.Errorf("too little checked: %d transitions, %d loop runs, %d proofs", trans, loops, proved)
	}
}
