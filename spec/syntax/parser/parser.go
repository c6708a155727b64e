// Package parser reads IMP programs: the lexer (lexer.go), the parser (parser.go: precedence
// climbing for expressions, an explicit stack for statements), the macro inliner, which leaves
// the core language of spec/SEMANTICS.md, and the resolution of names (resolve.go). Together they
// turn source text into a syntax.Program or a positioned *SyntaxError. grammar.txt in this folder
// is the grammar the parser accepts, in EBNF; grammar_test.go checks the two against each other.
package parser

import (
	"bytes"
	"fmt"
	"os"
	"strconv"
	"strings"

	"certsym/internal/fault"
	"certsym/spec/integer"
	"certsym/spec/syntax"
)

// ParseFile reads and parses the IMP program in file.
func ParseFile(file string) (*syntax.Program, error) {
	src, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	return Parse(file, src)
}

// Parse parses an IMP program (the grammar of grammar.txt) from src; file names the source in
// errors. Macros are inlined, so the result is in the core language. Errors are *SyntaxError values
// carrying the position and what was expected.
func Parse(file string, src []byte) (*syntax.Program, error) {
	// A UTF-8 byte-order mark (some editors write one) is not part of the program; positions
	// count from after it.
	src = bytes.TrimPrefix(src, []byte("\xEF\xBB\xBF"))
	toks, err := lex(file, src)
	if err != nil {
		return nil, err
	}
	p := &parser{file: file, toks: toks, macros: map[string]*macroDef{}, arrays: map[string]*syntax.Array{}}
	prog, err := p.program()
	if err != nil {
		return nil, err
	}
	return prog, nil
}

type macroDef struct {
	name   string
	pos    syntax.Pos
	params []string
	body   syntax.Stmt
}

// callStmt is a macro call before inlining; it never appears in a parsed Program. It embeds a
// Skip only to be a syntax.Stmt, whose methods are package syntax's own: it is not a skip (a
// type switch on *syntax.Skip does not match it), and Inspect sees no children in it.
type callStmt struct {
	syntax.Skip
	Name string
	Args []syntax.AExpr
}

// Limits on the programs certsym reads. Every later pass (resolution, printing, the semantics,
// the engines) walks the syntax tree recursively, so its shape is bounded here, where the error
// can say where the limit was passed, rather than by a stack overflow later.
const (
	// MaxNesting bounds the nesting of parentheses, brackets, not, unary minus and quantifiers.
	MaxNesting = 1000
	// MaxStmtNesting bounds the nesting of statements inside if, while and macro bodies. It is
	// MaxStatements: every level of nesting is a statement, so no deeper program could pass that
	// limit after inlining anyway. The later passes that recurse on statements (inlining,
	// printing, the semantics, the engines) then recurse at most this deep, which Go's growable
	// goroutine stacks (1 GB by default) hold with room to spare.
	MaxStmtNesting = MaxStatements
	// MaxExprDepth bounds the depth of an expression tree, after macro inlining: a chain
	// a + b + ... of n operations has depth n + 1.
	MaxExprDepth = 1000
	// MaxStatements bounds the number of statements after macro inlining (the skip that stands
	// for a missing else is not counted).
	MaxStatements = 200_000
	// MaxNodes bounds the size of the program after macro inlining: statements and expression
	// nodes, each use of a macro argument counted in full.
	MaxNodes = 4_000_000
)

type parser struct {
	file   string
	toks   []token
	i      int
	macros map[string]*macroDef
	nest   int // current nesting (MaxNesting)
	// The declared arrays, by name and in order of declaration.
	arrays    map[string]*syntax.Array
	arrayList []*syntax.Array
	// binders are the variables of the quantifiers enclosing the expression being parsed,
	// outermost first (a binder's index is its Level); params are the parameters of the macro
	// whose body is being parsed (bound variables may not be named like them).
	binders []string
	params  []string
	macro   string
	// implicit are the skips standing for a missing else: not statements of the source, so not
	// counted against MaxStatements.
	implicit map[*syntax.Skip]bool
}

// enter counts one more level of nesting at pos; leave undoes it.
func (p *parser) enter(pos syntax.Pos) {
	p.nest++
	if p.nest > MaxNesting {
		p.fail(pos, "nesting deeper than %d levels (parentheses, not, unary minus): certsym's limit", MaxNesting)
	}
}

func (p *parser) leave() { p.nest-- }

// deep checks the depth of an expression just built at pos.
func (p *parser) deep(e expr, pos syntax.Pos) expr {
	if e.d > MaxExprDepth {
		p.fail(pos, "expression deeper than %d levels (a chain of %d operations): certsym's limit; split it with intermediate variables", MaxExprDepth, MaxExprDepth)
	}
	return e
}

