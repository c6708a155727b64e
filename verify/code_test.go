package verify

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"certsym/internal/budget"
	"certsym/internal/testprog"
	"certsym/spec/syntax"
	"certsym/spec/syntax/parser"
)

// codeText renders Report.Code as "line:col STATUS" entries (with "@site" for a statement
// inlined from a macro, and the cutoff's line for UNCOVERED), one a line.
func codeText(code []StmtCoverage) string {
	var b strings.Builder
	for _, sc := range code {
		fmt.Fprintf(&b, "%d:%d %s", sc.Pos.Line, sc.Pos.Col, sc.Status)
		if sc.Site.Line != 0 {
			fmt.Fprintf(&b, " @%d:%d", sc.Site.Line, sc.Site.Col)
		}
		if sc.Cutoff != nil {
			fmt.Fprintf(&b, " cut@%d", sc.Cutoff.Line)
		}
		b.WriteByte('\n')
	}
	return b.String()
}

func codeOf(t *testing.T, src string, opts Options) (*Report, string) {
	t.Helper()
	rep := Verify(testprog.Parse(t, src), opts)
	return rep, codeText(rep.Code())
}

// TestCodeDeadBranches: statements behind infeasible conditions are DEAD (xSymExe, Section II-A:
// uncovered and no cutoff reaches them), the rest COVERED; statements on one line are told apart
// by column.
func TestCodeDeadBranches(t *testing.T) {
	cases := []struct{ name, src, want string }{
		{"nested contradiction", "if x > 0 then\n  if x < 0 then\n    y = 1\n  fi\nfi;\nz = 2",
			"1:1 COVERED\n2:3 COVERED\n3:5 DEAD\n6:1 COVERED\n"},
		{"square below zero", "if x * x < 0 then y = 1 fi;\nz = 2",
			"1:1 COVERED\n1:19 DEAD\n2:1 COVERED\n"},
		{"one line, two branches", "assume x > 0;\nif x > 0 then y = 1 else y = 2 fi",
			"1:1 COVERED\n2:1 COVERED\n2:15 COVERED\n2:26 DEAD\n"},
		{"after a failing assert", "assert false;\ny = 1",
			"1:1 COVERED\n2:1 DEAD\n"},
		// The cutoff comes after the dead branch: it does not reach it.
		{"dead before a cutoff", "if x > 0 then if x < 0 then y = 1 fi fi;\ni = 0;\nwhile i < 5 do i = i + 1 od;\nz = 1",
			"1:1 COVERED\n1:15 COVERED\n1:29 DEAD\n2:1 COVERED\n3:1 COVERED\n3:16 COVERED\n4:1 UNCOVERED cut@3\n"},
	}
	for _, c := range cases {
		if _, got := codeOf(t, c.src, Options{LoopBound: 3}); got != c.want {
			t.Errorf("%s:\n%s\ngot:\n%swant:\n%s", c.name, c.src, got, c.want)
		}
	}
}

