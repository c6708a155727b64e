package distrib

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"certsym/engine/job"
	"certsym/engine/steal"
	"certsym/internal/budget"
	"certsym/spec/syntax"
)

// Coordinator runs one distributed run: it seeds the root job, collects the jobs' results and,
// once every job the answer depends on is accounted for, computes run --workers's report.
type Coordinator struct {
	B *Broker
	// Spec is the run's program and options (Run is set by Run).
	Spec Spec
	// Lease is the workers' consumer's AckWait (0: DefaultLease).
	Lease time.Duration
	// Mon, when not nil, stops the run when interrupted (Mon.Stop is the reason).
	Mon *budget.Monitor
	// Timeout, when positive, stops the run after that long.
	Timeout time.Duration
	// MaxStates, when positive, stops the run once the jobs' results count that many states
	// expanded (the work of the whole run, replays left out).
	MaxStates int
	// Progress, when set, is called about once a second.
	Progress func(Progress)
	// Prog (the program of Spec) and Render, when set, make the coordinator confirm the report's
	// bugs with an engine of its own (Confirmer), as run --workers does, so that the report is
	// run --workers's; without them the workers' renderings stand.
	Prog   *syntax.Program
	Render Renderer
}

// Progress is the state of a distributed run.
type Progress struct {
	Jobs, Done, States int
	Elapsed            time.Duration
}

// knownJob is a job the coordinator knows of.
type knownJob struct {
	job    job.Job
	result *Result
}

// newRunID is a fresh run id (a subject token).
func newRunID() string {
	b := make([]byte, 8)
	if _, err := rand.Read(b); err != nil {
		panic(err)
	}
	return hex.EncodeToString(b)
}

// Run runs the distributed run and returns its report. A bound (the monitor's interrupt or time
// bound, MaxStates) ends it with verdict unknown and the counters of the jobs done so far.
func (c *Coordinator) Run(ctx context.Context) (*Report, error) {
	lease := c.Lease
	if lease <= 0 {
		lease = DefaultLease
	}
	if err := c.B.Setup(ctx, lease); err != nil {
		return nil, err
	}
	run := newRunID()
	c.Spec.Run = run
	spec, err := json.Marshal(&c.Spec)
	if err != nil {
		return nil, err
	}
	if err := c.B.publish(ctx, specSubject(run), run+"/spec", spec); err != nil {
		return nil, fmt.Errorf("storing the run: %v", err)
	}
	defer c.cleanup(run)
	var conf *Confirmer
	if c.Prog != nil {
		conf = NewConfirmer(c.Prog, &c.Spec, c.Mon, c.Timeout, c.Render)
		defer conf.Close()
	}
	confirmed := func(rep *Report, err error) (*Report, error) {
		if err == nil && conf != nil {
			err = conf.Confirm(rep)
		}
		if err != nil {
			return nil, err
		}
		return rep, nil
	}
	cons, err := c.B.JS.OrderedConsumer(ctx, ResultStream, jetstream.OrderedConsumerConfig{FilterSubjects: []string{"certsym.result." + run + ".*"}})
	if err != nil {
		return nil, fmt.Errorf("reading the results: %v", err)
	}
	got := make(chan []byte, 64)
	cc, err := cons.Consume(func(m jetstream.Msg) {
		got <- m.Data()
	})
	if err != nil {
		return nil, fmt.Errorf("reading the results: %v", err)
	}
	defer cc.Stop()
	root := job.Root.String()
	data, _ := json.Marshal(JobMsg{Run: run, Job: root})
	if err := c.B.publish(ctx, jobSubject(run), run+"/"+root, data); err != nil {
		return nil, fmt.Errorf("seeding the root job: %v", err)
	}
	known := map[string]*knownJob{root: {job: job.Root}}
	waiting := map[string]*knownJob{root: known[root]} // the known jobs without a result
	results := map[string]*Result{}
	states := 0
	var best *job.Job // the first bug or engine stop seen so far, without --all-bugs
	start := time.Now()
	tick := time.NewTicker(time.Second)
	defer tick.Stop()
	for {
		select {
		case data := <-got:
			var r Result
			if err := json.Unmarshal(data, &r); err != nil {
				return nil, fmt.Errorf("a result that does not read: %v", err)
			}
			if r.Run != run || results[r.Job] != nil {
				continue // another run's, or a job's second result
			}
			// A job's result may come before its parent's, which names it: the parent stores its
			// split-off jobs before its own result, and another worker may be quicker.
			results[r.Job] = &r
			if k := known[r.Job]; k != nil {
				k.result = &r
				delete(waiting, r.Job)
			}
			if r.Status == StatusFailed {
				return nil, fmt.Errorf("job %s: %s", r.Job, r.Reason)
			}
			for _, l := range r.Levels {
				states += l.States
			}
			for _, s := range r.Jobs {
				if known[s] == nil {
					j, err := job.Parse(s)
					if err != nil {
						return nil, fmt.Errorf("job %s split off %q: %v", r.Job, s, err)
					}
					known[s] = &knownJob{job: j, result: results[s]}
					if known[s].result == nil {
						waiting[s] = known[s]
					}
				}
			}
			if !c.Spec.AllBugs {
				best = earliest(best, &r)
			}
			if complete(waiting, best) {
				return confirmed(Assemble(results, c.Spec.AllBugs))
			}
			if c.MaxStates > 0 && states >= c.MaxStates {
				return confirmed(c.partial(results, fmt.Sprintf("state bound reached (%d states expanded by the jobs done, %d jobs pending)",
					states, len(waiting))))
			}
		case <-tick.C:
			if c.Progress != nil {
				c.Progress(Progress{Jobs: len(known), Done: len(results), States: states, Elapsed: time.Since(start)})
			}
			if c.Mon != nil {
				if c.Mon.Interrupted() {
					reason := c.Mon.Stop()
					if reason == "" {
						reason = "interrupted"
					}
					return confirmed(c.partial(results, reason))
				}
			}
			if c.Timeout > 0 && time.Since(start) > c.Timeout {
				return confirmed(c.partial(results, fmt.Sprintf("time bound reached (%v, %d jobs done, %d pending)", c.Timeout, len(results), len(waiting))))
			}
		case <-ctx.Done():
			return confirmed(c.partial(results, "interrupted"))
		}
	}
}

