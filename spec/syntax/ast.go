// Package syntax is IMP's syntax tree: the abstract syntax of spec/SEMANTICS.md (this file), with
// the positions of its nodes (Node.Pos), its walk (Inspect), the queries on a tree (search.go, the
// run-time checks of checks.go, VarsOf) and its printer. Package parser (spec/syntax/parser)
// builds trees from source text, by the grammar of its grammar.txt; package spec gives them their
// meaning. Each Go definition names the clause of SEMANTICS.md it transcribes.
package syntax

import (
	"certsym/spec/integer"
	"fmt"
)

// Pos is a position in a source file: 1-based line and column (column counted in bytes). The zero
// Pos is no position: a sequence's (Seq.Pos), or that of a node built without one.
type Pos struct{ Line, Col int }

// AExpr is an arithmetic expression: the syntactic category a of SEMANTICS.md.
type AExpr interface {
	Node
	aexpr()
}

// BExpr is a boolean expression (condition): the syntactic category b of SEMANTICS.md.
type BExpr interface {
	Node
	bexpr()
}

// Stmt is a statement of the core language: the syntactic category p of SEMANTICS.md, plus
// assert, which means if b then skip else fail fi. Macros are inlined by the parser and do not
// appear in the core.
type Stmt interface {
	Node
	// Location is where the statement stands: its own position and, for a statement inlined
	// from a macro, the macro call's (Loc); the zero Loc for a sequence.
	Location() Loc
	stmt()
}

// AOp is an arithmetic operator.
type AOp uint8

// The arithmetic operators. Div and Mod truncate toward zero.
const (
	Add AOp = iota
	Sub
	Mul
	Div
	Mod
)

var aopText = [...]string{Add: "+", Sub: "-", Mul: "*", Div: "/", Mod: "%"}

func (o AOp) String() string { return aopText[o] }

// CmpOp is a comparison operator.
type CmpOp uint8

// The comparison operators.
const (
	Eq CmpOp = iota
	Ne
	Lt
	Le
	Gt
	Ge
)

var cmpText = [...]string{Eq: "==", Ne: "!=", Lt: "<", Le: "<=", Gt: ">", Ge: ">="}

func (o CmpOp) String() string { return cmpText[o] }

// Negate returns the comparison that holds exactly when o does not.
func (o CmpOp) Negate() CmpOp {
	return [...]CmpOp{Eq: Ne, Ne: Eq, Lt: Ge, Le: Gt, Gt: Le, Ge: Lt}[o]
}

// Holds reports whether c (the result of Int.Cmp of the two sides) satisfies o.
func (o CmpOp) Holds(c int) bool {
	switch o {
	case Eq:
		return c == 0
	case Ne:
		return c != 0
	case Lt:
		return c < 0
	case Le:
		return c <= 0
	case Gt:
		return c > 0
	}
	return c >= 0
}

// Num is an integer literal n.
type Num struct {
	P   Pos
	Val integer.Int
}

// Var is a variable x. Index numbers the program's variables (Program.Vars).
type Var struct {
	P     Pos
	Name  string
	Index int
}

// Neg is -a.
type Neg struct {
	P Pos
	X AExpr
}

// BinA is a binary arithmetic expression a op a.
type BinA struct {
	P    Pos
	Op   AOp
	L, R AExpr
}

// BoolLit is true or false.
type BoolLit struct {
	P   Pos
	Val bool
}

// Cmp is a comparison a op a.
type Cmp struct {
	P    Pos
	Op   CmpOp
	L, R AExpr
}

// Not is not b.
type Not struct {
	P Pos
	X BExpr
}

// LogicOp is and or or.
type LogicOp uint8

// The boolean connectives.
const (
	And LogicOp = iota
	Or
)

func (o LogicOp) String() string {
	if o == And {
		return "and"
	}
	return "or"
}

// BinB is b and b, or b or b. Evaluation is strict: both sides are evaluated (SEMANTICS.md).
type BinB struct {
	P    Pos
	Op   LogicOp
	L, R BExpr
}

