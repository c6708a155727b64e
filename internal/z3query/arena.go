package z3query

/*
#include <malloc.h>

static void certsym_arena_max(int n) { mallopt(M_ARENA_MAX, n); }
*/
import "C"

import "os"

// ArenaMax is the number of arenas the C allocator may keep (glibc's M_ARENA_MAX). Z3 allocates
// with malloc on whichever thread a cgo call runs, and glibc gives a thread that finds the arenas
// busy an arena of its own, up to eight per core, each keeping the memory freed into it: in the
// refinement layer's full run (a Z3 context per engine, about fifteen per program, on two
// workers) the process held 2.8 GB at its peak with the default and 1.8 GB with two arenas, in the
// same time, while the Go heap and Z3's own estimate stayed under 0.5 GB (docs/performance.md).
// A MALLOC_ARENA_MAX in the environment is left as it is.
const ArenaMax = 2

func init() {
	if os.Getenv("MALLOC_ARENA_MAX") == "" {
		C.certsym_arena_max(ArenaMax)
	}
}
