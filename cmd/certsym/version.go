package main

// #cgo pkg-config: z3
// #include <z3.h>
import "C"

import (
	"fmt"
	"io"
	"runtime"
	"runtime/debug"
	"strings"
)

// z3Version is the version of the Z3 library certsym is linked with, as Z3 reports it.
func z3Version() string {
	var major, minor, build, rev C.uint
	C.Z3_get_version(&major, &minor, &build, &rev)
	return fmt.Sprintf("%d.%d.%d.%d", major, minor, build, rev)
}

// stampedVersion and stampedRevision are what the build stamped with the linker's -X flag (make
// build sets them from git describe --tags --always --dirty and git rev-parse HEAD): the Go
// toolchain stamps no VCS information in a git worktree, nor when -buildvcs is off.
var stampedVersion, stampedRevision string

// moduleVersion is certsym's version: the one the build stamped, else the module version from
// the build info (a tagged version, a pseudo-version, or "(devel)" for a build from a work tree
// that stamped nothing).
func moduleVersion() string {
	if stampedVersion != "" {
		return stampedVersion
	}
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" {
		return bi.Main.Version
	}
	return "(unknown)"
}

// vcsInfo returns the revision, its time and whether the work tree had local changes, as the Go
// toolchain stamped them into the binary, or the revision make build stamped ("" when neither
// did: a go build with -buildvcs=false, or in a worktree, or outside a repository, or a test
// binary).
func vcsInfo() (rev, when string, modified bool) {
	bi, ok := debug.ReadBuildInfo()
	if !ok || stampedRevision != "" {
		return stampedRevision, "", strings.HasSuffix(stampedVersion, "-dirty")
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
		fmt.Fprintln(w, "revision: unknown (the binary carries no VCS stamp; build it with make build, or go build -buildvcs=true in a git clone)")
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
