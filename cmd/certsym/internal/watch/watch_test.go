package watch

import (
	"io"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"certsym/internal/budget"
)

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
