// Package cert writes WhyML certificates of IMP programs whose loops carry invariants: a Why3
// program whose verification conditions, once proved, show that no run of the IMP program fails
// (proofs/why3/certificate/README.md gives the translation this package follows: inputs as
// parameters, each variable a reference, arrays with their offsets, division and remainder as
// tdiv and tmod of the prelude, which truncate as Why3's ComputerDivision does, strict and and
// or, each invariant clause I as invariant { D(I) /\ I }, claims as assertions).
package cert

import (
	"fmt"
	"io"
	"strings"

	"certsym/spec/syntax"
)

// Invariants are the clauses each loop is certified with, besides its own (those of its
// source): the invariants inference found, for instance.
type Invariants map[*syntax.While][]syntax.BExpr

// Write writes the certificate of the program, its loops' own clauses and those of extra as
// their invariants, as the module Cert. A loop with no clause at all gets invariant { true }
// (then its certificate is rarely provable).
func Write(out io.Writer, prog *syntax.Program, extra Invariants) error {
	w := &writer{prog: prog, extra: extra}
	w.program()
	_, err := io.WriteString(out, w.b.String())
	return err
}

type writer struct {
	prog  *syntax.Program
	extra Invariants
	b     strings.Builder
	bound []string // names of the enclosing quantifiers' variables, by level
}

func vname(x string) string { return "v_" + x }
func aname(x string) string { return "a_" + x }

func (w *writer) printf(format string, args ...any) { fmt.Fprintf(&w.b, format, args...) }

func (w *writer) program() {
	p := w.prog
	hasLoop, hasDiv := false, false
	syntax.Inspect(p.Body, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.While:
			hasLoop = true
		case *syntax.BinA:
			if n.Op == syntax.Div || n.Op == syntax.Mod {
				hasDiv = true
			}
		}
		return true
	})
	for _, cs := range w.extra {
		for _, c := range cs {
			if syntax.CanFail(c, syntax.FailDivZero) {
				hasDiv = true
			}
		}
	}
	w.printf("(* Certificate of the IMP program %s, written by certsym (proofs/why3/certificate/README.md). *)\n", p.File)
	w.printf("module Cert\n  use int.Int\n")
	if len(p.Arrays) > 0 {
		w.printf("  use array.Array\n")
	}
	if hasDiv {
		w.printf("  use int.ComputerDivision\n  use prelude.ImpOps\n")
	}
	w.printf("\n  let main")
	for _, v := range p.Vars {
		w.printf(" (%s0 : int)", vname(v))
	}
	for _, a := range p.Arrays {
		w.printf(" (%s0 : array int)", aname(a.Name))
	}
	if len(p.Vars)+len(p.Arrays) == 0 {
		w.printf(" ()")
	}
	w.printf(" : unit\n")
	for _, a := range p.Arrays {
		w.printf("    requires { length %s0 = %d }\n", aname(a.Name), a.Size())
	}
	if hasLoop {
		w.printf("    diverges\n")
	}
	w.printf("  =\n")
	for _, v := range p.Vars {
		w.printf("    let ref %s = %s0 in\n", vname(v), vname(v))
	}
	for _, a := range p.Arrays {
		w.printf("    let %s = copy %s0 in\n", aname(a.Name), aname(a.Name))
	}
	w.stmt(p.Body, 2)
	w.printf("\nend\n")
}

func (w *writer) indent(n int) { w.b.WriteString(strings.Repeat("  ", n)) }