// bail aborts parsing with a syntax error; program() recovers it.
type bail struct{ err *SyntaxError }

func (p *parser) fail(pos syntax.Pos, format string, args ...any) {
	panic(bail{&SyntaxError{p.file, pos, fmt.Sprintf(format, args...)}})
}

func (p *parser) peek() token { return p.toks[p.i] }

func (p *parser) next() token {
	t := p.toks[p.i]
	if t.kind != tEOF {
		p.i++
	}
	return t
}

func (p *parser) is(text string) bool {
	t := p.peek()
	return (t.kind == tKeyword || t.kind == tSym) && t.text == text
}

func (p *parser) expect(text, context string) token {
	t := p.peek()
	if !p.is(text) {
		p.fail(t.pos, "expected '%s'%s, found %s", text, context, t.describe())
	}
	return p.next()
}

func (p *parser) program() (prog *syntax.Program, err error) {
	defer func() {
		if r := recover(); r != nil {
			b, ok := r.(bail)
			if !ok {
				panic(r)
			}
			prog, err = nil, b.err
		}
	}()
	for p.is("macro") || p.is("array") {
		if p.is("macro") {
			p.macroDef()
		} else {
			p.arrayDecl()
		}
	}
	body := p.seq()
	if t := p.peek(); t.kind != tEOF {
		p.fail(t.pos, "expected ';' or end of file after statement, found %s", t.describe())
	}
	in := &inliner{p: p}
	if len(p.macros) == 0 {
		// Nothing to inline: the tree is checked in place (its size, its unknown calls), in
		// the order inlining would check it, without a copy and without recursion.
		in.check(body)
	} else {
		body = rightNest(in.stmt(body, nil, syntax.Pos{}))
	}
	prog = &syntax.Program{File: p.file, Body: body, Arrays: p.arrayList}
	resolve(prog, p.fail)
	return prog, nil
}

// arrayDecl parses 'array' ID '[' INT '..' INT ']' ';'.
func (p *parser) arrayDecl() {
	kw := p.next()
	t := p.next()
	if t.kind != tIdent {
		p.fail(t.pos, "expected array name after 'array', found %s", t.describe())
	}
	if old, dup := p.arrays[t.text]; dup {
		p.fail(t.pos, "array %s already declared at line %d", t.text, old.P.Line)
	}
	p.expect("[", " after the name of array "+t.text)
	lo := p.arrayBound(t.text)
	p.expect("..", " between the bounds of array "+t.text)
	hi := p.arrayBound(t.text)
	p.expect("]", " after the bounds of array "+t.text+" (bounds are integer literals)")
	p.expect(";", " after the declaration of array "+t.text)
	if lo > hi {
		p.fail(t.pos, "array %s: lower bound %d is greater than upper bound %d", t.text, lo, hi)
	}
	// hi - lo computed in uint64 cannot overflow: 0 <= hi - lo < 2^64.
	if uint64(hi)-uint64(lo) >= syntax.MaxArraySize {
		p.fail(t.pos, "array %s has more than %d elements: certsym's limit", t.text, syntax.MaxArraySize)
	}
	a := &syntax.Array{P: kw.pos, Name: t.text, Lo: lo, Hi: hi, Index: len(p.arrayList)}
	p.arrays[t.text] = a
	p.arrayList = append(p.arrayList, a)
}

// arrayBound parses a bound of a declaration: an integer literal, possibly negative.
func (p *parser) arrayBound(name string) int64 {
	t := p.peek()
	pos, text := t.pos, t.text
	if p.is("-") {
		p.next()
		t = p.peek()
		text = "-" + t.text
	}
	if t.kind != tInt {
		p.fail(t.pos, "the bounds of array %s must be integer literals, found %s", name, t.describe())
	}
	p.next()
	v, err := strconv.ParseInt(text, 10, 64)
	if err != nil {
		p.fail(pos, "bound %s of array %s is out of range", text, name)
	}
	return v
}

func (p *parser) macroDef() {
	kw := p.next()
	t := p.next()
	if t.kind != tIdent {
		p.fail(t.pos, "expected macro name after 'macro', found %s", t.describe())
	}
	if old, dup := p.macros[t.text]; dup {
		p.fail(t.pos, "macro %s already defined at line %d", t.text, old.pos.Line)
	}
	m := &macroDef{name: t.text, pos: kw.pos}
	if p.is("(") {
		p.next()
		seen := map[string]bool{}
		for {
			a := p.next()
			if a.kind != tIdent {
				p.fail(a.pos, "expected parameter name, found %s", a.describe())
			}
			if seen[a.text] {
				p.fail(a.pos, "duplicate parameter %s", a.text)
			}
			seen[a.text] = true
			m.params = append(m.params, a.text)
			if !p.is(",") {
				break
			}
			p.next()
		}
		p.expect(")", " after macro parameters")
	}
	p.expect("begin", " to start the body of macro "+m.name)
	p.params, p.macro = m.params, m.name
	m.body = p.seq()
	p.params, p.macro = nil, ""
	p.expect("end", " to close macro "+m.name)
	p.macros[m.name] = m
}

