package watch

import (
	"bytes"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"certsym/internal/budget"
)

// The grace of an interrupted run, on a run that never stops by itself: every phase of certsym
// polls the monitor and the solver's queries are abandoned after their grace, so no command
// reaches it any more; these tests stand in for such a run with a monitor nobody polls.

// syncBuffer is a buffer the watch's goroutine writes while the test reads it.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// watchStuck watches a run that never stops, in a solver query when inQuery; Exit sends its
// status on the returned channel instead of ending the test process.
func watchStuck(t *testing.T, inQuery bool) (*syncBuffer, chan int) {
	exits := make(chan int, 8)
	saved := Exit
	Exit = func(code int) { exits <- code }
	m := budget.NewMonitor()
	m.Enter("exploration")
	if inQuery {
		m.QueryStarted(time.Now())
	}
	errOut := &syncBuffer{}
	stop := Signals(m, errOut, 3)
	t.Cleanup(func() { stop(); Exit = saved })
	return errOut, exits
}

func interrupt(t *testing.T) {
	if err := syscall.Kill(os.Getpid(), syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
}

// TestDidNotStopNamesThePhase: when the run does not stop within the grace after the interrupt,
// the watch exits without a report, saying what was running: the exploration, in a solver query.
func TestDidNotStopNamesThePhase(t *testing.T) {
	errOut, exits := watchStuck(t, true)
	interrupt(t)
	select {
	case code := <-exits:
		if code != 3 || !strings.Contains(errOut.String(), "did not stop within 2s of the interrupt: the exploration is in a solver query that has run for") {
			t.Errorf("exit %d, stderr:\n%s", code, errOut.String())
		}
	case <-time.After(time.Minute):
		t.Fatalf("no exit after a minute; stderr:\n%s", errOut.String())
	}
}

// TestSecondInterrupt: a second signal a second or more after the first ends the run at once,
// without a report, before the grace of the first. (One within a second of the first is the same
// request: TestSignalTwiceAtOnce in cmd/certsym.)
func TestSecondInterrupt(t *testing.T) {
	errOut, exits := watchStuck(t, false)
	interrupt(t)
	deadline := time.Now().Add(time.Minute)
	for !strings.Contains(errOut.String(), "stopping") {
		if time.Now().After(deadline) {
			t.Fatalf("no stopping message; stderr:\n%s", errOut.String())
		}
		time.Sleep(10 * time.Millisecond)
	}
	time.Sleep(RepeatWindow + 100*time.Millisecond)
	interrupt(t)
	// On a slow machine the first signal's grace may end first (its exit returns here): the
	// second signal's exit follows it.
	for {
		select {
		case code := <-exits:
			if code != 3 {
				t.Fatalf("exit %d, stderr:\n%s", code, errOut.String())
			}
			if strings.Contains(errOut.String(), "interrupt again: exiting without a report") {
				return
			}
		case <-time.After(time.Minute):
			t.Fatalf("no exit after the second signal within a minute; stderr:\n%s", errOut.String())
		}
	}
}

// TestRepeatAfterStop: the second copy of a signal (GNU timeout signals the process, then its
// group) that arrives after the report is printed and stop called, but within RepeatWindow of the
// first, does not kill the process. The sequence runs in a child process, since a signal with its
// default handling would end the test binary.
func TestRepeatAfterStop(t *testing.T) {
	if os.Getenv("WATCH_REPEAT_CHILD") == "1" {
		m := budget.NewMonitor()
		stop := Signals(m, io.Discard, 3)
		syscall.Kill(os.Getpid(), syscall.SIGINT)
		for m.Stop() == "" {
			time.Sleep(time.Millisecond)
		}
		stop()
		syscall.Kill(os.Getpid(), syscall.SIGINT)
		time.Sleep(200 * time.Millisecond)
		io.WriteString(os.Stdout, "survived the repeat\n")
		os.Exit(0)
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestRepeatAfterStop$")
	cmd.Env = append(os.Environ(), "WATCH_REPEAT_CHILD=1")
	out, err := cmd.Output()
	if err != nil || !strings.Contains(string(out), "survived the repeat") {
		t.Fatalf("child: %v, output %q", err, out)
	}
}
