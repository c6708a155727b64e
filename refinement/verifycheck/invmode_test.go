package verifycheck

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

// invModePrograms are the programs with invariant clauses of testdata: those of verify's
// invariant mode, of verify's invariant claims, of certsym prove and of certsym run's tests.
func invModePrograms(t *testing.T) []string {
	t.Helper()
	var files []string
	for _, g := range []string{"../../testdata/verify/invmode_*.imp", "../../testdata/verify/inv_*.imp", "../../testdata/prove/*.imp", "../../testdata/inv_*.imp"} {
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

// invModeMismatch is one mismatch the oracle reported.
type invModeMismatch struct{ check, detail string }

// runInvMode runs the oracle on one program with a fixed seed.
func runInvMode(t *testing.T, file string, seed int64) (*InvariantMode, []invModeMismatch) {
	t.Helper()
	prog, err := parser.ParseFile(file)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewSource(seed))
	var ms []invModeMismatch
	o := &InvariantMode{Prog: prog, LoopBound: 3, Runs: 200, Steps: 20000,
		Limits: budget.Limits{MaxStates: 20000, Timeout: 10 * time.Second, QueryTimeout: 2 * time.Second},
		Random: func() []integer.Int {
			v := make([]integer.Int, prog.Slots())
			for i := range v {
				v[i] = integer.Of(int64(rng.Intn(17) - 4))
			}
			return v
		},
		Report: func(check string, v []integer.Int, format string, args ...any) {
			ms = append(ms, invModeMismatch{check, fmt.Sprintf("%v: ", v) + fmt.Sprintf(format, args...)})
		}}
	o.Check()
	return o, ms
}

// TestInvariantModeSound: on the testdata programs with invariant clauses, every VERIFIED claim
// of verify --loops invariant holds, and no DEAD claim is reached, on random concrete runs
// without loop limit, and the oracle has work: VERIFIED claims evaluated on the runs.
func TestInvariantModeSound(t *testing.T) {
	verified, checked := 0, 0
	for _, f := range invModePrograms(t) {
		o, ms := runInvMode(t, f, 1)
		for _, m := range ms {
			t.Errorf("%s: %s: %s", filepath.Base(f), m.check, m.detail)
		}
		verified, checked = verified+o.Verified, checked+o.Checked
	}
	t.Logf("%d VERIFIED or DEAD claims, %d evaluations on concrete runs", verified, checked)
	if verified < 10 || checked < 1000 {
		t.Errorf("too little checked: %d VERIFIED or DEAD claims, %d evaluations", verified, checked)
	}
}
