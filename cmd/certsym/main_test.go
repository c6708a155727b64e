package main

import (
	"os"
	"testing"

	"certsym/cmd/certsym/internal/watch"
)

// TestMain runs the tests of the command in-process. A command whose run passes its grace
// (watch.Signals) is left to finish: watch.Exit would end the test process under the other tests.
// The exit itself is tested on real processes (signal_test.go, bounds_test.go).
func TestMain(m *testing.M) {
	watch.Exit = func(int) {}
	os.Exit(m.Run())
}
