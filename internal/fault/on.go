//go:build faults

package fault

// Active is the fault switched on (build tag faults only); tests set it, one fault at a time.
var Active = None

// Enabled reports whether this binary can switch faults on.
const Enabled = true
