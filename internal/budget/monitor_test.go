package budget

import (
	"strings"
	"testing"
	"time"
)

// TestMonitorStop: Stop answers the first reason the run must stop (an interrupt, the deadline,
// the memory bound) and keeps it; Due and Overdue come WrapUp and twice WrapUp after it.
func TestMonitorStop(t *testing.T) {
	m := NewMonitor()
	m.SetLimits(Limits{Timeout: 50 * time.Millisecond})
	if r := m.Stop(); r != "" || m.Due() {
		t.Fatalf("before the deadline: Stop %q, Due %v", r, m.Due())
	}
	time.Sleep(60 * time.Millisecond)
	if r := m.Stop(); r != "time bound reached (50ms)" {
		t.Fatalf("after the deadline: Stop %q", r)
	}
	m.Interrupt()
	if r := m.Stop(); r != "time bound reached (50ms)" {
		t.Errorf("an interrupt after the deadline changed the reason: %q", r)
	}
	// The deadline is the stop's time: WrapUp after it, the report is due.
	if m.Due() {
		t.Error("due before WrapUp has passed")
	}
	time.Sleep(WrapUp)
	if !m.Due() || m.Overdue() {
		t.Errorf("WrapUp after the deadline: Due %v, Overdue %v", m.Due(), m.Overdue())
	}
	time.Sleep(WrapUp)
	if !m.Overdue() {
		t.Error("not overdue twice WrapUp after the deadline")
	}

	m = NewMonitor()
	m.Interrupt()
	if r := m.Stop(); r != "interrupted" || m.Due() {
		t.Errorf("interrupted: Stop %q, Due %v at once", r, m.Due())
	}

	m = NewMonitor()
	m.SetLimits(Limits{MaxMemory: 1})
	if r := m.Stop(); !strings.HasPrefix(r, "memory bound reached (heap ") {
		t.Errorf("memory bound of 1 byte: Stop %q", r)
	}
}

// TestMonitorPhasesAndCuts: the monitor names the phase running and keeps the cuts in order.
func TestMonitorPhasesAndCuts(t *testing.T) {
	var m Monitor // the zero value is ready
	if m.Phase() != "" || len(m.Cuts()) != 0 || m.Stop() != "" || !m.Deadline().IsZero() {
		t.Fatalf("zero monitor: phase %q, cuts %v, stop %q, deadline %v", m.Phase(), m.Cuts(), m.Stop(), m.Deadline())
	}
	m.Enter("exploration")
	m.Enter("replay of the tests")
	m.Cut("a")
	m.Cut("b")
	if m.Phase() != "replay of the tests" || strings.Join(m.Cuts(), ",") != "a,b" {
		t.Errorf("phase %q, cuts %v", m.Phase(), m.Cuts())
	}
}
