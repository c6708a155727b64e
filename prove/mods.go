package prove

import (
	"fmt"

	"certsym/internal/fault"
	"certsym/spec/syntax"
)

// mods appends to out the scalar variables the statement may assign (by Var.Index, each once):
// the left sides of its assignments, in its branches and loop bodies too.
//
// Coq: mods (proofs/coq/Invariant.v).
func mods(s syntax.Stmt, out []int) []int {
	switch s := s.(type) {
	case *syntax.Assign:
		for _, x := range out {
			if x == s.X.Index {
				return out
			}
		}
		return append(out, s.X.Index)
	case *syntax.Seq:
		return mods(s.Second, mods(s.First, out))
	case *syntax.If:
		return mods(s.Else, mods(s.Then, out))
	case *syntax.While:
		return mods(s.Body, out)
	case *syntax.Skip, *syntax.Fail, *syntax.Assume, *syntax.Assert, *syntax.ArrAssign:
		return out
	default:
		panic(fmt.Sprintf("prove.mods: unknown statement %T", s))
	}
}

// amods appends to out the arrays the statement may write (by Array.Index, each once), as
// whole arrays: the arrays of its element assignments, in its branches and loop bodies too.
//
// Coq: amods (proofs/coq/Invariant.v).
func amods(s syntax.Stmt, out []int) []int {
	switch s := s.(type) {
	case *syntax.ArrAssign:
		if fault.Active == fault.ModifiesMissesArrayWrite {
			return out
		}
		for _, a := range out {
			if a == s.Arr.Index {
				return out
			}
		}
		return append(out, s.Arr.Index)
	case *syntax.Seq:
		return amods(s.Second, amods(s.First, out))
	case *syntax.If:
		return amods(s.Else, amods(s.Then, out))
	case *syntax.While:
		return amods(s.Body, out)
	case *syntax.Skip, *syntax.Fail, *syntax.Assume, *syntax.Assert, *syntax.Assign:
		return out
	default:
		panic(fmt.Sprintf("prove.amods: unknown statement %T", s))
	}
}
