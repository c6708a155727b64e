package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"
)

// fermatSrc asks Z3 a nonlinear question it works on for a long time (x³ + y³ = z³ in positive
// integers) and answers only when its query time bound interrupts it.
const fermatSrc = "assume x > 0;\nassume y > 0;\nassume z > 0;\nif x*x*x + y*y*y == z*z*z then\n  fail\nfi\n"

// searchSrc is an endless search without solver queries: each state is decided by the bounds.
const searchSrc = "i = 0;\nwhile i >= 0 do i = i + 1 od"

// wideSrc is a long bounded interpretation without solver queries: with loop bound 40000, 1.2
// billion iterations, and never more than 70002 of them under way on one path.
const wideSrc = "i = 0;\nwhile i >= 0 do j = 0; while j < 30000 do j = j + 1 od; i = i + 1 od"

// started is a certsym process whose stderr lines arrive on a channel.
type started struct {
	cmd    *exec.Cmd
	stdout bytes.Buffer
	lines  chan string
	stderr strings.Builder
}

func startCertsym(t *testing.T, args ...string) *started {
	t.Helper()
	p := &started{cmd: exec.Command(certsymBinary(t), args...), lines: make(chan string, 1000)}
	p.cmd.Stdout = &p.stdout
	errPipe, err := p.cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		sc := bufio.NewScanner(errPipe)
		for sc.Scan() {
			p.lines <- sc.Text()
		}
		close(p.lines)
	}()
	t.Cleanup(func() { p.cmd.Process.Kill() })
	return p
}

// waitLine waits (at most limit) for a stderr line containing want.
func (p *started) waitLine(t *testing.T, want string, limit time.Duration) {
	t.Helper()
	deadline := time.After(limit)
	for {
		select {
		case l, ok := <-p.lines:
			if !ok {
				t.Fatalf("certsym ended before printing %q: %s", want, p.stderr.String())
			}
			p.stderr.WriteString(l + "\n")
			if strings.Contains(l, want) {
				return
			}
		case <-deadline:
			t.Fatalf("no %q on stderr after %v; stderr so far:\n%s", want, limit, p.stderr.String())
		}
	}
}

// wait waits for the process to end (at most limit: a guard against hanging, not a speed
// target) and returns its exit status.
func (p *started) wait(t *testing.T, limit time.Duration) int {
	t.Helper()
	done := make(chan struct{})
	go func() {
		for l := range p.lines {
			p.stderr.WriteString(l + "\n")
		}
		p.cmd.Wait()
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(limit):
		p.cmd.Process.Kill()
		<-done
		t.Fatalf("certsym still running %v after the signal; stderr:\n%s", limit, p.stderr.String())
	}
	return p.cmd.ProcessState.ExitCode()
}

// TestInterrupt sends SIGINT or SIGTERM to a real certsym process, during a solver query (once the
// progress report says a query has run for a while) and during a search without queries. Each
// mode prints its partial JSON report with the reason "interrupted" and exits 3, long before the
// 60 s query time bound would have ended the query.
func TestInterrupt(t *testing.T) {
	if testing.Short() {
		t.Skip("short mode: starts processes that run for seconds; make check runs it")
	}
	query := writeProg(t, fermatSrc)
	search := writeProg(t, searchSrc)
	wide := writeProg(t, wideSrc)
	countdown := writeProg(t, "while n > 0 do n = n - 1 od") // an infinite tree: each generation one more iteration
	cases := []struct {
		name string
		sig  syscall.Signal
		args []string
		wait string // the progress line to wait for before the signal
	}{
		{"run mid-query", syscall.SIGINT, []string{"run", query, "--query-timeout", "60s"}, "in a query for"},
		{"run mid-query SIGTERM", syscall.SIGTERM, []string{"run", query, "--query-timeout", "60s"}, "in a query for"},
		{"run mid-search", syscall.SIGINT, []string{"run", search, "--max-states", "0"}, "states expanded"},
		{"run --loop-bound mid-query", syscall.SIGINT, []string{"run", query, "--loop-bound", "2", "--query-timeout", "60s"}, "in a query for"},
		{"run --loop-bound mid-search", syscall.SIGINT, []string{"run", wide, "--loop-bound", "40000", "--max-states", "0"}, "branch states"},
		{"run generational mid-query", syscall.SIGINT, []string{"run", query, "--strategy", "generational", "--query-timeout", "60s"}, "in a query for"},
		{"run generational mid-search", syscall.SIGTERM, []string{"run", countdown, "--strategy", "generational", "--max-states", "0"}, "states expanded"},
		{"verify mid-query", syscall.SIGINT, []string{"verify", query, "--query-timeout", "60s"}, "in a query for"},
		{"verify mid-search", syscall.SIGTERM, []string{"verify", wide, "--loop-bound", "40000", "--max-states", "0"}, "branch states"},
		{"prove mid-search", syscall.SIGINT, []string{"prove", countdown, "--unroll", "1000000", "--max-states", "0"}, "states expanded"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := startCertsym(t, append(c.args, "--json")...)
			p.waitLine(t, c.wait, 20*time.Second)
			p.cmd.Process.Signal(c.sig)
			code := p.wait(t, 20*time.Second)
			var out map[string]any
			if err := json.Unmarshal(p.stdout.Bytes(), &out); err != nil {
				t.Fatalf("exit %d, stdout is not a JSON object (%v): %q\nstderr:\n%s", code, err, p.stdout.String(), p.stderr.String())
			}
			if code != exitUnknown || out["reason"] != "interrupted" {
				t.Errorf("exit %d, reason %q; want exit 3 and \"interrupted\"\nstderr:\n%s", code, out["reason"], p.stderr.String())
			}
		})
	}
	// The text report says so too.
	p := startCertsym(t, "run", search, "--max-states", "0")
	p.waitLine(t, "states expanded", 20*time.Second)
	p.cmd.Process.Signal(os.Interrupt)
	if code := p.wait(t, 20*time.Second); code != exitUnknown || !strings.Contains(p.stdout.String(), "verdict: unknown (interrupted)\n") {
		t.Errorf("text: exit %d, %q", code, p.stdout.String())
	}
}
