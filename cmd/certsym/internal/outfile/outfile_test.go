package outfile

import (
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// TestInterruptDuringCheck: an interrupt that arrives while CheckFile's temporary file exists (the
// checks run before the command handles signals) still ends the process, once the file is
// removed: none is left in the directory. The process is this test binary, run again with
// CERTSYM_OUTFILE_CHILD naming the directory; it sends itself SIGINT between the creation and the
// removal.
func TestInterruptDuringCheck(t *testing.T) {
	if dir := os.Getenv("CERTSYM_OUTFILE_CHILD"); dir != "" {
		created = func() { syscall.Kill(os.Getpid(), syscall.SIGINT) }
		CheckFile(filepath.Join(dir, "out.sarif"))
		time.Sleep(10 * time.Second) // the signal, sent again, ends the process meanwhile
		os.Exit(0)
	}
	dir := t.TempDir()
	cmd := exec.Command(os.Args[0], "-test.run=^TestInterruptDuringCheck$")
	cmd.Env = append(os.Environ(), "CERTSYM_OUTFILE_CHILD="+dir)
	out, _ := cmd.CombinedOutput()
	ws := cmd.ProcessState.Sys().(syscall.WaitStatus)
	if !ws.Signaled() || ws.Signal() != syscall.SIGINT {
		t.Errorf("the process ended with %v, not by its SIGINT: %s", cmd.ProcessState, out)
	}
	left, _ := os.ReadDir(dir)
	for _, e := range left {
		t.Errorf("left in the directory: %s", e.Name())
	}
}

// TestWriteWhole: Write replaces the file whole and leaves no temporary file.
func TestWriteWhole(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "r.json")
	for _, data := range []string{"{}\n", `{"a": 1}` + "\n"} {
		if err := Write(p, []byte(data)); err != nil {
			t.Fatal(err)
		}
		if b, _ := os.ReadFile(p); string(b) != data {
			t.Errorf("%s holds %q, want %q", p, b, data)
		}
	}
	if left, _ := os.ReadDir(dir); len(left) != 1 {
		t.Errorf("files in the directory: %v", left)
	}
}
