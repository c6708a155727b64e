//go:build !faults

package fault

// Active is the fault switched on: always None in a normal build.
const Active = None

// Enabled reports whether this binary can switch faults on.
const Enabled = false
