package solver

import (
	"fmt"
	"testing"
	"time"

	"certsym/internal/budget"
	"certsym/pathcond"
	"certsym/spec/integer"
	"certsym/sym"
)

// BenchmarkZ3Queries measures the cost of one query that reaches Z3 on the incremental stack
// (the caching layer off): a depth-first walk down a path of 64 conjuncts over four symbols,
// each query one conjunct deeper than the last, and a sibling query one conjunct to the side
// (one pop), linear and with products. It is what the worker's hand-off, the copy of each
// conjunct into the worker's context and the degree check cost per query.
func BenchmarkZ3Queries(b *testing.B) {
	for _, nonlinear := range []bool{false, true} {
		b.Run(fmt.Sprintf("nonlinear=%v", nonlinear), func(b *testing.B) {
			names := []string{"w", "x", "y", "z"}
			ts := sym.NewTerms(names)
			v := ts.Syms()
			conj := func(i int) *sym.Formula {
				t := sym.Add(sym.Scale(v[i%4], integer.Of(int64(i%7+1))), v[(i+1)%4])
				if nonlinear {
					t = sym.Add(t, ts.Mul(v[(i+2)%4], v[(i+3)%4]))
				}
				return sym.Pred(sym.FGe, sym.Sub(t, sym.Const(integer.Of(int64(-i)))))
			}
			sv := NewForSymbols(names, Options{NoCache: true})
			defer sv.Close()
			sv.SetLimits(budget.Limits{QueryTimeout: 10 * time.Second, RLimit: 50_000_000}, time.Time{})
			queries := 0
			b.ResetTimer()
			for n := 0; n < b.N; n++ {
				phi := pathcond.RootPC(0)
				for i := 0; i < 64; i++ {
					side := pathcond.Append(phi, sym.Pred(sym.FNe, sym.Sub(v[i%4], sym.Const(integer.Of(int64(i))))))
					sv.Check(side)
					phi = pathcond.Append(phi, conj(i))
					sv.Check(phi)
					queries += 2
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(queries)/1000, "µs/query")
		})
	}
}

// BenchmarkChainFirstQuery measures a chain's making, its first query that reaches Z3 (x * y ==
// 15, x >= 2) and its Close: what a short run pays for its solver.
func BenchmarkChainFirstQuery(b *testing.B) {
	names := []string{"x", "y"}
	ts := sym.NewTerms(names)
	x, y := ts.Syms()[0], ts.Syms()[1]
	fs := []*sym.Formula{sym.Pred(sym.FEq, sym.Sub(ts.Mul(x, y), sym.Const(integer.Of(15)))), sym.Pred(sym.FGe, sym.Sub(x, sym.Const(integer.Of(2))))}
	for n := 0; n < b.N; n++ {
		sv := NewForSymbols(names, Options{NoCache: true})
		phi := pathcond.RootPC(0)
		for _, f := range fs {
			phi = pathcond.Append(phi, f)
		}
		if sv.Check(phi) != pathcond.Sat {
			b.Fatal(phi.Reason)
		}
		sv.Close()
	}
}

// BenchmarkLargeArrayChain: a chain for a program with an array of 65,536 elements, and its
// first query, on one element and on an element read at a symbolic index: the element symbols
// are made when a formula uses them, and the worker makes its own, so the chain costs no more to
// start than the symbols it reads.
func BenchmarkLargeArrayChain(b *testing.B) {
	for n := 0; n < b.N; n++ {
		b.StopTimer()
		p, ts := arrayProg(b, "array a[0..65535]; i = i")
		c := func(s string) *sym.Formula { return condOf(b, p, ts, s) }
		phi := extendAll(p.Slots(), c("a[5] > 3 and i >= 0 and i < 10"), c("a[i] == 9"))
		b.StartTimer()
		sv := New(p, Options{})
		if got := sv.Check(phi); got != pathcond.Sat {
			b.Fatal(got, phi.Reason)
		}
		sv.Close()
	}
}
