package distrib_test

import (
	"bytes"
	"fmt"
	"math/rand"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"certsym/internal/corpus"
	"certsym/internal/testprog"
)

// The distributed tests run real processes: a NATS server with JetStream (nats-server, from
// Debian's package), certsym worker processes and the coordinator, built from this checkout.
// Without nats-server they skip, unless CI is set (make check installs it: scripts/install-deps.sh
// nats).

// needNATS returns the path of nats-server, or skips (fails under CI: testprog.NeedTool).
func needNATS(t *testing.T) string { return testprog.NeedTool(t, "nats-server", "nats") }

// freePort returns a TCP port of 127.0.0.1 that was free a moment ago.
func freePort(t *testing.T) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// startNATS starts a NATS server with JetStream on 127.0.0.1 (a free port, its store in a
// temporary folder) for the test, and returns its URL; the server is killed at the end.
func startNATS(t *testing.T) string {
	t.Helper()
	bin := needNATS(t)
	for try := 0; ; try++ {
		port := freePort(t)
		dir := t.TempDir()
		cmd := exec.Command(bin, "-js", "-a", "127.0.0.1", "-p", fmt.Sprint(port), "-sd", dir)
		var log bytes.Buffer
		cmd.Stdout, cmd.Stderr = &log, &log
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		addr := fmt.Sprintf("127.0.0.1:%d", port)
		for i := 0; i < 100; i++ {
			if c, err := net.Dial("tcp", addr); err == nil {
				c.Close()
				t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
				return "nats://" + addr
			}
			time.Sleep(50 * time.Millisecond)
		}
		cmd.Process.Kill()
		cmd.Wait()
		if try == 2 {
			t.Fatalf("nats-server did not start: %s", log.String())
		}
	}
}

var (
	binOnce sync.Map // build tags -> *built
)

type built struct {
	once sync.Once
	path string
	err  error
}

// certsym builds the command from this checkout once per test binary and build tags ("" or
// "faults") and returns its path.
func certsym(t *testing.T, tags string) string {
	t.Helper()
	v, _ := binOnce.LoadOrStore(tags, &built{})
	b := v.(*built)
	b.once.Do(func() {
		dir, err := os.MkdirTemp("", "certsym-dist")
		if err != nil {
			b.err = err
			return
		}
		b.path = filepath.Join(dir, "certsym")
		args := []string{"build", "-o", b.path}
		if tags != "" {
			args = append(args, "-tags", tags)
		}
		cmd := exec.Command("go", append(args, "./cmd/certsym")...)
		cmd.Dir = corpus.Root()
		if out, err := cmd.CombinedOutput(); err != nil {
			b.err = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if b.err != nil {
		t.Fatal(b.err)
	}
	return b.path
}

// pool is a set of certsym worker processes on one broker.
type pool struct {
	t    *testing.T
	bin  string
	url  string
	env  []string
	mu   sync.Mutex
	cmds []*exec.Cmd
	n    int
}

func newPool(t *testing.T, bin, url string, env ...string) *pool {
	p := &pool{t: t, bin: bin, url: url, env: env}
	t.Cleanup(p.stopAll)
	return p
}

// start starts k more workers.
func (p *pool) start(k int) {
	p.t.Helper()
	p.mu.Lock()
	defer p.mu.Unlock()
	for i := 0; i < k; i++ {
		p.n++
		cmd := exec.Command(p.bin, "worker", p.url, "--quiet", "--name", fmt.Sprintf("w%d", p.n))
		cmd.Env = append(os.Environ(), p.env...)
		if err := cmd.Start(); err != nil {
			p.t.Fatal(err)
		}
		go cmd.Wait()
		p.cmds = append(p.cmds, cmd)
	}
}

// size is the number of workers running.
func (p *pool) size() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return len(p.cmds)
}

// kill sends SIGKILL to one worker chosen by r and starts another in its place.
func (p *pool) kill(r *rand.Rand) {
	p.mu.Lock()
	i := r.Intn(len(p.cmds))
	c := p.cmds[i]
	p.cmds = append(p.cmds[:i], p.cmds[i+1:]...)
	p.mu.Unlock()
	c.Process.Signal(syscall.SIGKILL)
	p.start(1)
}

func (p *pool) stopAll() {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, c := range p.cmds {
		c.Process.Signal(syscall.SIGKILL)
	}
	p.cmds = nil
}

// runCertsym runs bin with args and returns its stdout, stderr and exit status.
func runCertsym(t *testing.T, bin string, args ...string) (string, string, int) {
	t.Helper()
	cmd := exec.Command(bin, args...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatalf("certsym %v: %v", args, err)
	}
	return stdout.String(), stderr.String(), code
}

var seconds = regexp.MustCompile(`, [0-9]+\.[0-9]+s\n`)

// normalize replaces the run's time, the one figure of the text report that cannot repeat.
func normalize(out string) string { return seconds.ReplaceAllString(out, ", Ts\n") }

// jobsLine is the coordinator's count of the jobs its report rests on (stderr).
var jobsLine = regexp.MustCompile(`certsym: distributed run: ([0-9]+) jobs?\n`)

func jobsOf(stderr string) string {
	m := jobsLine.FindStringSubmatch(stderr)
	if m == nil {
		return ""
	}
	return m[1]
}

// firstDiff shows where two outputs first differ.
func firstDiff(a, b string) string {
	la, lb := strings.Split(a, "\n"), strings.Split(b, "\n")
	for i := 0; i < len(la) || i < len(lb); i++ {
		x, y := "", ""
		if i < len(la) {
			x = la[i]
		}
		if i < len(lb) {
			y = lb[i]
		}
		if x != y {
			return fmt.Sprintf("line %d:\n  single:      %q\n  distributed: %q", i+1, x, y)
		}
	}
	return ""
}
