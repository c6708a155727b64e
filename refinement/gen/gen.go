// Package gen writes the refinement layer's random IMP programs (with gofuzz): small programs over
// the variables Vars, steered toward the corners where the engine decides without Z3 (corner.go),
// some with macros that the generator inlines itself for the reference, and fixed programs of
// those corner shapes (Targeted), some with arrays and quantifiers (arrays.go), some ending with a
// shape for certsym verify (verify.go). Each program comes as the tree the reference runs and the
// text the engine parses.
package gen

import (
	"fmt"
	"math/big"

	fuzz "github.com/google/gofuzz"

	"certsym/spec"
)

// Config bounds the random programs.
type Config struct {
	MaxStmts     int // statements per block (at least 1)
	MaxNesting   int // nesting of if/while
	MaxExprDepth int // depth of expressions
	MaxLoops     int // while loops per program
}

// Default is the generator configuration of the default run.
var Default = Config{MaxStmts: 4, MaxNesting: 2, MaxExprDepth: 3, MaxLoops: 2}

// Generated is a random program: the generated syntax tree (what the reference runs) and its
// text (what the engine parses), with the seed that reproduces both.
type Generated struct {
	Seed int64
	AST  spec.Stmt
	Text string
	// Long is set when the program has a long countdown loop and wants a large budget.
	Long bool
	// Corners is the number of corner snippets in the program (corner.go).
	Corners int
	// Verify is the kind of the program's verify snippet (an index into VerifyKinds; verify.go),
	// -1 for none.
	Verify int
	// Arrays are the program's declared arrays (arrays.go; nil for most programs). Their Offset
	// is only known once the text is parsed: FixArrays sets it from the parsed program.
	Arrays []*spec.Array
}

// FixArrays gives the generated arrays the slots of the parsed program's arrays of the same name.
func (g *Generated) FixArrays(p *spec.Program) {
	for _, a := range g.Arrays {
		if b := p.ArrayIndex(a.Name); b != nil {
			a.Offset, a.Index = b.Offset, b.Index
		}
	}
}

// gen holds the state of one generation; gofuzz's custom functions for the interface-typed AST
// categories (spec.AExpr, spec.BExpr, spec.Stmt) and for spec.Int read and update it.
type gen struct {
	cfg       Config
	exprDepth int
	nesting   int
	loops     int
	counters  []string // loop counters in scope (never assigned by generated statements)
	bexpr     bool     // generating a condition (Cmp leaves are arithmetic)
}

var Vars = []string{"x", "y", "z", "w"}

// HugeConstants are beyond or at the 64-bit edges.
var HugeConstants = func() []spec.Int {
	two63 := new(big.Int).Lsh(big.NewInt(1), 63)
	two64 := new(big.Int).Lsh(big.NewInt(1), 64)
	e20, _ := new(big.Int).SetString("100000000000000000000", 10)
	vals := []*big.Int{
		new(big.Int).Sub(two63, big.NewInt(1)), two63, new(big.Int).Neg(two63),
		new(big.Int).Neg(new(big.Int).Add(two63, big.NewInt(1))), two64, e20, new(big.Int).Neg(e20),
	}
	out := make([]spec.Int, len(vals))
	for i, v := range vals {
		out[i] = spec.IntFromBig(v)
	}
	return out
}()

// Generate returns the random program of seed: reproducible, well formed (its text parses), with
// terminating loops (each loop has its own counter and a small constant bound, or is bounded by
// an input, which the runs bound by their step budgets).
func Generate(seed int64, cfg Config) (*Generated, error) {
	g := &gen{cfg: cfg}
	f := fuzz.NewWithSeed(seed).NilChance(0).MaxDepth(1000).Funcs(
		func(v *spec.Int, c fuzz.Continue) { *v = g.constant(c) },
		func(a *spec.AExpr, c fuzz.Continue) { *a = g.aexpr(c) },
		func(b *spec.BExpr, c fuzz.Continue) { *b = g.cond(c) },
		func(s *spec.Stmt, c fuzz.Continue) { *s = g.block(c) },
	)
	var body spec.Stmt
	f.Fuzz(&body)
	if body == nil {
		return nil, fmt.Errorf("generator produced no program for seed %d", seed)
	}
	wrap, decls, arrs := withArrays(seed)
	vwrap, kind := withVerify(seed)
	if vwrap != nil { // the verify snippet, after the array snippets
		awrap := wrap
		wrap = func(s spec.Stmt) spec.Stmt {
			if awrap != nil {
				s = awrap(s)
			}
			return vwrap(s)
		}
	}
	tree, text, long, corners := steer(seed, body, wrap)
	return &Generated{Seed: seed, AST: tree, Text: decls + text, Long: long, Corners: corners, Arrays: arrs, Verify: kind}, nil
}