// TestCodeFigure1d: the shape of the paper's Figure 1(d) (procedure B, xSymExe Section II-A): a
// loop of five iterations whose following claim no path reaches under a loop bound below 5. The
// statements after the loop are UNCOVERED, with the loop's cutoff, a control-flow path from it
// and the chop; with loop bound 5 they are covered.
func TestCodeFigure1d(t *testing.T) {
	src := "r = 0;\nj = 1;\nwhile j <= 5 do\n  r = r + k;\n  j = j + 1\nod;\nassert r == 5 * k;\nq = r"
	rep, got := codeOf(t, src, Options{LoopBound: 3})
	want := "1:1 COVERED\n2:1 COVERED\n3:1 COVERED\n4:3 COVERED\n5:3 COVERED\n7:1 UNCOVERED cut@3\n8:1 UNCOVERED cut@3\n"
	if got != want {
		t.Fatalf("loop bound 3:\n%swant:\n%s", got, want)
	}
	code := rep.Code()
	as := code[5]
	if !strings.Contains(as.Cutoff.Reason, "loop bound 3") {
		t.Errorf("cutoff reason %q", as.Cutoff.Reason)
	}
	if p := fmtInts(as.Path()); p != "3 7" {
		t.Errorf("path from the cutoff to the assert: %s, want 3 7", p)
	}
	var chop []int
	for _, s := range code[6].Chop() {
		chop = append(chop, s.Pos().Line)
	}
	// The chop from the loop to q = r: the loop, its body (which returns to it), the assert, q = r.
	if got := fmtInts(chop); got != "3 4 5 7 8" {
		t.Errorf("chop from the loop to line 8: %s, want 3 4 5 7 8", got)
	}
	if code[0].Chop() != nil || code[0].Path() != nil {
		t.Error("a covered statement has a chop or a path")
	}
	if _, got := codeOf(t, src, Options{LoopBound: 5}); strings.Contains(got, "UNCOVERED") || strings.Contains(got, "DEAD") {
		t.Errorf("loop bound 5:\n%s", got)
	}
}

// TestCodeFigure1e: the shape of the paper's Figure 1(e) (procedure DeadEx): the product of two
// naturals is never negative, so the branch is DEAD, claim and code, in the default mode (Z3
// decides the product) and even with a loop elsewhere in the program, which is cut off but does
// not reach the branch.
func TestCodeFigure1e(t *testing.T) {
	src := "assume j >= 0;\nassume k >= 0;\nr = j * k;\nif r < 0 then\n  assert false;\n  r = 0\nfi;\ni = 0;\nwhile i < 9 do i = i + 1 od"
	rep, got := codeOf(t, src, Options{LoopBound: 2})
	want := "1:1 COVERED\n2:1 COVERED\n3:1 COVERED\n4:1 COVERED\n5:3 DEAD\n6:3 DEAD\n8:1 COVERED\n9:1 COVERED\n9:16 COVERED\n"
	if got != want {
		t.Errorf("got:\n%swant:\n%s", got, want)
	}
	for _, cl := range rep.Claims {
		if cl.Line == 5 && cl.Status != StatusDead {
			t.Errorf("the assert at line 5 is %s, want DEAD like its code", cl.Status)
		}
	}
}

// TestCodeOtherCutoffs: the depth bound's cutoff and the budget's stop make code UNCOVERED too;
// the budget's stop has no program point, so no path or chop.
func TestCodeOtherCutoffs(t *testing.T) {
	src := "if x > 0 then\n  if x > 1 then\n    y = 1\n  fi\nfi"
	_, got := codeOf(t, src, Options{LoopBound: 3, DepthBound: 1})
	if want := "1:1 COVERED\n2:3 COVERED\n3:5 UNCOVERED cut@3\n"; got != want {
		t.Errorf("depth bound 1:\n%swant:\n%s", got, want)
	}
	rep := Verify(testprog.Parse(t, src), Options{LoopBound: 3, Limits: budget.Limits{MaxStates: 1}})
	if rep.Stopped == "" {
		t.Fatal("the budget did not stop the exploration")
	}
	n := 0
	for _, sc := range rep.Code() {
		if sc.Status == CodeDead {
			t.Errorf("%d:%d DEAD although the budget stopped the exploration", sc.Line, sc.Col)
		}
		if sc.Status == CodeUncovered {
			n++
			if sc.Cutoff == nil || sc.Cutoff.Stmt != nil || sc.Chop() != nil || sc.Path() != nil {
				t.Errorf("%d:%d: cutoff %+v", sc.Line, sc.Col, sc.Cutoff)
			}
		}
	}
	if n == 0 {
		t.Error("no statement UNCOVERED after the budget's stop")
	}
}

