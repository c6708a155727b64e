package testprog

import (
	"hash/fnv"
	"os"
	"strconv"
	"testing"
	"time"
)

// SampleAllEnv names the environment variable that makes Sample keep every name (make
// check-steal sets it).
const SampleAllEnv = "CERTSYM_SAMPLE_ALL"

// SampleSliceEnv names the environment variable that picks Sample's slice (to repeat a run).
const SampleSliceEnv = "CERTSYM_SAMPLE_SLICE"

// Sample returns the names of one slice of parts: a name's slice is a stable hash of it (FNV-1a)
// modulo parts, so a name stays in its slice whatever else the list holds. The slice taken
// rotates with the day (days since the Unix epoch, in UTC, modulo parts), so that the default
// runs of a test cover every name over parts days; SampleSliceEnv picks a slice, SampleAllEnv
// keeps every name. It logs which slice it took and how to repeat or widen it.
func Sample(t testing.TB, names []string, parts int) []string {
	t.Helper()
	if os.Getenv(SampleAllEnv) != "" || parts <= 1 {
		return names
	}
	slice := int(time.Now().UTC().Unix()/86400) % parts
	if s := os.Getenv(SampleSliceEnv); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 0 || n >= parts {
			t.Fatalf("%s=%q: want a slice from 0 to %d", SampleSliceEnv, s, parts-1)
		}
		slice = n
	}
	var out []string
	for _, name := range names {
		h := fnv.New32a()
		h.Write([]byte(name))
		if int(h.Sum32()%uint32(parts)) == slice {
			out = append(out, name)
		}
	}
	t.Logf("slice %d of %d: %d of %d (%s=%d repeats it, %s=1 takes all)", slice, parts, len(out), len(names), SampleSliceEnv, slice, SampleAllEnv)
	return out
}