// seq parses stmt (';' stmt)* with an optional trailing ';' before a closer (od, fi, else, end)
// or the end of file. Statements nest without nesting calls: the conditionals and loops whose
// bodies are being parsed are kept on an explicit stack (open), so that 100,000 nested ifs cost
// heap, not Go stack, and parse in time linear in their number.
func (p *parser) seq() syntax.Stmt {
	// level is a sequence being parsed: its statements so far, and the statement whose body
	// (or else branch) it is, nil for the outermost.
	type level struct {
		items []syntax.Stmt
		open  syntax.Stmt // *If (Then while else is false, Else when it is true) or *While
		then  syntax.Stmt // the then branch, once the else branch is being parsed
		els   bool
	}
	outer := p.nest
	defer func() { p.nest = outer }()
	stack := []*level{{}}
	for {
		// One statement: a simple one, or the head of an if or while, which opens a level.
		t := p.peek()
		if len(stack) > MaxStmtNesting {
			p.fail(t.pos, "statements nested deeper than %d levels (if, while): certsym's limit", MaxStmtNesting)
		}
		// The statement is the first level of the nesting of its expressions (MaxNesting),
		// whatever the statements around it.
		p.nest = 1
		loc := syntax.Loc{P: t.pos}
		switch {
		case p.is("if"):
			p.next()
			c := p.cond("after 'if'")
			p.expect("then", " after the condition of 'if'")
			stack = append(stack, &level{open: &syntax.If{Loc: loc, Cond: c}})
			continue
		case p.is("while"):
			p.next()
			c := p.cond("after 'while'")
			w := &syntax.While{Loc: loc, Cond: c}
			for p.is("invariant") {
				kw := p.next()
				w.Invariants = append(w.Invariants, &syntax.Assert{Loc: syntax.Loc{P: kw.pos}, Cond: p.cond("after 'invariant'")})
			}
			if len(w.Invariants) == 0 {
				p.expect("do", " after the condition of 'while' (or 'invariant')")
			} else {
				p.expect("do", " after the invariant of 'while' (or another 'invariant')")
			}
			stack = append(stack, &level{open: w})
			continue
		}
		top := stack[len(stack)-1]
		top.items = append(top.items, p.simpleStmt())
		// After a statement: ';' and another statement, or the end of the sequence, which
		// closes the statement of its level (and maybe, through it, the enclosing ones).
		for {
			if p.is(";") {
				p.next()
				if t := p.peek(); !(t.kind == tEOF || p.is("od") || p.is("fi") || p.is("else") || p.is("end")) {
					break // the next statement of this sequence
				}
			}
			top := stack[len(stack)-1]
			body := joinSeq(top.items)
			if top.open == nil {
				return body
			}
			stack = stack[:len(stack)-1]
			var done syntax.Stmt
			switch st := top.open.(type) {
			case *syntax.If:
				if !top.els {
					if p.is("else") {
						p.next()
						stack = append(stack, &level{open: st, then: body, els: true})
						break
					}
					st.Then, st.Else = body, p.implicitSkip(p.peek().pos)
				} else {
					st.Then, st.Else = top.then, body
				}
				p.expect("fi", " to close 'if' (or 'else')")
				done = st
			case *syntax.While:
				st.Body = body
				p.expect("od", " to close 'while'")
				done = st
			default:
				panic(fmt.Sprintf("parser: an open %T", st))
			}
			if done == nil {
				break // the else branch's first statement
			}
			up := stack[len(stack)-1]
			up.items = append(up.items, done)
		}
	}
}

// joinSeq is the sequence of items, right-nested: s1 ; (s2 ; (... ; sn)).
func joinSeq(items []syntax.Stmt) syntax.Stmt {
	out := items[len(items)-1]
	for k := len(items) - 2; k >= 0; k-- {
		out = &syntax.Seq{First: items[k], Second: out}
	}
	return out
}

