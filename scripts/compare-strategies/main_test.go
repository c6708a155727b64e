package main

import (
	"os"
	"path/filepath"
	"testing"

	"certsym/internal/budget"
	"certsym/spec/syntax/parser"
)

// TestDeterministic: two runs of every strategy on the same program give the same cell (the
// output is the same from run to run, but the times).
func TestDeterministic(t *testing.T) {
	if err := os.Chdir(filepath.Join("..", "..")); err != nil {
		t.Fatal(err)
	}
	progs, err := programs(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	lim := budget.Limits{MaxStates: 3000}
	n := 0
	for _, p := range progs {
		if p.name != "many_paths_one_bug" && p.name != "dfs_nested_loops_bfs_bug" && p.name != "factorial_mutant_swapped_update" {
			continue
		}
		n++
		prog, err := parser.ParseFile(p.path)
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range strategies {
			a, b := run(prog, s, lim, 3), run(prog, s, lim, 3)
			if cell(a) != cell(b) {
				t.Errorf("%s, %s: %s then %s", p.name, s, cell(a), cell(b))
			}
			if (s == "bfs" || s == "coverage" || s == "random-path") && !a.found {
				t.Errorf("%s, %s: no bug in %d states", p.name, s, lim.MaxStates)
			}
		}
	}
	if n != 3 {
		t.Fatalf("found %d of the 3 programs among the buggy programs of testdata", n)
	}
}
