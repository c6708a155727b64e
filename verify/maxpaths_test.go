package verify

import (
	"fmt"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"certsym/internal/budget"
	"certsym/internal/testprog"
	"certsym/spec/syntax/parser"
)

// TestMaxPaths: with Options.MaxPaths, only the first paths are kept (rendered and tested), the
// others numbered and counted; the kept paths, the claims' evidence and the cutoffs are those of
// the run that keeps every path.
func TestMaxPaths(t *testing.T) {
	prog := testprog.Parse(t, testprog.IndependentIfs(8)+"; i = 0; while i < n do i = i + 1 od\n")
	all := Verify(prog, Options{LoopBound: 2})
	some := Verify(prog, Options{LoopBound: 2, MaxPaths: 7})
	if all.NumPaths != len(all.Paths) || all.NumPaths < 256 {
		t.Fatalf("every path kept: %d numbered, %d kept", all.NumPaths, len(all.Paths))
	}
	if some.NumPaths != all.NumPaths || len(some.Paths) != 7 {
		t.Fatalf("MaxPaths 7: %d numbered, %d kept; want %d and 7", some.NumPaths, len(some.Paths), all.NumPaths)
	}
	for i, p := range some.Paths {
		q := all.Paths[i]
		if p.ID != q.ID || p.Line != q.Line || p.PathCondition != q.PathCondition || p.Ends != q.Ends || !reflect.DeepEqual(p.Input, q.Input) {
			t.Errorf("path %d: %+v, with every path kept %+v", i, p, q)
		}
	}
	for i, cl := range some.Claims {
		for r, e := range cl.Evidence {
			if f := all.Claims[i].Evidence[r]; (e == nil) != (f == nil) || (e != nil && !slices.Equal(e.Paths, f.Paths)) {
				t.Errorf("claim %d, %s: evidence %+v, with every path kept %+v", i, Result(r), e, f)
			}
		}
	}
	if len(some.Cutoffs) != len(all.Cutoffs) || len(some.Cutoffs) == 0 || some.Cutoffs[0].Path != all.Cutoffs[0].Path || some.Cutoffs[0].Path < 7 {
		t.Errorf("cutoffs %+v, with every path kept %+v (the loop's partial path comes after the kept ones)", some.Cutoffs, all.Cutoffs)
	}
}

// TestFailingPathsFail: a path the evidence cites as failing a claim (FALSE or UNDEFINED on it)
// has a test that fails the claim: its bounded concrete run ends in an error at the claim's line,
// as the explication "Failing Path (0@4)" says, and not normally.
func TestFailingPathsFail(t *testing.T) {
	progs := map[string]string{"ifs": testprog.IndependentIfs(3)}
	for _, f := range []string{"div_faulty.imp", "fig1g_shift.imp", "arr_index_claims.imp"} {
		progs[f] = filepath.Join(testprog.Root(), "testdata", "verify", f)
	}
	failing := 0
	for name, src := range progs {
		var rep *Report
		if name == "ifs" {
			rep = Verify(testprog.Parse(t, src), Options{LoopBound: 3})
		} else {
			prog, err := parser.ParseFile(src)
			if err != nil {
				t.Fatal(err)
			}
			rep = Verify(prog, Options{LoopBound: 3})
		}
		for _, cl := range rep.Claims {
			for _, r := range []Result{ResFalse, ResUndefined} {
				e := cl.Evidence[r]
				if e == nil {
					continue
				}
				for _, id := range e.Paths {
					p := rep.Paths[id]
					failing++
					if want := fmt.Sprintf(" at line %d)", cl.Line); !strings.HasPrefix(p.Ends, "error (") || !strings.HasSuffix(p.Ends, want) {
						t.Errorf("%s: path %d is cited as %s for the claim at line %d; its test %v ends %q", name, id, r, cl.Line, p.Input, p.Ends)
					}
				}
			}
		}
	}
	if failing < 8 {
		t.Errorf("%d failing paths checked, want at least the 8 of the ifs", failing)
	}
}

// TestOverallWithoutClaims: a program without claims is VERIFIED when its exploration ended, and
// VERIFIED? when a bound stopped it (as a claim TRUE wherever reached is when the stop's cutoff
// reaches it): never VERIFIED after a stop.
func TestOverallWithoutClaims(t *testing.T) {
	prog := testprog.Parse(t, testprog.IndependentIfs(4)[:strings.LastIndex(testprog.IndependentIfs(4), ";")]+"\n")
	if rep := Verify(prog, Options{LoopBound: 3}); len(rep.Claims) != 0 || rep.Stopped != "" || rep.Overall != StatusVerified {
		t.Errorf("whole exploration: %d claims, stopped %q, overall %s; want VERIFIED", len(rep.Claims), rep.Stopped, rep.Overall)
	}
	rep := Verify(prog, Options{LoopBound: 3, Limits: budget.Limits{MaxStates: 3}})
	if len(rep.Claims) != 0 || rep.Stopped == "" || rep.Overall != StatusVerifiedQ {
		t.Errorf("state bound 3: %d claims, stopped %q, overall %s; want VERIFIED?", len(rep.Claims), rep.Stopped, rep.Overall)
	}
}
