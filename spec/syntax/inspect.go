package syntax

import "fmt"

// Node is a node of IMP's abstract syntax: a statement (Stmt), an arithmetic expression (AExpr)
// or a boolean expression (BExpr). Every Stmt, AExpr and BExpr is a Node. Pos is where the node
// stands in the source, as reports print it: a statement's is Loc.Pos (the macro call's for a
// statement inlined from a macro), a sequence has none (the zero Pos), an expression's is its own
// token's (Num.Pos). Var, BoundRef and BoolLit also have End, the position just after them.
type Node interface {
	Pos() Pos
	node()
}

func (*Num) node()     {}
func (*Var) node()     {}
func (*Neg) node()     {}
func (*BinA) node()    {}
func (*BoolLit) node() {}
func (*Cmp) node()     {}
func (*Not) node()     {}
func (*BinB) node()    {}
func (*Skip) node()    {}
func (*Fail) node()    {}
func (*Assign) node()  {}
func (*Seq) node()     {}
func (*If) node()      {}
func (*While) node()   {}
func (*Assume) node()  {}
func (*Assert) node()  {}

func (*Elem) node()      {}
func (*BoundRef) node()  {}
func (*Quant) node()     {}
func (*ArrAssign) node() {}

// Inspect walks the syntax tree rooted at n depth-first, in the manner of go/ast.Inspect: it
// calls f(n); if f returns true, it walks each child of n in source order, then calls f(nil).
//
// The children are the syntax of the program as written (macros inlined):
//   - Neg, Not: the operand; BinA, Cmp, BinB: the left then the right operand;
//   - Assign: the assigned Var, then the expression; Seq: First, then Second;
//   - If: the condition, Then, Else; While: the condition, its invariant clauses (each an
//     Assert, in source order), then the body;
//   - Assume, Assert: the condition; Num, Var, BoolLit, BoundRef, Skip, Fail: none;
//   - Elem: the index (its array is a declaration, not a child); ArrAssign: the index, then the
//     assigned expression; Quant: the lower bound, the upper bound, then the body.
//
// The nodes resolution builds for the semantics (the Err and Violation fails, While.Unfold and
// While.Entry) are not children: they are not syntax, and Unfold contains its own while. Nil children (none in a
// parsed program) are skipped. The walk keeps its own stack, so the depth of the tree costs heap,
// not Go call depth: a sequence of MaxStatements statements is walked like a short one.
func Inspect(n Node, f func(Node) bool) {
	if n == nil {
		return
	}
	// An entry with a nil node is the f(nil) that follows the children of a node. The first
	// entries live in arrays on the Go stack: walking a small expression allocates nothing.
	var stackBuf [64]Node
	var kidsBuf [4]Node
	stack := append(stackBuf[:0], n)
	kids := kidsBuf[:0]
	for len(stack) > 0 {
		top := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if top == nil {
			f(nil)
			continue
		}
		if !f(top) {
			continue
		}
		stack = append(stack, nil)
		kids = children(top, kids[:0])
		for i := len(kids) - 1; i >= 0; i-- {
			stack = append(stack, kids[i])
		}
	}
}

// children appends the children of n (as Inspect defines them), in source order, to out.
func children(n Node, out []Node) []Node {
	switch n := n.(type) {
	case *Neg:
		return add1(out, n.X)
	case *BinA:
		return add1(add1(out, n.L), n.R)
	case *Cmp:
		return add1(add1(out, n.L), n.R)
	case *Not:
		return add1(out, n.X)
	case *BinB:
		return add1(add1(out, n.L), n.R)
	case *Assign:
		if n.X != nil { // a typed nil would not be a nil Node
			out = append(out, n.X)
		}
		return add1(out, n.A)
	case *Seq:
		return add1(add1(out, n.First), n.Second)
	case *If:
		return add1(add1(add1(out, n.Cond), n.Then), n.Else)
	case *While:
		out = add1(out, n.Cond)
		for _, inv := range n.Invariants {
			if inv != nil { // a typed nil would not be a nil Node
				out = append(out, inv)
			}
		}
		return add1(out, n.Body)
	case *Assume:
		return add1(out, n.Cond)
	case *Assert:
		return add1(out, n.Cond)
	case *Elem:
		return add1(out, n.I)
	case *Quant:
		return add1(add1(add1(out, n.Lo), n.Hi), n.Body)
	case *ArrAssign:
		return add1(add1(out, n.I), n.A)
	case *Num, *Var, *BoolLit, *BoundRef, *Skip, *Fail:
		return out
	default:
		panic(fmt.Sprintf("syntax.Inspect: unknown node %T", n))
	}
}

// add1 appends c to out unless it is nil.
func add1(out []Node, c Node) []Node {
	if c != nil {
		out = append(out, c)
	}
	return out
}
