// Package budget holds what bounds a run of certsym's analyses and what watches it: the resource
// limits (states, time, memory, and each solver query's time and rlimit), the meter that polls
// the time and memory limits during a run, and the Monitor through which a progress ticker reads
// a run's counters and a signal handler interrupts it. The bug finder (package engine), the
// bounded interpreter (package bounded) and the verifier (package verify) share them.
package budget

import (
	"runtime/metrics"
	"time"
)

// Limits are the resource bounds of a run. The zero value bounds nothing.
type Limits struct {
	// MaxStates stops the run after that many states (states expanded for the bug finder,
	// branch states created for the bounded interpreter; 0: no bound).
	MaxStates int
	// Timeout stops the run after that long (0: no bound).
	Timeout time.Duration
	// MaxMemory stops the run when the Go heap exceeds that many bytes (0: no bound).
	MaxMemory uint64
	// QueryTimeout and RLimit bound each solver query (0: no bound).
	QueryTimeout time.Duration
	RLimit       uint
	// SolverTime bounds the time of all the solver queries of the run together: once it is
	// spent, every query that would reach Z3 answers unknown (0: no bound).
	SolverTime time.Duration
}

// Meter polls the time and memory limits of one run. Its clock starts when it is made.
type Meter struct {
	lim      Limits
	start    time.Time
	deadline time.Time // zero when there is no time bound
	heap     []metrics.Sample
}

// NewMeter starts the clock of a run bounded by lim.
func NewMeter(lim Limits) *Meter {
	m := &Meter{lim: lim, start: time.Now()}
	if lim.Timeout > 0 {
		m.deadline = m.start.Add(lim.Timeout)
	}
	return m
}

// Deadline is when the time bound ends the run (the zero time when there is none).
func (m *Meter) Deadline() time.Time { return m.deadline }

// TimeUp reports whether the time bound has passed at now.
func (m *Meter) TimeUp(now time.Time) bool {
	return !m.deadline.IsZero() && !now.Before(m.deadline)
}

// Polled is the answer of Meter.Poll.
type Polled uint8

// The answers of Poll: no limit reached, the time bound, the memory bound.
const (
	WithinLimits Polled = iota
	TimeReached
	MemoryReached
)

// Poll checks the time bound, and the memory bound once in 4,096 states (reading the heap size
// costs more than reading the clock): n is the run's state count. It returns which limit is
// reached and, for the memory bound, the heap's size in bytes. Callers poll once in 256 states.
func (m *Meter) Poll(n int) (Polled, uint64) {
	if m.TimeUp(time.Now()) {
		return TimeReached, 0
	}
	if m.lim.MaxMemory > 0 && n&4095 == 0 {
		if used := m.heapBytes(); used > m.lim.MaxMemory {
			return MemoryReached, used
		}
	}
	return WithinLimits, 0
}

// heapBytes is the number of bytes in live and not yet swept heap objects.
func (m *Meter) heapBytes() uint64 {
	if m.heap == nil {
		m.heap = []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	}
	metrics.Read(m.heap)
	return m.heap[0].Value.Uint64()
}

// Cut names the bound that stopped a concrete run before its end (spec.Result.Cut): the run's
// last state is the one in which the bound was reached.
type Cut uint8

// The cuts: none; the step bound; the quantifier instances; the integer bound (the head would
// assign a value of more bits); the Stop function (the monitor: time, memory, interrupts).
const (
	NotCut Cut = iota
	CutSteps
	CutInstances
	CutIntBits
	CutStop
)

// Every returns a poll that asks stop once in n calls (n a power of two) and answers false the
// other times, for a loop too hot to read the clock at each turn. The poll belongs to one
// goroutine.
func Every(n int, stop func() bool) func() bool {
	calls := 0
	return func() bool {
		calls++
		return calls&(n-1) == 0 && stop()
	}
}
