package catch

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"syscall"
	"testing"
	"time"
)

// child runs this test binary again with CERTSYM_CATCH_CHILD set to the scenario, and returns
// its exit status and output.
func child(t *testing.T, test, scenario string) (int, string) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^"+test+"$")
	cmd.Env = append(os.Environ(), "CERTSYM_CATCH_CHILD="+scenario)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	cmd.Run()
	if ws := cmd.ProcessState.Sys().(syscall.WaitStatus); ws.Signaled() {
		t.Fatalf("%s: the child was killed by %v: %s", scenario, ws.Signal(), out.String())
	}
	return cmd.ProcessState.ExitCode(), out.String()
}

// signalSelf sends the process sig and waits for the catcher to have had it.
func signalSelf(sig syscall.Signal) {
	syscall.Kill(os.Getpid(), sig)
	time.Sleep(200 * time.Millisecond)
}

// TestCatch: once Start is called, a signal before the run is answered by before (told whether
// Output was written to), one during a Hold section only once it ends, one while a run takes the
// signals goes to the run's channel, and one after the run gave them back is ignored. Each
// scenario is a process of its own (this test binary, run again).
func TestCatch(t *testing.T) {
	if s := os.Getenv("CERTSYM_CATCH_CHILD"); s != "" {
		Start(func(sig os.Signal, wrote bool) {
			fmt.Printf("before %v wrote=%v\n", sig, wrote)
			os.Exit(3)
		})
		switch s {
		case "before":
			signalSelf(syscall.SIGTERM)
		case "wrote":
			fmt.Fprint(Output(os.Stdout), "out\n")
			signalSelf(syscall.SIGINT)
		case "hold":
			release, _ := Hold()
			signalSelf(syscall.SIGINT)
			fmt.Println("held")
			release()
			time.Sleep(200 * time.Millisecond)
		case "run":
			ch := make(chan os.Signal, 4)
			release, ok := Take(ch)
			signalSelf(syscall.SIGINT)
			fmt.Printf("take %v, got %v\n", ok, <-ch)
			release()
			signalSelf(syscall.SIGINT)
			fmt.Println("ignored after the run")
			os.Exit(0)
		}
		fmt.Println("the signal was not answered")
		os.Exit(1)
	}
	for _, c := range []struct {
		scenario string
		code     int
		out      string
	}{
		{"before", 3, "before terminated wrote=false\n"},
		{"wrote", 3, "out\nbefore interrupt wrote=true\n"},
		{"hold", 3, "held\nbefore interrupt wrote=false\n"},
		{"run", 0, "take true, got interrupt\nignored after the run\n"},
	} {
		if code, out := child(t, "TestCatch", c.scenario); code != c.code || out != c.out {
			t.Errorf("%s: exit %d, output %q; want exit %d, %q", c.scenario, code, out, c.code, c.out)
		}
	}
}

// TestNotStarted: without Start, Take and Hold say so, and Output writes through.
func TestNotStarted(t *testing.T) {
	if os.Getenv("CERTSYM_CATCH_CHILD") != "" {
		t.Skip("a child of TestCatch")
	}
	if _, ok := Take(make(chan os.Signal, 1)); ok {
		t.Error("Take without Start answered ok")
	}
	if _, ok := Hold(); ok {
		t.Error("Hold without Start answered ok")
	}
	var b bytes.Buffer
	if n, err := Output(&b).Write([]byte("x")); n != 1 || err != nil || b.String() != "x" {
		t.Errorf("Output wrote %d, %v: %q", n, err, b.String())
	}
}
