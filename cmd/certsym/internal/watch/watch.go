// Package watch is what watches one run of a certsym command from outside: the signals
// (SIGINT, SIGTERM) that interrupt it, and the grace after an interrupt or its time bound past
// which it exits without a report, saying what was running. The run itself polls the same
// budget.Monitor in every phase.
package watch

import (
	"fmt"
	"io"
	"os"
	"os/signal"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"certsym/cmd/certsym/internal/catch"
	"certsym/internal/budget"
)

// Start makes the monitor of one command bounded by lim (its time and memory bounds, which every
// phase polls) and handles SIGINT, SIGTERM and the deadline for it (Signals, exiting with
// status). stop restores the default handling of the signals; call it once the report is
// printed.
func Start(lim budget.Limits, stderr io.Writer, status int) (mon *budget.Monitor, stop func()) {
	mon = budget.NewMonitor()
	mon.SetLimits(lim)
	return mon, Signals(mon, stderr, status)
}

// Exit ends the process without a report (os.Exit). The command's in-process tests replace it:
// there, a run past its grace is left to finish, the test process is not ended under them.
var Exit = os.Exit

// StopFunc is spec.Limits.Stop for a run that mon watches.
func StopFunc(mon *budget.Monitor) func() bool {
	return func() bool { return mon.Stop() != "" }
}

// interruptGrace is how long an interrupted run, or one whose time bound has passed, has to print
// its partial report before it exits without one. Every phase polls the monitor, the report is
// due budget.WrapUp after the stop, and a solver query Z3 does not stop is abandoned half a
// second after the interrupt or its time bound (package solver), so only a computation that polls
// nothing takes that long.
const interruptGrace = 2 * time.Second

// RepeatWindow is how long after a first signal another one is taken as the same request: GNU
// timeout, and a terminal's Ctrl-C, signal the process and then its process group, so that
// certsym receives the same signal twice at once.
const RepeatWindow = time.Second

// Signals makes SIGINT and SIGTERM interrupt the run m watches: the first one calls
// m.Interrupt (the search stops and the running solver query is cut short, the later phases
// complete the partial report within budget.WrapUp, and the command ends with the reason
// "interrupted"); another one within RepeatWindow of the first is the same request, and a
// later one exits at once with status. When the run has not stopped interruptGrace after the interrupt, or
// after its time bound (m's deadline), it exits with status without a report, saying what was running. The
// returned function restores the default handling (it may be called more than once); when it is
// called within RepeatWindow of the first signal, the default handling comes back only at the
// window's end, so that the second copy of that signal does not kill the process after its
// report. When the process catches its signals from its start (package catch), the handler takes
// them from the catcher, and gives them back to it (which ignores them from then on) instead.
func Signals(m *budget.Monitor, stderr io.Writer, status int) (stop func()) {
	sigs := make(chan os.Signal, 4)
	release, caught := catch.Take(sigs)
	if !caught {
		signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	}
	done := make(chan struct{})
	finished := make(chan struct{})
	var firstAt atomic.Int64 // when the first signal came (UnixNano), 0 before it
	go func() {
		defer close(finished)
		// The deadline's grace: the run stops itself at the deadline (every phase polls the
		// monitor, and each solver query is bounded by the deadline too).
		var deadlineGrace <-chan time.Time
		if d := m.Deadline(); !d.IsZero() {
			t := time.NewTimer(time.Until(d) + interruptGrace)
			defer t.Stop()
			deadlineGrace = t.C
		}
		var first time.Time
		var grace, tick <-chan time.Time
		for {
			select {
			case <-done:
				return
			case s := <-sigs:
				switch {
				case first.IsZero():
					first = time.Now()
					firstAt.Store(first.UnixNano())
					fmt.Fprintf(stderr, "certsym: %s: stopping, the partial report follows (again to exit at once)\n", SigName(s))
					m.Interrupt()
					grace = time.After(interruptGrace)
					// A query that started between the check of the interrupt flag and the flag
					// being set missed the context interrupt: interrupt again until the run returns.
					t := time.NewTicker(20 * time.Millisecond)
					defer t.Stop()
					tick = t.C
				case time.Since(first) < RepeatWindow:
					// the same request, delivered twice (to the process, then to its group)
				default:
					fmt.Fprintf(stderr, "certsym: %s again: exiting without a report\n", SigName(s))
					Exit(status)
				}
			case <-grace:
				fmt.Fprintf(stderr, "certsym: the run did not stop within %v of the interrupt: %s: exiting without a report\n", interruptGrace, Running(m))
				Exit(status)
			case <-deadlineGrace:
				fmt.Fprintf(stderr, "certsym: the run did not stop within %v of its time bound: %s: exiting without a report\n", interruptGrace, Running(m))
				Exit(status)
			case <-tick:
				m.Interrupt()
			}
		}
	}()
	var once sync.Once
	return func() {
		once.Do(func() {
			close(done)
			<-finished
			if caught {
				release()
				return
			}
			if at := firstAt.Load(); at != 0 {
				if left := RepeatWindow - time.Since(time.Unix(0, at)); left > 0 {
					time.AfterFunc(left, func() { signal.Stop(sigs) })
					return
				}
			}
			signal.Stop(sigs)
		})
	}
}

// Running says what the run m watches is doing: its phase, and the solver query under way.
func Running(m *budget.Monitor) string {
	what := "the " + m.Phase()
	if m.Phase() == "" {
		what = "the run"
	}
	if q := m.Snapshot().InQuery; q > 0 {
		return fmt.Sprintf("%s is in a solver query that has run for %.1fs", what, q.Seconds())
	}
	return what + " is still running, outside the solver (one step of it did not finish)"
}

// SigName names a signal in the messages: "interrupt" (SIGINT) or "terminated" (SIGTERM).
func SigName(s os.Signal) string {
	if s == os.Interrupt {
		return "interrupt"
	}
	return "terminated"
}
