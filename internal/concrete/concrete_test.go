package concrete

import (
	"testing"

	"certsym/internal/budget"
	"certsym/spec"
	"certsym/spec/syntax"
	"certsym/spec/syntax/parser"
	"certsym/step"
)

// TestLimitsAndReasons: Limits carry run's integer bound, and a run cut short by each bound is
// said in the commands' words, placed at the statement where it stopped; a bug's replay that the
// monitor stopped gives the monitor's reason alone, as a run stopped between states.
func TestLimitsAndReasons(t *testing.T) {
	p, err := parser.Parse("t.imp", []byte("x = 2;\nwhile true do\n  x = x * x\nod;\nassert forall k in 0..1000000000000: k >= 0;\nfail"))
	if err != nil {
		t.Fatal(err)
	}
	if l := Limits(7, 9, nil); l.Steps != 7 || l.Instances != 9 || l.IntBits != step.MaxIntBits || l.Stop != nil {
		t.Errorf("Limits(7, 9, nil) = %+v", l)
	}
	r := spec.RunFastLimited(p, make(spec.Store, 1), Limits(-1, 100, nil))
	f := p.Body.(*syntax.Seq).Second.(*syntax.Seq).Second.(*syntax.Seq).Second.(*syntax.Fail)
	want := "the replay of the input that reaches the fail at line 6 was cut short: integer bound reached (a value of more than 1048576 bits assigned at 3:3)"
	if got := ReplayCut(f, r, 100, "", 0); r.Cut != budget.CutIntBits || got != want {
		t.Errorf("integer bound: cut %d, %q; want %q", r.Cut, got, want)
	}
	assert := p.Body.(*syntax.Seq).Second.(*syntax.Seq).Second.(*syntax.Seq).First
	if got, want := Reason(budget.CutInstances, assert, 100, ""), "quantifier instance bound reached (more than 100 instances evaluated, at 5:1)"; got != want {
		t.Errorf("instances: %q, want %q", got, want)
	}
	stopped := spec.Result{Cut: budget.CutStop}
	if got := ReplayCut(f, stopped, 100, "interrupted", 0); got != "interrupted" {
		t.Errorf("stop: %q, want the monitor's reason", got)
	}
	if got := ReplayCut(f, stopped, 100, "", 3e9); got != "time bound reached (3s)" {
		t.Errorf("stop without the monitor's reason: %q", got)
	}
}
