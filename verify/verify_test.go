package verify

import (
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"certsym/bounded"
	"certsym/internal/budget"
	"certsym/internal/testprog"
	"certsym/spec"
	"certsym/spec/integer"
	"certsym/spec/syntax"
)

// TestStatusTableRows checks each row of the interpretation table on summaries it must take, and
// the first-match order on summaries several rows' conditions hold of.
func TestStatusTableRows(t *testing.T) {
	const (
		T  = ResTrue
		F  = ResFalse
		U  = ResUndefined
		D  = ResDontKnow
		FQ = ResFalseQ
		UQ = ResUndefinedQ
		C  = ResCutoff
	)
	cases := []struct {
		rs   []Result
		want Status
		why  string
	}{
		{nil, StatusDead, "nothing reaches the claim"},
		{[]Result{T}, StatusVerified, "all TRUE"},
		{[]Result{F}, StatusRefuted, "FALSE"},
		{[]Result{T, F}, StatusRefuted, "FALSE among TRUE"},
		{[]Result{U}, StatusFaulty, "UNDEFINED"},
		{[]Result{T, U}, StatusFaulty, "UNDEFINED among TRUE"},
		{[]Result{FQ}, StatusRefutedQ, "FALSE?"},
		{[]Result{UQ}, StatusFaultyQ, "UNDEFINED?"},
		{[]Result{C}, StatusUncovered, "only cutoffs"},
		{[]Result{T, C}, StatusVerifiedQ, "TRUE and a cutoff"},
		{[]Result{D}, StatusIndeterminate, "DONTKNOW"},
		{[]Result{T, D}, StatusIndeterminate, "DONTKNOW among TRUE"},
		{[]Result{C, D}, StatusIndeterminate, "DONTKNOW and a cutoff"},
		{[]Result{T, C, D}, StatusIndeterminate, "TRUE, CUTOFF, DONTKNOW"},
		// First match: REFUTED before FAULTY, before the '?' statuses, before UNCOVERED/VERIFIED?.
		{[]Result{F, U}, StatusRefuted, "REFUTED wins over FAULTY"},
		{[]Result{F, U, FQ, UQ, D, C, T}, StatusRefuted, "REFUTED wins over everything"},
		{[]Result{U, FQ}, StatusFaulty, "FAULTY wins over REFUTED?"},
		{[]Result{U, UQ, C}, StatusFaulty, "FAULTY wins over FAULTY? and cutoffs"},
		{[]Result{FQ, UQ}, StatusRefutedQ, "REFUTED? wins over FAULTY?"},
		{[]Result{FQ, D, C}, StatusRefutedQ, "REFUTED? wins over INDETERMINATE and cutoffs"},
		{[]Result{UQ, D}, StatusFaultyQ, "FAULTY? wins over INDETERMINATE"},
		{[]Result{UQ, C, T}, StatusFaultyQ, "FAULTY? wins over VERIFIED?"},
	}
	for _, c := range cases {
		s := SummaryOf(c.rs...)
		if got := Interpret(s); got != c.want {
			t.Errorf("%s: Interpret(%s) = %s, want %s", c.why, s, got, c.want)
		}
	}
}