// simpleStmt parses a statement other than if and while.
func (p *parser) simpleStmt() syntax.Stmt {
	t := p.peek()
	loc := syntax.Loc{P: t.pos}
	switch {
	case p.is("skip"):
		p.next()
		return &syntax.Skip{Loc: loc}
	case p.is("fail"):
		p.next()
		return &syntax.Fail{Loc: loc, Kind: syntax.FailExplicit}
	case p.is("assert"):
		p.next()
		return &syntax.Assert{Loc: loc, Cond: p.cond("after 'assert'")}
	case p.is("assume"):
		p.next()
		return &syntax.Assume{Loc: loc, Cond: p.cond("after 'assume'")}
	case p.is("array"):
		p.fail(t.pos, "array declarations come first, before the statements of the program")
	case t.kind == tIdent:
		p.next()
		if p.is("[") {
			lb := p.next()
			p.enter(lb.pos)
			i := p.arith("as array index")
			p.expect("]", fmt.Sprintf(" to close '[' at %d:%d", lb.pos.Line, lb.pos.Col))
			p.leave()
			p.expect("=", " after "+t.text+"[...] (an element assignment)")
			return &syntax.ArrAssign{Loc: loc, Arr: &syntax.Array{P: t.pos, Name: t.text}, I: i, A: p.arith("after '='")}
		}
		if p.is("=") {
			p.next()
			return &syntax.Assign{Loc: loc, X: &syntax.Var{P: t.pos, Name: t.text}, A: p.arith("after '='")}
		}
		call := &callStmt{Skip: syntax.Skip{Loc: loc}, Name: t.text}
		if p.is("(") {
			p.next()
			for {
				call.Args = append(call.Args, p.arith("as macro argument"))
				if !p.is(",") {
					break
				}
				p.next()
			}
			p.expect(")", " after macro arguments")
		}
		return call
	}
	if p.is("invariant") {
		p.fail(t.pos, "'invariant' stands only in the head of a loop: while b invariant I do ... od")
	}
	p.fail(t.pos, "expected a statement (skip, fail, assignment, assert, assume, if, while or macro call), found %s", t.describe())
	return nil
}

// implicitSkip is the skip of a missing else, at pos (the 'fi').
func (p *parser) implicitSkip(pos syntax.Pos) *syntax.Skip {
	s := &syntax.Skip{Loc: syntax.Loc{P: pos}}
	if p.implicit == nil {
		p.implicit = map[*syntax.Skip]bool{}
	}
	p.implicit[s] = true
	return s
}

// expr is an expression of either category while precedence climbing has not yet fixed it.
type expr struct {
	a   syntax.AExpr
	b   syntax.BExpr
	pos syntax.Pos
	d   int // depth of the tree
}

func (p *parser) arith(context string) syntax.AExpr { return p.wantA(p.or(), context) }
func (p *parser) cond(context string) syntax.BExpr  { return p.wantB(p.or(), context) }

func (p *parser) wantA(e expr, context string) syntax.AExpr {
	if e.a == nil {
		p.fail(e.pos, "expected an arithmetic expression %s, found a condition", context)
	}
	return e.a
}

func (p *parser) wantB(e expr, context string) syntax.BExpr {
	if e.b == nil {
		p.fail(e.pos, "expected a condition (comparison, true, false, not, and, or) %s, found an arithmetic expression", context)
	}
	return e.b
}

func (p *parser) or() expr {
	l := p.and()
	for p.is("or") {
		t := p.next()
		lb := p.wantB(l, "before 'or'")
		re := p.and()
		r, rd := p.wantB(re, "after 'or'"), re.d
		l = p.deep(expr{b: &syntax.BinB{P: t.pos, Op: syntax.Or, L: lb, R: r}, pos: l.pos, d: 1 + max(l.d, rd)}, t.pos)
	}
	return l
}

func (p *parser) and() expr {
	l := p.not()
	for p.is("and") {
		t := p.next()
		lb := p.wantB(l, "before 'and'")
		re := p.not()
		r := p.wantB(re, "after 'and'")
		l = p.deep(expr{b: &syntax.BinB{P: t.pos, Op: syntax.And, L: lb, R: r}, pos: l.pos, d: 1 + max(l.d, re.d)}, t.pos)
	}
	return l
}

func (p *parser) not() expr {
	if p.is("forall") || p.is("exists") {
		return p.quant()
	}
	if p.is("not") {
		t := p.next()
		p.enter(t.pos)
		defer p.leave()
		x := p.not()
		return p.deep(expr{b: &syntax.Not{P: t.pos, X: p.wantB(x, "after 'not'")}, pos: t.pos, d: 1 + x.d}, t.pos)
	}
	return p.cmp()
}

