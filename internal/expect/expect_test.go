package expect

import (
	"errors"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestParseRun(t *testing.T) {
	src := `# expect: bug
# options: --all-bugs
# options: --max-states 100
# Free text: BUGs in prose are fine when the word is not first.

macro not_one(v)
begin
  assert v != 1
end
assume x >= 0 and x <= 10;
if x == 0 then
  fail  # BUG#2 fail
fi;
assert 10 / x > 3;  # BUG#1 assert BUG#3 division-by-zero
not_one(x); not_one(x - 1)  # BUG#5 assert BUG#4 assert
`
	f, err := Parse("t.imp", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	want := []Bug{{14, "assert"}, {12, "fail"}, {14, "division-by-zero"}, {15, "assert"}, {15, "assert"}}
	if f.Verdict != "bug" || !reflect.DeepEqual(f.Bugs, want) {
		t.Errorf("verdict %q bugs %v, want bug %v", f.Verdict, f.Bugs, want)
	}
	if !reflect.DeepEqual(f.Options, []string{"--all-bugs", "--max-states", "100"}) {
		t.Errorf("options %q", f.Options)
	}
	if f.Overall != "" || len(f.Claims) != 0 {
		t.Errorf("verify expectations read from a run program: %+v", f)
	}

	// Unnumbered: source order, by line, then left to right.
	f, err = Parse("t.imp", []byte("# expect: bug\ny = 1 / x;  # BUG division-by-zero\nassert 10 / x > 3  # BUG assert division-by-zero\n"))
	if err != nil {
		t.Fatal(err)
	}
	if want := []Bug{{2, "division-by-zero"}, {3, "assert"}, {3, "division-by-zero"}}; !reflect.DeepEqual(f.Bugs, want) {
		t.Errorf("bugs %v, want %v", f.Bugs, want)
	}
	for _, v := range []string{"safe", "unknown"} {
		f, err = Parse("t.imp", []byte("# expect: "+v+"\nx = 1  # an ordinary comment\n"))
		if err != nil || f.Verdict != v || len(f.Bugs) != 0 {
			t.Errorf("%s: %+v, %v", v, f, err)
		}
	}
	// No header at all (engine/testdata): nothing expected, no error.
	if f, err = Parse("t.imp", []byte("# a case study\nx = 1\n")); err != nil || !reflect.DeepEqual(*f, File{Path: "t.imp"}) {
		t.Errorf("no header: %+v, %v", f, err)
	}
}

func TestParseVerify(t *testing.T) {
	src := "# Free text first.\n# options: --loop-bound 3\n# expect: overall REFUTED?\n" +
		"assume x >= 0; assert 10 / x >= 0 and 1 % x == 0;  # CLAIM assert FAULTY? division REFUTED division VERIFIED\n" +
		"# a comment line inside the program\n" +
		"if x > 3 then fail fi;  # CLAIM assert DEAD\n" +
		"while 1 / x > 7 do x = x - 1 od  # CLAIM division INDETERMINATE\n"
	f, err := Parse("v.imp", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	want := []Claim{{4, "assert", "FAULTY?"}, {4, "division", "REFUTED"}, {4, "division", "VERIFIED"}, {6, "assert", "DEAD"}, {7, "division", "INDETERMINATE"}}
	if f.Overall != "REFUTED?" || !reflect.DeepEqual(f.Claims, want) || !reflect.DeepEqual(f.Options, []string{"--loop-bound", "3"}) {
		t.Errorf("got %+v, want overall REFUTED? claims %v", f, want)
	}
	if want[0].String() != "line 4 assert FAULTY?" || (Bug{3, "fail"}).String() != "line 3 kind fail" {
		t.Errorf("String: %s, %s", want[0], Bug{3, "fail"})
	}
	// Rows of primitive claims (xSymExe, Section VI), after the claim they belong to.
	f, err = Parse("p.imp", []byte("# expect: overall FAULTY\nassert 10 / x > 2;  # CLAIM assert FAULTY PRIM DIVISION R TF PRIM ASSERT R TF\n"+
		"y = 1 / (z % 2)  # CLAIM division VERIFIED? PRIM DIVISION V? TC\n"))
	if err != nil {
		t.Fatal(err)
	}
	wantP := []Prim{{0, "DIVISION", "R", "TF"}, {0, "ASSERT", "R", "TF"}, {1, "DIVISION", "V?", "TC"}}
	if !reflect.DeepEqual(f.Prims, wantP) {
		t.Errorf("prims %+v, want %+v", f.Prims, wantP)
	}
}

// TestParseErrors: each malformed expectation is rejected with the file, the line, and what was
// expected.
func TestParseErrors(t *testing.T) {
	macro := "macro m(v)\nbegin\n  assert v != 1\nend\n"
	for _, c := range []struct{ src, want string }{
		// The old header format, with line numbers.
		{"# expect: bug line 2 kind fail\nfail\n", "t.imp:1: the header gives a line number: write '# expect: bug' here and '# BUG fail' at the end of line 2"},
		{"# expect: line 3 assert VERIFIED\n# expect: overall VERIFIED\nassert true\n", "t.imp:1: the header gives a line number: write '# CLAIM assert VERIFIED' at the end of line 3"},
		// Unknown words.
		{"# expect: bug\nfail  # BUG failure\n", `t.imp:2: unknown bug kind "failure": want fail, assert, division-by-zero`},
		{"# expect: bug\nfail  # BUG\n", "t.imp:2: BUG without a kind"},
		{"# expect: bug\nfail  # BUGS fail\n", `t.imp:2: malformed annotation word "BUGS"`},
		{"# expect: bug\nfail  # BUG#0 fail\n", "t.imp:2: BUG#0: bugs are numbered from 1"},
		{"# expect: overall VERIFIED\nassert true  # CLAIM assert PROVED\n", `t.imp:2: unknown claim status "PROVED"`},
		{"# expect: overall VERIFIED\nassert true  # CLAIM assertion VERIFIED\n", `t.imp:2: unknown claim kind "assertion"`},
		{"# expect: overall VERIFIED\nassert true  # CLAIM assert\n", "t.imp:2: CLAIM assert: want CLAIM followed by KIND STATUS pairs"},
		{"# expect: overall SAFE\nassert true  # CLAIM assert VERIFIED\n", `t.imp:1: unknown overall status "SAFE"`},
		{"# expect: fine\nx = 1\n", `t.imp:1: malformed expectation "fine"`},
		// Annotations where no statement can err that way.
		{"# expect: bug\n# BUG fail\nfail\n", "t.imp:2: BUG annotation on a line with no code"},
		{"# expect: bug\nwhile x > 0 do\n  x = x - 1\nod;  # BUG fail\nfail\n", "t.imp:4: BUG annotation on a line with no statement"},
		{"# expect: bug\n" + macro + "m(x)\n", "t.imp:1: '# expect: bug' but no BUG annotation"},
		{"# expect: bug\nmacro m(v)\nbegin\n  assert v != 1  # BUG assert\nend\nm(x)\n", "t.imp:4: BUG annotation on a line with no statement"},
		{"# expect: bug\nx = 1;  # BUG division-by-zero\nfail\n", "t.imp:2: BUG division-by-zero on a line whose statements do not divide"},
		{"# expect: bug\nx = 1 / y;  # BUG assert\nfail\n", "t.imp:2: BUG assert on a line with no assert"},
		{"# expect: bug\nassert x > 0  # BUG fail\n", "t.imp:2: BUG fail on a line with no fail statement"},
		{"# expect: overall VERIFIED\nx = 1  # CLAIM assert VERIFIED\n", "t.imp:2: CLAIM assert on a line with no assert or fail statement"},
		{"# expect: overall VERIFIED\nassert x > 0  # CLAIM division VERIFIED\n", "t.imp:2: CLAIM division on a line whose statements do not divide"},
		{"# expect: overall FAULTY\nassert 1 / x > 0  # CLAIM assert FAULTY PRIM DIVISION R\n", "t.imp:2: PRIM DIVISION R: want PRIM KIND TOKEN LETTERS"},
		{"# expect: overall FAULTY\nassert 1 / x > 0  # CLAIM assert FAULTY PRIM DIV R F\n", `t.imp:2: unknown primitive claim kind "DIV"`},
		{"# expect: overall FAULTY\nassert 1 / x > 0  # CLAIM assert FAULTY PRIM DIVISION X F\n", `t.imp:2: unknown status token "X"`},
		{"# expect: overall FAULTY\nassert 1 / x > 0  # CLAIM assert FAULTY PRIM DIVISION R FT\n", `t.imp:2: collected letters "FT"`},
		// Header facts in the wrong place.
		{"# expect: safe\nx = 1;\n# options: --all-bugs\ny = 2\n", "t.imp:3: '# options:' after the program's first line of code"},
		{"x = 1;\n# expect: safe\ny = 2\n", "t.imp:2: '# expect:' after the program's first line of code"},
		{"# expect: safe\n# expect: unknown\nx = 1\n", "t.imp:2: a second verdict (the first is at line 1)"},
		// Expectations that do not fit together.
		{"# expect: bug\nx = 1\n", "t.imp:1: '# expect: bug' but no BUG annotation"},
		{"# expect: safe\nfail  # BUG fail\n", "t.imp:2: BUG annotation in a program whose header expects safe"},
		{"fail  # BUG fail\n", "t.imp:1: BUG annotation but no '# expect: bug' in the header"},
		{"assert true  # CLAIM assert VERIFIED\n", "t.imp:1: CLAIM annotation but no '# expect: overall STATUS'"},
		{"# expect: bug\nfail;  # BUG#1 fail\nfail  # BUG fail\n", "t.imp:3: an unnumbered BUG in a file whose bugs are numbered"},
		{"# expect: bug\nfail;  # BUG#1 fail\nfail  # BUG#1 fail\n", "t.imp:3: BUG#1 again (also at line 2)"},
		{"# expect: bug\nfail;  # BUG#1 fail\nfail  # BUG#3 fail\n", "t.imp:2: the bugs are numbered, but BUG#2 is missing"},
		{"# expect: bug\nassert 1 / x > 0  # BUG#1 assert division-by-zero\n", "t.imp:2: BUG#1 assert division-by-zero: a numbered bug names exactly one kind"},
	} {
		_, err := Parse("t.imp", []byte(c.src))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q:\n got error %v\nwant one containing %q", c.src, err, c.want)
			continue
		}
		var e *Error
		if !errors.As(err, &e) || e.Path != "t.imp" || e.Line < 1 {
			t.Errorf("%q: %v is not a positioned *Error", c.src, err)
		}
	}
	// A program that does not parse cannot say where annotations may stand.
	if _, err := Parse("t.imp", []byte("# expect: safe\nx = \n")); err == nil || !strings.Contains(err.Error(), "t.imp:3:1") {
		t.Errorf("syntax error: %v", err)
	}
	// Every error of a file is reported, not only the first.
	_, err := Parse("t.imp", []byte("# expect: bug\nfail;  # BUG fial\nassert x > 0  # BUG asert\n"))
	if err == nil || !strings.Contains(err.Error(), "t.imp:2:") || !strings.Contains(err.Error(), "t.imp:3:") {
		t.Errorf("two errors: %v", err)
	}
}

// TestRepositoryFiles: every program of the repository reads without error, and the expectations
// the test harnesses need are there (a verdict in testdata/, claims in testdata/verify/). The
// benchmark tasks of testdata/svcomp/ are read too (they must parse), but no harness runs them.
func TestRepositoryFiles(t *testing.T) {
	runs, _ := filepath.Glob("../../testdata/*.imp")
	verifies, _ := filepath.Glob("../../testdata/verify/*.imp")
	others, _ := filepath.Glob("../../engine/testdata/*.imp")
	svcomp, _ := filepath.Glob("../../testdata/svcomp/*.imp")
	if len(runs) < 40 || len(verifies) < 8 || len(others) == 0 || len(svcomp) < 40 {
		t.Fatalf("found %d, %d, %d and %d programs", len(runs), len(verifies), len(others), len(svcomp))
	}
	bugs := 0
	for _, group := range [][]string{runs, verifies, others, svcomp} {
		for _, file := range group {
			f, err := Read(file)
			if err != nil {
				t.Error(err)
				continue
			}
			switch {
			case group[0] == runs[0] && f.Verdict == "":
				t.Errorf("%s: no verdict", file)
			case group[0] == verifies[0] && (f.Overall == "" || len(f.Claims) == 0):
				t.Errorf("%s: no overall status or no claim", file)
			}
			bugs += len(f.Bugs)
		}
	}
	if bugs == 0 {
		t.Error("no BUG annotation read in the repository")
	}
}
