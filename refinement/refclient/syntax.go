package refclient

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"certsym/spec/integer"
	"certsym/spec/syntax"
)

// This file holds the syntax the layer exchanges with certsym-ref: IMP trees as the JSON of
// proofs/ref/README.md (assert desugared to if b then skip else fail fi), encoded and decoded by
// encoding/json through the node struct, the conversion back to spec trees,
// a canonical printing of programs (sequences flattened, asserts desugared) used to compare the
// remaining programs of two states, and the total evaluation of expressions.

// --- the protocol's syntax trees -------------------------------------------------------------

// node is one node of a syntax tree of the protocol (proofs/ref/README.md, "Syntax trees"): K
// names the constructor and the other fields are its children, each present only for the
// constructors that have it. The fields are declared in the order of the wire format, so the
// encoding is byte for byte the one certsym-ref prints.
type node struct {
	K    string      `json:"k"`
	N    json.Number `json:"n,omitempty"`    // num: the integer, in full
	X    string      `json:"x,omitempty"`    // var, assign: a variable name; sel, aassign, array: an array name; bvar, forall, exists, first: the bound name
	T    *node       `json:"t,omitempty"`    // sel, store: the array term
	I    *node       `json:"i,omitempty"`    // store: the index
	V    *node       `json:"v,omitempty"`    // store: the value
	Lo   json.Number `json:"lo,omitempty"`   // sel, aassign (answers): the array's bounds
	Hi   json.Number `json:"hi,omitempty"`   //
	L    *node       `json:"l,omitempty"`    // arithmetic operators, comparisons, and, or; aassign: the index; quantifiers: the lower bound
	E    *node       `json:"e,omitempty"`    // neg: the operand; assign, aassign: the right-hand side; sel: the index
	R    *node       `json:"r,omitempty"`    // quantifiers: the upper bound
	B    *node       `json:"b,omitempty"`    // not, if, while, assume: the condition; forall, exists: the body
	D    *node       `json:"d,omitempty"`    // first: the condition the earlier instances satisfy
	F    *node       `json:"f,omitempty"`    // first: the condition of the instance
	P    *node       `json:"p,omitempty"`    // seq: the first statement; if: then; while: the body
	Q    *node       `json:"q,omitempty"`    // seq: the second statement; if: else
	Kind string      `json:"kind,omitempty"` // fail: the kind of error (absent for an explicit fail or an assert)
}

// The protocol's names of the operators, indexed by spec's operator constants, and back.
var (
	aopName = [...]string{syntax.Add: "add", syntax.Sub: "sub", syntax.Mul: "mul", syntax.Div: "div", syntax.Mod: "mod"}
	cmpName = [...]string{syntax.Eq: "eq", syntax.Ne: "ne", syntax.Lt: "lt", syntax.Le: "le", syntax.Gt: "gt", syntax.Ge: "ge"}
	aopOf   = map[string]syntax.AOp{"add": syntax.Add, "sub": syntax.Sub, "mul": syntax.Mul, "div": syntax.Div, "mod": syntax.Mod}
	cmpOf   = map[string]syntax.CmpOp{"eq": syntax.Eq, "ne": syntax.Ne, "lt": syntax.Lt, "le": syntax.Le, "gt": syntax.Gt, "ge": syntax.Ge}
)

// --- encoding -------------------------------------------------------------------------------

func encA(a syntax.AExpr) (*node, error) {
	switch a := a.(type) {
	case *syntax.Num:
		return &node{K: "num", N: json.Number(a.Val.String())}, nil
	case *syntax.Var:
		return &node{K: "var", X: a.Name}, nil
	case *syntax.Neg:
		e, err := encA(a.X)
		return &node{K: "neg", E: e}, err
	case *syntax.BinA:
		if int(a.Op) >= len(aopName) {
			return nil, fmt.Errorf("unknown arithmetic operator %d", a.Op)
		}
		l, err := encA(a.L)
		if err != nil {
			return nil, err
		}
		r, err := encA(a.R)
		return &node{K: aopName[a.Op], L: l, R: r}, err
	case *syntax.Elem:
		if a.Arr == nil {
			return nil, fmt.Errorf("element read without its array")
		}
		e, err := encA(a.I)
		return &node{K: "sel", X: a.Arr.Name, E: e}, err
	case *syntax.BoundRef:
		return &node{K: "bvar", X: a.Name}, nil
	case *Select:
		t, err := encT(a.T)
		if err != nil {
			return nil, err
		}
		e, err := encA(a.I)
		return &node{K: "sel", T: t, Lo: json.Number(fmt.Sprint(a.Arr.Lo)), Hi: json.Number(fmt.Sprint(a.Arr.Hi)), E: e}, err
	default:
		panic(fmt.Sprintf("refclient: cannot encode arithmetic expression %T", a))
	}
}

