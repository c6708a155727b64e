package engine

import (
	"certsym/pathcond"
	"certsym/spec"
	"certsym/spec/syntax"
	"certsym/sym"
)

// A Kont is a remaining program: S ; Next (just S when Next is nil). A sequence p ; q at the head
// is the same program as p ; (q ; Next), so the engine keeps sequences flat as it goes; this is
// the right-nested form the parser produces and changes no step.
type Kont struct {
	S    syntax.Stmt
	Next *Kont
}

// Stmt returns the remaining program as one statement (right-nested sequences).
func (k *Kont) Stmt() syntax.Stmt {
	if k.Next == nil {
		return k.S
	}
	return &syntax.Seq{First: k.S, Second: k.Next.Stmt()}
}

// head returns the program with a sequence at its head flattened: its head statement is k.S.
func (k *Kont) head() *Kont {
	for {
		seq, ok := k.S.(*syntax.Seq)
		if !ok {
			return k
		}
		k = &Kont{seq.First, &Kont{seq.Second, k.Next}}
	}
}

// Head returns the statement that executes next (head(p) of SEMANTICS.md).
func (k *Kont) Head() syntax.Stmt { return spec.Head(k.S) }

// A State is a symbolic state ⟨φ, S, p⟩: path condition, symbolic store (the term of each program
// variable, indexed by syntax.Var.Index, then the array term of each declared array, sym.ArrTerm,
// in declaration order) and remaining program. Depth is the number of steps from
// the initial state. States are immutable.
type State struct {
	PC    *pathcond.PC
	Store []*sym.Term
	Prog  *Kont
	Depth int
}

// ErrorOf is the classifier of symbolic error states: the Fail at the head of the state's program,
// or nil. The state is a bug when, moreover, its path condition is satisfiable.
func (s *State) ErrorOf() *syntax.Fail {
	f, _ := s.Prog.Head().(*syntax.Fail)
	return f
}

// IsFinal reports whether the program is finished (skip).
func (s *State) IsFinal() bool {
	_, ok := s.Prog.S.(*syntax.Skip)
	return ok && s.Prog.Next == nil
}
