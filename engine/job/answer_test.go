package job_test

import (
	"testing"
	"time"

	"certsym/engine"
	"certsym/engine/job"
	"certsym/internal/testprog"
	"certsym/pathcond"
	"certsym/spec/integer"
)

// TestReplayTakesTheRootAnswer: where the replaying engine's solver answers otherwise than the
// engine that split the job off (here its deadline has passed: unknown, where the splitter's
// solver found a model of a product equal to a constant), the job's root takes the splitter's
// answer: under load, a time bound cuts one solver short where the other was not, and the job's
// subtree would be explored, and its error classified, under another answer than the one counted.
// Where the two agree, the root keeps its own model.
func TestReplayTakesTheRootAnswer(t *testing.T) {
	prog := testprog.Parse(t, "if x * y == 12 then z = 1 else z = 2 fi;\nif z == 1 then fail fi\n")
	owner := engine.New(prog, engine.Options{})
	defer owner.Close()
	succ := owner.Expand(owner.Initial(), nil)
	if len(succ) != 2 {
		t.Fatalf("the branching has %d successors, want 2", len(succ))
	}
	if st := owner.Solver().Check(succ[0].PC); st != pathcond.Sat {
		t.Fatalf("the owner's solver answered %v on %s, want sat", st, succ[0].PC.String(nil))
	}
	ans := succ[0].PC.Answer()
	j := job.Job{Depth: succ[0].Depth, Path: []uint8{0}}

	late := func() *engine.Engine {
		e := engine.New(prog, engine.Options{})
		e.Solver().SetDeadline(time.Now().Add(-time.Hour))
		return e
	}
	e1 := late()
	defer e1.Close()
	again, err := job.Replay(e1, j, false, nil)
	if err != nil {
		t.Fatal(err)
	}
	if again.PC.Status != pathcond.Unknown {
		t.Fatalf("asked again, the late solver answered %v, want unknown (its deadline has passed)", again.PC.Status)
	}

	e2 := late()
	defer e2.Close()
	got, err := job.Replay(e2, j, false, ans)
	if err != nil {
		t.Fatal(err)
	}
	if got.PC.Status != pathcond.Sat || len(got.PC.Witness) != len(ans.Witness) {
		t.Fatalf("the root's answer is %v %v, want the owner's sat %v", got.PC.Status, got.PC.Witness, ans.Witness)
	}
	for i := range ans.Witness {
		if got.PC.Witness[i].Cmp(ans.Witness[i]) != 0 {
			t.Fatalf("the root's witness is %v, want the owner's %v", got.PC.Witness, ans.Witness)
		}
	}

	e3 := engine.New(prog, engine.Options{})
	defer e3.Close()
	other := &pathcond.Answer{Status: pathcond.Sat, Witness: []integer.Int{integer.Of(-6), integer.Of(-2), integer.Of(0)}}
	own, err := job.Replay(e3, j, false, other)
	if err != nil {
		t.Fatal(err)
	}
	if own.PC.Status != pathcond.Sat || own.PC.Witness[0].Cmp(integer.Of(-6)) == 0 && own.PC.Witness[1].Cmp(integer.Of(-2)) == 0 {
		t.Fatalf("the solvers agree (sat), and the root took the carried model %v, want its own", own.PC.Witness)
	}
}
