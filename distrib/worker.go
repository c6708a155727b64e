package distrib

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"certsym/engine/job"
	"certsym/internal/budget"
	"certsym/internal/fault"
	"certsym/spec/syntax"
)

// Prepare parses a run's program and makes the renderer of its bugs (the command's, so that a
// bug reads as certsym run prints it).
type Prepare func(spec *Spec) (*syntax.Program, Renderer, error)

// Worker takes jobs from the broker and explores them, one at a time, until its context is
// done (then the job in hand is handed back, negatively acknowledged) or, with Idle, until no
// job has come for that long.
type Worker struct {
	B       *Broker
	Name    string
	Prepare Prepare
	// Idle, when positive, ends Run after that long without a job.
	Idle time.Duration
	// Log receives a line per job and per problem (nil: none).
	Log io.Writer

	mu   sync.Mutex
	runs map[string]*runInfo
	// Done counts the jobs this worker explored and stored.
	Done int
}

// runInfo is what a worker keeps of a run it has taken jobs of.
type runInfo struct {
	spec   *Spec
	prog   *syntax.Program
	render Renderer
}

func (w *Worker) logf(format string, args ...any) {
	if w.Log != nil {
		fmt.Fprintf(w.Log, "certsym worker %s: "+format+"\n", append([]any{w.Name}, args...)...)
	}
}

// consumer waits for the workers' consumer, which the first coordinator creates.
func (w *Worker) consumer(ctx context.Context) (jetstream.Consumer, error) {
	logged := false
	for {
		c, err := w.B.JS.Consumer(ctx, JobStream, WorkerConsumer)
		if err == nil {
			return c, nil
		}
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		if !logged {
			w.logf("waiting for a coordinator to create the job queue (%v)", err)
			logged = true
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(500 * time.Millisecond):
		}
	}
}

// Run takes and explores jobs until ctx is done or the worker has been idle for Idle.
func (w *Worker) Run(ctx context.Context) error {
	w.runs = map[string]*runInfo{}
	cons, err := w.consumer(ctx)
	if err != nil {
		if w.Idle > 0 && errors.Is(err, context.DeadlineExceeded) {
			return nil
		}
		return err
	}
	last := time.Now()
	for ctx.Err() == nil {
		if w.Idle > 0 && time.Since(last) > w.Idle {
			w.logf("no job for %v: done (%d jobs)", w.Idle, w.Done)
			return nil
		}
		batch, err := cons.Fetch(1, jetstream.FetchMaxWait(time.Second))
		if err != nil {
			if ctx.Err() != nil {
				break
			}
			w.logf("fetch: %v", err)
			time.Sleep(500 * time.Millisecond)
			if c, err := w.B.JS.Consumer(ctx, JobStream, WorkerConsumer); err == nil {
				cons = c
			}
			continue
		}
		for msg := range batch.Messages() {
			last = time.Now()
			w.handle(ctx, cons, msg)
		}
	}
	return nil
}

// stopped reports whether the run is over (its stop mark is stored).
func (w *Worker) stopped(ctx context.Context, run string) bool {
	data, err := w.B.lastOn(ctx, RunStream, stopSubject(run))
	return err == nil && data != nil
}

// run returns what the worker needs of run, nil when the run's spec is gone (the run is over).
func (w *Worker) run(ctx context.Context, run string) (*runInfo, error) {
	w.mu.Lock()
	ri := w.runs[run]
	w.mu.Unlock()
	if ri != nil {
		return ri, nil
	}
	data, err := w.B.lastOn(ctx, RunStream, specSubject(run))
	if err != nil || data == nil {
		return nil, err
	}
	var spec Spec
	if err := json.Unmarshal(data, &spec); err != nil {
		return nil, fmt.Errorf("run %s: %v", run, err)
	}
	prog, render, err := w.Prepare(&spec)
	if err != nil {
		return nil, fmt.Errorf("run %s: %v", run, err)
	}
	ri = &runInfo{spec: &spec, prog: prog, render: render}
	w.mu.Lock()
	w.runs[run] = ri
	w.mu.Unlock()
	return ri, nil
}

