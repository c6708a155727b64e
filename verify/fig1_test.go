package verify

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"certsym/internal/expect"
	"certsym/spec/syntax/parser"
)

// TestFig1 checks the statuses xSymExe reports for Figure 1 (Hatcliff, Robby, Chalin, Belt,
// ICSE 2013, Section II-A) on our transcriptions (testdata/verify/fig1*.imp), under the options
// of each file's header: for each figure, the claim the paper's text discusses must have the
// paper's status. The claim is found by the text of its line in the file, so that the
// transcription's comments can change.
func TestFig1(t *testing.T) {
	cases := []struct {
		file   string
		line   string    // the claim's line contains this
		kind   ClaimKind // the claim's kind
		where  string    // for an index claim: the element access it is about
		status Status    // the paper's
		why    string
		extra  []string // further options (the header's come first)
		exact  bool     // products exact, whatever the header says (the default mode)
	}{
		{"fig1a_dequeue.imp", "a[i] = a[i + 1]", ClaimIndex, "a[i + 1]", StatusVerifiedQ,
			"(a): the range claim of A(K + 1) at line 20 is VERIFIED?, its failing iteration cut off", nil, false},
		// (b) needs verify to read bounded.State.Over (the flag g): a FALSE found on a flagged
		// state is FALSE?, its counterexample not expected to replay (Section IV-B)
		{"fig1b_dequeue_fixed.imp", "assert (forall k", ClaimAssert, "", StatusRefutedQ,
			"(b): the postcondition is REFUTED?, a false alarm of the precondition's over-approximation", nil, false},
		{"fig1c_fait.imp", "assert q", ClaimAssert, "", StatusIndeterminate,
			"(c): the postcondition is INDETERMINATE, it depends on the abstracted product", nil, false},
		{"fig1c_fait.imp", "assert q", ClaimAssert, "", StatusVerified,
			"(c) in the default mode, products exact: VERIFIED (more precise than the paper's solver, and sound)", nil, true},
		{"fig1d_b.imp", "assert r == 5 * k", ClaimAssert, "", StatusUncovered,
			"(d): the claim at line 39 is UNCOVERED under loop bound 4", nil, false},
		{"fig1e_deadex.imp", "assert r >= 0", ClaimAssert, "", StatusDead,
			"(e): the claim is DEAD by the sign axiom", nil, false},
		{"fig1e_deadex.imp", "assert r >= 0", ClaimAssert, "", StatusDead,
			"(e) in the default mode, products exact: DEAD as well", nil, true},
		{"fig1f_insertionsort.imp", "assert forall k in 1..5", ClaimAssert, "", StatusFaulty,
			"(f): the postcondition is FAULTY (A(6) at K = 5)", nil, false},
		{"fig1g_shift.imp", "assert forall k in 1..n - 1", ClaimAssert, "", StatusVerified,
			"(g): the postcondition is VERIFIED", nil, false},
		{"fig1g_shift.imp", "assert forall k in 1..n - 1", ClaimAssert, "", StatusVerified,
			"(g): VERIFIED under the bound the paper says suffices (greater than Index'Last)", []string{"--loop-bound", "6"}, false},
		{"fig1h_swap.imp", "assert a[k] == a0[j]", ClaimAssert, "", StatusRefuted,
			"(h): the postcondition is REFUTED, with no over-approximation", nil, false},
	}
	for _, c := range cases {
		t.Run(fmt.Sprintf("%s%v/exact=%v", c.file, c.extra, c.exact), func(t *testing.T) {
			path := filepath.Join("..", "testdata", "verify", c.file)
			exp, err := expect.Read(path)
			if err != nil {
				t.Fatal(err)
			}
			opts := fig1Options(t, append(append([]string{}, exp.Options...), c.extra...))
			if c.exact {
				opts.AbstractNonlinear = false
			}
			line := lineOf(t, path, c.line)
			prog, err := parser.ParseFile(path)
			if err != nil {
				t.Fatal(err)
			}
			rep := Verify(prog, opts)
			var found *Claim
			for _, cl := range rep.Claims {
				if cl.Line == line && cl.Kind == c.kind && (c.where == "" || strings.HasPrefix(cl.Where, c.where)) {
					if found != nil {
						t.Fatalf("two claims match at line %d: %s and %s", line, found.Describe(), cl.Describe())
					}
					found = cl
				}
			}
			if found == nil {
				t.Fatalf("no %s claim at line %d (%q)", c.kind, line, c.line)
			}
			if found.Status != c.status {
				t.Errorf("%s\n%s:%d: %s is %s (collected %v), want %s", c.why, c.file, line, found.Describe(), found.Status, found.Summary, c.status)
			}
			if len(rep.ReplayErrors) > 0 {
				t.Errorf("counterexamples that did not replay: %v", rep.ReplayErrors)
			}
		})
	}
}

// fig1Options turns the flags of a header's options lines into Options (the flags these files
// use: --loop-bound, --depth-bound, --abstract-nonlinear; a later flag overrides an earlier one).
func fig1Options(t *testing.T, flags []string) Options {
	t.Helper()
	opts := Options{LoopBound: 3}
	for i := 0; i < len(flags); i++ {
		switch f := flags[i]; f {
		case "--abstract-nonlinear":
			opts.AbstractNonlinear = true
		case "--loop-bound", "--depth-bound":
			if i+1 == len(flags) {
				t.Fatalf("%s without a value", f)
			}
			n, err := strconv.Atoi(flags[i+1])
			if err != nil || n < 0 {
				t.Fatalf("%s %q: not a bound", f, flags[i+1])
			}
			if f == "--loop-bound" {
				opts.LoopBound = n
			} else {
				opts.DepthBound = n
			}
			i++
		default:
			t.Fatalf("option %q is not one TestFig1 knows", f)
		}
	}
	return opts
}

// lineOf is the number of the one line of the file that contains text.
func lineOf(t *testing.T, path, text string) int {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	line := 0
	for i, l := range strings.Split(string(data), "\n") {
		if strings.Contains(l, text) && !strings.HasPrefix(strings.TrimSpace(l), "#") {
			if line != 0 {
				t.Fatalf("%s: %q on lines %d and %d", path, text, line, i+1)
			}
			line = i + 1
		}
	}
	if line == 0 {
		t.Fatalf("%s: no line of code contains %q", path, text)
	}
	return line
}
