package engine

import (
	"testing"
	"time"

	"certsym/internal/budget"
	"certsym/internal/expect"
	"certsym/spec"
	"certsym/spec/syntax/parser"
)

// phasesFile is SV-COMP's loop-acceleration/phases_1-2, the concrete fast path's target (issue
// 17): a bug after 671 million concrete states.
const phasesFile = "testdata/long/phases_1-2.imp"

// BenchmarkBurstPhases measures the concrete fast path on phases_1-2, before and after in one
// run: states per second on its concrete loop without bursts and with --burst 100000 (2,000,000
// states each), and, with bursts, the time to the bug (s-to-bug), split into the exploration up
// to the error state (s-to-error-state) and the bug finder's confirmation (s-confirm-replay: the
// replay of the input on the concrete semantics, spec.RunFast, which takes every step again),
// the bug checked against the answer annotated in the file (its line and kind). For comparison,
// the same input is then replayed on the reference spec.Run, one spec.Step per step, outside the
// timed run (s-replay-spec-Run; what the confirmation took before spec.RunFast), and its result
// must be the confirmation's. The run without bursts is not taken to the bug (671 million
// states, 234.9 s): its time to the error state is estimated as the states to the
// bug divided by its rate (no-burst-est-s-to-error-state).
func BenchmarkBurstPhases(b *testing.B) {
	prog, err := parser.ParseFile(phasesFile)
	if err != nil {
		b.Fatal(err)
	}
	const loop = 2_000_000
	var noBurstRate float64
	b.Run("no-burst/states=2000000", func(b *testing.B) {
		var total time.Duration
		for i := 0; i < b.N; i++ {
			_, d, _ := exploreOpts(b, prog, loop, Options{})
			total += d
		}
		per := total / time.Duration(b.N)
		noBurstRate = loop / per.Seconds()
		b.ReportMetric(noBurstRate, "states/s")
	})
	b.Run("burst/states=2000000", func(b *testing.B) {
		var total time.Duration
		for i := 0; i < b.N; i++ {
			_, d, _ := exploreOpts(b, prog, loop, Options{Burst: DefaultBurst})
			total += d
		}
		b.ReportMetric(loop/(total/time.Duration(b.N)).Seconds(), "states/s")
	})
	b.Run("burst/to-bug", func(b *testing.B) {
		exp, err := expect.Read(phasesFile)
		if err != nil {
			b.Fatal(err)
		}
		var find, confirm, reference time.Duration
		var bug *Bug
		var states int
		for i := 0; i < b.N; i++ {
			e := New(prog, Options{Burst: DefaultBurst, Limits: budget.Limits{}})
			t0 := time.Now()
			for bug == nil {
				call := time.Now()
				s, err := e.Next()
				if err != nil {
					b.Fatal(err)
				}
				switch s.Kind {
				case BugFound:
					// The call that returns the bug takes the error state from the frontier and
					// confirms it: it replays the input on the concrete semantics
					// (spec.RunFast), all 671 million steps.
					find += call.Sub(t0)
					confirm += time.Since(call)
					bug, states = s.Bug, e.Stats.Expanded
				case Finished, Stopped:
					b.Fatalf("%s: the run ended without a bug (%s)", phasesFile, e.Stopped())
				}
			}
			b.StopTimer()
			t1 := time.Now()
			ref := spec.Run(prog, bug.Input, bug.State.Depth)
			reference += time.Since(t1)
			if ref.Outcome != bug.Replay.Outcome || ref.Fail != bug.Replay.Fail || ref.Steps != bug.Replay.Steps ||
				spec.StoreString(prog, ref.Final.Store) != spec.StoreString(prog, bug.Replay.Final.Store) {
				b.Fatalf("%s: spec.Run ends %v at %v after %d steps with %s, the confirmation %v at %v after %d with %s", phasesFile,
					ref.Outcome, ref.Fail, ref.Steps, spec.StoreString(prog, ref.Final.Store),
					bug.Replay.Outcome, bug.Replay.Fail, bug.Replay.Steps, spec.StoreString(prog, bug.Replay.Final.Store))
			}
			b.StartTimer()
			if i < b.N-1 {
				bug = nil
			}
		}
		if exp.Verdict != "bug" || len(exp.Bugs) != 1 || bug.Line() != exp.Bugs[0].Line || bug.Kind() != exp.Bugs[0].Kind {
			b.Fatalf("%s: bug %s at line %d; the file expects %s %v", phasesFile, bug.Kind(), bug.Line(), exp.Verdict, exp.Bugs)
		}
		n := float64(b.N)
		b.ReportMetric(find.Seconds()/n, "s-to-error-state")
		b.ReportMetric(confirm.Seconds()/n, "s-confirm-replay")
		b.ReportMetric((find+confirm).Seconds()/n, "s-to-bug")
		b.ReportMetric(reference.Seconds()/n, "s-replay-spec-Run")
		b.ReportMetric(float64(bug.Replay.Steps)/(confirm.Seconds()/n), "replay-steps/s")
		b.ReportMetric(float64(states), "states-to-bug")
		b.ReportMetric(float64(states)/(find.Seconds()/n), "states/s")
		if noBurstRate > 0 {
			b.ReportMetric(float64(states)/noBurstRate, "no-burst-est-s-to-error-state")
		}
	})
}