// quant parses ('forall' | 'exists') ID 'in' aexpr '..' aexpr ':' bexpr; the body extends as
// far right as possible.
func (p *parser) quant() expr {
	t := p.next()
	p.enter(t.pos)
	defer p.leave()
	k := p.next()
	if k.kind != tIdent {
		p.fail(k.pos, "expected the name of the bound variable after '%s', found %s", t.text, k.describe())
	}
	for _, b := range p.binders {
		if b == k.text {
			p.fail(k.pos, "bound variable %s is already bound by an enclosing quantifier", k.text)
		}
	}
	for _, m := range p.params {
		if m == k.text {
			p.fail(k.pos, "bound variable %s has the name of a parameter of macro %s", k.text, p.macro)
		}
	}
	if _, ok := p.arrays[k.text]; ok {
		p.fail(k.pos, "bound variable %s has the name of an array of the program", k.text)
	}
	p.expect("in", " after the bound variable "+k.text)
	le := p.sum()
	lo := p.wantA(le, "as the lower bound of the range of "+k.text)
	p.expect("..", " between the bounds of the range of "+k.text)
	he := p.sum()
	hi := p.wantA(he, "as the upper bound of the range of "+k.text)
	p.expect(":", " after the range of the quantifier")
	level := len(p.binders)
	p.binders = append(p.binders, k.text)
	be := p.or()
	body := p.wantB(be, "as the body of the quantifier")
	p.binders = p.binders[:level]
	q := &syntax.Quant{P: t.pos, Exists: t.text == "exists", Name: k.text, Level: level, Lo: lo, Hi: hi, Body: body}
	return p.deep(expr{b: q, pos: t.pos, d: 1 + max(le.d, he.d, be.d)}, t.pos)
}

var cmpOps = map[string]syntax.CmpOp{"==": syntax.Eq, "!=": syntax.Ne, "<": syntax.Lt, "<=": syntax.Le, ">": syntax.Gt, ">=": syntax.Ge}

func (p *parser) cmp() expr {
	l := p.sum()
	t := p.peek()
	op, ok := cmpOps[t.text]
	if t.kind != tSym || !ok {
		return l
	}
	p.next()
	la := p.wantA(l, "before '"+t.text+"'")
	re := p.sum()
	r := p.wantA(re, "after '"+t.text+"'")
	if t2 := p.peek(); t2.kind == tSym {
		if _, chained := cmpOps[t2.text]; chained {
			p.fail(t2.pos, "comparisons do not chain: expected 'and', 'or' or the end of the condition, found '%s'", t2.text)
		}
	}
	return p.deep(expr{b: &syntax.Cmp{P: t.pos, Op: op, L: la, R: r}, pos: l.pos, d: 1 + max(l.d, re.d)}, t.pos)
}

func (p *parser) sum() expr {
	l := p.product()
	for p.is("+") || p.is("-") {
		t := p.next()
		op := syntax.Add
		if t.text == "-" {
			op = syntax.Sub
		}
		la := p.wantA(l, "before '"+t.text+"'")
		var re expr
		if op == syntax.Sub && fault.Active == fault.Precedence {
			re = p.sum() // the fault: a - b + c reads a - (b + c)
		} else {
			re = p.product()
		}
		r := p.wantA(re, "after '"+t.text+"'")
		l = p.deep(expr{a: &syntax.BinA{P: t.pos, Op: op, L: la, R: r}, pos: l.pos, d: 1 + max(l.d, re.d)}, t.pos)
	}
	return l
}

func (p *parser) product() expr {
	l := p.unary()
	for p.is("*") || p.is("/") || p.is("%") {
		t := p.next()
		op := map[string]syntax.AOp{"*": syntax.Mul, "/": syntax.Div, "%": syntax.Mod}[t.text]
		la := p.wantA(l, "before '"+t.text+"'")
		re := p.unary()
		r := p.wantA(re, "after '"+t.text+"'")
		l = p.deep(expr{a: &syntax.BinA{P: t.pos, Op: op, L: la, R: r}, pos: l.pos, d: 1 + max(l.d, re.d)}, t.pos)
	}
	return l
}

func (p *parser) unary() expr {
	if p.is("-") {
		t := p.next()
		if n := p.peek(); n.kind == tInt {
			p.next()
			v, _ := integer.Parse("-" + n.text)
			return expr{a: &syntax.Num{P: t.pos, Val: v}, pos: t.pos, d: 1}
		}
		p.enter(t.pos)
		defer p.leave()
		x := p.unary()
		return p.deep(expr{a: &syntax.Neg{P: t.pos, X: p.wantA(x, "after unary '-'")}, pos: t.pos, d: 1 + x.d}, t.pos)
	}
	return p.primary()
}

