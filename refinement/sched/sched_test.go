package sched

import (
	"strings"
	"testing"

	"certsym/engine"
)

// TestModel feeds the model the picks of a scheduler and checks what it says of them.
func TestModel(t *testing.T) {
	st := func() *engine.State { return &engine.State{} }
	root, a, b, c, d := st(), st(), st(), st(), st()
	run := func(third *engine.State) *Model {
		m := New(2)
		m.Expanded(root, []*engine.State{a, b, c}) // pick 0
		m.Pruned(c)
		m.Expanded(b, []*engine.State{d}) // pick 1, a fairness pick: the oldest is a
		m.Expanded(third, nil)            // pick 2
		return m
	}
	m := run(a)
	if !strings.Contains(m.Violation, "pick 1") || !strings.Contains(m.Violation, "1 older states pending") {
		t.Errorf("b taken before a at a fairness pick: %q", m.Violation)
	}
	m = run(c)
	if !strings.Contains(m.Violation, "pick 1") {
		t.Errorf("the first violation must be kept: %q", m.Violation)
	}
	m = New(2)
	m.Expanded(root, []*engine.State{a, b})
	m.Expanded(a, []*engine.State{c})
	m.Expanded(c, nil)
	if m.Violation != "" || m.Fairness != 1 {
		t.Errorf("a fair run: %q, %d fairness picks", m.Violation, m.Fairness)
	}
	m.End(true)
	if !strings.Contains(m.Violation, "1 states the scheduler never took") {
		t.Errorf("b left pending at the end of a finished run: %q", m.Violation)
	}
	m = New(2)
	m.Expanded(root, []*engine.State{a})
	m.Expanded(b, nil)
	if !strings.Contains(m.Violation, "not the oldest") {
		t.Errorf("a fairness pick of a state never produced: %q", m.Violation)
	}
}