// Elem is a[i], the read of an element of a declared array. Reading it with i outside
// the array's bounds is an error of kind index-out-of-range at the statement.
type Elem struct {
	P   Pos
	Arr *Array
	I   AExpr
}

// BoundRef is a use of the variable bound by an enclosing quantifier (Quant). Level is the nesting
// level of its binder, counted from 0 for the outermost quantifier of the condition: evaluation
// keeps the bound values in an environment indexed by level. Bound variables are read-only and
// never share a name with a variable or array of the program or with an enclosing binder.
type BoundRef struct {
	P     Pos
	Name  string
	Level int
}

// Quant is forall k in lo..hi: body (Exists false) or exists k in lo..hi: body (Exists true):
// body holds for every (some) integer k with lo <= k <= hi; forall is true and exists false on
// an empty range. It is defined when lo, hi and every instance of body are defined (strict).
// Level is the binder's nesting level (BoundRef.Level).
type Quant struct {
	P      Pos
	Exists bool
	Name   string
	Level  int
	Lo, Hi AExpr
	Body   BExpr
}

func (*Num) aexpr()      {}
func (*Var) aexpr()      {}
func (*Neg) aexpr()      {}
func (*BinA) aexpr()     {}
func (*BoolLit) bexpr()  {}
func (*Cmp) bexpr()      {}
func (*Not) bexpr()      {}
func (*BinB) bexpr()     {}
func (*Elem) aexpr()     {}
func (*BoundRef) aexpr() {}
func (*Quant) bexpr()    {}

// Pos returns the position of the expression's own token: the literal's (its '-' for a negative
// literal), the variable's, the operator's for Neg, BinA, Cmp, Not and BinB, the array name's for
// an element read, the keyword's for a quantifier. Printed positions of expressions (the
// primitive claims of certsym verify) are these.
func (e *Num) Pos() Pos { return e.P }

// Pos returns the position of the variable (Num.Pos).
func (e *Var) Pos() Pos { return e.P }

// Pos returns the position of the unary '-' (Num.Pos).
func (e *Neg) Pos() Pos { return e.P }

// Pos returns the position of the operator (Num.Pos).
func (e *BinA) Pos() Pos { return e.P }

// Pos returns the position of the literal (Num.Pos).
func (e *BoolLit) Pos() Pos { return e.P }

// Pos returns the position of the comparison operator (Num.Pos).
func (e *Cmp) Pos() Pos { return e.P }

// Pos returns the position of the 'not' (Num.Pos).
func (e *Not) Pos() Pos { return e.P }

// Pos returns the position of the 'and' or 'or' (Num.Pos).
func (e *BinB) Pos() Pos { return e.P }

// Pos returns the position of the array's name (Num.Pos).
func (e *Elem) Pos() Pos { return e.P }

// Pos returns the position of the bound variable's use (Num.Pos).
func (e *BoundRef) Pos() Pos { return e.P }

// Pos returns the position of the 'forall' or 'exists' (Num.Pos).
func (e *Quant) Pos() Pos { return e.P }

// End returns the position just after the variable: its name is one line of ASCII letters,
// digits and underscores.
func (e *Var) End() Pos { return Pos{e.P.Line, e.P.Col + len(e.Name)} }

// End returns the position just after the bound variable's use (Var.End).
func (e *BoundRef) End() Pos { return Pos{e.P.Line, e.P.Col + len(e.Name)} }

// End returns the position just after the literal true or false.
func (e *BoolLit) End() Pos {
	if e.Val {
		return Pos{e.P.Line, e.P.Col + len("true")}
	}
	return Pos{e.P.Line, e.P.Col + len("false")}
}

// Loc is where a statement stands: its own position, and, for a statement inlined from a macro
// body, the position of the outermost macro call it came from (the line reports name).
type Loc struct {
	P    Pos
	Site Pos // zero unless the statement was inlined from a macro
}

