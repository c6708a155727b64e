package spec

import (
	"fmt"
	"os"
	"strings"

	"certsym/internal/fault"
)

// ParseFile reads and parses the IMP program in file.
func ParseFile(file string) (*Program, error) {
	src, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	return Parse(file, src)
}

// Parse parses an IMP program (the grammar of README.md) from src; file names the source in
// errors. Macros are inlined, so the result is in the core language. Errors are *SyntaxError values
// carrying the position and what was expected.
func Parse(file string, src []byte) (*Program, error) {
	toks, err := lex(file, src)
	if err != nil {
		return nil, err
	}
	p := &parser{file: file, toks: toks, macros: map[string]*macroDef{}}
	prog, err := p.program()
	if err != nil {
		return nil, err
	}
	return prog, nil
}

type macroDef struct {
	name   string
	pos    Pos
	params []string
	body   Stmt
}

// callStmt is a macro call before inlining; it never appears in a parsed Program.
type callStmt struct {
	Loc
	Name string
	Args []AExpr
}

func (*callStmt) stmt() {}

type parser struct {
	file   string
	toks   []token
	i      int
	macros map[string]*macroDef
}

// bail aborts parsing with a syntax error; program() recovers it.
type bail struct{ err *SyntaxError }

func (p *parser) fail(pos Pos, format string, args ...any) {
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

func (p *parser) program() (prog *Program, err error) {
	defer func() {
		if r := recover(); r != nil {
			b, ok := r.(bail)
			if !ok {
				panic(r)
			}
			prog, err = nil, b.err
		}
	}()
	for p.is("macro") {
		p.macroDef()
	}
	body := p.seq("")
	if t := p.peek(); t.kind != tEOF {
		p.fail(t.pos, "expected ';' or end of file after statement, found %s", t.describe())
	}
	in := &inliner{p: p}
	body = rightNest(in.stmt(body, nil, Pos{}))
	prog = &Program{File: p.file, Body: body}
	resolve(prog)
	return prog, nil
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
	m.body = p.seq("end")
	p.expect("end", " to close macro "+m.name)
	p.macros[m.name] = m
}

// seq parses stmt (';' stmt)* with an optional trailing ';' before closer (or end of file).
func (p *parser) seq(closer string) Stmt {
	s := p.stmt()
	var rest []Stmt
	for p.is(";") {
		p.next()
		if t := p.peek(); t.kind == tEOF || p.is("od") || p.is("fi") || p.is("else") || p.is("end") {
			break
		}
		rest = append(rest, p.stmt())
	}
	// Right-nested: s1 ; (s2 ; (... ; sn)).
	for k := len(rest) - 1; k >= 0; k-- {
		s2 := rest[k]
		if k < len(rest)-1 {
			s2 = &Seq{rest[k], rest[k+1]}
		}
		rest[k] = s2
	}
	if len(rest) > 0 {
		return &Seq{s, rest[0]}
	}
	return s
}

func (p *parser) stmt() Stmt {
	t := p.peek()
	loc := Loc{P: t.pos}
	switch {
	case p.is("skip"):
		p.next()
		return &Skip{loc}
	case p.is("fail"):
		p.next()
		return &Fail{Loc: loc, Kind: FailExplicit}
	case p.is("assert"):
		p.next()
		return &Assert{Loc: loc, Cond: p.cond("after 'assert'")}
	case p.is("assume"):
		p.next()
		return &Assume{Loc: loc, Cond: p.cond("after 'assume'")}
	case p.is("if"):
		p.next()
		c := p.cond("after 'if'")
		p.expect("then", " after the condition of 'if'")
		th := p.seq("fi")
		var el Stmt = &Skip{Loc{P: p.peek().pos}}
		if p.is("else") {
			p.next()
			el = p.seq("fi")
		}
		p.expect("fi", " to close 'if' (or 'else')")
		return &If{Loc: loc, Cond: c, Then: th, Else: el}
	case p.is("while"):
		p.next()
		c := p.cond("after 'while'")
		p.expect("do", " after the condition of 'while'")
		body := p.seq("od")
		p.expect("od", " to close 'while'")
		return &While{Loc: loc, Cond: c, Body: body}
	case t.kind == tIdent:
		p.next()
		if p.is("=") {
			p.next()
			return &Assign{Loc: loc, X: &Var{P: t.pos, Name: t.text}, A: p.arith("after '='")}
		}
		call := &callStmt{Loc: loc, Name: t.text}
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
	p.fail(t.pos, "expected a statement (skip, fail, assignment, assert, assume, if, while or macro call), found %s", t.describe())
	return nil
}

// expr is an expression of either category while precedence climbing has not yet fixed it.
type expr struct {
	a   AExpr
	b   BExpr
	pos Pos
}

func (p *parser) arith(context string) AExpr { return p.wantA(p.or(), context) }
func (p *parser) cond(context string) BExpr  { return p.wantB(p.or(), context) }

func (p *parser) wantA(e expr, context string) AExpr {
	if e.a == nil {
		p.fail(e.pos, "expected an arithmetic expression %s, found a condition", context)
	}
	return e.a
}

func (p *parser) wantB(e expr, context string) BExpr {
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
		r := p.wantB(p.and(), "after 'or'")
		l = expr{b: &BinB{P: t.pos, Op: Or, L: lb, R: r}, pos: l.pos}
	}
	return l
}

func (p *parser) and() expr {
	l := p.not()
	for p.is("and") {
		t := p.next()
		lb := p.wantB(l, "before 'and'")
		r := p.wantB(p.not(), "after 'and'")
		l = expr{b: &BinB{P: t.pos, Op: And, L: lb, R: r}, pos: l.pos}
	}
	return l
}

func (p *parser) not() expr {
	if p.is("not") {
		t := p.next()
		return expr{b: &Not{P: t.pos, X: p.wantB(p.not(), "after 'not'")}, pos: t.pos}
	}
	return p.cmp()
}

var cmpOps = map[string]CmpOp{"==": Eq, "!=": Ne, "<": Lt, "<=": Le, ">": Gt, ">=": Ge}

func (p *parser) cmp() expr {
	l := p.sum()
	t := p.peek()
	op, ok := cmpOps[t.text]
	if t.kind != tSym || !ok {
		return l
	}
	p.next()
	la := p.wantA(l, "before '"+t.text+"'")
	r := p.wantA(p.sum(), "after '"+t.text+"'")
	if t2 := p.peek(); t2.kind == tSym {
		if _, chained := cmpOps[t2.text]; chained {
			p.fail(t2.pos, "comparisons do not chain: expected 'and', 'or' or the end of the condition, found '%s'", t2.text)
		}
	}
	return expr{b: &Cmp{P: t.pos, Op: op, L: la, R: r}, pos: l.pos}
}

func (p *parser) sum() expr {
	l := p.product()
	for p.is("+") || p.is("-") {
		t := p.next()
		op := Add
		if t.text == "-" {
			op = Sub
		}
		la := p.wantA(l, "before '"+t.text+"'")
		var r AExpr
		if op == Sub && fault.Active == fault.Precedence {
			r = p.wantA(p.sum(), "after '-'") // the fault: a - b + c reads a - (b + c)
		} else {
			r = p.wantA(p.product(), "after '"+t.text+"'")
		}
		l = expr{a: &BinA{P: t.pos, Op: op, L: la, R: r}, pos: l.pos}
	}
	return l
}

func (p *parser) product() expr {
	l := p.unary()
	for p.is("*") || p.is("/") || p.is("%") {
		t := p.next()
		op := map[string]AOp{"*": Mul, "/": Div, "%": Mod}[t.text]
		la := p.wantA(l, "before '"+t.text+"'")
		r := p.wantA(p.unary(), "after '"+t.text+"'")
		l = expr{a: &BinA{P: t.pos, Op: op, L: la, R: r}, pos: l.pos}
	}
	return l
}

func (p *parser) unary() expr {
	if p.is("-") {
		t := p.next()
		if n := p.peek(); n.kind == tInt {
			p.next()
			v, _ := ParseInt("-" + n.text)
			return expr{a: &Num{P: t.pos, Val: v}, pos: t.pos}
		}
		return expr{a: &Neg{P: t.pos, X: p.wantA(p.unary(), "after unary '-'")}, pos: t.pos}
	}
	return p.primary()
}

func (p *parser) primary() expr {
	t := p.next()
	switch {
	case t.kind == tInt:
		v, _ := ParseInt(t.text)
		return expr{a: &Num{P: t.pos, Val: v}, pos: t.pos}
	case t.kind == tIdent:
		return expr{a: &Var{P: t.pos, Name: t.text}, pos: t.pos}
	case t.kind == tKeyword && (t.text == "true" || t.text == "false"):
		return expr{b: &BoolLit{P: t.pos, Val: t.text == "true"}, pos: t.pos}
	case t.kind == tSym && t.text == "(":
		e := p.or()
		p.expect(")", " to close '(' at "+fmt.Sprintf("%d:%d", t.pos.Line, t.pos.Col))
		e.pos = t.pos
		return e
	}
	p.fail(t.pos, "expected an expression (integer, variable, '-', '(', true, false or not), found %s", t.describe())
	return expr{}
}

// inliner replaces macro calls by the macro bodies, arguments substituted for parameters
// (call by name). Inlined statements remember the outermost call site (Loc.Site).
type inliner struct {
	p     *parser
	stack []string
}

func (in *inliner) stmt(s Stmt, sub map[string]AExpr, site Pos) Stmt {
	loc := func(l Loc) Loc {
		if site.Line != 0 {
			l.Site = site
		}
		return l
	}
	switch s := s.(type) {
	case *Skip:
		return &Skip{loc(s.Loc)}
	case *Fail:
		return &Fail{Loc: loc(s.Loc), Kind: s.Kind}
	case *Assign:
		x := s.X
		if r, ok := sub[x.Name]; ok {
			v, isVar := r.(*Var)
			if !isVar {
				in.p.fail(site, "macro %s assigns its parameter %s, so its argument must be a variable, found %s",
					in.stack[len(in.stack)-1], x.Name, PrintA(r))
			}
			x = v
		}
		return &Assign{Loc: loc(s.Loc), X: &Var{P: x.P, Name: x.Name}, A: substA(s.A, sub)}
	case *Seq:
		return &Seq{in.stmt(s.First, sub, site), in.stmt(s.Second, sub, site)}
	case *If:
		return &If{Loc: loc(s.Loc), Cond: substB(s.Cond, sub), Then: in.stmt(s.Then, sub, site), Else: in.stmt(s.Else, sub, site)}
	case *While:
		return &While{Loc: loc(s.Loc), Cond: substB(s.Cond, sub), Body: in.stmt(s.Body, sub, site)}
	case *Assume:
		return &Assume{Loc: loc(s.Loc), Cond: substB(s.Cond, sub)}
	case *Assert:
		return &Assert{Loc: loc(s.Loc), Cond: substB(s.Cond, sub)}
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
		inner := make(map[string]AExpr, len(m.params))
		for k, param := range m.params {
			inner[param] = substA(s.Args[k], sub)
		}
		newSite := site
		if newSite.Line == 0 {
			newSite = s.P
		}
		in.stack = append(in.stack, m.name)
		body := in.stmt(m.body, inner, newSite)
		in.stack = in.stack[:len(in.stack)-1]
		return body
	}
	panic(fmt.Sprintf("inliner: unexpected statement %T", s))
}

func substA(a AExpr, sub map[string]AExpr) AExpr {
	if sub == nil {
		return a
	}
	switch a := a.(type) {
	case *Var:
		if r, ok := sub[a.Name]; ok {
			return r
		}
		return &Var{P: a.P, Name: a.Name}
	case *Neg:
		return &Neg{P: a.P, X: substA(a.X, sub)}
	case *BinA:
		return &BinA{P: a.P, Op: a.Op, L: substA(a.L, sub), R: substA(a.R, sub)}
	}
	return a
}

func substB(b BExpr, sub map[string]AExpr) BExpr {
	if sub == nil {
		return b
	}
	switch b := b.(type) {
	case *Cmp:
		return &Cmp{P: b.P, Op: b.Op, L: substA(b.L, sub), R: substA(b.R, sub)}
	case *Not:
		return &Not{P: b.P, X: substB(b.X, sub)}
	case *BinB:
		return &BinB{P: b.P, Op: b.Op, L: substB(b.L, sub), R: substB(b.R, sub)}
	}
	return b
}
