package distrib

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"certsym/pathcond"
	"certsym/spec/integer"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// The broker's streams and the workers' consumer. Every run shares them; a run's messages are on
// subjects that end with its id.
const (
	// RunStream holds each run's Spec (subject certsym.run.ID) and, once the run is over, its
	// stop mark (certsym.stop.ID).
	RunStream = "CERTSYM_RUNS"
	// JobStream holds the jobs waiting for a worker (certsym.job.ID): work-queue retention, a
	// job is removed when a worker acknowledges it.
	JobStream = "CERTSYM_JOBS"
	// ResultStream holds the jobs' results (certsym.result.ID.KEY, KEY a hash of the job).
	ResultStream = "CERTSYM_RESULTS"
	// WorkerConsumer is the durable pull consumer through which every worker takes jobs.
	WorkerConsumer = "certsym-workers"
)

// DefaultLease is the consumer's AckWait when the coordinator is given none: how long a job
// delivered to a worker that stops answering waits before it is delivered to another.
const DefaultLease = 30 * time.Second

// DefaultBudget is the number of states a worker expands in a job before it splits off the
// pending ones as jobs of their own.
const DefaultBudget = 2000

// dupWindow is the broker's duplicate window on the job and result streams: a message published
// again with the same id within it is stored once.
const dupWindow = 10 * time.Minute

// keep is how long the run and result streams keep a message (a run's are deleted when it ends;
// this bounds what a coordinator that dies leaves behind).
const keep = 24 * time.Hour

func specSubject(run string) string { return "certsym.run." + run }
func stopSubject(run string) string { return "certsym.stop." + run }
func jobSubject(run string) string  { return "certsym.job." + run }
func resultSubject(run, job string) string {
	return "certsym.result." + run + "." + jobKey(job)
}

// jobKey is a subject token for a job (a path may be longer than a subject may be).
func jobKey(job string) string {
	h := sha256.Sum256([]byte(job))
	return hex.EncodeToString(h[:16])
}

// Spec is what a worker needs to explore a run's jobs: the program and the options that change
// the answer. The coordinator publishes it once per run.
type Spec struct {
	Run string `json:"run"`
	// File is the program's name as the coordinator was given it (the reports and the
	// reproduce lines name it); Source its text.
	File   string `json:"file"`
	Source string `json:"source"`
	// AllBugs, NoPrune and the solver's bounds are the single run's options.
	AllBugs      bool          `json:"all_bugs"`
	NoPrune      bool          `json:"no_prune"`
	QueryTimeout time.Duration `json:"query_timeout"`
	RLimit       uint          `json:"rlimit"`
	// Budget is the number of states a job explores before it splits.
	Budget int `json:"budget"`
}

// JobMsg is one job of a run.
type JobMsg struct {
	Run string `json:"run"`
	Job string `json:"job"` // engine.Job.String
	// Root is the answer of the solver of the job that split this one off on its root's path
	// condition (none for the run's first job): where the worker's own solver answers otherwise,
	// the root takes it (job.Replay).
	Root *Answer `json:"root,omitempty"`
}

// Answer is a pathcond.Answer as the broker carries it: the status ("sat", "unknown", ...), the
// witness's values in decimal, the reason of an unknown answer.
type Answer struct {
	Status  string   `json:"status"`
	Witness []string `json:"witness,omitempty"`
	Reason  string   `json:"reason,omitempty"`
}

// answerOf is a's wire form.
func answerOf(a *pathcond.Answer) *Answer {
	w := &Answer{Status: a.Status.String(), Reason: a.Reason}
	for _, v := range a.Witness {
		w.Witness = append(w.Witness, v.String())
	}
	return w
}

// answer reads the wire form back.
func (w *Answer) answer() (*pathcond.Answer, error) {
	a := &pathcond.Answer{Status: pathcond.Unchecked, Reason: w.Reason}
	for a.Status.String() != w.Status { // the statuses' names, as answerOf writes them
		if a.Status++; a.Status > pathcond.Unknown {
			return nil, fmt.Errorf("a job's root answer has status %q", w.Status)
		}
	}
	for _, t := range w.Witness {
		v, ok := integer.Parse(t)
		if !ok {
			return nil, fmt.Errorf("a job's root answer has the value %q", t)
		}
		a.Witness = append(a.Witness, v)
	}
	return a, nil
}

// Level is what a job did at one depth: the states it expanded there and what their expansion
// counted (the successors pruned, the solver's queries and answers). The queries are counted as
// run --workers counts them (steal.Asks), a function of the tree, not as the solver asked them.
type Level struct {
	Depth   int `json:"depth"`
	States  int `json:"states"`
	Pruned  int `json:"pruned,omitempty"`
	Queries int `json:"queries,omitempty"`
	Sat     int `json:"sat,omitempty"`
	Unsat   int `json:"unsat,omitempty"`
	Unknown int `json:"unknown,omitempty"`
	// Cut counts the answers among them that a time or resource bound cut short (steal.CutShort).
	Cut int `json:"cut,omitempty"`
}

func (l *Level) add(m Level) {
	l.States += m.States
	l.Pruned += m.Pruned
	l.Queries += m.Queries
	l.Sat += m.Sat
	l.Unsat += m.Unsat
	l.Unknown += m.Unknown
	l.Cut += m.Cut
}

// The outcomes of an error state's check.
const (
	OutcomeBug     = "bug"     // confirmed
	OutcomeUnknown = "unknown" // the solver could not decide its path condition
	OutcomeUnsat   = "unsat"   // unreachable (without pruning only)
)