// TestStatusTableOrder checks that the order of the rows matters where the conditions overlap:
// the later row's condition also holds, so only the order gives the right status.
func TestStatusTableOrder(t *testing.T) {
	row := func(st Status) int {
		for i, r := range StatusTable {
			if r.Status == st {
				return i
			}
		}
		t.Fatalf("no row for %s", st)
		return -1
	}
	overlaps := []struct {
		s             Summary
		first, second Status
	}{
		{SummaryOf(ResFalse, ResUndefined), StatusRefuted, StatusFaulty},
		{SummaryOf(ResUndefined, ResFalseQ), StatusFaulty, StatusRefutedQ},
		{SummaryOf(ResFalseQ, ResUndefinedQ), StatusRefutedQ, StatusFaultyQ},
		{SummaryOf(), StatusDead, StatusVerifiedQ},
		{SummaryOf(ResTrue), StatusVerified, StatusVerifiedQ},
		{SummaryOf(ResCutoff), StatusUncovered, StatusVerifiedQ},
		{SummaryOf(ResTrue, ResCutoff), StatusVerifiedQ, StatusIndeterminate},
	}
	for _, o := range overlaps {
		i, j := row(o.first), row(o.second)
		if !StatusTable[i].Match(o.s) || !StatusTable[j].Match(o.s) {
			t.Errorf("%s: expected both %s and %s to match", o.s, o.first, o.second)
		}
		if i >= j {
			t.Errorf("%s must come before %s", o.first, o.second)
		}
		if got := Interpret(o.s); got != o.first {
			t.Errorf("Interpret(%s) = %s, want %s", o.s, got, o.first)
		}
	}
	want := []string{"DEAD", "VERIFIED", "REFUTED", "FAULTY", "REFUTED?", "FAULTY?", "UNCOVERED", "VERIFIED?", "INDETERMINATE"}
	for i, r := range StatusTable {
		if r.Status.String() != want[i] {
			t.Errorf("row %d is %s, want %s", i, r.Status, want[i])
		}
	}
	// Every summary gets exactly the status of its first matching row.
	for s := Summary(0); s < 1<<numResults; s++ {
		first := -1
		for i, r := range StatusTable {
			if r.Match(s) {
				first = i
				break
			}
		}
		if first < 0 || Interpret(s) != StatusTable[first].Status {
			t.Errorf("Interpret(%s) = %s, first matching row %d", s, Interpret(s), first)
		}
	}
}

func TestOverall(t *testing.T) {
	cases := []struct {
		ss   []Status
		want Status
	}{
		{nil, StatusVerified},
		{[]Status{StatusDead}, StatusVerified},
		{[]Status{StatusVerified, StatusDead}, StatusVerified},
		{[]Status{StatusVerifiedQ, StatusVerified}, StatusVerifiedQ},
		{[]Status{StatusUncovered, StatusVerifiedQ}, StatusUncovered},
		{[]Status{StatusIndeterminate, StatusUncovered}, StatusIndeterminate},
		{[]Status{StatusFaultyQ, StatusIndeterminate}, StatusFaultyQ},
		{[]Status{StatusFaultyQ, StatusRefutedQ}, StatusRefutedQ},
		{[]Status{StatusRefutedQ, StatusFaulty}, StatusFaulty},
		{[]Status{StatusFaulty, StatusRefuted, StatusVerified}, StatusRefuted},
	}
	for _, c := range cases {
		if got := Overall(c.ss); got != c.want {
			t.Errorf("Overall(%v) = %s, want %s", c.ss, got, c.want)
		}
	}
}

func fmtInts(a []int) string {
	var parts []string
	for _, x := range a {
		parts = append(parts, itoa(x))
	}
	return strings.Join(parts, " ")
}

// claimStatuses runs Verify and renders "line kind STATUS" per claim.
func claimStatuses(t *testing.T, src string, opts Options) (*Report, string) {
	t.Helper()
	rep := Verify(testprog.Parse(t, src), opts)
	if len(rep.ReplayErrors) > 0 {
		t.Fatalf("replay errors: %v", rep.ReplayErrors)
	}
	var parts []string
	for _, cl := range rep.Claims {
		parts = append(parts, itoa(cl.Line)+" "+cl.Kind.String()+" "+cl.Status.String())
	}
	return rep, strings.Join(parts, "; ")
}

func TestVerifyDepthBound(t *testing.T) {
	src := `if x > 0 then y = 1 else y = 2 fi;
if y == 1 then if z > 0 then w = 1 else w = 2 fi else w = 1 fi;
assert y + w >= 2`
	// x <= 0 reaches the assert after one decision; x > 0 takes a second one (z > 0) and is cut
	// off at the assignments of line 2.
	rep, got := claimStatuses(t, src, Options{LoopBound: 3, DepthBound: 1})
	if got != "3 assert VERIFIED?" || len(rep.Cutoffs) != 2 {
		t.Errorf("depth bound 1: %s, %d cutoffs", got, len(rep.Cutoffs))
	}
	for _, c := range rep.Cutoffs {
		if c.Line != 2 || !strings.HasPrefix(c.Reason, "depth bound 1") {
			t.Errorf("cutoff %+v", c)
		}
	}
	rep, got = claimStatuses(t, src, Options{LoopBound: 3})
	if got != "3 assert VERIFIED" || len(rep.Cutoffs) != 0 {
		t.Errorf("no depth bound: %s, cutoffs %v", got, rep.Cutoffs)
	}
}

