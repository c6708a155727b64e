// Package memory is the refinement layer's hold on its process's memory: the collection of the
// Z3 objects a program's checks leave behind (go-z3 frees them only in finalizers), the note of
// what the process holds, and the guard that bounds it.
package memory

import (
	"fmt"
	"os"
	"runtime"
	"strconv"
	"strings"
	"time"

	"certsym/internal/z3worker"
	"certsym/refinement/prover"
)

// CollectTimeout bounds the wait of CollectZ3 after a program while the other workers go on.
const CollectTimeout = 30 * time.Second

// Z3Ceiling is the Z3 memory (its own estimate) above which a worker collects with the other
// workers paused.
const Z3Ceiling = 512 << 20

// QuietCollect collects as CollectZ3 while no worker checks a program (the caller holds the
// gate), so no query holds a context's lock and the finalizers cannot wait on one: the
// collection then ends unless a finalizer itself is stuck, which quietTimeout bounds.
func QuietCollect() bool { return CollectZ3(quietTimeout) }

// Note says what the process holds: its resident memory, the Go heap and what the Go
// runtime keeps from the system, its threads (each cgo call Z3 is answering holds one, and the C
// allocator keeps memory per thread), Z3's estimate of its own allocations, and the abandoned Z3
// queries still running (internal/z3worker).
func Note() string {
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	rss, threads := procStatus()
	return fmt.Sprintf("resident %d MB, Go heap %d MB (%d MB kept from the system, %d threads), Z3 %d MB, %d abandoned Z3 queries running",
		rss>>10, ms.HeapAlloc>>20, (ms.HeapSys-ms.HeapReleased)>>20, threads, prover.Z3Allocated()>>20, z3worker.Abandoned())
}

// procStatus reads the process's resident memory (kB) and thread count from /proc/self/status
// (-1 for what it cannot read).
func procStatus() (rssKB, threads int) {
	return procValue("/proc/self/status", "VmRSS:"), procValue("/proc/self/status", "Threads:")
}

// procValue is the number on the line of file (a /proc file) that starts with key, its unit
// (" kB") left out, or -1 when the file or the line cannot be read.
func procValue(file, key string) int {
	b, err := os.ReadFile(file)
	if err != nil {
		return -1
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, key); ok {
			if n, err := strconv.Atoi(strings.TrimSuffix(strings.TrimSpace(v), " kB")); err == nil {
				return n
			}
		}
	}
	return -1
}

// quietTimeout bounds QuietCollect.
const quietTimeout = 5 * time.Minute

// CollectZ3 waits until the Z3 objects the program just checked left behind are freed, at most
// timeout (false when the time ran out). Every engine, bounded interpreter and verify run of
// the layer makes a Z3 context of its own, which go-z3 frees only by finalizers, in chains: the
// finalizers of a context's terms, models and solvers must run before the context becomes
// unreachable and its own finalizer deletes it, one garbage collection later. All of them run
// on the runtime's single finalizer goroutine, which waits on a context's lock while a solver
// of that context is answering (a query of the other worker's, up to its time bound): a
// backlog of finalizers keeps every context it holds alive, with all its memory, while the
// workers go on making new ones. So each worker, before its next program, collects three times
// (terms, then solvers, then contexts) and waits each time for the finalizers queued so far to
// have run. When that wait runs out (on a loaded machine the backlog can outgrow it, and the
// memory with it), or Z3 holds more than Z3Ceiling, the worker pauses the others and collects
// alone (QuietCollect): the Z3 memory the run holds is then bounded by what the programs in
// flight use.
func CollectZ3(timeout time.Duration) bool {
	deadline := time.Now().Add(timeout)
	for round := 0; round < 3; round++ {
		if !finalizerBarrier(deadline) {
			return false
		}
	}
	return true
}

// sentinel is an object whose finalizer says that the finalizers queued before it have run (it
// holds a pointer, so the runtime's tiny allocator, which would batch it with other objects,
// never places it).
type sentinel struct{ _ *int }

// finalizerBarrier collects garbage and waits, until deadline, for the finalizers that
// collection queued to have run. runtime.GC returns once the collection has swept, so the
// finalizers it queues are all queued by then. The finalizer goroutine takes the finalizers
// queued so far as one batch and runs it in no fixed order: a sentinel queued by the next
// collection may share a batch with some of them and run first; a second sentinel, made once
// the first has run, is queued in a later batch, which the goroutine takes only when the
// first sentinel's batch, and so every finalizer queued before it, is done.
func finalizerBarrier(deadline time.Time) bool {
	runtime.GC()
	for i := 0; i < 2; i++ {
		done := make(chan struct{})
		runtime.SetFinalizer(&sentinel{}, func(*sentinel) { close(done) })
		runtime.GC()
		select {
		case <-done:
		case <-time.After(time.Until(deadline)):
			return false
		}
	}
	return true
}