// handle explores one delivered job and stores what it found, then acknowledges it. A job of a
// run that is over is acknowledged and dropped; one whose result is stored already (a redelivery
// after its worker died between storing and acknowledging) is acknowledged without work.
func (w *Worker) handle(ctx context.Context, cons jetstream.Consumer, msg jetstream.Msg) {
	var jm JobMsg
	if err := json.Unmarshal(msg.Data(), &jm); err != nil {
		w.logf("a message that is not a job (%v): dropped", err)
		msg.Term()
		return
	}
	ri, err := w.run(ctx, jm.Run)
	if err != nil {
		w.logf("job %s of run %s: %v", jm.Job, jm.Run, err)
		msg.Nak()
		return
	}
	if ri == nil || w.stopped(ctx, jm.Run) {
		msg.Ack() // the run is over
		return
	}
	if data, err := w.B.lastOn(ctx, ResultStream, resultSubject(jm.Run, jm.Job)); err == nil && data != nil {
		msg.Ack() // explored and stored before, by a worker that died before acknowledging it
		return
	}
	j, err := job.Parse(jm.Job)
	if err != nil {
		w.logf("run %s: %v: dropped", jm.Run, err)
		msg.Term()
		return
	}
	lease := DefaultLease
	if info := cons.CachedInfo(); info != nil && info.Config.AckWait > 0 {
		lease = info.Config.AckWait
	}
	mon := budget.NewMonitor()
	hb := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { // extend the lease while the job runs; abandon it when the run is over
		defer wg.Done()
		t := time.NewTicker(lease / 3)
		defer t.Stop()
		for {
			select {
			case <-hb:
				return
			case <-ctx.Done():
				mon.Interrupt()
				return
			case <-t.C:
				msg.InProgress()
				if w.stopped(ctx, jm.Run) {
					mon.Interrupt()
					return
				}
			}
		}
	}()
	res, err := Explore(ri.prog, ri.spec, j, jm.Root, mon, ri.render)
	close(hb)
	wg.Wait()
	if err != nil {
		if ctx.Err() != nil {
			msg.Nak() // this worker is stopping: another takes the job at once
		} else {
			msg.Ack() // the run is over
		}
		return
	}
	res.Worker = w.Name
	if err := w.store(ctx, msg, jm.Run, res); err != nil {
		w.logf("job %s of run %s: %v (the job returns to the queue)", jm.Job, jm.Run, err)
		msg.Nak()
		return
	}
	w.Done++
}

// store publishes the split-off jobs, then the result, each acknowledged by the broker, and only
// then acknowledges the job (synchronously: the job is gone from the queue when store returns).
func (w *Worker) store(ctx context.Context, msg jetstream.Msg, run string, res *Result) error {
	if fault.Active == fault.AckBeforeStore { // the fault: the job leaves the queue first
		if err := msg.DoubleAck(ctx); err != nil {
			return err
		}
	}
	futures := make([]jetstream.PubAckFuture, 0, len(res.Jobs))
	for i, sub := range res.Jobs {
		data, _ := json.Marshal(JobMsg{Run: run, Job: sub, Root: res.rootOf(i)})
		f, err := w.B.JS.PublishAsync(jobSubject(run), data, jetstream.WithMsgID(run+"/"+sub))
		if err != nil {
			return err
		}
		futures = append(futures, f)
	}
	timeout := time.After(time.Minute)
	for _, f := range futures {
		select {
		case <-f.Ok():
		case err := <-f.Err():
			return fmt.Errorf("a split-off job was not stored: %v", err)
		case <-ctx.Done():
			return ctx.Err()
		case <-timeout:
			return errors.New("the broker did not acknowledge the split-off jobs within a minute")
		}
	}
	data, err := json.Marshal(res)
	if err != nil {
		return err
	}
	if err := w.B.publish(ctx, resultSubject(run, res.Job), run+"/"+res.Job+"/result", data); err != nil {
		return err
	}
	if fault.Active == fault.AckBeforeStore {
		return nil
	}
	return msg.DoubleAck(ctx)
}