func TestVerifyStateBound(t *testing.T) {
	src := `if x > 0 then y = 1 else y = 2 fi;
if z > 0 then w = 1 else w = 2 fi;
if v > 0 then w = w + 1 fi;
assert y + w >= 2`
	rep, got := claimStatuses(t, src, Options{LoopBound: 3, Limits: budget.Limits{MaxStates: 3}})
	if rep.Stopped == "" || !strings.Contains(got, "VERIFIED?") && !strings.Contains(got, "UNCOVERED") {
		t.Errorf("state bound: stopped %q, %s", rep.Stopped, got)
	}
}

// TestVerifyDivisionClaims: one claim per division, in post-order; a nested division makes the
// outer divisor's claim UNDEFINED; a claim in a macro body reports the call's line; a division in
// a loop condition is refuted with a replayed counterexample.
func TestVerifyDivisionClaims(t *testing.T) {
	src := `macro check(a) begin
  assert a >= 0
end
assume y >= 0 and y <= 5;
x = 10 / (100 / y);
check(y);
check(y - 2)`
	rep, got := claimStatuses(t, src, Options{LoopBound: 5})
	want := "5 division REFUTED; 5 division FAULTY; 6 assert VERIFIED; 7 assert REFUTED"
	if got != want {
		t.Errorf("statuses\n got %s\nwant %s", got, want)
	}
	if c := rep.Claims[0]; c.Text != "y != 0" {
		t.Errorf("first claim %q, want the inner divisor y != 0 (post-order)", c.Text)
	}
	if outer := rep.Claims[1]; outer.Text != "100 / y != 0" || outer.Summary != SummaryOf(ResUndefined) {
		t.Errorf("outer divisor claim %q collected %s", outer.Text, outer.Summary)
	}
	if w := rep.Claims[3].Counterexample(); w == nil || !w.Input[rep.Prog.VarIndex("y")].Equal(integer.Of(0)) && !w.Input[rep.Prog.VarIndex("y")].Equal(integer.Of(1)) {
		t.Errorf("macro assert counterexample %+v", w)
	}

	rep, got = claimStatuses(t, "i = 3;\nwhile 6 / i > 1 do i = i - 1 od", Options{LoopBound: 5})
	if got != "2 division REFUTED" {
		t.Errorf("loop division: %s", got)
	}
	if w := rep.Claims[0].Counterexample(); w == nil || !w.Input[0].IsZero() || !strings.Contains(w.Replay, "defining claim i != 0 is false") {
		t.Errorf("loop division witness: %+v", w)
	}
}

// TestVerifyUnknownIsDontKnow: without --abstract-nonlinear a query Z3 cannot answer within its
// budget gives DONTKNOW, never VERIFIED or REFUTED.
func TestVerifyUnknownIsDontKnow(t *testing.T) {
	src := `assume x >= 2 and y >= 2 and z >= 2;
assert x * x * x + y * y * y != z * z * z`
	rep, got := claimStatuses(t, src, Options{LoopBound: 1, Limits: budget.Limits{RLimit: 1}})
	if got != "2 assert INDETERMINATE" {
		t.Errorf("got %s", got)
	}
	if len(rep.Claims[0].Unhandled) == 0 || !strings.Contains(rep.Claims[0].Unhandled[0].What, "solver") {
		t.Errorf("unhandled: %+v", rep.Claims[0].Unhandled)
	}
}

