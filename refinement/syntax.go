package refinement

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"certsym/spec"
)

// This file holds the syntax the layer exchanges with certsym-ref: IMP trees as the JSON of
// proofs/ref/README.md (assert desugared to if b then skip else fail fi), the reverse decoding,
// a canonical printing of programs (sequences flattened, asserts desugared) used to compare the
// remaining programs of two states, and the total evaluation of expressions.

// Desugar returns s with every assert b replaced by if b then skip else fail fi (SEMANTICS.md:
// the meaning of assert; the formal development has no assert).
func Desugar(s spec.Stmt) spec.Stmt {
	switch s := s.(type) {
	case *spec.Assert:
		return &spec.If{Loc: s.Loc, Cond: s.Cond, Then: &spec.Skip{Loc: s.Loc}, Else: &spec.Fail{Loc: s.Loc, Kind: spec.FailAssert}}
	case *spec.Seq:
		return &spec.Seq{First: Desugar(s.First), Second: Desugar(s.Second)}
	case *spec.If:
		return &spec.If{Loc: s.Loc, Cond: s.Cond, Then: Desugar(s.Then), Else: Desugar(s.Else), Err: s.Err}
	case *spec.While:
		return &spec.While{Loc: s.Loc, Cond: s.Cond, Body: Desugar(s.Body), Unfold: s.Unfold}
	}
	return s
}

// --- encoding -------------------------------------------------------------------------------

func writeA(b *bytes.Buffer, a spec.AExpr) error {
	switch a := a.(type) {
	case *spec.Num:
		b.WriteString(`{"k":"num","n":`)
		b.WriteString(a.Val.String())
		b.WriteByte('}')
	case *spec.Var:
		b.WriteString(`{"k":"var","x":`)
		b.WriteString(strconv.Quote(a.Name))
		b.WriteByte('}')
	case *spec.Neg:
		b.WriteString(`{"k":"neg","e":`)
		if err := writeA(b, a.X); err != nil {
			return err
		}
		b.WriteByte('}')
	case *spec.BinA:
		k := [...]string{spec.Add: "add", spec.Sub: "sub", spec.Mul: "mul", spec.Div: "div", spec.Mod: "mod"}
		if int(a.Op) >= len(k) {
			return fmt.Errorf("unknown arithmetic operator %d", a.Op)
		}
		b.WriteString(`{"k":"` + k[a.Op] + `","l":`)
		if err := writeA(b, a.L); err != nil {
			return err
		}
		b.WriteString(`,"r":`)
		if err := writeA(b, a.R); err != nil {
			return err
		}
		b.WriteByte('}')
	default:
		return fmt.Errorf("cannot encode arithmetic expression %T", a)
	}
	return nil
}

func writeB(b *bytes.Buffer, c spec.BExpr) error {
	switch c := c.(type) {
	case *spec.BoolLit:
		if c.Val {
			b.WriteString(`{"k":"true"}`)
		} else {
			b.WriteString(`{"k":"false"}`)
		}
	case *spec.Cmp:
		k := [...]string{spec.Eq: "eq", spec.Ne: "ne", spec.Lt: "lt", spec.Le: "le", spec.Gt: "gt", spec.Ge: "ge"}
		if int(c.Op) >= len(k) {
			return fmt.Errorf("unknown comparison %d", c.Op)
		}
		b.WriteString(`{"k":"` + k[c.Op] + `","l":`)
		if err := writeA(b, c.L); err != nil {
			return err
		}
		b.WriteString(`,"r":`)
		if err := writeA(b, c.R); err != nil {
			return err
		}
		b.WriteByte('}')
	case *spec.Not:
		b.WriteString(`{"k":"not","b":`)
		if err := writeB(b, c.X); err != nil {
			return err
		}
		b.WriteByte('}')
	case *spec.BinB:
		k := "and"
		if c.Op == spec.Or {
			k = "or"
		}
		b.WriteString(`{"k":"` + k + `","l":`)
		if err := writeB(b, c.L); err != nil {
			return err
		}
		b.WriteString(`,"r":`)
		if err := writeB(b, c.R); err != nil {
			return err
		}
		b.WriteByte('}')
	default:
		return fmt.Errorf("cannot encode condition %T", c)
	}
	return nil
}

