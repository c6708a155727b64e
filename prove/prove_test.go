package prove_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"certsym/prove"
	"certsym/spec"
	"certsym/spec/syntax"
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

// TestGivenClauses: clauses given beside the program replace or extend its own, without
// editing it: the weak loop of testdata/prove is proved once s == 2 * i is added, and a
// program without clauses is proved with given ones; a given clause false on entry is refuted
// by a concrete run that arrives at the loop with the clause false, and clauses for no loop are
// an error.
func TestGivenClauses(t *testing.T) {
	weak, err := parser.ParseFile("../testdata/prove/sum_weak_unknown.imp")
	if err != nil {
		t.Fatal(err)
	}
	loop := firstLoop(weak)
	cond := func(p *syntax.Program, text string) syntax.BExpr {
		c, err := prove.ResolveCond(p, text)
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	check := func(p *syntax.Program, inv prove.Invariants, want prove.Answer) *prove.Result {
		t.Helper()
		res, err := prove.Check(p, inv, prove.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if res.Answer != want {
			t.Fatalf("answer %s, want %s", res, want)
		}
		return res
	}
	check(weak, prove.Invariants{loop: {Conds: []syntax.BExpr{cond(weak, "s == 2 * i")}}}, prove.Proved)
	res := check(weak, prove.Invariants{loop: {Conds: []syntax.BExpr{cond(weak, "s == 2 * i"), cond(weak, "i <= n")}, Replace: true}}, prove.Proved)
	if got := len(res.Loops[0].Clauses); got != 2 {
		t.Errorf("replaced clauses: %d used, want 2", got)
	}
	res = check(weak, prove.Invariants{loop: {Conds: []syntax.BExpr{cond(weak, "s == 2 * i + 1")}, Replace: true}}, prove.Refuted)
	if res.Bug.Claim != prove.EntryClaim || res.Bug.Fail.Kind != syntax.FailInvariant {
		t.Errorf("refutation of a given clause: %+v", res.Bug)
	}
	res = check(weak, prove.Invariants{loop: {Conds: []syntax.BExpr{cond(weak, "s >= 0")}, Replace: true}}, prove.Unknown)
	if res.CTI != nil {
		t.Errorf("s >= 0 alone: a counterexample to induction %+v, but the clause is inductive", res.CTI)
	}
	quick, err := prove.Check(weak, prove.Invariants{loop: {Conds: []syntax.BExpr{cond(weak, "s <= 2 * n")}, Replace: true}}, prove.Options{NoSearch: true})
	if err != nil {
		t.Fatal(err)
	}
	if quick.Answer != prove.Unknown || quick.CTI == nil || quick.CTI.Why != "not searched" {
		t.Errorf("s <= 2 * n, without the searches: %s, counterexample to induction %+v", quick, quick.CTI)
	}
	if _, err := prove.Check(weak, prove.Invariants{{Line: 1, Col: 1}: {Conds: []syntax.BExpr{cond(weak, "true")}}}, prove.Options{}); err == nil {
		t.Error("clauses for no loop: no error")
	}
	if _, err := prove.ResolveCond(weak, "zz > 0"); err == nil {
		t.Error("a clause naming no variable of the program: no error")
	}
	plain, err := parser.Parse("plain.imp", []byte("assume n >= 0; i = 0; while i < n do i = i + 1 od; assert i == n"))
	if err != nil {
		t.Fatal(err)
	}
	res = check(plain, nil, prove.Unknown)
	if len(res.Unbounded) != 1 {
		t.Errorf("a loop without clauses: %d unbounded loops reported, want 1 (%s)", len(res.Unbounded), res.Reason)
	}
	check(plain, prove.Invariants{firstLoop(plain): {Conds: []syntax.BExpr{cond(plain, "i <= n")}}}, prove.Proved)
}

// firstLoop is the position of the program's first loop.
func firstLoop(p *syntax.Program) (pos syntax.Pos) {
	syntax.Inspect(p.Body, func(n syntax.Node) bool {
		if w, ok := n.(*syntax.While); ok && pos.Line == 0 {
			pos = w.Pos()
		}
		return true
	})
	return pos
}

// TestProgramStartsWithFail: a program whose first statement is fail is refuted (its initial
// state is an error state, which no step produces).
func TestProgramStartsWithFail(t *testing.T) {
	for _, src := range []string{"fail", "fail; x = 1"} {
		p, err := parser.Parse("fail.imp", []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		res, err := prove.Check(p, nil, prove.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if res.Answer != prove.Refuted || res.Bug.Fail.Kind != syntax.FailExplicit {
			t.Errorf("%q: %s, want refuted at the fail", src, res)
		}
	}
}