func (p *parser) primary() expr {
	t := p.next()
	switch {
	case t.kind == tInt:
		v, _ := integer.Parse(t.text)
		return expr{a: &syntax.Num{P: t.pos, Val: v}, pos: t.pos, d: 1}
	case t.kind == tIdent:
		level := -1
		for l, b := range p.binders {
			if b == t.text {
				level = l
			}
		}
		if p.is("[") {
			if level >= 0 {
				p.fail(t.pos, "bound variable %s is an integer, not an array: it takes no index", t.text)
			}
			lb := p.next()
			p.enter(lb.pos)
			defer p.leave()
			ie := p.or()
			i := p.wantA(ie, "as array index")
			p.expect("]", fmt.Sprintf(" to close '[' at %d:%d", lb.pos.Line, lb.pos.Col))
			return p.deep(expr{a: &syntax.Elem{P: t.pos, Arr: &syntax.Array{P: t.pos, Name: t.text}, I: i}, pos: t.pos, d: 1 + ie.d}, t.pos)
		}
		if level >= 0 {
			return expr{a: &syntax.BoundRef{P: t.pos, Name: t.text, Level: level}, pos: t.pos, d: 1}
		}
		return expr{a: &syntax.Var{P: t.pos, Name: t.text}, pos: t.pos, d: 1}
	case t.kind == tKeyword && (t.text == "true" || t.text == "false"):
		return expr{b: &syntax.BoolLit{P: t.pos, Val: t.text == "true"}, pos: t.pos, d: 1}
	case t.kind == tSym && t.text == "(":
		p.enter(t.pos)
		defer p.leave()
		e := p.or()
		p.expect(")", " to close '(' at "+fmt.Sprintf("%d:%d", t.pos.Line, t.pos.Col))
		e.pos = t.pos
		return e
	}
	p.fail(t.pos, "expected an expression (integer, variable, element a[i], '-', '(', true, false, not, forall or exists), found %s", t.describe())
	return expr{}
}

// inliner replaces macro calls by the macro bodies, arguments substituted for parameters
// (call by name). Inlined statements remember the outermost call site (Loc.Site).
type inliner struct {
	p     *parser
	stack []string
	// The size of the inlined program so far (MaxStatements, MaxNodes), and the depth and tree
	// size of each expression node met (macro arguments are shared, so a node may stand for a
	// large tree).
	stmts, nodes int
	shape        map[any][2]int
	tree         bool // no node is shared: measure need not memoize
}

// count adds one statement and its expressions to the program's size; the limits are checked
// at pos (the statement, or the macro call it comes from).
func (in *inliner) count(pos syntax.Pos, es ...any) {
	in.stmts++
	in.nodes++
	if in.stmts > MaxStatements {
		in.p.fail(pos, "program larger than %d statements after macro inlining: certsym's limit", MaxStatements)
	}
	for _, e := range es {
		d, n := in.measure(e)
		if d > MaxExprDepth {
			in.p.fail(pos, "expression deeper than %d levels after macro inlining: certsym's limit", MaxExprDepth)
		}
		in.nodes += n
	}
	if in.nodes > MaxNodes {
		in.p.fail(pos, "program larger than %d syntax nodes after macro inlining: certsym's limit", MaxNodes)
	}
}

// check is stmt for a program without macros, where inlining changes nothing: it makes the checks
// of stmt (the limits of count, the unknown macro calls) in the same order, walking s with
// Inspect, which keeps its own stack. Expressions are trees then, so measure memoizes nothing.
func (in *inliner) check(s syntax.Stmt) {
	in.tree = true
	syntax.Inspect(s, func(n syntax.Node) bool {
		switch s := n.(type) {
		case *syntax.Skip:
			if !in.p.implicit[s] {
				in.count(s.Pos())
			}
		case *syntax.Fail:
			in.count(s.Pos())
		case *syntax.Assign:
			in.count(s.Pos(), s.A)
		case *syntax.ArrAssign:
			in.count(s.Pos(), s.I, s.A)
		case *syntax.If:
			in.count(s.Pos(), s.Cond)
		case *syntax.While:
			in.count(s.Pos(), s.Cond) // its invariant clauses are Asserts, counted as statements
		case *syntax.Assume:
			in.count(s.Pos(), s.Cond)
		case *syntax.Assert:
			in.count(s.Pos(), s.Cond)
		case *callStmt:
			in.p.fail(s.P, "unknown macro %s (expected '=' for an assignment, or a macro defined above)", s.Name)
		case *syntax.Seq:
		default:
			return false // an expression, or the f(nil) after the children
		}
		// Into the statements inside compound statements (their expressions were counted).
		switch n.(type) {
		case *syntax.Seq, *syntax.If, *syntax.While:
			return true
		}
		return false
	})
}

