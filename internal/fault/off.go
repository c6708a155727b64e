//go:build !faults

package fault

// Active is the fault switched on: always None in a normal build.
const Active = None

// Enabled reports whether this binary can switch faults on.
const Enabled = false

// Switch switches a fault on: a normal build has none, so only None is accepted.
func Switch(f Fault) {
	if f != None {
		panic("fault.Switch: this binary was built without the build tag faults")
	}
}