// constant draws an integer biased to the interesting cases: 0, ±1, small negatives, the 64-bit
// edges and beyond.
func (g *gen) constant(c fuzz.Continue) spec.Int {
	switch r := c.Intn(20); {
	case r < 2:
		return spec.IntOf(0)
	case r < 12:
		return spec.IntOf(int64(c.Intn(15) - 7))
	case r < 15:
		return spec.IntOf(int64(c.Intn(200) - 100))
	case r < 18:
		return HugeConstants[c.Intn(len(HugeConstants))]
	}
	return spec.IntOf(int64(c.Intn(3) - 1))
}

func (g *gen) leaf(c fuzz.Continue) spec.AExpr {
	if c.Intn(10) < 6 {
		names := Vars
		if len(g.counters) > 0 && c.Intn(4) == 0 {
			names = g.counters
		}
		return &spec.Var{Name: names[c.Intn(len(names))]}
	}
	var v spec.Int
	c.Fuzz(&v)
	return &spec.Num{Val: v}
}

func (g *gen) sub(c fuzz.Continue) spec.AExpr {
	var a spec.AExpr
	g.exprDepth++
	c.Fuzz(&a)
	g.exprDepth--
	return a
}

// aexpr draws an arithmetic expression: divisions and remainders are frequent (by constants,
// negatives, zero and variables), so are products of variables and the a - b + c shape whose
// parse depends on associativity.
func (g *gen) aexpr(c fuzz.Continue) spec.AExpr {
	if g.exprDepth >= g.cfg.MaxExprDepth || c.Intn(10) < 3 {
		return g.leaf(c)
	}
	switch r := c.Intn(20); {
	case r < 2:
		return &spec.Neg{X: g.sub(c)}
	case r < 4: // a - b + c
		return &spec.BinA{Op: spec.Add, L: &spec.BinA{Op: spec.Sub, L: g.sub(c), R: g.sub(c)}, R: g.sub(c)}
	case r < 6: // constant folding on negatives: n / m, n % m
		op := spec.Div
		if c.RandBool() {
			op = spec.Mod
		}
		var n, m spec.Int
		c.Fuzz(&n)
		c.Fuzz(&m)
		if c.RandBool() {
			n = spec.IntOf(-int64(c.Intn(20) + 1))
		}
		if m.IsZero() && c.Intn(3) > 0 {
			m = spec.IntOf(int64(c.Intn(9) - 4))
		}
		return &spec.BinA{Op: op, L: &spec.Num{Val: n}, R: &spec.Num{Val: m}}
	}
	ops := []spec.AOp{spec.Add, spec.Sub, spec.Mul, spec.Mul, spec.Div, spec.Div, spec.Mod, spec.Mod}
	return &spec.BinA{Op: ops[c.Intn(len(ops))], L: g.sub(c), R: g.sub(c)}
}

func (g *gen) subCond(c fuzz.Continue) spec.BExpr {
	var b spec.BExpr
	g.exprDepth++
	c.Fuzz(&b)
	g.exprDepth--
	return b
}

// cond draws a condition: comparisons of all six kinds, not, and, or, rarely a literal.
func (g *gen) cond(c fuzz.Continue) spec.BExpr {
	deep := g.exprDepth >= g.cfg.MaxExprDepth-1
	switch r := c.Intn(20); {
	case r < 1:
		return &spec.BoolLit{Val: c.RandBool()}
	case r < 3 && !deep:
		return &spec.Not{X: g.subCond(c)}
	case r < 6 && !deep:
		op := spec.And
		if c.RandBool() {
			op = spec.Or
		}
		return &spec.BinB{Op: op, L: g.subCond(c), R: g.subCond(c)}
	}
	return &spec.Cmp{Op: spec.CmpOp(c.Intn(6)), L: g.sub(c), R: g.sub(c)}
}