// writeP encodes a statement, desugaring assert.
func writeP(b *bytes.Buffer, s spec.Stmt) error {
	switch s := s.(type) {
	case *spec.Skip:
		b.WriteString(`{"k":"skip"}`)
	case *spec.Fail:
		b.WriteString(`{"k":"fail"}`)
	case *spec.Assign:
		b.WriteString(`{"k":"assign","x":` + strconv.Quote(s.X.Name) + `,"e":`)
		if err := writeA(b, s.A); err != nil {
			return err
		}
		b.WriteByte('}')
	case *spec.Seq:
		b.WriteString(`{"k":"seq","p":`)
		if err := writeP(b, s.First); err != nil {
			return err
		}
		b.WriteString(`,"q":`)
		if err := writeP(b, s.Second); err != nil {
			return err
		}
		b.WriteByte('}')
	case *spec.If:
		return writeIf(b, s.Cond, s.Then, s.Else)
	case *spec.Assert:
		return writeIf(b, s.Cond, &spec.Skip{}, &spec.Fail{})
	case *spec.While:
		b.WriteString(`{"k":"while","b":`)
		if err := writeB(b, s.Cond); err != nil {
			return err
		}
		b.WriteString(`,"p":`)
		if err := writeP(b, s.Body); err != nil {
			return err
		}
		b.WriteByte('}')
	case *spec.Assume:
		b.WriteString(`{"k":"assume","b":`)
		if err := writeB(b, s.Cond); err != nil {
			return err
		}
		b.WriteByte('}')
	default:
		return fmt.Errorf("cannot encode statement %T", s)
	}
	return nil
}

func writeIf(b *bytes.Buffer, c spec.BExpr, th, el spec.Stmt) error {
	b.WriteString(`{"k":"if","b":`)
	if err := writeB(b, c); err != nil {
		return err
	}
	b.WriteString(`,"p":`)
	if err := writeP(b, th); err != nil {
		return err
	}
	b.WriteString(`,"q":`)
	if err := writeP(b, el); err != nil {
		return err
	}
	b.WriteByte('}')
	return nil
}