// TestVerifyAbstractionNeverRefutesFalsely: under --abstract-nonlinear a claim that is true but
// whose abstract query has a spurious model is never REFUTED; a genuinely false one still is when
// neither it nor its path condition has a product; once the path condition has one, the paper's
// naive UT (Section IV-B) makes every FALSE answer DONTKNOW, even a genuine one.
func TestVerifyAbstractionNeverRefutesFalsely(t *testing.T) {
	src := `z = x * y;
assert x != 3 or y != 2;
assert z != 7 or x == 1 or x == 7 or x == -1 or x == -7;
assert x != 5 or y != 2`
	_, got := claimStatuses(t, src, Options{LoopBound: 1, AbstractNonlinear: true})
	if got != "2 assert REFUTED; 3 assert INDETERMINATE; 4 assert INDETERMINATE" {
		t.Errorf("abstracted: %s", got)
	}
	_, got = claimStatuses(t, src, Options{LoopBound: 1})
	if got != "2 assert REFUTED; 3 assert VERIFIED; 4 assert REFUTED" {
		t.Errorf("exact: %s", got)
	}
}

// TestVerifySignAxioms: what the sign axioms alone prove is VERIFIED under the abstraction.
func TestVerifySignAxioms(t *testing.T) {
	src := `assume x > 0 and y < 0;
assert x * y < 0;
assert x * y != 0;
assume x * y * x >= 0;
assert false`
	_, got := claimStatuses(t, src, Options{LoopBound: 1, AbstractNonlinear: true})
	if got != "2 assert VERIFIED; 3 assert VERIFIED; 5 assert DEAD" {
		t.Errorf("got %s", got)
	}
}

// TestVerifyFailIsAssertFalse: an explicit fail is the claim assert false.
func TestVerifyFailIsAssertFalse(t *testing.T) {
	rep, got := claimStatuses(t, "if x == 3 then fail fi;\nif x > x then fail fi", Options{LoopBound: 1})
	if got != "1 assert REFUTED; 2 assert DEAD" {
		t.Errorf("got %s", got)
	}
	if w := rep.Claims[0].Counterexample(); w == nil || !w.Input[0].Equal(integer.Of(3)) {
		t.Errorf("counterexample %+v", w)
	}
}

// BenchmarkVerify verifies a loop program with two claims per iteration, loop bound 12.
func BenchmarkVerify(b *testing.B) {
	p := testprog.Parse(b, `assume n >= 0;
i = 0; s = 0;
while i < n do
  s = s + 100 / (i + 1);
  i = i + 1;
  assert s >= i
od;
assert i == n`)
	// One run before the timed ones: the first Z3 context of a process costs more than the next
	// ones, and this benchmark has its package's test binary to itself, so with make bench's three
	// iterations that first context would weigh on the figure (b.Loop starts the timer afresh).
	Verify(p, Options{LoopBound: 12})
	for b.Loop() {
		rep := Verify(p, Options{LoopBound: 12})
		if rep.Overall != StatusVerifiedQ {
			b.Fatalf("overall %s", rep.Overall)
		}
	}
}

