// Package gen writes the refinement layer's random IMP programs (with gofuzz): small programs over
// the variables Vars, steered toward the corners where the engine decides without Z3 (corner.go),
// some with macros that the generator inlines itself for the reference, and fixed programs of
// those corner shapes (Targeted), some with arrays and quantifiers (arrays.go), some ending with a
// shape for certsym verify (verify.go), some starting with a chain of ifs for the runs with state
// merging (ifchain.go). Each program comes as the tree the reference runs and the
// text the engine parses.
package gen

import (
	"fmt"
	"math/big"

	fuzz "github.com/google/gofuzz"

	"certsym/spec/integer"
	"certsym/spec/syntax"
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
	AST  syntax.Stmt
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
	Arrays []*syntax.Array
}

// FixArrays gives the generated arrays the slots of the parsed program's arrays of the same name.
func (g *Generated) FixArrays(p *syntax.Program) {
	for _, a := range g.Arrays {
		if b := p.ArrayIndex(a.Name); b != nil {
			a.Offset, a.Index = b.Offset, b.Index
		}
	}
}

// gen holds the state of one generation; gofuzz's custom functions for the interface-typed AST
// categories (syntax.AExpr, syntax.BExpr, syntax.Stmt) and for integer.Int read and update it.
type gen struct {
	cfg       Config
	exprDepth int
	nesting   int
	loops     int
	counters  []string  // loop counters in scope (never assigned by generated statements)
	made      []genLoop // the loops written, for their invariant clauses (invariants.go)
}

var Vars = []string{"x", "y", "z", "w"}

// HugeConstants are beyond or at the 64-bit edges.
var HugeConstants = func() []integer.Int {
	two63 := new(big.Int).Lsh(big.NewInt(1), 63)
	two64 := new(big.Int).Lsh(big.NewInt(1), 64)
	e20, _ := new(big.Int).SetString("100000000000000000000", 10)
	vals := []*big.Int{
		new(big.Int).Sub(two63, big.NewInt(1)), two63, new(big.Int).Neg(two63),
		new(big.Int).Neg(new(big.Int).Add(two63, big.NewInt(1))), two64, e20, new(big.Int).Neg(e20),
	}
	out := make([]integer.Int, len(vals))
	for i, v := range vals {
		out[i] = integer.FromBig(v)
	}
	return out
}()

