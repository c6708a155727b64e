// Package inputs tells which variables of a program are its inputs: those some run may read
// before assigning them, whose initial values can matter (certsym exec warns about those it is
// not given, and only those).
package inputs

import (
	"fmt"

	"certsym/spec/syntax"
)

// ReadBeforeWritten returns the indexes of the variables some run of prog may read before it has
// assigned them: the inputs the program really uses. A variable only ever assigned before use is
// not one (exec does not ask for it). The analysis is the usual definite-assignment one: after an
// if, what both branches assign; after a while, what was assigned before it.
func ReadBeforeWritten(prog *syntax.Program) map[int]bool {
	read := map[int]bool{}
	// reads marks the variables expression e reads that are not yet assigned.
	reads := func(e syntax.Node, assigned map[int]bool) {
		syntax.Inspect(e, func(n syntax.Node) bool {
			if x, ok := n.(*syntax.Var); ok && !assigned[x.Index] {
				read[x.Index] = true
			}
			return true
		})
	}
	copySet := func(m map[int]bool) map[int]bool {
		c := make(map[int]bool, len(m))
		for k := range m {
			c[k] = true
		}
		return c
	}
	// s returns what is definitely assigned after st, given what was before; stopped is true
	// when st never finishes normally (fail).
	var s func(st syntax.Stmt, assigned map[int]bool) (out map[int]bool, stopped bool)
	s = func(st syntax.Stmt, assigned map[int]bool) (map[int]bool, bool) {
		switch x := st.(type) {
		case *syntax.Seq:
			// A right-nested sequence: walk it as a list.
			cur := assigned
			for {
				var stop bool
				cur, stop = s(x.First, cur)
				if stop {
					return cur, true
				}
				next, ok := x.Second.(*syntax.Seq)
				if !ok {
					return s(x.Second, cur)
				}
				x = next
			}
		case *syntax.ArrAssign:
			reads(x.I, assigned)
			reads(x.A, assigned)
		case *syntax.Assign:
			reads(x.A, assigned)
			out := copySet(assigned)
			out[x.X.Index] = true
			return out, false
		case *syntax.Assert:
			reads(x.Cond, assigned)
		case *syntax.Assume:
			reads(x.Cond, assigned)
		case *syntax.Fail:
			return assigned, true
		case *syntax.If:
			reads(x.Cond, assigned)
			t, ts := s(x.Then, assigned)
			e, es := s(x.Else, assigned)
			switch {
			case ts && es:
				return assigned, true
			case ts:
				return e, false
			case es:
				return t, false
			}
			out := map[int]bool{}
			for k := range t {
				if e[k] {
					out[k] = true
				}
			}
			return out, false
		case *syntax.While:
			for _, inv := range x.Invariants { // checked first, at the first arrival
				reads(inv.Cond, assigned)
			}
			reads(x.Cond, assigned)
			s(x.Body, assigned)
		case *syntax.Skip:
		default:
			panic(fmt.Sprintf("inputs: unknown statement %T", x))
		}
		return assigned, false
	}
	s(prog.Body, map[int]bool{})
	return read
}

// Missing returns the names of the inputs of prog not in given whose initial values can matter,
// for the warning of the commands that default them to 0: the variables some run may read before
// assigning them (ReadBeforeWritten), then the arrays whose elements the program reads.
func Missing(prog *syntax.Program, given map[string]bool) []string {
	read := ReadBeforeWritten(prog)
	var zero []string
	for i, v := range prog.Vars {
		if !given[v] && read[i] {
			zero = append(zero, v)
		}
	}
	readArr := ArraysRead(prog)
	for _, a := range prog.Arrays {
		if !given[a.Name] && readArr[a] {
			zero = append(zero, a.Name)
		}
	}
	return zero
}

// ArraysRead returns the arrays whose elements prog reads somewhere: the arrays whose initial
// values can matter (an array only written is not an input).
func ArraysRead(prog *syntax.Program) map[*syntax.Array]bool {
	read := map[*syntax.Array]bool{}
	syntax.Inspect(prog.Body, func(n syntax.Node) bool {
		if e, ok := n.(*syntax.Elem); ok {
			read[e.Arr] = true
		}
		return true
	})
	return read
}
