//go:build faults

package fault

// Active is the fault switched on (build tag faults only); tests set it, one fault at a time.
var Active = None

// Enabled reports whether this binary can switch faults on.
const Enabled = true

// Switch switches f on (None: off), for a process that a test starts with the fault named in
// its environment (a faults build of certsym worker reads CERTSYM_FAULT).
func Switch(f Fault) { Active = f }