// TestClaimsOfRuns: the claims a concrete run meets at each statement (a loop's unfolding counts
// as the loop), the claims of each failure, and when a store falsifies them. The refinement layer
// checks verify's statuses against concrete runs through these (refinement/verifycheck).
func TestClaimsOfRuns(t *testing.T) {
	p := testprog.Parse(t, "while 10 / x > i do i = i + 1 od;\nassert i < 3 and 6 % (y - i) == 0;\nfail")
	rep := Verify(p, Options{LoopBound: 2})
	w := p.Body.(*syntax.Seq).First.(*syntax.While)
	as := p.Body.(*syntax.Seq).Second.(*syntax.Seq).First.(*syntax.Assert)
	fl := p.Body.(*syntax.Seq).Second.(*syntax.Seq).Second.(*syntax.Fail)
	names := func(cs []*Claim) string {
		var out []string
		for _, cl := range cs {
			out = append(out, cl.Kind.String()+" "+cl.Describe())
		}
		return strings.Join(out, "; ")
	}
	for _, c := range []struct {
		got, want string
	}{
		{names(rep.ClaimsAt(w)), "division x != 0 (in 10 / x)"},
		{names(rep.ClaimsAt(w.Unfold)), "division x != 0 (in 10 / x)"},
		{names(rep.ClaimsOfFail(w.Unfold.Err)), "division x != 0 (in 10 / x)"},
		{names(rep.ClaimsAt(as)), "assert i < 3 and 6 % (y - i) == 0"},
		{names(rep.ClaimsOfFail(as.Violation)), names(rep.ClaimsAt(as))},
		{names(rep.ClaimsOfFail(as.Err)), names(rep.ClaimsAt(as))},
		{names(rep.ClaimsOfFail(fl)), "assert false (fail statement)"},
	} {
		if c.got != c.want {
			t.Errorf("got %q, want %q", c.got, c.want)
		}
	}
	// The division of the assert is a supporting claim of it (xSymExe, Section IV-A).
	assertClaim := rep.ClaimsAt(as)[0]
	if ps := assertClaim.Prims; len(ps) != 2 || ps[0].Kind != PrimDivision || ps[0].Text != "y - i != 0" || ps[1].Kind != PrimAssert {
		t.Fatalf("primitive claims of the assert: %v", primNames(assertClaim))
	}
	if got := strings.Join(p.Vars, ","); got != "x,i,y" {
		t.Fatalf("variables %s", got)
	}
	for _, c := range []struct {
		store  []int64
		assert Result
	}{
		{[]int64{1, 0, 6}, ResTrue},      // 0 < 3 and 6 % 6 == 0
		{[]int64{1, 3, 6}, ResFalse},     // i < 3 is false
		{[]int64{1, 2, 2}, ResUndefined}, // 6 % 0: the supporting claim is false
		{[]int64{1, 1, 5}, ResFalse},     // 6 % 4 != 0
	} {
		st := spec.Store{integer.Of(c.store[0]), integer.Of(c.store[1]), integer.Of(c.store[2])}
		r, _ := assertClaim.concrete(st)
		if r != c.assert || assertClaim.Falsified(st) != (c.assert != ResTrue) {
			t.Errorf("store %v: assert %s, falsified %v, want %s", c.store, r, assertClaim.Falsified(st), c.assert)
		}
	}
	// A divisor that is itself undefined falsifies its claim: in x / (y / z) with z = 0 both
	// claims fail.
	rep = Verify(testprog.Parse(t, "w = x / (y / z)"), Options{LoopBound: 1})
	st := spec.Store{integer.Of(0), integer.Of(1), integer.Of(4), integer.Of(0)} // w, x, y, z
	for _, cl := range rep.Claims {
		if !cl.Falsified(st) {
			t.Errorf("z = 0 does not falsify the claim %s", cl.Describe())
		}
	}
	if st[3] = integer.Of(5); rep.Claims[0].Falsified(st) || !rep.Claims[1].Falsified(st) {
		t.Errorf("z = 5: inner claim falsified %v, outer (4 / 5 = 0) falsified %v", rep.Claims[0].Falsified(st), rep.Claims[1].Falsified(st))
	}
}

