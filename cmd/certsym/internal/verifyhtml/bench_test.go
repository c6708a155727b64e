package verifyhtml

import (
	"fmt"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"certsym/internal/testprog"
	"certsym/verify"
)

// counter counts the bytes and lines written to it.
type counter struct{ bytes, lines int }

func (c *counter) Write(p []byte) (int, error) {
	c.bytes += len(p)
	c.lines += strings.Count(string(p), "\n")
	return len(p), nil
}

// peakHeap samples the heap in use every 10 ms until stop is called, which returns the largest
// sample (bytes).
func peakHeap() (stop func() uint64) {
	var peak uint64
	done := make(chan struct{})
	var wg sync.WaitGroup
	sample := func() {
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		peak = max(peak, ms.HeapInuse)
	}
	wg.Go(func() {
		t := time.NewTicker(10 * time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
				sample()
			}
		}
	})
	return func() uint64 {
		close(done)
		wg.Wait()
		sample()
		return peak
	}
}

// liveHeap is the heap in use after a collection, in bytes.
func liveHeap() uint64 {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.HeapAlloc
}

// cpuTime is the CPU time the process has used (user and system, getrusage).
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkVerifyText is certsym verify's text report (verify.Verify, the model, WriteText with
// the command's default cap on the paths listed, DefaultPaths) of n independent ifs on inputs
// before an assert that fails on every path (manyIfs), at three sizes: how the time (elapsed,
// and cpu-s, the process's CPU time, which a loaded machine does not inflate), the bytes and
// lines of output, the peak heap in use (sampled every 10 ms) and the heap the report and its
// model keep (report-MB, live after a collection) grow when the paths explored double with each
// if. The output and the report grow with the paths listed only (and the evidence's path ids);
// the claims' evaluations, each with its replayed counterexample, are what remains proportional to
// the paths.
func BenchmarkVerifyText(b *testing.B) {
	for _, n := range []int{12, 15, 18} {
		prog := testprog.Parse(b, testprog.IndependentIfs(n))
		b.Run(fmt.Sprintf("ifs=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			var out counter
			var peak uint64
			var kept int64
			var cpu time.Duration
			for b.Loop() {
				base := liveHeap()
				stop := peakHeap()
				start := cpuTime()
				out = counter{}
				rep := verify.Verify(prog, verify.Options{LoopBound: 3, MaxPaths: DefaultPaths})
				doc := Model("ifs.imp", rep)
				WriteText(&out, "ifs.imp", doc, false)
				cpu = cpuTime() - start
				peak = stop()
				kept = int64(liveHeap()) - int64(base)
				if rep.Overall != verify.StatusRefuted {
					b.Fatalf("overall %s, want REFUTED", rep.Overall)
				}
				runtime.KeepAlive(doc)
			}
			b.ReportMetric(cpu.Seconds(), "cpu-s")
			b.ReportMetric(float64(out.bytes), "out-bytes")
			b.ReportMetric(float64(out.lines), "out-lines")
			b.ReportMetric(float64(peak)/(1<<20), "peak-heap-MB")
			b.ReportMetric(float64(kept)/(1<<20), "report-MB")
		})
	}
}
