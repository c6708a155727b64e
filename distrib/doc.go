// Package distrib runs certsym's breadth-first bug finder across processes and machines, through a
// NATS JetStream broker: a coordinator (certsym run --distributed URL FILE) and any number of
// workers (certsym worker URL), which may start, stop and die at any moment.
//
// Jobs. A job is a subtree of the execution tree, named by its root's depth and path of branch
// choices from the root (engine.Job); any process rebuilds the root from the program alone
// (engine.Replay). A worker explores a job breadth-first until it has expanded Budget states,
// then hands every pending state back as a job of its own (a split), so every job ends after a
// bounded amount of work and the tree is shared out as it is discovered.
//
// The broker. Jobs are messages of a stream with work-queue retention (JobStream): each is
// delivered to one worker at a time through one durable pull consumer (WorkerConsumer) with
// explicit acknowledgement, and removed from the stream when it is acknowledged. A delivered job
// is leased to its worker for the consumer's AckWait (the lease); the worker extends it while it
// works (an in-progress acknowledgement every third of the lease) and acknowledges the job only
// after its split-off jobs and its result are stored: published, and the broker's
// acknowledgement of each publication received. A worker killed at any moment thus loses
// nothing: it stops extending its leases, and the broker delivers each job it held to another
// worker once the lease has expired. Results go to a stream of their own (ResultStream), one
// subject per job; a redelivered job whose result is already there is acknowledged without being
// explored again, and the coordinator keeps the first result of each job (a job is explored
// deterministically, so a second result would say the same), so nothing is counted twice.
// Split-off jobs carry a message id, which the broker uses to drop a copy published again within
// its duplicate window.
//
// The answer. A job's result holds, for each depth, the counters of the states it expanded there,
// the error states it checked (each with its position, its error and the solver's answer), the
// bugs rendered as the command prints them, and its split-off jobs. The coordinator seeds the
// root job, collects the results, and when every job is accounted for computes the single run's
// report (Assemble): the states a job expanded at one depth are a prefix, in breadth-first
// order, of its subtree's states at that depth, so the single run's counters up to its first bug
// are sums of whole levels plus the levels of the bug's own depth that come before it.
package distrib
