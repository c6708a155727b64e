package bounded

import (
	"strings"
	"testing"
	"time"

	"certsym/internal/testprog"
)

// TestInterruptQuery: Monitor.Interrupt cuts a running Z3 query short (the query would otherwise
// run to its 60 s bound) and stops the bounded interpreter with the reason "interrupted".
func TestInterruptQuery(t *testing.T) {
	if testing.Short() {
		t.Skip("short mode: runs Z3 on a hard query; make check runs it")
	}
	prog := testprog.Parse(t, testprog.Fermat)
	b := New(prog, 2)
	b.QueryTimeout = 60 * time.Second
	go testprog.InterruptInQuery(b.Monitor())
	if _, err := b.SymInterp(nil); err != nil {
		t.Fatal(err)
	}
	if b.Stopped() != "interrupted" {
		t.Errorf("bounded: stopped %q", b.Stopped())
	}

}

// TestIntegerBound: a loop that multiplies an integer's length by four at each iteration stops
// the bounded interpreter with a stated reason once a value passes step.MaxIntBits.
func TestIntegerBound(t *testing.T) {
	prog := testprog.Parse(t, "x = 3;\nwhile x != 0 do x = x * x * x * x od")
	want := "integer bound reached (a value of more than 1048576 bits assigned at 2:17)"
	b := New(prog, 1000)
	if _, err := b.SymInterp(nil); err != nil {
		t.Fatal(err)
	}
	if b.Stopped() != want {
		t.Errorf("bounded: stopped %q", b.Stopped())
	}
}

// TestIterationBound: a loop bound far beyond what the Go stack can nest stops the bounded
// interpreter with a reason instead of a stack overflow.
func TestIterationBound(t *testing.T) {
	b := New(testprog.Parse(t, "i = 0;\nwhile i >= 0 do i = i + 1 od"), 1_000_000_000)
	if _, err := b.SymInterp(nil); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(b.Stopped(), "iteration bound reached (100000 loop iterations") {
		t.Errorf("stopped %q", b.Stopped())
	}
}