// EncodeStmt returns the JSON tree of a statement (asserts desugared).
func EncodeStmt(s spec.Stmt) (json.RawMessage, error) {
	var b bytes.Buffer
	if err := writeP(&b, s); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// EncodeA returns the JSON tree of an arithmetic expression.
func EncodeA(a spec.AExpr) (json.RawMessage, error) {
	var b bytes.Buffer
	if err := writeA(&b, a); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// EncodeB returns the JSON tree of a condition.
func EncodeB(c spec.BExpr) (json.RawMessage, error) {
	var b bytes.Buffer
	if err := writeB(&b, c); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// --- decoding -------------------------------------------------------------------------------

// decoder turns the reference's JSON trees back into spec trees; variables are numbered by the
// program's variable list (a name outside it is an error: the reference never invents one).
type decoder struct {
	index map[string]int
}

func newDecoder(vars []string) *decoder {
	d := &decoder{index: map[string]int{}}
	for i, v := range vars {
		d.index[v] = i
	}
	return d
}

func parseJSON(raw json.RawMessage) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	return v, nil
}

func field(m map[string]any, k string) (map[string]any, error) {
	v, ok := m[k].(map[string]any)
	if !ok {
		return nil, fmt.Errorf("field %q missing or not an object in %v", k, m)
	}
	return v, nil
}

func (d *decoder) variable(name any) (*spec.Var, error) {
	s, ok := name.(string)
	if !ok {
		return nil, fmt.Errorf("variable name %v is not a string", name)
	}
	i, ok := d.index[s]
	if !ok {
		return nil, fmt.Errorf("unknown variable %q in the reference's answer", s)
	}
	return &spec.Var{Name: s, Index: i}, nil
}

func (d *decoder) a(m map[string]any) (spec.AExpr, error) {
	switch k, _ := m["k"].(string); k {
	case "num":
		n, ok := m["n"].(json.Number)
		if !ok {
			return nil, fmt.Errorf("num without integer: %v", m)
		}
		v, ok := spec.ParseInt(string(n))
		if !ok {
			return nil, fmt.Errorf("bad integer %q", n)
		}
		return &spec.Num{Val: v}, nil
	case "var":
		return d.variable(m["x"])
	case "neg":
		e, err := field(m, "e")
		if err != nil {
			return nil, err
		}
		x, err := d.a(e)
		if err != nil {
			return nil, err
		}
		return &spec.Neg{X: x}, nil
	case "add", "sub", "mul", "div", "mod":
		op := map[string]spec.AOp{"add": spec.Add, "sub": spec.Sub, "mul": spec.Mul, "div": spec.Div, "mod": spec.Mod}[k]
		l, r, err := d.a2(m)
		if err != nil {
			return nil, err
		}
		return &spec.BinA{Op: op, L: l, R: r}, nil
	default:
		return nil, fmt.Errorf("unknown arithmetic node %q", k)
	}
}

func (d *decoder) a2(m map[string]any) (spec.AExpr, spec.AExpr, error) {
	lm, err := field(m, "l")
	if err != nil {
		return nil, nil, err
	}
	rm, err := field(m, "r")
	if err != nil {
		return nil, nil, err
	}
	l, err := d.a(lm)
	if err != nil {
		return nil, nil, err
	}
	r, err := d.a(rm)
	return l, r, err
}

func (d *decoder) b(m map[string]any) (spec.BExpr, error) {
	switch k, _ := m["k"].(string); k {
	case "true", "false":
		return &spec.BoolLit{Val: k == "true"}, nil
	case "eq", "ne", "lt", "le", "gt", "ge":
		op := map[string]spec.CmpOp{"eq": spec.Eq, "ne": spec.Ne, "lt": spec.Lt, "le": spec.Le, "gt": spec.Gt, "ge": spec.Ge}[k]
		l, r, err := d.a2(m)
		if err != nil {
			return nil, err
		}
		return &spec.Cmp{Op: op, L: l, R: r}, nil
	case "not":
		bm, err := field(m, "b")
		if err != nil {
			return nil, err
		}
		x, err := d.b(bm)
		if err != nil {
			return nil, err
		}
		return &spec.Not{X: x}, nil
	case "and", "or":
		lm, err := field(m, "l")
		if err != nil {
			return nil, err
		}
		rm, err := field(m, "r")
		if err != nil {
			return nil, err
		}
		l, err := d.b(lm)
		if err != nil {
			return nil, err
		}
		r, err := d.b(rm)
		if err != nil {
			return nil, err
		}
		op := spec.And
		if k == "or" {
			op = spec.Or
		}
		return &spec.BinB{Op: op, L: l, R: r}, nil
	default:
		return nil, fmt.Errorf("unknown condition node %q", k)
	}
}

func (d *decoder) p(m map[string]any) (spec.Stmt, error) {
	sub := func(k string) (spec.Stmt, error) {
		f, err := field(m, k)
		if err != nil {
			return nil, err
		}
		return d.p(f)
	}
	cond := func() (spec.BExpr, error) {
		f, err := field(m, "b")
		if err != nil {
			return nil, err
		}
		return d.b(f)
	}
	switch k, _ := m["k"].(string); k {
	case "skip":
		return &spec.Skip{}, nil
	case "fail":
		return &spec.Fail{}, nil
	case "assign":
		x, err := d.variable(m["x"])
		if err != nil {
			return nil, err
		}
		em, err := field(m, "e")
		if err != nil {
			return nil, err
		}
		e, err := d.a(em)
		if err != nil {
			return nil, err
		}
		return &spec.Assign{X: x, A: e}, nil
	case "seq":
		p, err := sub("p")
		if err != nil {
			return nil, err
		}
		q, err := sub("q")
		if err != nil {
			return nil, err
		}
		return &spec.Seq{First: p, Second: q}, nil
	case "if":
		c, err := cond()
		if err != nil {
			return nil, err
		}
		p, err := sub("p")
		if err != nil {
			return nil, err
		}
		q, err := sub("q")
		if err != nil {
			return nil, err
		}
		return &spec.If{Cond: c, Then: p, Else: q}, nil
	case "while":
		c, err := cond()
		if err != nil {
			return nil, err
		}
		p, err := sub("p")
		if err != nil {
			return nil, err
		}
		return &spec.While{Cond: c, Body: p}, nil
	case "assume":
		c, err := cond()
		if err != nil {
			return nil, err
		}
		return &spec.Assume{Cond: c}, nil
	default:
		return nil, fmt.Errorf("unknown statement node %q", k)
	}
}

// --- canonical printing ---------------------------------------------------------------------

// Canon returns a one-line canonical text of a program: sequences flattened (so the association
// of ; does not matter), assert b printed as if b then skip else fail fi, expressions printed by
// spec.PrintA/PrintB. Two programs take the same steps iff their canonical texts are equal.
func Canon(s spec.Stmt) string {
	var b strings.Builder
	canon(&b, s)
	return b.String()
}

func canon(b *strings.Builder, s spec.Stmt) {
	var flat []spec.Stmt
	var walk func(spec.Stmt)
	walk = func(s spec.Stmt) {
		if q, ok := s.(*spec.Seq); ok {
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
		case *spec.Skip:
			b.WriteString("skip")
		case *spec.Fail:
			b.WriteString("fail")
		case *spec.Assign:
			b.WriteString(s.X.Name + " = " + spec.PrintA(s.A))
		case *spec.Assume:
			b.WriteString("assume " + spec.PrintB(s.Cond))
		case *spec.Assert:
			b.WriteString("if " + spec.PrintB(s.Cond) + " then { skip } else { fail } fi")
		case *spec.If:
			b.WriteString("if " + spec.PrintB(s.Cond) + " then { ")
			canon(b, s.Then)
			b.WriteString(" } else { ")
			canon(b, s.Else)
			b.WriteString(" } fi")
		case *spec.While:
			b.WriteString("while " + spec.PrintB(s.Cond) + " do { ")
			canon(b, s.Body)
			b.WriteString(" } od")
		default:
			fmt.Fprintf(b, "<%T>", s)
		}
	}
}

// --- total evaluation -----------------------------------------------------------------------

// EvalA is the value of a under the valuation v (indexed by Var.Index) with the total division
// of the formal development: x / 0 = 0, x % 0 = x (spec.Int's Quo and Rem).
func EvalA(a spec.AExpr, v []spec.Int) spec.Int {
	switch a := a.(type) {
	case *spec.Num:
		return a.Val
	case *spec.Var:
		if a.Index < 0 || a.Index >= len(v) {
			return spec.Int{}
		}
		return v[a.Index]
	case *spec.Neg:
		return EvalA(a.X, v).Neg()
	case *spec.BinA:
		l, r := EvalA(a.L, v), EvalA(a.R, v)
		switch a.Op {
		case spec.Add:
			return l.Add(r)
		case spec.Sub:
			return l.Sub(r)
		case spec.Mul:
			return l.Mul(r)
		case spec.Div:
			return l.Quo(r)
		}
		return l.Rem(r)
	}
	return spec.Int{}
}

// EvalB is the truth of c under v, with the total division (see EvalA).
func EvalB(c spec.BExpr, v []spec.Int) bool {
	switch c := c.(type) {
	case *spec.BoolLit:
		return c.Val
	case *spec.Cmp:
		return c.Op.Holds(EvalA(c.L, v).Cmp(EvalA(c.R, v)))
	case *spec.Not:
		return !EvalB(c.X, v)
	case *spec.BinB:
		l, r := EvalB(c.L, v), EvalB(c.R, v)
		if c.Op == spec.And {
			return l && r
		}
		return l || r
	}
	return false
}

// varsOfStmt lists the variable names of a statement in order of first occurrence.
func varsOfStmt(s spec.Stmt) []string {
	seen := map[string]bool{}
	var out []string
	add := func(n string) {
		if !seen[n] {
			seen[n] = true
			out = append(out, n)
		}
	}
	var a func(spec.AExpr)
	a = func(e spec.AExpr) {
		switch e := e.(type) {
		case *spec.Var:
			add(e.Name)
		case *spec.Neg:
			a(e.X)
		case *spec.BinA:
			a(e.L)
			a(e.R)
		}
	}
	var b func(spec.BExpr)
	b = func(e spec.BExpr) {
		switch e := e.(type) {
		case *spec.Cmp:
			a(e.L)
			a(e.R)
		case *spec.Not:
			b(e.X)
		case *spec.BinB:
			b(e.L)
			b(e.R)
		}
	}
	var st func(spec.Stmt)
	st = func(s spec.Stmt) {
		switch s := s.(type) {
		case *spec.Assign:
			add(s.X.Name)
			a(s.A)
		case *spec.Seq:
			st(s.First)
			st(s.Second)
		case *spec.If:
			b(s.Cond)
			st(s.Then)
			st(s.Else)
		case *spec.While:
			b(s.Cond)
			st(s.Body)
		case *spec.Assume:
			b(s.Cond)
		case *spec.Assert:
			b(s.Cond)
		}
	}
	st(s)
	return out
}
