package steal

import (
	"testing"
	"time"

	"certsym/engine"
	"certsym/internal/testprog"
	"certsym/pathcond"
)

// stolenReplay has worker 0 of a two-worker run expand the program's first branching, whose
// first successor's path condition (a product equal to a constant) only Z3 decides; worker 1,
// whose solver's deadline has passed (every Z3 query answers unknown), steals that successor and
// replays it. It returns the replayed state and the state worker 0 queued.
func stolenReplay(t *testing.T) (got, owner *engine.State, redecided pathcond.SatStatus) {
	t.Helper()
	prog := testprog.Parse(t, "if x * y == 12 then z = 1 else z = 2 fi;\nif z == 1 then fail fi\n")
	r, m := newRun(prog, Options{Options: engine.Options{Workers: 2}}, nil)
	defer r.finish(m)
	w0, w1 := r.workers[0], r.workers[1]
	if !w0.step() {
		t.Fatal("worker 0 did not expand the initial state")
	}
	l := w0.front()
	if l == nil || len(l.items)-l.head != 2 {
		t.Fatalf("worker 0 queued %v, want the two successors of the branching", l)
	}
	owner = l.items[l.head].st
	if owner.PC.Status != pathcond.Sat {
		t.Fatalf("worker 0's solver answered %v on %s, want sat", owner.PC.Status, owner.PC.String(nil))
	}
	w1.chain.SetDeadline(time.Now().Add(-time.Hour))
	if !w1.steal() {
		t.Fatal("worker 1 stole nothing")
	}
	it, ok := w1.pop()
	if !ok || it.st != nil || it.dec == nil {
		t.Fatalf("worker 1's first job is %+v, want a stolen job with worker 0's decision", it)
	}
	again, err := w1.replay(it.nd, int(it.depth), nil)
	if err != nil {
		t.Fatal(err)
	}
	got, err = w1.replay(it.nd, int(it.depth), it.dec)
	if err != nil {
		t.Fatal(err)
	}
	return got, owner, again.PC.Status
}

// TestStolenJobKeepsTheDecision: a thief takes the answer the worker that queued a state gave on
// its path condition, rather than its own solver's, which a bound may cut short where the other's
// was not (here a deadline passed; in a run, a time or resource bound and another history). Asked
// again, the thief's solver answers unknown, and the run would classify the state's error, and
// expand its subtree, under another answer than the single run's, without counting it: the
// partitioned run of a generated program left out a bug of the single run that way.
func TestStolenJobKeepsTheDecision(t *testing.T) {
	got, owner, redecided := stolenReplay(t)
	if redecided != pathcond.Unknown {
		t.Fatalf("the thief's solver answered %v, want unknown (its deadline has passed)", redecided)
	}
	if got.PC.Status != pathcond.Sat {
		t.Fatalf("the stolen state's path condition is %v (%s), want worker 0's sat", got.PC.Status, got.PC.Reason)
	}
	if len(got.PC.Witness) != len(owner.PC.Witness) {
		t.Fatalf("witness %v, want worker 0's %v", got.PC.Witness, owner.PC.Witness)
	}
	for i := range got.PC.Witness {
		if got.PC.Witness[i].Cmp(owner.PC.Witness[i]) != 0 {
			t.Fatalf("witness %v, want worker 0's %v", got.PC.Witness, owner.PC.Witness)
		}
	}
}