// gcdSrc is engine/testdata/gcd.imp: every branch goes to the solver and the paths multiply with
// the loop bound, so a high bound runs into any time or memory bound.
func gcdSrc(t testing.TB) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(testprog.Root(), "engine", "testdata", "gcd.imp"))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestVerifyTimeBound: when the time bound stops the exploration, the queries it cut short are
// not DONTKNOW results: the bound's own cutoff stands for them, so a claim true on every explored
// path is VERIFIED?, never INDETERMINATE; no error path is kept for want of time to prune it; and
// the progress hook has reported.
func TestVerifyTimeBound(t *testing.T) {
	if testing.Short() {
		t.Skip("short mode: runs for 2 s; make check runs it")
	}
	var reports atomic.Int32
	mon := budget.NewMonitor()
	stop := mon.Tick(100*time.Millisecond, func(s budget.Snapshot) {
		if s.States > 0 {
			reports.Add(1)
		}
	})
	rep, got := claimStatuses(t, gcdSrc(t), Options{LoopBound: 60, Limits: budget.Limits{Timeout: 2 * time.Second}, Monitor: mon})
	stop()
	if !strings.HasPrefix(rep.Stopped, "time bound reached") {
		t.Fatalf("stopped %q", rep.Stopped)
	}
	cl := rep.Claims[0]
	if got != "12 assert VERIFIED?" || cl.Summary != SummaryOf(ResTrue, ResCutoff) || len(cl.Unhandled) != 0 {
		t.Errorf("%s, collected %v, unhandled %v", got, cl.Summary, cl.Unhandled)
	}
	if rep.Results[spec.Error] != 0 {
		t.Errorf("%d error results after the time bound", rep.Results[spec.Error])
	}
	if reports.Load() == 0 {
		t.Error("no progress report in 2 s")
	}
	// A bound that has passed before the first query: the claim's query is cut short, and the
	// claim is UNCOVERED (only the bound's cutoff), not INDETERMINATE.
	rep, got = claimStatuses(t, "assert x * y != 7", Options{LoopBound: 1, Limits: budget.Limits{Timeout: time.Nanosecond}})
	if got != "1 assert UNCOVERED" || !strings.HasPrefix(rep.Stopped, "time bound reached") {
		t.Errorf("time bound 1ns: %s, collected %v, stopped %q", got, rep.Claims[0].Summary, rep.Stopped)
	}
}

// TestBoundedMemoryBound: the memory bound stops the bounded interpreter with a stated reason.
func TestBoundedMemoryBound(t *testing.T) {
	b := bounded.New(testprog.Parse(t, gcdSrc(t)), 60)
	b.MaxMemory = 1
	if _, err := b.SymInterp(nil); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(b.Stopped(), "memory bound reached (heap") {
		t.Errorf("stopped %q", b.Stopped())
	}
}

// TestVerifyStopped: a budget stop in verify makes the verdict unknown, with the stop as the
// reason, and the budget cuts are not reported as loop-bound cutoffs.
func TestVerifyStopped(t *testing.T) {
	src := `i = 0;
while i < n do
  if i % 2 == 0 then x = x + 1 else x = x - 1 fi;
  i = i + 1
od;
assert x <= x + 1`
	p := testprog.Parse(t, src)
	rep := Verify(p, Options{LoopBound: 20, Limits: budget.Limits{MaxStates: 15}})
	if rep.Stopped == "" || !strings.Contains(rep.Stopped, "state bound") {
		t.Fatalf("Stopped = %q, want the state bound", rep.Stopped)
	}
	if rep.Overall.Conclusive() {
		t.Fatalf("overall %s after a stop, want an inconclusive status", rep.Overall)
	}
	stop := false
	for _, c := range rep.Cutoffs {
		if c.Stmt == nil && strings.Contains(c.Reason, rep.Stopped) {
			stop = true
		}
		if c.Stmt != nil && strings.Contains(c.Reason, "loop bound") {
			t.Errorf("a budget cut counted as a loop-bound cutoff: %+v", c)
		}
	}
	if !stop {
		t.Fatalf("no cutoff names the stop: %+v", rep.Cutoffs)
	}
	if rep.Results[spec.Incomplete] == 0 {
		t.Fatal("the stopped paths are not counted as incomplete results")
	}
}

// TestInterruptQuery: Monitor.Interrupt cuts a running Z3 query short (the query would otherwise
// run to its 60 s bound) and stops verify with the reason "interrupted".
func TestInterruptQuery(t *testing.T) {
	if testing.Short() {
		t.Skip("short mode: runs Z3 on a hard query; make check runs it")
	}
	prog := testprog.Parse(t, testprog.Fermat)
	mon := budget.NewMonitor()
	go testprog.InterruptInQuery(mon)
	vr := Verify(prog, Options{LoopBound: 2, Limits: budget.Limits{QueryTimeout: 60 * time.Second}, Monitor: mon})
	if vr.Stopped != "interrupted" || vr.Overall.Conclusive() {
		t.Errorf("verify: stopped %q, overall %v", vr.Stopped, vr.Overall)
	}
}

func itoa(n int) string { return integer.Of(int64(n)).String() }