// Event is an error state whose path condition a job checked, as the single run would unless it
// reported that error earlier (with --all-bugs).
type Event struct {
	// At is the error state's position (engine.Job.String of its depth and path); Fail the
	// error's number (engine.FailIDs).
	At      string `json:"at"`
	Fail    int    `json:"fail"`
	Outcome string `json:"outcome"`
	// Cost is what the check counted (a query without pruning; none with it, the path condition
	// was decided when the state was queued).
	Cost Level `json:"cost"`
	// Kind, Line and Reason describe an unknown outcome for the verdict's reason.
	Kind   string `json:"kind,omitempty"`
	Line   int    `json:"line,omitempty"`
	Reason string `json:"reason,omitempty"`
	// Bug is a confirmed bug as the command renders it (opaque here).
	Bug json.RawMessage `json:"bug,omitempty"`
}

// The statuses of a result.
const (
	StatusDone    = "done"    // the job's subtree is explored (split, or cut at its first bug)
	StatusStopped = "stopped" // a bound of the engine stopped it (a huge assignment): Reason
	StatusFailed  = "failed"  // certsym's own error (a bug whose input does not replay): Reason
)

// Result is what a job found.
type Result struct {
	Run    string `json:"run"`
	Job    string `json:"job"`
	Worker string `json:"worker"`
	Status string `json:"status"`
	Reason string `json:"reason,omitempty"`
	// StoppedAt is the position of the state expanded last when Status is stopped.
	StoppedAt string `json:"stopped_at,omitempty"`
	// Levels are by increasing depth from the job's root.
	Levels []Level  `json:"levels"`
	Events []Event  `json:"events,omitempty"`
	Jobs   []string `json:"jobs,omitempty"` // the split-off jobs
	// Roots are the answers on the split-off jobs' roots, in the order of Jobs (rootOf).
	Roots []*Answer `json:"roots,omitempty"`
	// Cut is set when the job ended at its first bug (without --all-bugs): its pending states,
	// all after that bug, are left unexplored.
	Cut bool `json:"cut,omitempty"`
	// ReplayQueries counts the solver queries spent rebuilding the job's root.
	ReplayQueries int `json:"replay_queries,omitempty"`
}

// Broker is a connection to the NATS server and its JetStream context.
type Broker struct {
	NC *nats.Conn
	JS jetstream.JetStream
}

// Dial connects to the NATS server at url (nats://host:port), retrying for up to wait while it
// is not up yet (a worker or coordinator started beside the broker).
func Dial(url, name string, wait time.Duration) (*Broker, error) {
	deadline := time.Now().Add(wait)
	for {
		nc, err := nats.Connect(url, nats.Name(name), nats.MaxReconnects(-1), nats.ReconnectWait(250*time.Millisecond))
		if err == nil {
			js, err := jetstream.New(nc)
			if err != nil {
				nc.Close()
				return nil, err
			}
			return &Broker{NC: nc, JS: js}, nil
		}
		if time.Now().After(deadline) {
			return nil, fmt.Errorf("cannot reach the NATS server at %s: %v", url, err)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// Close drains and closes the connection.
func (b *Broker) Close() {
	if b.NC != nil {
		b.NC.Drain()
		b.NC.Close()
	}
}

// Setup creates the streams (or updates them to this configuration) and the workers' consumer
// with AckWait lease: the coordinator calls it before it seeds a run.
func (b *Broker) Setup(ctx context.Context, lease time.Duration) error {
	streams := []jetstream.StreamConfig{
		{Name: RunStream, Subjects: []string{"certsym.run.*", "certsym.stop.*"}, MaxAge: keep, MaxMsgsPerSubject: 1},
		{Name: JobStream, Subjects: []string{"certsym.job.*"}, Retention: jetstream.WorkQueuePolicy, Duplicates: dupWindow},
		{Name: ResultStream, Subjects: []string{"certsym.result.*.*"}, MaxAge: keep, Duplicates: dupWindow},
	}
	for _, c := range streams {
		if _, err := b.JS.CreateOrUpdateStream(ctx, c); err != nil {
			return fmt.Errorf("stream %s: %w", c.Name, err)
		}
	}
	_, err := b.JS.CreateOrUpdateConsumer(ctx, JobStream, jetstream.ConsumerConfig{
		Durable:       WorkerConsumer,
		AckPolicy:     jetstream.AckExplicitPolicy,
		AckWait:       lease,
		MaxDeliver:    -1,
		MaxAckPending: -1,
		FilterSubject: "certsym.job.*",
	})
	if err != nil {
		return fmt.Errorf("consumer %s: %w", WorkerConsumer, err)
	}
	return nil
}

// lastOn returns the data of the last message on subject of stream, nil when there is none.
func (b *Broker) lastOn(ctx context.Context, stream, subject string) ([]byte, error) {
	s, err := b.JS.Stream(ctx, stream)
	if err != nil {
		return nil, err
	}
	m, err := s.GetLastMsgForSubject(ctx, subject)
	if errors.Is(err, jetstream.ErrMsgNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return m.Data, nil
}

// publish stores data on subject with message id id: it returns once the broker has
// acknowledged it (a copy within the duplicate window is acknowledged as a duplicate).
func (b *Broker) publish(ctx context.Context, subject, id string, data []byte) error {
	_, err := b.JS.Publish(ctx, subject, data, jetstream.WithMsgID(id))
	return err
}