func encB(c syntax.BExpr) (*node, error) {
	switch c := c.(type) {
	case *syntax.BoolLit:
		if c.Val {
			return &node{K: "true"}, nil
		}
		return &node{K: "false"}, nil
	case *syntax.Cmp:
		if int(c.Op) >= len(cmpName) {
			return nil, fmt.Errorf("unknown comparison %d", c.Op)
		}
		l, err := encA(c.L)
		if err != nil {
			return nil, err
		}
		r, err := encA(c.R)
		return &node{K: cmpName[c.Op], L: l, R: r}, err
	case *syntax.Not:
		x, err := encB(c.X)
		return &node{K: "not", B: x}, err
	case *syntax.BinB:
		k := "and"
		if c.Op == syntax.Or {
			k = "or"
		}
		l, err := encB(c.L)
		if err != nil {
			return nil, err
		}
		r, err := encB(c.R)
		return &node{K: k, L: l, R: r}, err
	case *syntax.Quant:
		k := "forall"
		if c.Exists {
			k = "exists"
		}
		l, err := encA(c.Lo)
		if err != nil {
			return nil, err
		}
		r, err := encA(c.Hi)
		if err != nil {
			return nil, err
		}
		b, err := encB(c.Body)
		return &node{K: k, X: c.Name, L: l, R: r, B: b}, err
	case *First:
		l, err := encA(c.Lo)
		if err != nil {
			return nil, err
		}
		r, err := encA(c.Hi)
		if err != nil {
			return nil, err
		}
		d, err := encB(c.D)
		if err != nil {
			return nil, err
		}
		f, err := encB(c.F)
		return &node{K: "first", X: c.Name, L: l, R: r, D: d, F: f}, err
	default:
		panic(fmt.Sprintf("refclient: cannot encode condition %T", c))
	}
}

// encP encodes a statement, desugaring assert b to if b then skip else fail fi.
func encP(s syntax.Stmt) (*node, error) {
	switch s := s.(type) {
	case *syntax.Skip:
		return &node{K: "skip"}, nil
	case *syntax.Fail:
		return &node{K: "fail", Kind: failKindName(s.Kind)}, nil
	case *syntax.Assign:
		e, err := encA(s.A)
		return &node{K: "assign", X: s.X.Name, E: e}, err
	case *syntax.ArrAssign:
		if s.Arr == nil {
			return nil, fmt.Errorf("element write without its array")
		}
		l, err := encA(s.I)
		if err != nil {
			return nil, err
		}
		e, err := encA(s.A)
		return &node{K: "aassign", X: s.Arr.Name, L: l, E: e}, err
	case *syntax.Seq:
		p, err := encP(s.First)
		if err != nil {
			return nil, err
		}
		q, err := encP(s.Second)
		return &node{K: "seq", P: p, Q: q}, err
	case *syntax.If:
		return encIf(s.Cond, s.Then, s.Else)
	case *syntax.Assert:
		return encIf(s.Cond, &syntax.Skip{}, &syntax.Fail{})
	case *syntax.While:
		if len(s.Invariants) > 0 {
			return encP(DesugarInvariants(s))
		}
		c, err := encB(s.Cond)
		if err != nil {
			return nil, err
		}
		p, err := encP(s.Body)
		return &node{K: "while", B: c, P: p}, err
	case *syntax.Assume:
		c, err := encB(s.Cond)
		return &node{K: "assume", B: c}, err
	default:
		panic(fmt.Sprintf("refclient: cannot encode statement %T", s))
	}
}