// TestCodeMacros: the statements of a macro's body are reported one by one, each call apart (same
// own position, different call sites), and each call is judged by its expansion: COVERED when the
// expansion was entered (even if part of it is dead), DEAD when no statement of it ran and no
// cutoff reaches it, UNCOVERED when a cutoff does.
func TestCodeMacros(t *testing.T) {
	src := `macro m begin
  if x > 0 then if x < 0 then y = 1 fi fi
end
m;
if x > 5 then if x < 2 then m fi fi;
i = 0;
while i < 5 do i = i + 1 od;
m`
	rep, got := codeOf(t, src, Options{LoopBound: 2})
	want := "2:3 COVERED @4:1\n2:17 COVERED @4:1\n2:31 DEAD @4:1\n" +
		"5:1 COVERED\n5:15 COVERED\n2:3 DEAD @5:29\n2:17 DEAD @5:29\n2:31 DEAD @5:29\n" +
		"6:1 COVERED\n7:1 COVERED\n7:16 COVERED\n" +
		"2:3 UNCOVERED @8:1 cut@7\n2:17 UNCOVERED @8:1 cut@7\n2:31 UNCOVERED @8:1 cut@7\n"
	if got != want {
		t.Fatalf("got:\n%swant:\n%s", got, want)
	}
	var sites []string
	for _, c := range rep.CallSites() {
		sites = append(sites, fmt.Sprintf("%d:%d %s %d/%d/%d/%d", c.Site.Line, c.Site.Col, c.Status, c.Stmts, c.Covered, c.Uncovered, c.Dead))
	}
	if got, want := strings.Join(sites, "; "), "4:1 COVERED 3/2/0/1; 5:29 DEAD 3/0/0/3; 8:1 UNCOVERED 3/0/3/0"; got != want {
		t.Errorf("call sites: %s, want %s", got, want)
	}
	// Reports place every statement of a call at the call.
	for _, sc := range rep.Code() {
		if sc.Site.Line != 0 && (sc.Line != sc.Site.Line || sc.Col != sc.Site.Col) {
			t.Errorf("statement %d:%d of the call at %d:%d placed at %d:%d", sc.Pos.Line, sc.Pos.Col, sc.Site.Line, sc.Site.Col, sc.Line, sc.Col)
		}
	}
}

// TestCodeAgreesWithClaims: the rule for code is the rule for claims (xSymExe, Section II-A): on
// the programs of testdata (those of verify, and those whose names say a branch is unreachable or
// a macro is used), a statement is DEAD exactly when its claims are DEAD, and a claim is
// UNCOVERED only at an UNCOVERED statement.
func TestCodeAgreesWithClaims(t *testing.T) {
	var files []string
	for _, pat := range []string{"../testdata/verify/*.imp", "../testdata/*unreachable*.imp", "../testdata/*unsat*.imp", "../testdata/macro_*.imp"} {
		fs, err := filepath.Glob(pat)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, fs...)
	}
	checked := 0
	for _, f := range files {
		p, err := parser.ParseFile(f)
		if err != nil {
			continue // a program for the parser's errors
		}
		rep := Verify(p, Options{LoopBound: 3, Limits: budget.Limits{MaxStates: 5000, Timeout: 20 * time.Second}})
		status := map[syntax.Stmt]CodeStatus{}
		for _, sc := range rep.Code() {
			status[sc.Stmt] = sc.Status
		}
		for _, cl := range rep.Claims {
			st, ok := status[cl.Stmt]
			if !ok {
				continue
			}
			checked++
			if (cl.Status == StatusDead) != (st == CodeDead) {
				t.Errorf("%s:%d:%d: claim %s is %s, its statement %s", f, cl.Line, cl.Col, cl.Text, cl.Status, st)
			}
			if cl.Status == StatusUncovered && st != CodeUncovered {
				t.Errorf("%s:%d:%d: claim %s is UNCOVERED, its statement %s", f, cl.Line, cl.Col, cl.Text, st)
			}
		}
	}
	if checked < 20 {
		t.Errorf("only %d claims checked", checked)
	}
	t.Logf("%d claims of %d programs", checked, len(files))
}