// Pos returns the position reports give the statement (line and column): the macro call's for a
// statement inlined from a macro, its own otherwise.
func (l Loc) Pos() Pos {
	if l.Site.Line != 0 {
		return l.Site
	}
	return l.P
}

// Line returns the line reports give the statement: Pos().Line.
func (l Loc) Line() int { return l.Pos().Line }

// Location returns l (Stmt.Location).
func (l Loc) Location() Loc { return l }

// Skip is skip: the finished program.
type Skip struct{ Loc }

// FailKind says why a program reaches fail.
type FailKind uint8

// The kinds of error: an explicit fail statement, a violated assert, a division or remainder by
// zero, an array index outside the array's bounds, a loop invariant false at the loop's head.
const (
	FailExplicit FailKind = iota
	FailAssert
	FailDivZero
	FailIndex
	FailInvariant
)

var failKindText = [...]string{FailExplicit: "fail", FailAssert: "assert", FailDivZero: "division-by-zero", FailIndex: "index-out-of-range", FailInvariant: "invariant"}

func (k FailKind) String() string { return failKindText[k] }

// Fail is fail, the error statement. Besides the fail statements of the source, the parser makes
// one Fail per assert (the else branch of its meaning) and one per statement that divides (the
// target of the [S-...Err] rules), so a run that reaches an error reaches a Fail that says which
// statement erred and why; two runs reach the same error iff they reach the same *Fail.
type Fail struct {
	Loc
	Kind FailKind
}

// Assign is x = a. Err is the Fail reached when a divides by zero (nil when a has no division).
// IdxErr is the Fail reached when the first failure of a's evaluation (SEMANTICS.md, evaluation
// order) is an index out of range (nil when a reads no array element); the If, Assume and Assert
// statements have one too.
type Assign struct {
	Loc
	X      *Var
	A      AExpr
	Err    *Fail
	IdxErr *Fail
}

// Seq is p ; q. A sequence is no statement of the source: it has no position (the zero Pos and
// Loc).
type Seq struct{ First, Second Stmt }

// Pos returns the zero Pos: a sequence has no position of its own.
func (*Seq) Pos() Pos { return Pos{} }

// Location returns the zero Loc: a sequence has no place of its own.
func (*Seq) Location() Loc { return Loc{} }

// If is if b then p else q fi (a missing else is skip). Err is as for Assign.
type If struct {
	Loc
	Cond       BExpr
	Then, Else Stmt
	Err        *Fail
	IdxErr     *Fail
}

// While is while b invariant I1 ... invariant In do p od (n >= 0). Unfold is its one-step
// unfolding if b then (p ; while b do p od) else skip fi ([S-While]), built once by the parser.
// Invariants are the clauses I1, ..., In in source order, each an Assert at its 'invariant'
// keyword whose Violation has kind FailInvariant.
//
// Entry is the statement the loop steps to, built once by the parser: Unfold itself when there
// are no clauses ([S-While]); otherwise assert I1 ; ... ; assert In ; Loop ([S-While-Inv]), where
// Loop is the loop that runs, while b do (p ; assert I1 ; ... ; assert In) od, a while without
// clauses at the same place (its Body is that sequence, its Unfold this loop's Unfold). So every
// arrival at the loop's head checks every clause, in order, before b is evaluated: the first
// through Entry, the others at the end of Loop's body. The clauses' Asserts are the same nodes in
// Entry and in Loop's body, so a violation is one error wherever it happens. The loop with clauses
// is itself reached once per execution of the enclosing program text; Loop is no child of it
// (Inspect) and no statement of the source. Loop is nil for a loop without clauses.
type While struct {
	Loc
	Cond       BExpr
	Invariants []*Assert
	Body       Stmt
	Unfold     *If
	Entry      Stmt
	Loop       *While
}

// Assume is assume b. Err is as for Assign.
type Assume struct {
	Loc
	Cond   BExpr
	Err    *Fail
	IdxErr *Fail
}