// measure returns the depth and tree size of an expression (AExpr or BExpr), memoized per node.
// Its recursion is as deep as the expression, which the parser and count keep within
// MaxExprDepth plus the depth of one macro body's expression.
func (in *inliner) measure(e any) (depth, size int) {
	switch e.(type) {
	case nil, *syntax.Num, *syntax.Var, *syntax.BoolLit, *syntax.BoundRef:
		return 1, 1
	case *syntax.Neg, *syntax.BinA, *syntax.Cmp, *syntax.Not, *syntax.BinB, *syntax.Elem, *syntax.Quant: // measured below
	default:
		panic(fmt.Sprintf("parser: not an expression: %T", e))
	}
	if in.shape == nil && !in.tree {
		in.shape = map[any][2]int{}
	}
	if r, ok := in.shape[e]; ok {
		return r[0], r[1]
	}
	var kids []any
	switch x := e.(type) {
	case *syntax.Neg:
		kids = []any{x.X}
	case *syntax.BinA:
		kids = []any{x.L, x.R}
	case *syntax.Cmp:
		kids = []any{x.L, x.R}
	case *syntax.Not:
		kids = []any{x.X}
	case *syntax.BinB:
		kids = []any{x.L, x.R}
	case *syntax.Elem:
		kids = []any{x.I}
	case *syntax.Quant:
		kids = []any{x.Lo, x.Hi, x.Body}
	default:
		panic(fmt.Sprintf("parser: not a compound expression: %T", e))
	}
	depth, size = 1, 1
	for _, k := range kids {
		d, n := in.measure(k)
		depth = max(depth, d+1)
		size += n
		if size > MaxNodes { // a sum that large is rejected anyway: do not overflow
			size = MaxNodes + 1
		}
	}
	if !in.tree {
		in.shape[e] = [2]int{depth, size}
	}
	return depth, size
}

func (in *inliner) stmt(s syntax.Stmt, sub map[string]syntax.AExpr, site syntax.Pos) syntax.Stmt {
	loc := func(l syntax.Loc) syntax.Loc {
		if site.Line != 0 {
			l.Site = site
		}
		return l
	}
	at := func(l syntax.Loc) syntax.Pos { return loc(l).Pos() }
	switch s := s.(type) {
	case *syntax.Skip:
		if !in.p.implicit[s] {
			in.count(at(s.Loc))
		}
		return &syntax.Skip{Loc: loc(s.Loc)}
	case *syntax.Fail:
		in.count(at(s.Loc))
		return &syntax.Fail{Loc: loc(s.Loc), Kind: s.Kind}
	case *syntax.Assign:
		x := s.X
		if r, ok := sub[x.Name]; ok {
			v, isVar := r.(*syntax.Var)
			if !isVar {
				in.p.fail(site, "macro %s assigns its parameter %s, so its argument must be a variable, found %s",
					in.stack[len(in.stack)-1], x.Name, syntax.PrintA(r))
			}
			x = v
		}
		a := in.substA(s.A, sub, site)
		in.count(at(s.Loc), a)
		return &syntax.Assign{Loc: loc(s.Loc), X: &syntax.Var{P: x.P, Name: x.Name}, A: a}
	case *syntax.ArrAssign:
		arr := in.arrayArg(s.Arr, sub, site)
		i, a := in.substA(s.I, sub, site), in.substA(s.A, sub, site)
		in.count(at(s.Loc), i, a)
		return &syntax.ArrAssign{Loc: loc(s.Loc), Arr: arr, I: i, A: a}
	case *syntax.Seq:
		// Along the right spine iteratively: a sequence of a million statements must not nest
		// a million calls.
		var items []syntax.Stmt
		var cur syntax.Stmt = s
		for {
			sq, ok := cur.(*syntax.Seq)
			if !ok {
				break
			}
			items = append(items, in.stmt(sq.First, sub, site))
			cur = sq.Second
		}
		out := in.stmt(cur, sub, site)
		for k := len(items) - 1; k >= 0; k-- {
			out = &syntax.Seq{First: items[k], Second: out}
		}
		return out
	case *syntax.If:
		c := in.substB(s.Cond, sub, site)
		in.count(at(s.Loc), c)
		return &syntax.If{Loc: loc(s.Loc), Cond: c, Then: in.stmt(s.Then, sub, site), Else: in.stmt(s.Else, sub, site)}
	case *syntax.While:
		c := in.substB(s.Cond, sub, site)
		in.count(at(s.Loc), c)
		w := &syntax.While{Loc: loc(s.Loc), Cond: c}
		for _, inv := range s.Invariants { // each clause a statement, as check counts it
			w.Invariants = append(w.Invariants, in.stmt(inv, sub, site).(*syntax.Assert))
		}
		w.Body = in.stmt(s.Body, sub, site)
		return w
	case *syntax.Assume:
		c := in.substB(s.Cond, sub, site)
		in.count(at(s.Loc), c)
		return &syntax.Assume{Loc: loc(s.Loc), Cond: c}
	case *syntax.Assert:
		c := in.substB(s.Cond, sub, site)
		in.count(at(s.Loc), c)
		return &syntax.Assert{Loc: loc(s.Loc), Cond: c}
	case *callStmt:
		m, ok := in.p.macros[s.Name]
		if !ok {
			if sub == nil {
				in.p.fail(s.P, "unknown macro %s (expected '=' for an assignment, or a macro defined above)", s.Name)
			}
			in.p.fail(s.P, "unknown macro %s called in macro %s", s.Name, in.stack[len(in.stack)-1])
		}
		for _, name := range in.stack {
			if name == m.name {
				in.p.fail(s.P, "recursive macro call: %s calls %s", strings.Join(in.stack, " -> "), m.name)
			}
		}
		if len(s.Args) != len(m.params) {
			in.p.fail(s.P, "macro %s expects %d argument(s), found %d", m.name, len(m.params), len(s.Args))
		}
		inner := make(map[string]syntax.AExpr, len(m.params))
		for k, param := range m.params {
			if fault.Active == fault.MacroNestedArgs {
				inner[param] = s.Args[k]
				continue
			}
			inner[param] = in.substA(s.Args[k], sub, site)
		}
		newSite := site
		if newSite.Line == 0 {
			newSite = s.P
		}
		in.stack = append(in.stack, m.name)
		body := in.stmt(m.body, inner, newSite)
		in.stack = in.stack[:len(in.stack)-1]
		return body
	default:
		panic(fmt.Sprintf("inliner: unexpected statement %T", s))
	}
}

