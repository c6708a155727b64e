// Package concrete holds the bounds of the concrete runs certsym makes beside its symbolic ones
// (exec's run, a bug's confirmation, the replays of certsym verify and of the bounded interpreter,
// a concolic run): the spec.Limits within which each runs, so that none hangs in a quantifier over
// a huge range or on huge integers and each polls its command's monitor, and the words that say
// which bound cut a run short.
package concrete

import (
	"fmt"
	"time"

	"certsym/internal/budget"
	"certsym/spec"
	"certsym/spec/syntax"
	"certsym/step"
)

// ReplayInstances bounds the quantifier instances a replay evaluates in all (a bug's
// confirmation, the replay of a test or of a counterexample): exec's default step bound, which
// bounds exec's instances too. At about 10^7 instances a second, a replay that reaches it has
// run for a second or so.
const ReplayInstances = 10_000_000

// Limits are the bounds of a concrete run of at most steps steps (< 0: no step bound) and
// instances quantifier instances, with run's integer bound (step.MaxIntBits), polling stop (nil:
// nothing to poll).
func Limits(steps, instances int, stop func() bool) spec.Limits {
	return spec.Limits{Steps: steps, Instances: instances, IntBits: step.MaxIntBits, Stop: stop}
}

// Reason says which bound cut a run of Limits(_, instances, _) short at statement at, in the
// words of the commands' reports; stopped is the monitor's reason for budget.CutStop.
func Reason(cut budget.Cut, at syntax.Stmt, instances int, stopped string) string {
	p := at.Pos()
	switch cut {
	case budget.CutInstances:
		return fmt.Sprintf("quantifier instance bound reached (more than %d instances evaluated, at %d:%d)", instances, p.Line, p.Col)
	case budget.CutIntBits:
		return fmt.Sprintf("integer bound reached (a value of more than %d bits assigned at %d:%d)", step.MaxIntBits, p.Line, p.Col)
	case budget.CutStop:
		if stopped == "" {
			return "stopped"
		}
		return stopped
	case budget.CutSteps:
		return fmt.Sprintf("step bound reached (at %d:%d)", p.Line, p.Col)
	default:
		panic(fmt.Sprintf("concrete.Reason: no bound (cut %d)", cut))
	}
}

// ReplayCut is why a bug finder stops when the replay r of the input that reaches the error f (a
// bug's confirmation, within Limits(_, instances, _)) was cut short by a bound: the monitor's
// reason stopped for budget.CutStop (the time bound, timeout, when the monitor gives none: the
// finder's own clock), as for a run the bound stops between states; otherwise the bound reached,
// the error left unconfirmed.
func ReplayCut(f *syntax.Fail, r spec.Result, instances int, stopped string, timeout time.Duration) string {
	if r.Cut == budget.CutStop {
		if stopped == "" {
			stopped = fmt.Sprintf("time bound reached (%v)", timeout)
		}
		return stopped
	}
	return fmt.Sprintf("the replay of the input that reaches the %s at line %d was cut short: %s",
		f.Kind, f.Line(), Reason(r.Cut, spec.Head(r.Final.Prog), instances, stopped))
}