// Assert is assert b, which means if b then skip else fail fi: Violation is that fail (of kind
// FailAssert, or FailInvariant for the clause of a loop invariant, While.Invariants), Err is as
// for Assign.
type Assert struct {
	Loc
	Cond      BExpr
	Violation *Fail
	Err       *Fail
	IdxErr    *Fail
}

// ArrAssign is a[i] = e. Evaluation order: i, then e, then the range check of the
// write. Err is the Fail reached when the first failure in that order is a division by zero,
// IdxErr when it is an index out of range (each nil when that kind cannot occur).
type ArrAssign struct {
	Loc
	Arr    *Array
	I, A   AExpr
	Err    *Fail
	IdxErr *Fail
}

func (*ArrAssign) stmt() {}

// Fails returns the Fail nodes a statement reaches when its evaluation errs: div for a division by
// zero (Err), idx for an index out of range (IdxErr); nil where the statement cannot fail that way
// or evaluates no expression. A while loop's are those of its unfolding.
func Fails(s Stmt) (div, idx *Fail) {
	switch s := s.(type) {
	case *Assign:
		return s.Err, s.IdxErr
	case *ArrAssign:
		return s.Err, s.IdxErr
	case *If:
		return s.Err, s.IdxErr
	case *While:
		return s.Unfold.Err, s.Unfold.IdxErr
	case *Assume:
		return s.Err, s.IdxErr
	case *Assert:
		return s.Err, s.IdxErr
	case *Skip, *Fail, *Seq:
		return nil, nil
	default:
		panic(fmt.Sprintf("syntax.Fails: unknown statement %T", s))
	}
}

func (*Skip) stmt()   {}
func (*Fail) stmt()   {}
func (*Assign) stmt() {}
func (*Seq) stmt()    {}
func (*If) stmt()     {}
func (*While) stmt()  {}
func (*Assume) stmt() {}
func (*Assert) stmt() {}

// Program is a parsed program: its core statement (macros inlined) and its variables, numbered in
// order of first occurrence. Every variable is an input (SEMANTICS.md, Inputs).
type Program struct {
	File string
	Body Stmt
	Vars []string
	// Arrays are the declared arrays, in order of declaration.
	Arrays []*Array
}

// Array is a declared array a[Lo..Hi] (array a[1..5];). Its elements are inputs like the
// variables: a concrete store holds the variables first (by Var.Index), then the elements of
// each array in order of declaration, element j of array a at a.Offset + (j - a.Lo). Size is
// Hi - Lo + 1, at most MaxArraySize.
type Array struct {
	P      Pos
	Name   string
	Lo, Hi int64
	Index  int // position in Program.Arrays
	Offset int // slot of element Lo in a concrete store
}

// Size is the number of elements of the array.
func (a *Array) Size() int { return int(a.Hi-a.Lo) + 1 }

// Slot returns the store slot of element i of the array (Array.Offset + i - Lo); ok is false
// when i is outside Lo..Hi.
func (a *Array) Slot(i integer.Int) (slot int, ok bool) {
	j, small := i.Int64()
	if !small || j < a.Lo || j > a.Hi {
		return 0, false
	}
	return a.Offset + int(j-a.Lo), true
}

// MaxArraySize bounds the number of elements of one array.
const MaxArraySize = 65536

// Slots is the length of the program's concrete stores: its variables, then the elements of its
// arrays.
func (p *Program) Slots() int {
	n := len(p.Vars)
	for _, a := range p.Arrays {
		n += a.Size()
	}
	return n
}

// ArrayIndex returns the array called name, or nil.
func (p *Program) ArrayIndex(name string) *Array {
	for _, a := range p.Arrays {
		if a.Name == name {
			return a
		}
	}
	return nil
}

// VarIndex returns the index of the variable called name, or -1.
func (p *Program) VarIndex(name string) int {
	for i, v := range p.Vars {
		if v == name {
			return i
		}
	}
	return -1
}
