package main

// #cgo pkg-config: z3
// #include <z3.h>
import "C"

import (
	"fmt"
	"io"
	"runtime"
	"runtime/debug"
)

// z3Version is the version of the Z3 library certsym is linked with, as Z3 reports it.
func z3Version() string {
	var major, minor, build, rev C.uint
	C.Z3_get_version(&major, &minor, &build, &rev)
	return fmt.Sprintf("%d.%d.%d.%d", major, minor, build, rev)
}

// moduleVersion is certsym's module version from the build info: a tagged version, a pseudo-version,
// or "(devel)" for a build from a work tree.
func moduleVersion() string {
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" {
		return bi.Main.Version
	}
	return "(unknown)"
}

// vcsInfo returns the revision, its time and whether the work tree had local changes, as the Go
// toolchain stamped them into the binary ("" when it did not: a build with -buildvcs=false, or
// outside a repository, or a test binary).
func vcsInfo() (rev, when string, modified bool) {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "", "", false
	}
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.time":
			when = s.Value
		case "vcs.modified":
			modified = s.Value == "true"
		}
	}
	return rev, when, modified
}

// writeVersion prints certsym --version.
func writeVersion(w io.Writer) {
	fmt.Fprintf(w, "certsym %s\n", moduleVersion())
	rev, when, modified := vcsInfo()
	switch {
	case rev == "":
		fmt.Fprintln(w, "revision: unknown (the binary carries no VCS stamp; build it with go build -buildvcs=true in a git work tree)")
	default:
		dirty := ""
		if modified {
			dirty = " (with uncommitted changes)"
		}
		fmt.Fprintf(w, "revision: %s%s", rev, dirty)
		if when != "" {
			fmt.Fprintf(w, ", committed %s", when)
		}
		fmt.Fprintln(w)
	}
	fmt.Fprintf(w, "go: %s %s/%s\n", runtime.Version(), runtime.GOOS, runtime.GOARCH)
	fmt.Fprintf(w, "z3: %s\n", z3Version())
}
