// Package z3query is the Z3 plumbing of the refinement layer's prover (package refinement):
// bounding a query by Z3's rlimit and by a timer that interrupts the context, turning go-z3's
// panics into errors (which the symbolic core's solver, package solver, uses too: its queries run
// on a worker of their own, package z3worker), and reading integer models.
// It knows nothing of what is asked: the two encodings of IMP's truncating division stay apart on
// purpose, one in each client, so that the refinement layer checks the engine's independently.
//
// Queries are bounded by rlimit and time.AfterFunc(d, ctx.Interrupt), never by Z3's timeout
// parameter, which deadlocks Z3 4.8.12 on nonlinear queries.
package z3query

import (
	"fmt"
	"math/big"
	"sync/atomic"
	"time"

	"github.com/aclements/go-z3/z3"

	"certsym/spec/integer"
)

// Check runs s.Check() with the context's rlimit set to rlimit (0: left as it is) and, when limit
// is positive, a timer that interrupts ctx after limit. timedOut reports whether the timer fired
// (the query was cut short by its time bound, err is then not nil).
func Check(ctx *z3.Context, s *z3.Solver, rlimit uint, limit time.Duration) (sat bool, err error, timedOut bool) {
	if rlimit > 0 {
		ctx.Config().SetUint("rlimit", rlimit)
	}
	var timer *time.Timer
	var fired atomic.Bool
	if limit > 0 {
		timer = time.AfterFunc(limit, func() { fired.Store(true); ctx.Interrupt() })
	}
	sat, err = s.Check()
	if timer != nil {
		timer.Stop()
	}
	return sat, err, fired.Load()
}

// Catch, deferred, turns a panic of go-z3 (which panics on Z3 errors) into an error stored in
// *err: a query that fails is undecided, never a crash. It must be deferred directly
// (defer z3query.Catch(&err)).
func Catch(err *error) {
	if r := recover(); r != nil {
		*err = fmt.Errorf("%v", r)
	}
}

// Model reads the value of each of xs in s's model (after a satisfiable Check), completing the
// model: a constant the model leaves free is 0.
func Model(s *z3.Solver, xs []z3.Int) []integer.Int {
	m := s.Model()
	out := make([]integer.Int, len(xs))
	for i, x := range xs {
		v, _ := m.Eval(x, true).(z3.Int).AsBigInt()
		if v == nil {
			v = new(big.Int)
		}
		out[i] = integer.FromBig(v)
	}
	return out
}
