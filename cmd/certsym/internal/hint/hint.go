// Package hint is the advice certsym run's partial report ends with when an option the run did
// not use would likely have given a verdict: today, the concrete fast path (--burst) for a run
// that a bound stopped on a long loop over constants.
package hint

import (
	"fmt"
	"strings"

	"certsym/engine"
)

// The shape of a run that Burst advises: a frontier of at most MaxPending states, each followed by
// at least MinConcrete steps that read no symbol.
const (
	MaxPending  = 16
	MinConcrete = 10_000
)

// Burst is the hint of a run of the bug finder (eng, its report rep, its options opts) that a
// bound or an interrupt stopped on a long concrete stretch: a small frontier (at most MaxPending
// states), every pending state followed by at least MinConcrete steps that read no symbol (a
// loop over constants, such as SV-COMP's loop-acceleration/phases_1-2). Such steps have one
// successor each and no solver query; --burst takes them in bulk on a concrete machine, and
// since each step still counts as a state, the state bound needs lifting too. It is "" for any
// other run, and for runs whose options rule bursts out (another strategy, --no-prune, --shard,
// or --burst already given).
func Burst(eng *engine.Engine, rep *engine.Report, opts engine.Options) string {
	if rep == nil || rep.Verdict != engine.VerdictUnknown || eng.Stopped() == "" || rep.Reason != eng.Stopped() {
		return "" // a verdict, or no verdict for a reason other than a bound (the solver's unknown)
	}
	reason := eng.Stopped()
	if !strings.HasPrefix(reason, "state bound reached") && !strings.HasPrefix(reason, "time bound reached") && reason != "interrupted" {
		return "" // the memory bound: a burst builds no fewer states in the end
	}
	if opts.Burst != 0 || (opts.Strategy != engine.BFS && opts.Strategy != engine.DFS) || opts.NoPrune || opts.Shard.Enabled() {
		return ""
	}
	if eng.Pending() > MaxPending {
		return ""
	}
	pending, fewest := eng.ConcreteAhead(MinConcrete)
	if pending == 0 || fewest < MinConcrete {
		return ""
	}
	flags := fmt.Sprintf("--burst %d", engine.DefaultBurst)
	if opts.MaxStates > 0 {
		flags += " --max-states 0"
	}
	states := "the pending state goes"
	if pending > 1 {
		states = fmt.Sprintf("each of the %d pending states goes", pending)
	}
	return fmt.Sprintf("hint: %s on for more than %d steps that read no symbol (a loop over constants); if that loop ends, "+
		"rerun with %s: the concrete fast path takes such steps in bulk (each still counts as a state; --timeout bounds the time)",
		states, MinConcrete, flags)
}