// stmt writes [[ s ]] (README.md, "Statements").
func (w *writer) stmt(s syntax.Stmt, n int) {
	switch s := s.(type) {
	case *syntax.Skip:
		w.indent(n)
		w.printf("()")
	case *syntax.Fail:
		w.indent(n)
		w.printf("absurd")
	case *syntax.Assign:
		w.indent(n)
		w.printf("%s <- %s", vname(s.X.Name), w.code(s.A))
	case *syntax.ArrAssign:
		w.indent(n)
		w.printf("%s[%s] <- %s", aname(s.Arr.Name), w.offset(s.Arr, w.code(s.I)), w.code(s.A))
	case *syntax.Seq:
		w.stmt(s.First, n)
		w.printf(";\n")
		w.stmt(s.Second, n)
	case *syntax.If:
		w.indent(n)
		w.printf("if %s then begin\n", w.cond(s.Cond))
		w.stmt(s.Then, n+1)
		w.printf("\n")
		w.indent(n)
		w.printf("end else begin\n")
		w.stmt(s.Else, n+1)
		w.printf("\n")
		w.indent(n)
		w.printf("end")
	case *syntax.While:
		w.indent(n)
		w.printf("while %s do\n", w.cond(s.Cond))
		clauses := []syntax.BExpr{}
		for _, a := range s.Invariants {
			clauses = append(clauses, a.Cond)
		}
		clauses = append(clauses, w.extra[s]...)
		if len(clauses) == 0 {
			clauses = append(clauses, &syntax.BoolLit{Val: true})
		}
		for _, c := range clauses {
			w.indent(n + 1)
			w.printf("invariant { %s }\n", w.defined(c))
		}
		w.stmt(s.Body, n+1)
		w.printf("\n")
		w.indent(n)
		w.printf("done")
	case *syntax.Assume:
		w.indent(n)
		w.printf("assert { %s };\n", w.def(s.Cond))
		w.indent(n)
		w.printf("assume { %s }", w.formula(s.Cond))
	case *syntax.Assert:
		w.indent(n)
		w.printf("assert { %s };\n", w.def(s.Cond))
		w.indent(n)
		w.printf("assert { %s }", w.formula(s.Cond))
	default:
		panic(fmt.Sprintf("cert.stmt: unknown statement %T", s))
	}
}

// defined is D(b) /\ b', the formula of an invariant clause.
func (w *writer) defined(b syntax.BExpr) string {
	d := w.def(b)
	if d == "true" {
		return w.formula(b)
	}
	return d + " /\\ " + w.formula(b)
}

// offset is the index of element i of the array in its Why3 array.
func (w *writer) offset(a *syntax.Array, i string) string {
	if a.Lo == 0 {
		return i
	}
	return fmt.Sprintf("%s - (%d)", i, a.Lo)
}

var cmpWhy = [...]string{syntax.Eq: "=", syntax.Ne: "<>", syntax.Lt: "<", syntax.Le: "<=", syntax.Gt: ">", syntax.Ge: ">="}

// code is [[ a ]]: the program expression (README.md, "Expressions"): division and remainder by
// the prelude's tdiv and tmod, whose preconditions are IMP's checks.
func (w *writer) code(a syntax.AExpr) string { return w.expr(a, "tdiv", "tmod") }

// expr writes a with div and mod as the functions named.
func (w *writer) expr(a syntax.AExpr, div, mod string) string {
	switch a := a.(type) {
	case *syntax.Num:
		return fmt.Sprintf("(%s)", a.Val)
	case *syntax.Var:
		return vname(a.Name)
	case *syntax.Neg:
		return fmt.Sprintf("(- %s)", w.expr(a.X, div, mod))
	case *syntax.BinA:
		switch a.Op {
		case syntax.Div:
			return fmt.Sprintf("(%s %s %s)", div, w.expr(a.L, div, mod), w.expr(a.R, div, mod))
		case syntax.Mod:
			return fmt.Sprintf("(%s %s %s)", mod, w.expr(a.L, div, mod), w.expr(a.R, div, mod))
		}
		return fmt.Sprintf("(%s %s %s)", w.expr(a.L, div, mod), a.Op, w.expr(a.R, div, mod))
	case *syntax.Elem:
		return fmt.Sprintf("%s[%s]", aname(a.Arr.Name), w.offset(a.Arr, w.expr(a.I, div, mod)))
	case *syntax.BoundRef:
		return w.bound[a.Level]
	default:
		panic(fmt.Sprintf("cert.expr: unknown expression %T", a))
	}
}

// cond is [[ b ]] for a branch or loop condition: strict and and or evaluate both operands
// before combining them; a quantifier checks its instances' definedness, then is any bool equal
// to the formula.
func (w *writer) cond(b syntax.BExpr) string {
	switch b := b.(type) {
	case *syntax.BoolLit:
		return fmt.Sprint(b.Val)
	case *syntax.Cmp:
		return fmt.Sprintf("(%s %s %s)", w.code(b.L), cmpWhy[b.Op], w.code(b.R))
	case *syntax.Not:
		return fmt.Sprintf("(not %s)", w.cond(b.X))
	case *syntax.BinB:
		op := "&&"
		if b.Op == syntax.Or {
			op = "||"
		}
		return fmt.Sprintf("(let c1 = %s in let c2 = %s in c1 %s c2)", w.cond(b.L), w.cond(b.R), op)
	case *syntax.Quant:
		return fmt.Sprintf("(assert { %s }; any bool ensures { result <-> %s })", w.def(b), w.formula(b))
	default:
		panic(fmt.Sprintf("cert.cond: unknown condition %T", b))
	}
}

