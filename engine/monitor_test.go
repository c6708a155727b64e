package engine

import (
	"os"
	"os/signal"
	"strings"
	"syscall"
	"testing"
	"time"

	"certsym/internal/budget"
	"certsym/internal/testprog"
)

// TestInterruptQuery: Monitor.Interrupt cuts a running Z3 query short (the query would otherwise
// run to its 60 s bound) and stops the search with the reason "interrupted" (the bug finder; the
// bounded interpreter and verify have tests of the same name).
func TestInterruptQuery(t *testing.T) {
	if testing.Short() {
		t.Skip("short mode: runs Z3 on a hard query; make check runs it")
	}
	prog := testprog.Parse(t, testprog.Fermat)
	mon := budget.NewMonitor()
	e := New(prog, Options{Limits: budget.Limits{QueryTimeout: 60 * time.Second}, Monitor: mon})
	go testprog.InterruptInQuery(mon)
	start := time.Now()
	rep, err := e.FindBugs(nil)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Verdict != VerdictUnknown || rep.Reason != "interrupted" || time.Since(start) > 30*time.Second {
		t.Errorf("bug finder: %v (%s) after %v", rep.Verdict, rep.Reason, time.Since(start))
	}
	if s := rep.Stats.Solver; s.Unknown != 1 || s.Sat+s.Unsat+s.Unknown != s.Queries {
		t.Errorf("solver stats %+v", s)
	}

}

// TestInterruptSearch: an interrupt before the next state stops an endless search; the monitor
// has counted the states.
func TestInterruptSearch(t *testing.T) {
	mon := budget.NewMonitor()
	e := New(testprog.Parse(t, "i = 0;\nwhile i >= 0 do i = i + 1 od"), Options{Monitor: mon})
	for k := 0; k < 1000; k++ {
		if _, err := e.Next(); err != nil {
			t.Fatal(err)
		}
	}
	if s := mon.Snapshot(); s.States != 1000 || s.Depth == 0 || s.Pending != 1 {
		t.Errorf("snapshot %+v after 1000 states", s)
	}
	mon.Interrupt()
	rep, err := e.FindBugs(nil)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Verdict != VerdictUnknown || rep.Reason != "interrupted" || rep.Stats.Expanded != 1000 {
		t.Errorf("%v (%s), %d expanded", rep.Verdict, rep.Reason, rep.Stats.Expanded)
	}
}

// TestAllBugsReasonWhenCutShort: an AllBugs run that a bound stops after finding a bug keeps the
// verdict bug and says why the list may be incomplete.
func TestAllBugsReasonWhenCutShort(t *testing.T) {
	e := New(testprog.Parse(t, "if x == 1 then fail fi;\ni = 0;\nwhile i < y do i = i + 1 od;\nassert i != 5"), Options{AllBugs: true, Limits: budget.Limits{MaxStates: 12}})
	rep, err := e.FindBugs(nil)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Verdict != VerdictBug || !strings.HasPrefix(rep.Reason, "state bound reached") {
		t.Errorf("%v (%q)", rep.Verdict, rep.Reason)
	}
}

// BenchmarkMonitoredRun is the bug finder on the nested-loop benchmark with a progress ticker
// reading its monitor ten times a second, to compare with the same run unwatched
// (BenchmarkUnmonitoredRun): the counters the ticker reads cost the search nothing measurable.
func BenchmarkMonitoredRun(b *testing.B) { benchMonitor(b, true) }

// BenchmarkUnmonitoredRun is BenchmarkMonitoredRun without the ticker.
func BenchmarkUnmonitoredRun(b *testing.B) { benchMonitor(b, false) }

func benchMonitor(b *testing.B, watch bool) {
	prog := testprog.Parse(b, "i = 0;\nwhile i >= 0 do i = i + 1 od")
	for n := 0; n < b.N; n++ {
		mon := budget.NewMonitor()
		stop := func() {}
		if watch {
			stop = mon.Tick(100*time.Millisecond, func(budget.Snapshot) {})
		}
		e := New(prog, Options{Monitor: mon, Limits: budget.Limits{MaxStates: 200_000}})
		if _, err := e.FindBugs(nil); err != nil {
			b.Fatal(err)
		}
		stop()
	}
}

// TestIntegerBound: a loop that multiplies an integer's length by four at each iteration stops
// with a stated reason once a value passes step.MaxIntBits, in the bug finder (the bounded
// interpreter has a test of the same name), instead of spending the machine's time and memory on the arithmetic.
func TestIntegerBound(t *testing.T) {
	prog := testprog.Parse(t, "x = 3;\nwhile x != 0 do x = x * x * x * x od")
	rep, err := New(prog, Options{}).FindBugs(nil)
	if err != nil {
		t.Fatal(err)
	}
	want := "integer bound reached (a value of more than 1048576 bits assigned at 2:17)"
	if rep.Verdict != VerdictUnknown || rep.Reason != want {
		t.Errorf("bug finder: %v (%s)", rep.Verdict, rep.Reason)
	}
}

// TestNoCtrlC: a SIGINT that arrives while Z3 checks reaches Go's handler (signal.Notify), and Z3
// does not act on it: the query goes on until its own time bound. With Z3's default ctrl_c
// parameter the signal went to Z3's handler instead and the query ended "canceled".
func TestNoCtrlC(t *testing.T) {
	if testing.Short() {
		t.Skip("short mode: runs Z3 on a hard query for 1 s; make check runs it")
	}
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt)
	defer signal.Stop(sigs)
	mon := budget.NewMonitor()
	e := New(testprog.Parse(t, testprog.Fermat), Options{Limits: budget.Limits{QueryTimeout: time.Second}, Monitor: mon})
	go func() {
		for mon.Snapshot().InQuery < 200*time.Millisecond {
			time.Sleep(10 * time.Millisecond)
		}
		syscall.Kill(os.Getpid(), syscall.SIGINT)
	}()
	rep, err := e.FindBugs(nil)
	if err != nil {
		t.Fatal(err)
	}
	select {
	case <-sigs:
	default:
		t.Error("the SIGINT sent during the query did not reach signal.Notify")
	}
	if !strings.Contains(rep.Reason, "query time bound 1s reached") {
		t.Errorf("the query did not run to its time bound: %s", rep.Reason)
	}
}
