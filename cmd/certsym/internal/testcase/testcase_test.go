package testcase_test

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"certsym/cmd/certsym/internal/record"
	"certsym/cmd/certsym/internal/testcase"
	"certsym/engine"
	"certsym/internal/testprog"
	"certsym/spec"
	"certsym/spec/integer"
)

// A program with each kind of terminal path: a bug (x == 1), an infeasible path (x >= 2 reaches
// an assume that is false on it), and normal ends (x <= 0).
const threeEnds = `if x == 1 then
  assert y > 0
fi;
if x >= 2 then
  assume x < 0
fi;
y = 7
`

// TestWriteReadReplay records the terminal paths of a run, as run --tests does, writes their test
// cases, reads them back and replays each input on the concrete semantics: each ends as recorded.
func TestWriteReadReplay(t *testing.T) {
	prog := testprog.Parse(t, threeEnds)
	rec := record.New(prog, true, false, 1)
	if _, err := engine.New(prog, engine.Options{AllBugs: true, Observer: rec}).FindBugs(nil); err != nil {
		t.Fatal(err)
	}
	rec.Finish()
	tmp := t.TempDir()
	file := filepath.Join(tmp, "p.imp")
	set := rec.TestCases(file, []byte(threeEnds))
	if len(set.Cases) != 4 || set.Dups != 0 || set.NoModel != 0 {
		t.Fatalf("%d cases, %d duplicates, %d without model; want 4, 0, 0", len(set.Cases), set.Dups, set.NoModel)
	}
	dir := filepath.Join(tmp, "tests")
	paths, err := testcase.Write(dir, set, func() bool { return false })
	if err != nil {
		t.Fatal(err)
	}
	files, err := testcase.Files(dir)
	if err != nil || strings.Join(files, "|") != strings.Join(paths, "|") {
		t.Fatalf("Files = %v, %v; Write wrote %v", files, err, paths)
	}
	var got []string
	for _, p := range files {
		tc, in, err := testcase.Read(p)
		if err != nil {
			t.Fatal(err)
		}
		// The program path starts from the test case's directory.
		if tc.Program != filepath.Join("..", "p.imp") || tc.ProgramFile(p) != file || len(in) != 2 || tc.PathCondition == "" {
			t.Errorf("%s: program %q, input %v, path condition %q", p, tc.Program, in, tc.PathCondition)
		}
		store := make(spec.Store, len(prog.Vars))
		for name, v := range in {
			n, ok := integer.Parse(v.String())
			if !ok || prog.VarIndex(name) < 0 {
				t.Fatalf("%s: input %s=%s", p, name, v)
			}
			store[prog.VarIndex(name)] = n
		}
		if obs := testcase.Observed(spec.Run(prog, store, 1000)); obs != tc.Expected {
			t.Errorf("%s: recorded %s, the concrete run gives %s", p, tc.Expected, obs)
		}
		got = append(got, tc.Expected.String())
	}
	sort.Strings(got)
	want := []string{"bug (assert at 2:3) after 2 steps", "infeasible (the assume at 5:3 is false) after 3 steps",
		"normal after 5 steps", "normal after 6 steps"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("test cases:\n  %s\nwant\n  %s", strings.Join(got, "\n  "), strings.Join(want, "\n  "))
	}
}

// TestCollectLeavesOut: a path with the input and end of an earlier one, a path without a
// model, and the distinct paths past the maximum give no test case, and are counted; the path
// condition of a path left out is not rendered.
func TestCollectLeavesOut(t *testing.T) {
	prog := testprog.Parse(t, "x = x")
	end := testcase.End{Outcome: "normal", Steps: 3}
	rendered := 0
	pc := func() string { rendered++; return "x == 4" }
	c := testcase.NewCollector(prog, 2)
	c.Add(end, spec.Store{integer.Of(4)}, pc)
	c.Add(end, spec.Store{integer.Of(4)}, pc)
	c.Add(end, nil, pc)
	for _, v := range []int64{5, 6, 7, 6} {
		c.Add(end, spec.Store{integer.Of(v)}, pc)
	}
	set := c.Set("p.imp", []byte("x = x"))
	if len(set.Cases) != 2 || set.Dups != 2 || set.NoModel != 1 || set.Over != 2 || rendered != 2 {
		t.Errorf("%d cases, %d duplicates, %d without model, %d over the maximum, %d rendered; want 2, 2, 1, 2, 2",
			len(set.Cases), set.Dups, set.NoModel, set.Over, rendered)
	}
}

// TestReadRejects: files that are not test cases, and directories without any, are errors that
// name the file and what is wrong.
func TestReadRejects(t *testing.T) {
	dir := t.TempDir()
	for name, c := range map[string]struct{ body, msg string }{
		"outcome.json": {`{"certsym_test": 1, "program": "p.imp", "expected": {"outcome": "weird"}}`, "expected.outcome"},
		"format.json":  {`{"certsym_test": 3, "program": "p.imp", "expected": {"outcome": "normal"}}`, "certsym_test is 3, want 2 (or 1, the format before)"},
		"field.json":   {`{"certsym_test": 1, "extra": 0}`, "not a certsym test case"},
		"input.json":   {`{"certsym_test": 1, "expected": {"outcome": "normal"}, "input": [1]}`, "input:"},
	} {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(c.body), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, _, err := testcase.Read(p); err == nil || !strings.Contains(err.Error(), p) || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("Read(%s) = %v, want an error naming it and saying %q", name, err, c.msg)
		}
	}
	if _, err := testcase.Files(t.TempDir()); err == nil || !strings.Contains(err.Error(), "no test case (.json) in this directory") {
		t.Errorf("Files of an empty directory: %v", err)
	}
}
