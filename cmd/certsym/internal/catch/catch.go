// Package catch holds the process's SIGINT and SIGTERM from the first line of main to its end, so
// that no signal ends certsym by the runtime's default handling, without a report, whenever it
// comes. Before a run takes the signals (while the command reads its options and its program, and
// checks its output paths), a signal is answered by the function given to Start (main's: the
// "interrupted before the run started" report and the status of an interrupted run); while a
// run's handler takes them (Take: cmd/certsym/internal/watch), they go to it, which stops the run
// and prints the partial report; once the handler gives them back (the report is out), they are
// ignored, and the process ends by itself. A section that must not be cut (the check of an output
// path, which creates and removes a file) holds them until it ends (Hold).
//
// Without Start (the command's in-process tests) nothing is caught: Take and Hold answer that,
// and the callers handle the signals themselves.
package catch

import (
	"io"
	"os"
	"os/signal"
	"sync"
	"syscall"
)

// state is the catcher's: mu serializes the answer to a signal with Output's writes and with
// Take, Hold and their releases.
var state struct {
	mu     sync.Mutex
	on     bool                          // Start was called
	before func(s os.Signal, wrote bool) // the answer before the run (it exits)
	run    chan<- os.Signal              // the run's handler, while it takes the signals
	after  bool                          // the run's handler gave them back
	holds  int                           // Hold sections under way
	held   os.Signal                     // the first signal that came during them
	wrote  bool                          // Output was written to
}

// Start catches SIGINT and SIGTERM for the rest of the process. before is called on the
// catcher's goroutine with a signal that comes while no run takes them, and whether the command
// had written to Output; it must end the process (it runs with Output's writes held, so its own
// report cannot interleave with the command's output).
func Start(before func(s os.Signal, wrote bool)) {
	ch := make(chan os.Signal, 8)
	state.mu.Lock()
	state.on, state.before = true, before
	state.mu.Unlock()
	signal.Notify(ch, os.Interrupt, syscall.SIGTERM)
	go func() {
		for s := range ch {
			dispatch(s)
		}
	}()
}

// dispatch answers signal s as the state says.
func dispatch(s os.Signal) {
	state.mu.Lock()
	switch {
	case state.run != nil:
		select {
		case state.run <- s:
		default: // the handler's buffer is full: it has the request already
		}
	case state.after: // the report is out: the process is ending
	case state.holds > 0:
		if state.held == nil {
			state.held = s
		}
	default:
		state.before(s, state.wrote) // does not return
	}
	state.mu.Unlock()
}

// Take makes ch, the run's handler, receive the signals until release, after which they are
// ignored. ok is false when Start was not called: the caller then catches the signals itself.
func Take(ch chan<- os.Signal) (release func(), ok bool) {
	state.mu.Lock()
	defer state.mu.Unlock()
	if !state.on {
		return func() {}, false
	}
	state.run = ch
	if s := state.held; s != nil {
		state.held = nil
		select {
		case ch <- s:
		default:
		}
	}
	var once sync.Once
	return func() {
		once.Do(func() {
			state.mu.Lock()
			state.run, state.after = nil, true
			state.mu.Unlock()
		})
	}, true
}

// Hold holds the signals until release, which answers the first one that came meanwhile. ok is
// false when Start was not called.
func Hold() (release func(), ok bool) {
	state.mu.Lock()
	defer state.mu.Unlock()
	if !state.on {
		return func() {}, false
	}
	state.holds++
	var once sync.Once
	return func() {
		once.Do(func() {
			state.mu.Lock()
			state.holds--
			s := state.held
			if state.holds > 0 {
				s = nil // the last section to end answers it
			}
			if s != nil {
				state.held = nil
			}
			state.mu.Unlock()
			if s != nil {
				dispatch(s)
			}
		})
	}, true
}

// Output is w with its writes serialized with the answer to a signal before the run, which they
// tell that the command's output has begun (an error object, parse's program, merge's report):
// the answer then adds no report of its own. A write while a run takes the signals, or after,
// does not wait for the catcher.
func Output(w io.Writer) io.Writer { return output{w} }

type output struct{ w io.Writer }

func (o output) Write(p []byte) (int, error) {
	state.mu.Lock()
	state.wrote = true
	if state.run != nil || state.after {
		state.mu.Unlock()
		return o.w.Write(p)
	}
	defer state.mu.Unlock()
	return o.w.Write(p)
}
