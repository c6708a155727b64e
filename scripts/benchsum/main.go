// Command benchsum reads the output of `go test -bench ... -count N` on standard input and prints,
// for each benchmark and each metric it reported, a summary over the N runs computed with
// gonum/stat: the median, the quartiles, the extremes and the relative spread (the
// interquartile range over the median). The lines it does not recognize (PASS, ok, goos) are
// passed through, so a failing benchmark still shows its message. It exits 1 when the input
// holds no benchmark result or a FAIL line.
//
// Usage (make bench): go test -run '^$' -bench X -count 5 ./pkg | go run ./scripts/benchsum
package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"sort"
	"strconv"
	"strings"
	"text/tabwriter"

	"gonum.org/v1/gonum/stat"
)

// series is the values of one metric of one benchmark, one per run, in the order read.
type series struct {
	bench, unit string
	values      []float64
}

// table gathers the series in the order their benchmark and metric first appear.
type table struct {
	order []*series
	index map[string]*series
}

func (t *table) add(bench, unit string, v float64) {
	key := bench + "\x00" + unit
	s := t.index[key]
	if s == nil {
		s = &series{bench: bench, unit: unit}
		t.index[key] = s
		t.order = append(t.order, s)
	}
	s.values = append(s.values, v)
}

// parseLine reads one benchmark result line, "BenchmarkName-P  iters  v1 unit1  v2 unit2 ...",
// into t; ok is false for any other line.
func parseLine(t *table, line string) (ok bool, err error) {
	f := strings.Fields(line)
	if len(f) < 4 || !strings.HasPrefix(f[0], "Benchmark") || len(f)%2 != 0 {
		return false, nil
	}
	if _, err := strconv.Atoi(f[1]); err != nil {
		return false, nil
	}
	name := f[0]
	if i := strings.LastIndexByte(name, '-'); i > 0 {
		if _, err := strconv.Atoi(name[i+1:]); err == nil {
			name = name[:i] // the GOMAXPROCS suffix
		}
	}
	for i := 2; i+1 < len(f); i += 2 {
		v, err := strconv.ParseFloat(f[i], 64)
		if err != nil {
			return false, fmt.Errorf("%s: metric %q: %v", name, f[i+1], err)
		}
		t.add(name, f[i+1], v)
	}
	return true, nil
}

// summary is the statistics printed for one series.
type summary struct {
	n                        int
	median, q1, q3, min, max float64
	relSpread, stddev        float64 // (q3-q1)/median; the sample standard deviation
}

func summarize(values []float64) summary {
	xs := append([]float64(nil), values...)
	sort.Float64s(xs)
	s := summary{n: len(xs), min: xs[0], max: xs[len(xs)-1]}
	s.median = stat.Quantile(0.5, stat.Empirical, xs, nil)
	s.q1 = stat.Quantile(0.25, stat.Empirical, xs, nil)
	s.q3 = stat.Quantile(0.75, stat.Empirical, xs, nil)
	if s.median != 0 {
		s.relSpread = (s.q3 - s.q1) / s.median
	}
	if len(xs) > 1 {
		s.stddev = stat.StdDev(xs, nil)
	}
	return s
}

func run(in io.Reader, out io.Writer) error {
	t := &table{index: map[string]*series{}}
	failed := false
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		ok, err := parseLine(t, line)
		if err != nil {
			return err
		}
		if ok || strings.HasPrefix(line, "goos:") || strings.HasPrefix(line, "goarch:") || strings.HasPrefix(line, "cpu:") {
			continue
		}
		if strings.HasPrefix(line, "FAIL") || strings.HasPrefix(line, "--- FAIL") {
			failed = true
		}
		fmt.Fprintln(out, line)
	}
	if err := sc.Err(); err != nil {
		return err
	}
	if len(t.order) == 0 {
		return fmt.Errorf("no benchmark result in the input")
	}
	w := tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
	fmt.Fprintln(w, "benchmark\tmetric\truns\t   median\t       q1\t       q3\t      min\t      max\tIQR/median\t   stddev")
	last := ""
	for _, s := range t.order {
		if s.unit == "ns/op" {
			continue // the benchmarks report their own times per run
		}
		sm := summarize(s.values)
		name := s.bench
		if name == last {
			name = ""
		}
		last = s.bench
		fmt.Fprintf(w, "%s\t%s\t%4d\t%s\t%s\t%s\t%s\t%s\t%9.1f%%\t%s\n", name, s.unit, sm.n,
			num(sm.median), num(sm.q1), num(sm.q3), num(sm.min), num(sm.max), 100*sm.relSpread, num(sm.stddev))
	}
	if err := w.Flush(); err != nil {
		return err
	}
	if failed {
		return fmt.Errorf("a benchmark failed")
	}
	return nil
}

// num prints v with four significant digits, right-aligned in 9 columns.
func num(v float64) string { return fmt.Sprintf("%9s", strconv.FormatFloat(v, 'g', 4, 64)) }

func main() {
	if err := run(os.Stdin, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "benchsum:", err)
		os.Exit(1)
	}
}