// DesugarInvariants is the core statement the layer sends the reference for a loop w with
// invariant clauses (SEMANTICS.md, Loop invariants):
// skip ; assert I1 ; ... ; assert In ; while b do (p ; assert I1 ; ... ; assert In) od. Its skip
// takes the one step [S-While-Inv] takes (the engine's loop steps to the rest, While.Entry), so
// the reference's run and the engine's stay in step; the asserts are desugared by the encoding
// like any other. It reads w's condition, clauses and body only, so it applies to the trees the
// generator builds as well as to parsed ones.
func DesugarInvariants(w *syntax.While) syntax.Stmt {
	checks := func(last syntax.Stmt) syntax.Stmt {
		for k := len(w.Invariants) - 1; k >= 0; k-- {
			if last == nil {
				last = w.Invariants[k]
			} else {
				last = &syntax.Seq{First: w.Invariants[k], Second: last}
			}
		}
		return last
	}
	loop := &syntax.While{Loc: w.Loc, Cond: w.Cond, Body: &syntax.Seq{First: w.Body, Second: checks(nil)}}
	return &syntax.Seq{First: &syntax.Skip{Loc: w.Loc}, Second: checks(loop)}
}

func encIf(c syntax.BExpr, th, el syntax.Stmt) (*node, error) {
	b, err := encB(c)
	if err != nil {
		return nil, err
	}
	p, err := encP(th)
	if err != nil {
		return nil, err
	}
	q, err := encP(el)
	return &node{K: "if", B: b, P: p, Q: q}, err
}