// arrayArg returns the array named by an element read or write in a macro body: the array
// passed for the parameter it names, or the array of that name. The result is a placeholder
// (name and position) that resolution replaces by the declared array.
func (in *inliner) arrayArg(a *syntax.Array, sub map[string]syntax.AExpr, site syntax.Pos) *syntax.Array {
	if r, ok := sub[a.Name]; ok {
		v, isVar := r.(*syntax.Var)
		if !isVar {
			in.p.fail(site, "macro %s uses its parameter %s with an index, so its argument must be an array name, found %s",
				in.stack[len(in.stack)-1], a.Name, syntax.PrintA(r))
		}
		return &syntax.Array{P: v.P, Name: v.Name}
	}
	return &syntax.Array{P: a.P, Name: a.Name}
}

// substA substitutes the macro arguments sub (by parameter name) into a, inlined at site.
func (in *inliner) substA(a syntax.AExpr, sub map[string]syntax.AExpr, site syntax.Pos) syntax.AExpr {
	if sub == nil {
		return a
	}
	switch a := a.(type) {
	case *syntax.Var:
		if r, ok := sub[a.Name]; ok {
			return r
		}
		return &syntax.Var{P: a.P, Name: a.Name}
	case *syntax.Neg:
		return &syntax.Neg{P: a.P, X: in.substA(a.X, sub, site)}
	case *syntax.BinA:
		return &syntax.BinA{P: a.P, Op: a.Op, L: in.substA(a.L, sub, site), R: in.substA(a.R, sub, site)}
	case *syntax.Elem:
		return &syntax.Elem{P: a.P, Arr: in.arrayArg(a.Arr, sub, site), I: in.substA(a.I, sub, site)}
	case *syntax.BoundRef:
		return &syntax.BoundRef{P: a.P, Name: a.Name, Level: a.Level}
	case *syntax.Num:
		return a
	default:
		panic(fmt.Sprintf("inliner: unknown expression %T", a))
	}
}

// substB is substA for a condition. Bound variables are never named like macro parameters (the
// parser checks), so substitution does not capture.
func (in *inliner) substB(b syntax.BExpr, sub map[string]syntax.AExpr, site syntax.Pos) syntax.BExpr {
	if sub == nil {
		return b
	}
	switch b := b.(type) {
	case *syntax.Cmp:
		return &syntax.Cmp{P: b.P, Op: b.Op, L: in.substA(b.L, sub, site), R: in.substA(b.R, sub, site)}
	case *syntax.Not:
		return &syntax.Not{P: b.P, X: in.substB(b.X, sub, site)}
	case *syntax.BinB:
		return &syntax.BinB{P: b.P, Op: b.Op, L: in.substB(b.L, sub, site), R: in.substB(b.R, sub, site)}
	case *syntax.Quant:
		return &syntax.Quant{P: b.P, Exists: b.Exists, Name: b.Name, Level: b.Level,
			Lo: in.substA(b.Lo, sub, site), Hi: in.substA(b.Hi, sub, site), Body: in.substB(b.Body, sub, site)}
	case *syntax.BoolLit:
		return b
	default:
		panic(fmt.Sprintf("inliner: unknown condition %T", b))
	}
}
