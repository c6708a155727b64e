package main

import (
	"os"
	"runtime"
	"testing"
	"time"

	"certsym/cmd/certsym/internal/watch"
)

// TestMain runs the tests with a collector that runs every 200 ms. The tests run the command
// in-process hundreds of times; each run's Z3 contexts and solvers hold C memory that go-z3 frees
// only in finalizers, which run after a collection, and a run makes too little Go garbage to
// start one. Without this the test process grew to 16 GB (every Z3 context of every run kept);
// a command-line process exits after one run and does not need it.
func TestMain(m *testing.M) {
	done := make(chan struct{})
	go func() {
		t := time.NewTicker(200 * time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
				runtime.GC()
			}
		}
	}()
	// A command run in-process whose run passes its grace (watch.Signals) is left to finish:
	// watch.Exit would end the test process under the other tests. The exit itself is tested on
	// real processes (signal_test.go, bounds_test.go).
	watch.Exit = func(int) {}
	code := m.Run()
	close(done)
	os.Exit(code)
}