// term is the logic term of a (div and mod of ComputerDivision).
func (w *writer) term(a syntax.AExpr) string { return w.expr(a, "div", "mod") }

// formula is b' (README.md: /\, \/, not, div, mod, a[j - lo], quantifiers over ranges).
func (w *writer) formula(b syntax.BExpr) string {
	switch b := b.(type) {
	case *syntax.BoolLit:
		return fmt.Sprint(b.Val)
	case *syntax.Cmp:
		return fmt.Sprintf("(%s %s %s)", w.term(b.L), cmpWhy[b.Op], w.term(b.R))
	case *syntax.Not:
		return fmt.Sprintf("(not %s)", w.formula(b.X))
	case *syntax.BinB:
		op := "/\\"
		if b.Op == syntax.Or {
			op = "\\/"
		}
		return fmt.Sprintf("(%s %s %s)", w.formula(b.L), op, w.formula(b.R))
	case *syntax.Quant:
		lo, hi := w.term(b.Lo), w.term(b.Hi)
		k := w.bind(b)
		body := w.formula(b.Body)
		w.unbind()
		if b.Exists {
			return fmt.Sprintf("(exists %s: int. %s <= %s <= %s /\\ %s)", k, lo, k, hi, body)
		}
		return fmt.Sprintf("(forall %s: int. %s <= %s <= %s -> %s)", k, lo, k, hi, body)
	default:
		panic(fmt.Sprintf("cert.formula: unknown condition %T", b))
	}
}

func (w *writer) bind(q *syntax.Quant) string {
	k := fmt.Sprintf("k_%s_%d", q.Name, q.Level)
	for len(w.bound) <= q.Level {
		w.bound = append(w.bound, "")
	}
	w.bound = w.bound[:q.Level+1]
	w.bound[q.Level] = k
	return k
}

func (w *writer) unbind() { w.bound = w.bound[:len(w.bound)-1] }

// def is D(b), the definedness of a condition (Syntax.bD in Coq, def_b in imp.mlw): every
// divisor nonzero and every index in its array's range, both operands of and and or, every
// instance of a quantifier's body.
func (w *writer) def(b syntax.BExpr) string {
	var parts []string
	w.defB(b, &parts)
	if len(parts) == 0 {
		return "true"
	}
	return strings.Join(parts, " /\\ ")
}

func (w *writer) defA(a syntax.AExpr, out *[]string) {
	switch a := a.(type) {
	case *syntax.Num, *syntax.Var, *syntax.BoundRef:
	case *syntax.Neg:
		w.defA(a.X, out)
	case *syntax.BinA:
		w.defA(a.L, out)
		w.defA(a.R, out)
		if a.Op == syntax.Div || a.Op == syntax.Mod {
			*out = append(*out, fmt.Sprintf("%s <> 0", w.term(a.R)))
		}
	case *syntax.Elem:
		w.defA(a.I, out)
		i := w.term(a.I)
		*out = append(*out, fmt.Sprintf("(%d) <= %s <= (%d)", a.Arr.Lo, i, a.Arr.Hi))
	default:
		panic(fmt.Sprintf("cert.defA: unknown expression %T", a))
	}
}

func (w *writer) defB(b syntax.BExpr, out *[]string) {
	switch b := b.(type) {
	case *syntax.BoolLit:
	case *syntax.Cmp:
		w.defA(b.L, out)
		w.defA(b.R, out)
	case *syntax.Not:
		w.defB(b.X, out)
	case *syntax.BinB:
		w.defB(b.L, out)
		w.defB(b.R, out)
	case *syntax.Quant:
		w.defA(b.Lo, out)
		w.defA(b.Hi, out)
		lo, hi := w.term(b.Lo), w.term(b.Hi)
		k := w.bind(b)
		var inner []string
		w.defB(b.Body, &inner)
		w.unbind()
		if len(inner) > 0 {
			*out = append(*out, fmt.Sprintf("(forall %s: int. %s <= %s <= %s -> %s)", k, lo, k, hi, strings.Join(inner, " /\\ ")))
		}
	default:
		panic(fmt.Sprintf("cert.defB: unknown condition %T", b))
	}
}