// marshal is json.Marshal without the escaping of <, > and & meant for HTML (the protocol is
// not HTML; the escapes would be valid JSON, only noisier).
func marshal(v any) (json.RawMessage, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

func encodeNode(n *node, err error) (json.RawMessage, error) {
	if err != nil {
		return nil, err
	}
	return marshal(n)
}

// EncodeStmt returns the JSON tree of a statement (asserts desugared).
func EncodeStmt(s syntax.Stmt) (json.RawMessage, error) { return encodeNode(encP(s)) }

// EncodeA returns the JSON tree of an arithmetic expression.
func EncodeA(a syntax.AExpr) (json.RawMessage, error) { return encodeNode(encA(a)) }

// EncodeB returns the JSON tree of a condition.
func EncodeB(c syntax.BExpr) (json.RawMessage, error) { return encodeNode(encB(c)) }

// --- decoding -------------------------------------------------------------------------------

// decoder turns the reference's JSON trees back into spec trees; variables are numbered by the
// program's variable list (a name outside it is an error: the reference never invents one).
type decoder struct {
	index  map[string]int
	arrays map[string]*syntax.Array
	bound  []string // the names bound by the enclosing quantifiers, outermost first
}

func newDecoder(vars []string, arrays ...*syntax.Array) *decoder {
	d := &decoder{index: map[string]int{}, arrays: map[string]*syntax.Array{}}
	for i, v := range vars {
		d.index[v] = i
	}
	for _, a := range arrays {
		d.arrays[a.Name] = a
	}
	return d
}

// child returns the child c of n named field, or an error saying which field n lacks.
func child(n *node, field string, c *node) (*node, error) {
	if c == nil {
		return nil, fmt.Errorf("%q node without its field %q", n.K, field)
	}
	return c, nil
}

func (d *decoder) variable(n *node) (*syntax.Var, error) {
	if n.X == "" {
		return nil, fmt.Errorf("%q node without its variable name \"x\"", n.K)
	}
	i, ok := d.index[n.X]
	if !ok {
		return nil, fmt.Errorf("unknown variable %q in the reference's answer", n.X)
	}
	return &syntax.Var{Name: n.X, Index: i}, nil
}

func (d *decoder) a(n *node) (syntax.AExpr, error) {
	if n == nil {
		return nil, fmt.Errorf("missing arithmetic expression")
	}
	switch n.K {
	case "num":
		if n.N == "" {
			return nil, fmt.Errorf("\"num\" node without its integer \"n\"")
		}
		v, ok := integer.Parse(string(n.N))
		if !ok {
			return nil, fmt.Errorf("bad integer %q", n.N)
		}
		return &syntax.Num{Val: v}, nil
	case "var":
		return d.variable(n)
	case "sel", "bvar":
		return d.arrayA(n)
	case "neg":
		e, err := child(n, "e", n.E)
		if err != nil {
			return nil, err
		}
		x, err := d.a(e)
		if err != nil {
			return nil, err
		}
		return &syntax.Neg{X: x}, nil
	}
	op, ok := aopOf[n.K]
	if !ok {
		return nil, fmt.Errorf("unknown arithmetic node %q", n.K)
	}
	l, r, err := d.a2(n)
	if err != nil {
		return nil, err
	}
	return &syntax.BinA{Op: op, L: l, R: r}, nil
}

// a2 decodes the two arithmetic operands l and r of n.
func (d *decoder) a2(n *node) (syntax.AExpr, syntax.AExpr, error) {
	if _, err := child(n, "l", n.L); err != nil {
		return nil, nil, err
	}
	if _, err := child(n, "r", n.R); err != nil {
		return nil, nil, err
	}
	l, err := d.a(n.L)
	if err != nil {
		return nil, nil, err
	}
	r, err := d.a(n.R)
	return l, r, err
}

func (d *decoder) b(n *node) (syntax.BExpr, error) {
	if n == nil {
		return nil, fmt.Errorf("missing condition")
	}
	switch n.K {
	case "true", "false":
		return &syntax.BoolLit{Val: n.K == "true"}, nil
	case "not":
		c, err := child(n, "b", n.B)
		if err != nil {
			return nil, err
		}
		x, err := d.b(c)
		if err != nil {
			return nil, err
		}
		return &syntax.Not{X: x}, nil
	case "forall", "exists", "first":
		return d.quant(n)
	case "and", "or":
		if _, err := child(n, "l", n.L); err != nil {
			return nil, err
		}
		if _, err := child(n, "r", n.R); err != nil {
			return nil, err
		}
		l, err := d.b(n.L)
		if err != nil {
			return nil, err
		}
		r, err := d.b(n.R)
		if err != nil {
			return nil, err
		}
		op := syntax.And
		if n.K == "or" {
			op = syntax.Or
		}
		return &syntax.BinB{Op: op, L: l, R: r}, nil
	}
	op, ok := cmpOf[n.K]
	if !ok {
		return nil, fmt.Errorf("unknown condition node %q", n.K)
	}
	l, r, err := d.a2(n)
	if err != nil {
		return nil, err
	}
	return &syntax.Cmp{Op: op, L: l, R: r}, nil
}

func (d *decoder) p(n *node) (syntax.Stmt, error) {
	if n == nil {
		return nil, fmt.Errorf("missing statement")
	}
	sub := func(field string, c *node) (syntax.Stmt, error) {
		if _, err := child(n, field, c); err != nil {
			return nil, err
		}
		return d.p(c)
	}
	cond := func() (syntax.BExpr, error) {
		if _, err := child(n, "b", n.B); err != nil {
			return nil, err
		}
		return d.b(n.B)
	}
	switch n.K {
	case "skip":
		return &syntax.Skip{}, nil
	case "fail":
		k, err := failKindOf(n.Kind)
		return &syntax.Fail{Kind: k}, err
	case "aassign":
		return d.arrAssign(n)
	case "assign":
		x, err := d.variable(n)
		if err != nil {
			return nil, err
		}
		if _, err := child(n, "e", n.E); err != nil {
			return nil, err
		}
		e, err := d.a(n.E)
		if err != nil {
			return nil, err
		}
		return &syntax.Assign{X: x, A: e}, nil
	case "seq":
		p, err := sub("p", n.P)
		if err != nil {
			return nil, err
		}
		q, err := sub("q", n.Q)
		if err != nil {
			return nil, err
		}
		return &syntax.Seq{First: p, Second: q}, nil
	case "if":
		c, err := cond()
		if err != nil {
			return nil, err
		}
		p, err := sub("p", n.P)
		if err != nil {
			return nil, err
		}
		q, err := sub("q", n.Q)
		if err != nil {
			return nil, err
		}
		return &syntax.If{Cond: c, Then: p, Else: q}, nil
	case "while":
		c, err := cond()
		if err != nil {
			return nil, err
		}
		p, err := sub("p", n.P)
		if err != nil {
			return nil, err
		}
		return &syntax.While{Cond: c, Body: p}, nil
	case "assume":
		c, err := cond()
		if err != nil {
			return nil, err
		}
		return &syntax.Assume{Cond: c}, nil
	}
	return nil, fmt.Errorf("unknown statement node %q", n.K)
}

// decodeProg decodes the JSON tree of a program.
func decodeProg(raw json.RawMessage, d *decoder) (syntax.Stmt, error) {
	if len(raw) == 0 {
		return nil, fmt.Errorf("missing program")
	}
	var n *node
	if err := json.Unmarshal(raw, &n); err != nil {
		return nil, err
	}
	return d.p(n)
}

// symState is a symbolic state as the reference writes it (an expand successor or a state of
// the run stream): the path condition, the store (a variable it omits maps to its own symbol)
// and the program; Status only in the run stream.
type symState struct {
	PC     *node            `json:"pc"`
	Store  map[string]*node `json:"store"`
	Prog   json.RawMessage  `json:"prog"`
	Status string           `json:"status,omitempty"`
}

// decode returns the state's path condition, its store as the term of each variable of the
// decoder's list (in that order), and its program.
func (d *decoder) decode(s symState, vars []string) (pc syntax.BExpr, store []syntax.AExpr, prog syntax.Stmt, err error) {
	if pc, err = d.b(s.PC); err != nil {
		return nil, nil, nil, fmt.Errorf("path condition: %w", err)
	}
	for x := range s.Store {
		_, ok := d.index[x]
		if _, isArr := d.arrays[x]; !ok && !isArr {
			return nil, nil, nil, fmt.Errorf("store has unknown variable %q", x)
		}
	}
	store = make([]syntax.AExpr, len(vars))
	for j, x := range vars {
		t, ok := s.Store[x]
		if !ok {
			store[j] = &syntax.Var{Name: x, Index: j}
			continue
		}
		if store[j], err = d.a(t); err != nil {
			return nil, nil, nil, fmt.Errorf("store %s: %w", x, err)
		}
	}
	if prog, err = decodeProg(s.Prog, d); err != nil {
		return nil, nil, nil, fmt.Errorf("program: %w", err)
	}
	return pc, store, prog, nil
}

// --- canonical printing ---------------------------------------------------------------------

// Canon returns a one-line canonical text of a program: sequences flattened (so the association
// of ; does not matter), assert b printed as if b then skip else fail fi, a loop with invariant
// clauses printed as its desugaring (DesugarInvariants), expressions printed by
// syntax.PrintA/PrintB. Two programs take the same steps iff their canonical texts are equal.
func Canon(s syntax.Stmt) string {
	var b strings.Builder
	canon(&b, s)
	return b.String()
}

func canon(b *strings.Builder, s syntax.Stmt) {
	var flat []syntax.Stmt
	var walk func(syntax.Stmt)
	walk = func(s syntax.Stmt) {
		if q, ok := s.(*syntax.Seq); ok {
			walk(q.First)
			walk(q.Second)
			return
		}
		flat = append(flat, s)
	}
	walk(s)
	for i, s := range flat {
		if i > 0 {
			b.WriteString("; ")
		}
		switch s := s.(type) {
		case *syntax.Skip:
			b.WriteString("skip")
		case *syntax.Fail:
			b.WriteString("fail")
			if s.Kind == syntax.FailDivZero || s.Kind == syntax.FailIndex {
				b.WriteString("[" + s.Kind.String() + "]")
			}
		case *syntax.ArrAssign:
			b.WriteString(s.Arr.Name + "[" + syntax.PrintA(s.I) + "] = " + syntax.PrintA(s.A))
		case *syntax.Assign:
			b.WriteString(s.X.Name + " = " + syntax.PrintA(s.A))
		case *syntax.Assume:
			b.WriteString("assume " + syntax.PrintB(s.Cond))
		case *syntax.Assert:
			b.WriteString("if " + syntax.PrintB(s.Cond) + " then { skip } else { fail } fi")
		case *syntax.If:
			b.WriteString("if " + syntax.PrintB(s.Cond) + " then { ")
			canon(b, s.Then)
			b.WriteString(" } else { ")
			canon(b, s.Else)
			b.WriteString(" } fi")
		case *syntax.While:
			if len(s.Invariants) > 0 { // the reference's form of the loop
				canon(b, DesugarInvariants(s))
				continue
			}
			b.WriteString("while " + syntax.PrintB(s.Cond) + " do { ")
			canon(b, s.Body)
			b.WriteString(" } od")
		default:
			panic(fmt.Sprintf("refclient: unknown statement %T", s))
		}
	}
}

// --- total evaluation -----------------------------------------------------------------------

// DecodeProg decodes a program of the protocol over the variables vars.
func DecodeProg(raw json.RawMessage, vars []string, arrays ...*syntax.Array) (syntax.Stmt, error) {
	return decodeProg(raw, newDecoder(vars, arrays...))
}