// earliest returns the earlier of best and r's first bug or engine stop, in breadth-first order.
func earliest(best *job.Job, r *Result) *job.Job {
	consider := func(at string) {
		j, err := job.Parse(at)
		if err == nil && (best == nil || j.Compare(*best) < 0) {
			best = &j
		}
	}
	for _, ev := range r.Events {
		if ev.Outcome == OutcomeBug {
			consider(ev.At)
		}
	}
	if r.Status == StatusStopped && r.StoppedAt != "" {
		consider(r.StoppedAt)
	}
	return best
}

// complete reports whether every job the answer depends on has its result, waiting being the
// known jobs without one: every job, or, when best is set (the first bug or stop so far, without
// --all-bugs), those whose root comes before it (the others hold only states after it).
func complete(waiting map[string]*knownJob, best *job.Job) bool {
	if best == nil {
		return len(waiting) == 0
	}
	for _, k := range waiting {
		if k.job.Compare(*best) < 0 {
			return false
		}
	}
	return true
}

// partial is the report of a run a bound stopped: unknown (or bug, with the bugs found so far,
// with --all-bugs) with reason, the counters of the jobs done.
func (c *Coordinator) partial(results map[string]*Result, reason string) (*Report, error) {
	rep, err := assemble(results, true)
	if err != nil {
		return nil, err
	}
	switch {
	case len(rep.Bugs) > 0 && c.Spec.AllBugs:
		rep.Verdict, rep.Reason = "bug", reason
	case len(rep.Bugs) > 0: // a confirmed bug, the first among those found
		rep.Verdict, rep.Reason, rep.Bugs, rep.Found = "bug", "", rep.Bugs[:1], rep.Found[:1]
	default:
		rep.Verdict, rep.Reason = "unknown", reason
	}
	rep.Reason = steal.WithCutNote(rep.Reason, rep.Totals.Cut)
	return rep, nil
}

// cleanup ends the run on the broker: the stop mark (workers drop its jobs and abandon those in
// hand), then its jobs, results and spec are deleted.
func (c *Coordinator) cleanup(run string) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	c.B.publish(ctx, stopSubject(run), run+"/stop", []byte("{}"))
	for stream, subject := range map[string]string{JobStream: jobSubject(run), ResultStream: "certsym.result." + run + ".*", RunStream: specSubject(run)} {
		if s, err := c.B.JS.Stream(ctx, stream); err == nil {
			s.Purge(ctx, jetstream.WithPurgeSubject(subject))
		}
	}
}
