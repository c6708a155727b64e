package main

import (
	"flag"
	"fmt"
	"io"

	"certsym/cmd/certsym/internal/flags"
	"certsym/engine"
)

// burstFlag is run's --burst K, the concrete fast path (engine.Options.Burst, engine/burst.go).
type burstFlag struct {
	k  *int
	fs *flag.FlagSet
}

func addBurstFlag(fs *flag.FlagSet) burstFlag {
	return burstFlag{fs: fs, k: flags.Count(fs, "burst", 0, fmt.Sprintf("advance a state whose next steps read no symbol by up to `K` steps in one pick, each step still counted as a state (0: off; e.g. %d); bfs and dfs only", engine.DefaultBurst))}
}

// setup sets opts.Burst and checks it against the other options (a usage error, not New's panic).
func (b burstFlag) setup(set map[string]bool, opts *engine.Options, stderr io.Writer) bool {
	if !set["burst"] {
		return true
	}
	if s := b.fs.Lookup("strategy"); s != nil && s.Value.String() == "generational" {
		fmt.Fprintln(stderr, "certsym run: --burst does not apply to --strategy generational (its runs are concrete already)")
		return false
	}
	if set["loop-bound"] {
		fmt.Fprintln(stderr, "certsym run: --burst does not apply with --loop-bound (the bounded interpreter has no frontier to pick from)")
		return false
	}
	opts.Burst = *b.k
	if err := opts.Validate(); err != nil {
		fmt.Fprintf(stderr, "certsym run: --burst: %v\n", err)
		return false
	}
	return true
}