// block draws a sequence of statements.
func (g *gen) block(c fuzz.Continue) spec.Stmt {
	n := 1 + c.Intn(g.cfg.MaxStmts)
	var out spec.Stmt
	for i := 0; i < n; i++ {
		s := g.stmt(c)
		if out == nil {
			out = s
		} else if c.Intn(3) == 0 { // both associations of ; occur
			out = &spec.Seq{First: out, Second: s}
		} else {
			out = appendSeq(out, s)
		}
	}
	return out
}

func appendSeq(s, t spec.Stmt) spec.Stmt {
	if q, ok := s.(*spec.Seq); ok {
		return &spec.Seq{First: q.First, Second: appendSeq(q.Second, t)}
	}
	return &spec.Seq{First: s, Second: t}
}

func (g *gen) nested(c fuzz.Continue) spec.Stmt {
	var s spec.Stmt
	g.nesting++
	c.Fuzz(&s)
	g.nesting--
	return s
}

func (g *gen) stmt(c fuzz.Continue) spec.Stmt {
	var cond spec.BExpr
	canNest := g.nesting < g.cfg.MaxNesting
	switch r := c.Intn(40); {
	case r < 18:
		var a spec.AExpr
		if c.Intn(8) == 0 { // x = 0: a constant zero (and constants that fold to it)
			a = &spec.Num{}
		} else {
			c.Fuzz(&a)
		}
		return &spec.Assign{X: &spec.Var{Name: Vars[c.Intn(len(Vars))]}, A: a}
	case r < 25 && canNest:
		c.Fuzz(&cond)
		th := g.nested(c)
		var el spec.Stmt = &spec.Skip{}
		if c.Intn(3) > 0 {
			el = g.nested(c)
		}
		return &spec.If{Cond: cond, Then: th, Else: el}
	case r < 31 && canNest && g.loops < g.cfg.MaxLoops:
		return g.loop(c)
	case r < 34:
		c.Fuzz(&cond)
		return &spec.Assert{Cond: cond}
	case r < 37:
		c.Fuzz(&cond)
		return &spec.Assume{Cond: cond}
	case r < 39:
		return &spec.Skip{}
	}
	if c.Intn(3) == 0 {
		return &spec.Fail{}
	}
	return &spec.Skip{}
}

// loop draws i = 0; while i < B [and c] do body; i = i + 1 od, with a counter i of its own that
// no other statement assigns, and B a small constant or, sometimes, an input.
func (g *gen) loop(c fuzz.Continue) spec.Stmt {
	g.loops++
	ctr := fmt.Sprintf("i%d", len(g.counters))
	ref := func() *spec.Var { return &spec.Var{Name: ctr} }
	var bound spec.AExpr = &spec.Num{Val: spec.IntOf(int64(c.Intn(4)))}
	if c.Intn(4) == 0 {
		bound = &spec.Var{Name: Vars[c.Intn(len(Vars))]}
	}
	var cond spec.BExpr = &spec.Cmp{Op: spec.Lt, L: ref(), R: bound}
	if c.Intn(2) == 0 {
		var extra spec.BExpr
		c.Fuzz(&extra)
		cond = &spec.BinB{Op: spec.And, L: cond, R: extra}
	}
	g.counters = append(g.counters, ctr)
	body := g.nested(c)
	g.counters = g.counters[:len(g.counters)-1]
	incr := &spec.Assign{X: ref(), A: &spec.BinA{Op: spec.Add, L: ref(), R: &spec.Num{Val: spec.IntOf(1)}}}
	return &spec.Seq{
		First:  &spec.Assign{X: ref(), A: &spec.Num{}},
		Second: &spec.While{Cond: cond, Body: appendSeq(body, incr)},
	}
}

// AExprFuzzer is a gofuzz fuzzer that draws arithmetic expressions and constants as the generator
// does (over Vars), for tests that evaluate random expressions.
func AExprFuzzer(seed int64, cfg Config) *fuzz.Fuzzer {
	g := &gen{cfg: cfg}
	return fuzz.NewWithSeed(seed).NilChance(0).Funcs(
		func(v *spec.Int, c fuzz.Continue) { *v = g.constant(c) },
		func(a *spec.AExpr, c fuzz.Continue) { *a = g.aexpr(c) },
	)
}
