package syntax

import (
	"fmt"
	"strings"
)

// Precedence levels of the concrete syntax, loosest first.
const (
	precOr = iota + 1
	precAnd
	precNot
	precCmp
	precSum
	precProd
	precUnary
)

// PrintA returns the concrete syntax of a, with only the parentheses the grammar needs.
func PrintA(a AExpr) string {
	var b strings.Builder
	printA(&b, a, 0)
	return b.String()
}

// PrintB returns the concrete syntax of c, with only the parentheses the grammar needs.
func PrintB(c BExpr) string {
	var b strings.Builder
	printB(&b, c, 0)
	return b.String()
}

func paren(b *strings.Builder, need bool, f func()) {
	if need {
		b.WriteByte('(')
	}
	f()
	if need {
		b.WriteByte(')')
	}
}

func printA(b *strings.Builder, a AExpr, ctx int) {
	switch a := a.(type) {
	case *Num:
		// A negative literal reads back as a literal; it needs parentheses where unary minus would.
		paren(b, a.Val.Sign() < 0 && ctx > precUnary, func() { b.WriteString(a.Val.String()) })
	case *Var:
		b.WriteString(a.Name)
	case *BoundRef:
		b.WriteString(a.Name)
	case *Elem:
		b.WriteString(a.Arr.Name + "[")
		printA(b, a.I, 0)
		b.WriteByte(']')
	case *Neg:
		paren(b, ctx > precUnary, func() {
			b.WriteByte('-')
			// -(5) keeps Neg(Num 5) apart from the literal -5; --x would lex the same either way.
			if _, lit := a.X.(*Num); lit {
				b.WriteByte('(')
				printA(b, a.X, 0)
				b.WriteByte(')')
			} else {
				printA(b, a.X, precUnary)
			}
		})
	case *BinA:
		prec := precSum
		if a.Op == Mul || a.Op == Div || a.Op == Mod {
			prec = precProd
		}
		paren(b, ctx > prec, func() {
			printA(b, a.L, prec)
			b.WriteString(" " + a.Op.String() + " ")
			printA(b, a.R, prec+1) // left associative: a right operand at the same level needs parentheses
		})
	case fmt.Stringer: // an expression defined outside the syntax package (the refinement layer's select)
		b.WriteString(a.String())
	default:
		panic(fmt.Sprintf("syntax.PrintA: unknown expression %T", a))
	}
}

func printB(b *strings.Builder, c BExpr, ctx int) {
	switch c := c.(type) {
	case *BoolLit:
		if c.Val {
			b.WriteString("true")
		} else {
			b.WriteString("false")
		}
	case *Cmp:
		paren(b, ctx > precCmp, func() {
			printA(b, c.L, precSum)
			b.WriteString(" " + c.Op.String() + " ")
			printA(b, c.R, precSum)
		})
	case *Not:
		paren(b, ctx > precNot, func() {
			b.WriteString("not ")
			printB(b, c.X, precNot)
		})
	case *Quant:
		// The body extends as far right as possible: a quantifier that is not the whole
		// condition (or the whole body of a quantifier) is parenthesised.
		paren(b, ctx > 0, func() {
			if c.Exists {
				b.WriteString("exists ")
			} else {
				b.WriteString("forall ")
			}
			b.WriteString(c.Name + " in ")
			printA(b, c.Lo, precSum)
			b.WriteString("..")
			printA(b, c.Hi, precSum)
			b.WriteString(": ")
			printB(b, c.Body, 0)
		})
	case *BinB:
		prec := precOr
		if c.Op == And {
			prec = precAnd
		}
		paren(b, ctx > prec, func() {
			printB(b, c.L, prec)
			b.WriteString(" " + c.Op.String() + " ")
			printB(b, c.R, prec+1)
		})
	case fmt.Stringer: // a condition defined outside the syntax package (the refinement layer's first)
		b.WriteString(c.String())
	default:
		panic(fmt.Sprintf("syntax.PrintB: unknown condition %T", c))
	}
}

// Print returns the concrete syntax of the program's core statement (macros are already
// inlined), indented, one statement per line. Parsing the result gives the same AST up to
// positions. Indentation stops growing at MaxIndent levels, so that the text of a deeply nested
// program stays linear in its size.
func Print(s Stmt) string {
	var b strings.Builder
	printS(&b, s, 0)
	b.WriteByte('\n')
	return b.String()
}

// MaxIndent is the deepest indentation Print writes, in levels of two spaces: statements nested
// deeper are written at this indentation (the text would otherwise grow as the square of the
// nesting depth).
const MaxIndent = 40

func indent(b *strings.Builder, n int) {
	for i := 0; i < min(n, MaxIndent); i++ {
		b.WriteString("  ")
	}
}

func printS(b *strings.Builder, s Stmt, n int) {
	// Along the right spine of a sequence iteratively.
	for {
		sq, ok := s.(*Seq)
		if !ok {
			break
		}
		printS(b, sq.First, n)
		b.WriteString(";\n")
		s = sq.Second
	}
	indent(b, n)
	switch s := s.(type) {
	case *Skip:
		b.WriteString("skip")
	case *Fail:
		b.WriteString("fail")
	case *Assign:
		b.WriteString(s.X.Name + " = " + PrintA(s.A))
	case *ArrAssign:
		b.WriteString(s.Arr.Name + "[" + PrintA(s.I) + "] = " + PrintA(s.A))
	case *Assert:
		b.WriteString("assert " + PrintB(s.Cond))
	case *Assume:
		b.WriteString("assume " + PrintB(s.Cond))
	case *If:
		b.WriteString("if " + PrintB(s.Cond) + " then\n")
		printS(b, s.Then, n+1)
		b.WriteString("\n")
		indent(b, n)
		b.WriteString("else\n")
		printS(b, s.Else, n+1)
		b.WriteString("\n")
		indent(b, n)
		b.WriteString("fi")
	case *While:
		b.WriteString("while " + PrintB(s.Cond))
		for _, inv := range s.Invariants {
			b.WriteString(" invariant " + PrintB(inv.Cond))
		}
		b.WriteString(" do\n")
		printS(b, s.Body, n+1)
		b.WriteString("\n")
		indent(b, n)
		b.WriteString("od")
	default:
		panic(fmt.Sprintf("syntax.Print: unexpected statement %T", s))
	}
}

// PrintProgram is Print for a whole program: its array declarations, one a line, then its
// statement.
func PrintProgram(p *Program) string {
	var b strings.Builder
	for _, a := range p.Arrays {
		fmt.Fprintf(&b, "array %s[%d..%d];\n", a.Name, a.Lo, a.Hi)
	}
	b.WriteString(Print(p.Body))
	return b.String()
}
