package engine

import (
	"testing"
	"time"

	"certsym/internal/budget"
	"certsym/internal/expect"
	"certsym/spec"
)

// phasesFile is SV-COMP's loop-acceleration/phases_1-2, the concrete fast path's target (issue
// 17): a bug after 671 million concrete states.
const phasesFile = "testdata/long/phases_1-2.imp"

// BenchmarkBurstPhases measures the concrete fast path on phases_1-2, before and after in one
// run: states per second on its concrete loop without bursts and with --burst 100000 (2,000,000
// states each), and, with bursts, the time to the bug, the whole run checked against the
// answer annotated in the file (the bug's line and kind). The run without bursts is not taken to
// the bug (671 million states, 234.9 s in issue 17): its time to the bug is the states of the
// bursty run divided by its rate, reported as est-s-to-bug.
func BenchmarkBurstPhases(b *testing.B) {
	prog, err := spec.ParseFile(phasesFile)
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
		var total time.Duration
		var rep *Report
		for i := 0; i < b.N; i++ {
			start := time.Now()
			rep, err = New(prog, Options{Burst: DefaultBurst, Limits: budget.Limits{}}).FindBugs(nil)
			total += time.Since(start)
			if err != nil {
				b.Fatal(err)
			}
		}
		if rep.Verdict.String() != exp.Verdict || len(rep.Bugs) != len(exp.Bugs) ||
			rep.Bugs[0].Line() != exp.Bugs[0].Line || rep.Bugs[0].Kind() != exp.Bugs[0].Kind {
			b.Fatalf("%s: verdict %v, bugs %v; the file expects %s, %v", phasesFile, rep.Verdict, rep.Bugs, exp.Verdict, exp.Bugs)
		}
		per := total / time.Duration(b.N)
		b.ReportMetric(per.Seconds(), "s-to-bug")
		b.ReportMetric(float64(rep.Stats.Expanded), "states-to-bug")
		b.ReportMetric(float64(rep.Stats.Expanded)/per.Seconds(), "states/s")
		if noBurstRate > 0 {
			b.ReportMetric(float64(rep.Stats.Expanded)/noBurstRate, "no-burst-est-s-to-bug")
		}
	})
}