// Generate returns the random program of seed: reproducible, well formed (its text parses), with
// terminating loops (each loop has its own counter and a small constant bound, or is bounded by
// an input, which the runs bound by their step budgets).
func Generate(seed int64, cfg Config) (*Generated, error) {
	g := &gen{cfg: cfg}
	f := fuzz.NewWithSeed(seed).NilChance(0).MaxDepth(1000).Funcs(
		func(v *integer.Int, c fuzz.Continue) { *v = g.constant(c) },
		func(a *syntax.AExpr, c fuzz.Continue) { *a = g.aexpr(c) },
		func(b *syntax.BExpr, c fuzz.Continue) { *b = g.cond(c) },
		func(s *syntax.Stmt, c fuzz.Continue) { *s = g.block(c) },
	)
	var body syntax.Stmt
	f.Fuzz(&body)
	if body == nil {
		return nil, fmt.Errorf("generator produced no program for seed %d", seed)
	}
	wrap, decls, arrs, arrLoops := withArrays(seed)
	withInvariants(seed, cfg, append(g.made, arrLoops...))
	if cwrap := withIfChain(seed); cwrap != nil { // the chain of ifs, before the array snippets
		awrap := wrap
		wrap = func(s syntax.Stmt) syntax.Stmt {
			if awrap != nil {
				s = awrap(s)
			}
			return cwrap(s)
		}
	}
	vwrap, kind := withVerify(seed)
	if vwrap != nil { // the verify snippet, after the array snippets
		awrap := wrap
		wrap = func(s syntax.Stmt) syntax.Stmt {
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
func (g *gen) constant(c fuzz.Continue) integer.Int {
	switch r := c.Intn(20); {
	case r < 2:
		return integer.Of(0)
	case r < 12:
		return integer.Of(int64(c.Intn(15) - 7))
	case r < 15:
		return integer.Of(int64(c.Intn(200) - 100))
	case r < 18:
		return HugeConstants[c.Intn(len(HugeConstants))]
	}
	return integer.Of(int64(c.Intn(3) - 1))
}

func (g *gen) leaf(c fuzz.Continue) syntax.AExpr {
	if c.Intn(10) < 6 {
		names := Vars
		if len(g.counters) > 0 && c.Intn(4) == 0 {
			names = g.counters
		}
		return &syntax.Var{Name: names[c.Intn(len(names))]}
	}
	var v integer.Int
	c.Fuzz(&v)
	return &syntax.Num{Val: v}
}

func (g *gen) sub(c fuzz.Continue) syntax.AExpr {
	var a syntax.AExpr
	g.exprDepth++
	c.Fuzz(&a)
	g.exprDepth--
	return a
}

// aexpr draws an arithmetic expression: divisions and remainders are frequent (by constants,
// negatives, zero and variables), so are products of variables and the a - b + c shape whose
// parse depends on associativity.
func (g *gen) aexpr(c fuzz.Continue) syntax.AExpr {
	if g.exprDepth >= g.cfg.MaxExprDepth || c.Intn(10) < 3 {
		return g.leaf(c)
	}
	switch r := c.Intn(20); {
	case r < 2:
		return &syntax.Neg{X: g.sub(c)}
	case r < 4: // a - b + c
		return &syntax.BinA{Op: syntax.Add, L: &syntax.BinA{Op: syntax.Sub, L: g.sub(c), R: g.sub(c)}, R: g.sub(c)}
	case r < 6: // constant folding on negatives: n / m, n % m
		op := syntax.Div
		if c.RandBool() {
			op = syntax.Mod
		}
		var n, m integer.Int
		c.Fuzz(&n)
		c.Fuzz(&m)
		if c.RandBool() {
			n = integer.Of(-int64(c.Intn(20) + 1))
		}
		if m.IsZero() && c.Intn(3) > 0 {
			m = integer.Of(int64(c.Intn(9) - 4))
		}
		return &syntax.BinA{Op: op, L: &syntax.Num{Val: n}, R: &syntax.Num{Val: m}}
	}
	ops := []syntax.AOp{syntax.Add, syntax.Sub, syntax.Mul, syntax.Mul, syntax.Div, syntax.Div, syntax.Mod, syntax.Mod}
	return &syntax.BinA{Op: ops[c.Intn(len(ops))], L: g.sub(c), R: g.sub(c)}
}

func (g *gen) subCond(c fuzz.Continue) syntax.BExpr {
	var b syntax.BExpr
	g.exprDepth++
	c.Fuzz(&b)
	g.exprDepth--
	return b
}

// cond draws a condition: comparisons of all six kinds, not, and, or, rarely a literal.
func (g *gen) cond(c fuzz.Continue) syntax.BExpr {
	deep := g.exprDepth >= g.cfg.MaxExprDepth-1
	switch r := c.Intn(20); {
	case r < 1:
		return &syntax.BoolLit{Val: c.RandBool()}
	case r < 3 && !deep:
		return &syntax.Not{X: g.subCond(c)}
	case r < 6 && !deep:
		op := syntax.And
		if c.RandBool() {
			op = syntax.Or
		}
		return &syntax.BinB{Op: op, L: g.subCond(c), R: g.subCond(c)}
	}
	return &syntax.Cmp{Op: syntax.CmpOp(c.Intn(6)), L: g.sub(c), R: g.sub(c)}
}

// block draws a sequence of statements.
func (g *gen) block(c fuzz.Continue) syntax.Stmt {
	n := 1 + c.Intn(g.cfg.MaxStmts)
	var out syntax.Stmt
	for i := 0; i < n; i++ {
		s := g.stmt(c)
		if out == nil {
			out = s
		} else if c.Intn(3) == 0 { // both associations of ; occur
			out = &syntax.Seq{First: out, Second: s}
		} else {
			out = appendSeq(out, s)
		}
	}
	return out
}

func appendSeq(s, t syntax.Stmt) syntax.Stmt {
	if q, ok := s.(*syntax.Seq); ok {
		return &syntax.Seq{First: q.First, Second: appendSeq(q.Second, t)}
	}
	return &syntax.Seq{First: s, Second: t}
}

func (g *gen) nested(c fuzz.Continue) syntax.Stmt {
	var s syntax.Stmt
	g.nesting++
	c.Fuzz(&s)
	g.nesting--
	return s
}

func (g *gen) stmt(c fuzz.Continue) syntax.Stmt {
	var cond syntax.BExpr
	canNest := g.nesting < g.cfg.MaxNesting
	switch r := c.Intn(40); {
	case r < 18:
		var a syntax.AExpr
		if c.Intn(8) == 0 { // x = 0: a constant zero (and constants that fold to it)
			a = &syntax.Num{}
		} else {
			c.Fuzz(&a)
		}
		return &syntax.Assign{X: &syntax.Var{Name: Vars[c.Intn(len(Vars))]}, A: a}
	case r < 25 && canNest:
		c.Fuzz(&cond)
		th := g.nested(c)
		var el syntax.Stmt = &syntax.Skip{}
		if c.Intn(3) > 0 {
			el = g.nested(c)
		}
		return &syntax.If{Cond: cond, Then: th, Else: el}
	case r < 31 && canNest && g.loops < g.cfg.MaxLoops:
		return g.loop(c)
	case r < 34:
		c.Fuzz(&cond)
		return &syntax.Assert{Cond: cond}
	case r < 37:
		c.Fuzz(&cond)
		return &syntax.Assume{Cond: cond}
	case r < 39:
		return &syntax.Skip{}
	}
	if c.Intn(3) == 0 {
		return &syntax.Fail{}
	}
	return &syntax.Skip{}
}

// loop draws i = 0; while i < B [and c] do body; i = i + 1 od, with a counter i of its own that
// no other statement assigns, and B a small constant or, sometimes, an input.
func (g *gen) loop(c fuzz.Continue) syntax.Stmt {
	g.loops++
	ctr := fmt.Sprintf("i%d", len(g.counters))
	ref := func() *syntax.Var { return &syntax.Var{Name: ctr} }
	var bound syntax.AExpr = &syntax.Num{Val: integer.Of(int64(c.Intn(4)))}
	if c.Intn(4) == 0 {
		bound = &syntax.Var{Name: Vars[c.Intn(len(Vars))]}
	}
	var cond syntax.BExpr = &syntax.Cmp{Op: syntax.Lt, L: ref(), R: bound}
	if c.Intn(2) == 0 {
		var extra syntax.BExpr
		c.Fuzz(&extra)
		cond = &syntax.BinB{Op: syntax.And, L: cond, R: extra}
	}
	g.counters = append(g.counters, ctr)
	body := g.nested(c)
	g.counters = g.counters[:len(g.counters)-1]
	incr := &syntax.Assign{X: ref(), A: &syntax.BinA{Op: syntax.Add, L: ref(), R: &syntax.Num{Val: integer.Of(1)}}}
	w := &syntax.While{Cond: cond, Body: appendSeq(body, incr)}
	g.made = append(g.made, genLoop{W: w, Ctr: ctr, Bound: bound})
	return &syntax.Seq{First: &syntax.Assign{X: ref(), A: &syntax.Num{}}, Second: w}
}

// AExprFuzzer is a gofuzz fuzzer that draws arithmetic expressions and constants as the generator
// does (over Vars), for tests that evaluate random expressions.
func AExprFuzzer(seed int64, cfg Config) *fuzz.Fuzzer {
	g := &gen{cfg: cfg}
	return fuzz.NewWithSeed(seed).NilChance(0).Funcs(
		func(v *integer.Int, c fuzz.Continue) { *v = g.constant(c) },
		func(a *syntax.AExpr, c fuzz.Continue) { *a = g.aexpr(c) },
	)
}
