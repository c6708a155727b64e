package budget

import (
	"os"
	"runtime/debug"
)

// GCPercent is the pace of the garbage collector certsym's commands set (PaceGC): a collection
// starts when the heap has grown by that many percent of what the last one kept, where Go's
// default is 100. The symbolic runs allocate fast and keep their frontier live, so at Go's pace
// the collector runs often and marks the same frontier each time: on the open gcd (1,000,000
// states) and 18 independent ifs it took about a quarter of the CPU time of a one-worker run, on
// the second core, which the partitioned run needs for its second worker
// (docs/performance.md, "Partitioned runs").
const GCPercent = 400

// PaceGC sets the garbage collector's pace for a run whose heap is bounded by maxMemory bytes
// (0: no bound): GCPercent, unless the GOGC environment variable sets it, and, under a bound, a
// soft memory limit of nine tenths of it, unless GOMEMLIMIT sets one, so that the collector
// collects more often as the heap nears the bound rather than letting garbage reach it (the
// bound counts the heap's objects, the garbage not yet swept among them: Meter.Poll).
func PaceGC(maxMemory uint64) {
	if _, ok := os.LookupEnv("GOGC"); !ok {
		debug.SetGCPercent(GCPercent)
	}
	if _, ok := os.LookupEnv("GOMEMLIMIT"); !ok && maxMemory > 0 && maxMemory/10*9 < 1<<62 {
		debug.SetMemoryLimit(int64(maxMemory / 10 * 9))
	}
}
