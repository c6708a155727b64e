package solver

import "certsym/pathcond"

// The crosscheck (Options.CrossCheck), for the refinement layer, in the spirit of KLEE's
// --debug-crosscheck-core-solver. It has two parts. The decisions Extend takes without Z3 below
// the chain's Root reach the hook through the root's deciders (pathcond.Deciders.Observe), and
// the layer below, crossCheck, hands the hook every answer of the caching layer: a witness
// ("cache-witness") or an unsatisfiable path condition ("cache-unsat"), with the layer that gave
// it (Rule "cache/" and the layer's name, or "cache/slice" for Z3's answer about a slice in the
// slice solver). The refinement layer asks its own Z3 encoding the same question. Without the
// option neither part exists: the roots have no observer and the chain has no crosscheck layer.

// crossCheck is the crosscheck layer: it sits on top of the caching layer.
type crossCheck struct {
	next Solver
	hook func(pathcond.Decision)
}

func (x *crossCheck) Check(q Query) Answer {
	a := x.next.Check(q)
	if a.Rule != "" && a.Status != pathcond.Unknown {
		phi := q.PC
		d := pathcond.Decision{Parent: phi.Parent, Conj: phi.Conj, Result: phi, Kind: "cache-witness", Rule: "cache/" + a.Rule, Witness: a.Model}
		if a.Status == pathcond.Unsat {
			d.Kind = "cache-unsat"
		}
		x.hook(d)
	}
	return a
}
