//go:build faults

package infercheck

import (
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"certsym/internal/fault"
	"certsym/spec"
	"certsym/spec/integer"
	"certsym/spec/syntax"
	"certsym/spec/syntax/parser"
)

// programs are the tasks of testdata/svcomp whose names match the few loops used here.
func programs(t *testing.T) []*syntax.Program {
	files, _ := filepath.Glob("../../testdata/svcomp/*.imp")
	var out []*syntax.Program
	for _, f := range files {
		if !strings.Contains(f, "loop-zilu") && !strings.Contains(f, "loop-lit") {
			continue
		}
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		p, err := parser.Parse(f, src)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, p)
	}
	if len(out) < 10 {
		t.Fatalf("found %d programs", len(out))
	}
	return out
}

// TestInferFaults switches on houdini-keeps-entry-refuted and requires infer/states to catch it
// on the programs (taken in order until the first mismatch); with no fault, none mismatches on
// the programs it ran.
func TestInferFaults(t *testing.T) {
	defer func() { fault.Active = fault.None }()
	progs := programs(t)
	run := func(p *syntax.Program) (string, string) {
		rng := rand.New(rand.NewSource(3))
		random := func() []integer.Int {
			v := make([]integer.Int, p.Slots())
			for i := range v {
				v[i] = integer.Of(int64(rng.Intn(41) - 20))
			}
			return v
		}
		check, detail := "", ""
		Check(p, 3*time.Second, 0, random, func() bool { return false }, func(c string, in spec.Store, format string, args ...any) {
			if check == "" {
				check, detail = c, format
			}
		})
		return check, detail
	}
	fault.Active = fault.HoudiniKeepsEntryRefuted
	caught, after := "", 0
	for _, p := range progs {
		after++
		if c, _ := run(p); c != "" {
			caught = c + " on " + p.File
			break
		}
	}
	fault.Active = fault.None
	if !strings.HasPrefix(caught, "infer/states") {
		t.Fatalf("fault houdini-keeps-entry-refuted: caught by %q after %d programs", caught, after)
	}
	t.Logf("fault houdini-keeps-entry-refuted caught by %s after %d programs", caught, after)
	for _, p := range progs[:after] {
		if c, d := run(p); c != "" {
			t.Errorf("no fault: %s: %s %s", p.File, c, d)
		}
	}
}
