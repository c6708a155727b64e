package parser

import (
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"golang.org/x/exp/ebnf"

	"certsym/internal/corpus"
)

// The tests of grammar.txt against the parser: the file is a well-formed grammar whose every
// production has an example the parser accepts (TestGrammarExamples), the parser accepts the
// sentences it derives (TestGrammarDerivations), and it derives every program of the repository
// and the corpus (TestGrammarPrograms). A production added to the file without an example, or a
// change of the parser that the file does not follow, fails one of them.

// loadGrammar reads grammar.txt and checks that it is well formed: every production it uses is
// defined, every production is reachable from Program, lexical productions use lexical ones only.
func loadGrammar(t *testing.T) ebnf.Grammar {
	t.Helper()
	f, err := os.Open("grammar.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	g, err := ebnf.Parse("grammar.txt", f)
	if err != nil {
		t.Fatal(err)
	}
	if err := ebnf.Verify(g, "Program"); err != nil {
		t.Fatal(err)
	}
	return g
}

// grammarExamples are, for each production of grammar.txt, programs that use it.
var grammarExamples = map[string][]string{
	"Program":     {"skip", "macro m begin skip end\narray a[0..1];\nm; a[0] = 1"},
	"Declaration": {"array a[0..1];\nmacro m(v) begin v = 1 end\nm(x)"},
	"MacroDef":    {"macro m begin skip end\nm", "macro m(v, w) begin v = w + 1 end\nm(x, 2)"},
	"ArrayDecl":   {"array a[1..5];\narray b[-3..-3];\nb[-3] = a[1]"},
	"Bound":       {"array a[-2..2];\nskip"},
	"Statements":  {"skip; skip", "skip;", "if true then skip; fi", "while false do skip; od"},
	"Statement":   {"skip", "fail", "assert x > 0", "assume x > 0"},
	"Assign":      {"x = 1", "x = x + y"},
	"ElemAssign":  {"array a[0..1];\na[x] = a[1 - x] + 1"},
	"If":          {"if x > 0 then y = 1 fi", "if x > 0 then y = 1 else y = 2 fi"},
	"While":       {"while x > 0 do x = x - 1 od", "while x > 0 invariant x >= 0 invariant true do x = x - 1 od"},
	"Invariant": {"array a[0..3];\nwhile i < 3 invariant forall k in 0..i - 1: a[k] == 0 do a[i] = 0; i = i + 1 od",
		"while x > 0 invariant x >= 0 do x = x - 1 od"},
	"MacroCall": {"macro m begin skip end\nm", "macro m(v, w) begin v = w end\nm(x, 1 + 2)"},
	"Cond":      {"assert x > 0 or y > 0 or true"},
	"Conj":      {"assert x > 0 and y > 0 and false"},
	"Negation":  {"assert not not x > 0", "assert not forall k in 0..1: k < 2"},
	"Quantified": {"array a[0..3];\nassert forall k in 0..2: a[k] <= a[k + 1]",
		"array a[0..3];\nassert exists k in 0..3: a[k] == 0 and forall j in k..3: a[j] >= 0"},
	"Atom":          {"assert true", "assert false", "assert (x < 1)", "assert (x) < 1"},
	"CmpOp":         {"assert x == y and x != y and x < y and x <= y and x > y and x >= y"},
	"Arith":         {"x = 1"},
	"Sum":           {"x = 1 + 2 - 3"},
	"Product":       {"x = 2 * 3 / 4 % 5"},
	"Unary":         {"x = -y", "x = --y", "x = -5", "x = - (5)"},
	"Primary":       {"array a[0..1];\nx = 1 + y + a[0] + (2)", "assert forall k in 0..1: k >= 0"},
	"VarName":       {"x = y"},
	"ArrayName":     {"array a[0..1];\na[0] = a[1]"},
	"MacroName":     {"macro inc(v) begin v = v + 1 end\ninc(x)"},
	"Param":         {"macro m(v, w) begin v = w end\nm(x, y)"},
	"BoundName":     {"assert forall k in 0..1: k >= 0"},
	"ident":         {"x_1 = _y + Z9"},
	"letter":        {"aZ_ = 1"},
	"int":           {"x = 0 + 1234567890123456789012345678901234567890"},
	"decimal_digit": {"x = 0123456789"},
}

// grammarRejects are programs outside the grammar: the parser rejects each, and so does the
// grammar (TestGrammarExamples checks both).
var grammarRejects = []string{
	"",                                    // no statement
	"x = 1;; y = 2",                       // an empty statement
	"skip;\narray a[0..1]; skip",          // a declaration after a statement
	"array a[0..1]",                       // a declaration without ';' (nor statement)
	"macro m() begin skip end\nm",         // empty parameters
	"macro m(v) begin skip end\nm()",      // empty arguments
	"assert 1 < 2 < 3",                    // a chained comparison
	"x = (1 < 2)",                         // a condition as an arithmetic expression
	"if x then skip fi",                   // an arithmetic expression as a condition
	"assert not (x)",                      // the same under not
	"assert (forall k in 0..1: true) < 1", // a quantifier as an operand
	"x = forall k in 0..1: true",          // a quantifier as an arithmetic expression
	"assert forall k in 0..1 k > 0",       // ':' missing
	"assert forall k in 0 < 1..2: true",   // a comparison as a bound
	"array a[0..1];\nx = a[x < 1]",        // a condition as an index
	"assert x < 1 and",                    // an operand missing
	"skip fi",                             // a closer without its statement
	"while x > 0 invariant do skip od",    // an invariant without its condition
	"while x > 0 do invariant x >= 0 od",  // an invariant in the body
	"invariant = 1",                       // invariant is a keyword
}

// TestGrammarExamples: every production of grammar.txt has examples, each a program the parser
// accepts and the grammar derives; the programs outside the grammar (grammarRejects) are
// rejected by both.
func TestGrammarExamples(t *testing.T) {
	g := loadGrammar(t)
	for name := range g {
		if len(grammarExamples[name]) == 0 {
			t.Errorf("production %s of grammar.txt has no example in grammarExamples", name)
		}
	}
	for name, srcs := range grammarExamples {
		if g[name] == nil {
			t.Errorf("grammarExamples has examples of %s, which grammar.txt does not define", name)
		}
		for _, src := range srcs {
			if _, err := Parse("example.imp", []byte(src)); err != nil {
				t.Errorf("example of %s %q: %v", name, src, err)
			}
			if err := derives(g, src); err != nil {
				t.Errorf("example of %s %q: %v", name, src, err)
			}
		}
	}
	for _, src := range grammarRejects {
		if _, err := Parse("reject.imp", []byte(src)); err == nil {
			t.Errorf("%q: parsed, want a syntax error", src)
		}
		if err := derives(g, src); err == nil {
			t.Errorf("%q: derived by grammar.txt, which should not derive it", src)
		}
	}
}

// TestGrammarPrograms: grammar.txt derives every program of testdata/ (the command's, verify's
// and the engine's) and of the PyWiSE corpus, as the lexer splits them into tokens.
func TestGrammarPrograms(t *testing.T) {
	g := loadGrammar(t)
	var files []string
	for _, pat := range []string{"../../../testdata/*.imp", "../../../testdata/verify/*.imp", "../../../engine/testdata/*.imp"} {
		m, _ := filepath.Glob(pat)
		files = append(files, m...)
	}
	if len(files) < 40 {
		t.Fatalf("found %d programs in testdata/", len(files))
	}
	files = append(files, corpus.Optional(t)...)
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := Parse(f, src); err != nil {
			continue // a program that tests a syntax error
		}
		if err := derives(g, string(src)); err != nil {
			t.Errorf("%s: %v", f, err)
		}
	}
}

// TestGrammarDerivations: the parser accepts random sentences of the grammar: statements
// derived from Statements (within a depth, alternatives, options and repetitions drawn at
// random), after a header that declares the array and the macros their names refer to.
func TestGrammarDerivations(t *testing.T) {
	g := loadGrammar(t)
	const header = "array a[0..3];\nmacro m0 begin skip end\nmacro m1(p1) begin skip end\n" +
		"macro m2(p1, p2) begin skip end\nmacro m3(p1, p2, p3) begin skip end\n"
	d := &deriver{g: g, r: rand.New(rand.NewSource(7)), cost: costs(g)}
	used := map[string]int{}
	for n := 0; n < 3000; n++ {
		d.used = map[string]bool{}
		src := header + d.prod("Statements", 0)
		if _, err := Parse("derived.imp", []byte(src)); err != nil {
			t.Fatalf("a sentence of grammar.txt the parser rejects: %v\n%s", err, src)
		}
		for p := range d.used {
			used[p]++
		}
	}
	// The derivations reach every production below Statements (those of declarations and
	// the lexical ones behind the names are the header's and the hooks').
	for name := range g {
		switch name {
		case "Program", "Declaration", "MacroDef", "ArrayDecl", "Bound", "Param", "ident", "letter", "decimal_digit":
			continue
		}
		if used[name] == 0 {
			t.Errorf("no derivation used %s", name)
		}
	}
}

// derives reports whether grammar g derives src from Program, src split into tokens by the lexer.
func derives(g ebnf.Grammar, src string) error {
	toks, err := lex("src", []byte(src))
	if err != nil {
		return err
	}
	r := &recognizer{g: g, toks: toks, memo: map[recKey][]int{}}
	ends := r.prod("Program", 0)
	if slices.Contains(ends, len(toks)-1) {
		return nil
	}
	if len(ends) == 0 {
		return fmt.Errorf("grammar.txt does not derive the program, nor any prefix of it")
	}
	at := toks[ends[len(ends)-1]]
	return fmt.Errorf("grammar.txt does not derive the program: the longest prefix it derives ends before %d:%d (%s)", at.pos.Line, at.pos.Col, at.describe())
}

// recognizer decides which token sequences a grammar derives: prod returns every position at
// which a derivation of a production that starts at a position can end (the grammar has no left
// recursion, and the sets are memoized per production and position).
type recognizer struct {
	g    ebnf.Grammar
	toks []token
	memo map[recKey][]int
}

type recKey struct {
	prod string
	pos  int
}

func (r *recognizer) prod(name string, pos int) []int {
	// The lexical productions the others use are token kinds.
	switch name {
	case "int", "ident":
		kind := tInt
		if name == "ident" {
			kind = tIdent
		}
		if r.toks[pos].kind == kind {
			return []int{pos + 1}
		}
		return nil
	}
	k := recKey{name, pos}
	if ends, ok := r.memo[k]; ok {
		return ends
	}
	r.memo[k] = nil
	ends := r.expr(r.g[name].Expr, pos)
	r.memo[k] = ends
	return ends
}

func (r *recognizer) expr(x ebnf.Expression, pos int) []int {
	switch x := x.(type) {
	case nil: // an empty production
		return []int{pos}
	case *ebnf.Name:
		return r.prod(x.String, pos)
	case *ebnf.Token:
		if t := r.toks[pos]; (t.kind == tKeyword || t.kind == tSym) && t.text == x.String {
			return []int{pos + 1}
		}
		return nil
	case ebnf.Alternative:
		var out []int
		for _, a := range x {
			out = union(out, r.expr(a, pos))
		}
		return out
	case ebnf.Sequence:
		ends := []int{pos}
		for _, e := range x {
			var next []int
			for _, p := range ends {
				next = union(next, r.expr(e, p))
			}
			ends = next
		}
		return ends
	case *ebnf.Group:
		return r.expr(x.Body, pos)
	case *ebnf.Option:
		return union([]int{pos}, r.expr(x.Body, pos))
	case *ebnf.Repetition:
		out, frontier := []int{pos}, []int{pos}
		for len(frontier) > 0 {
			var next []int
			for _, p := range frontier {
				for _, e := range r.expr(x.Body, p) {
					if !slices.Contains(out, e) {
						next = union(next, []int{e})
					}
				}
			}
			out, frontier = union(out, next), next
		}
		return out
	default:
		panic(fmt.Sprintf("recognizer: unexpected expression %T", x))
	}
}

// union is the sorted union of two sorted sets of positions.
func union(a, b []int) []int {
	out := append(append([]int(nil), a...), b...)
	sort.Ints(out)
	return slices.Compact(out)
}

// deriver derives random sentences of a grammar, tokens separated by spaces. Hooks give the names
// their meaning: variables are x, y, z, the array is a, a macro call names the header's macro of
// its arity (m0 to m3), a quantifier binds a fresh k1, k2, ..., which the identifiers of its body
// may use.
type deriver struct {
	g     ebnf.Grammar
	r     *rand.Rand
	cost  map[string]int // the least depth of a derivation of each production
	used  map[string]bool
	scope []string // the bound variables in scope
	fresh int
	bound string // the variable of the quantifier being derived
	args  int    // the arguments of the macro call being derived
}

// maxDepth is the depth past which derivations take their shortest way out.
const maxDepth = 9

func (d *deriver) prod(name string, depth int) string {
	d.used[name] = true
	if name == "MacroCall" {
		outer := d.args
		d.args = 0
		s := d.expr(d.g[name].Expr, name, depth+1)
		s = strings.Replace(s, "\x00", fmt.Sprintf("m%d", d.args), 1)
		d.args = outer
		return s
	}
	return d.expr(d.g[name].Expr, name, depth+1)
}

// name derives the production name used in production in.
func (d *deriver) name(name, in string, depth int) string {
	switch {
	case name == "VarName":
		d.used[name] = true
		return []string{"x", "y", "z"}[d.r.Intn(3)]
	case name == "ArrayName":
		d.used[name] = true
		return "a"
	case name == "MacroName" && in == "MacroCall":
		d.used[name] = true
		return "\x00" // the name is known once the arguments are
	case name == "Arith" && in == "MacroCall":
		d.args++
	case name == "BoundName" && in == "Quantified":
		d.used[name] = true
		d.fresh++
		d.bound = fmt.Sprintf("k%d", d.fresh)
		return d.bound
	case name == "BoundName":
		d.used[name] = true
		if len(d.scope) == 0 {
			return "x" // no quantifier around: a variable
		}
		return d.scope[d.r.Intn(len(d.scope))]
	case name == "Cond" && in == "Quantified":
		d.scope = append(d.scope, d.bound)
		defer func() { d.scope = d.scope[:len(d.scope)-1] }()
	case name == "int":
		d.used[name] = true
		return fmt.Sprint(d.r.Int63n(1 << uint(d.r.Intn(63))))
	}
	return d.prod(name, depth)
}

func (d *deriver) expr(x ebnf.Expression, in string, depth int) string {
	deep := depth > maxDepth
	switch x := x.(type) {
	case nil:
		return ""
	case *ebnf.Name:
		return d.name(x.String, in, depth)
	case *ebnf.Token:
		return x.String
	case ebnf.Alternative:
		if deep {
			best := x[0]
			for _, a := range x[1:] {
				if exprCost(d.cost, a) < exprCost(d.cost, best) {
					best = a
				}
			}
			return d.expr(best, in, depth)
		}
		return d.expr(x[d.r.Intn(len(x))], in, depth)
	case ebnf.Sequence:
		parts := make([]string, 0, len(x))
		for _, e := range x {
			if s := d.expr(e, in, depth); s != "" {
				parts = append(parts, s)
			}
		}
		return strings.Join(parts, " ")
	case *ebnf.Group:
		return d.expr(x.Body, in, depth)
	case *ebnf.Option:
		if deep || d.r.Intn(2) == 0 {
			return ""
		}
		return d.expr(x.Body, in, depth)
	case *ebnf.Repetition:
		n := 0
		if !deep {
			n = d.r.Intn(3)
		}
		parts := make([]string, 0, n)
		for range n {
			parts = append(parts, d.expr(x.Body, in, depth))
		}
		return strings.Join(parts, " ")
	default:
		panic(fmt.Sprintf("deriver: unexpected expression %T", x))
	}
}

// costs computes, for each production, the least depth of a derivation of it (a fixpoint).
func costs(g ebnf.Grammar) map[string]int {
	c := map[string]int{}
	for changed := true; changed; {
		changed = false
		for name, p := range g {
			if v := exprCost(c, p.Expr) + 1; v < inf && (c[name] == 0 || v < c[name]) {
				c[name], changed = v, true
			}
		}
	}
	return c
}

// inf is the cost of an expression that has no known derivation yet.
const inf = 1 << 20

func exprCost(c map[string]int, x ebnf.Expression) int {
	switch x := x.(type) {
	case nil, *ebnf.Token, *ebnf.Range, *ebnf.Option, *ebnf.Repetition:
		return 0
	case *ebnf.Name:
		if v, ok := c[x.String]; ok {
			return v
		}
		return inf
	case ebnf.Alternative:
		best := inf
		for _, a := range x {
			best = min(best, exprCost(c, a))
		}
		return best
	case ebnf.Sequence:
		worst := 0
		for _, e := range x {
			worst = max(worst, exprCost(c, e))
		}
		return worst
	case *ebnf.Group:
		return exprCost(c, x.Body)
	default:
		panic(fmt.Sprintf("costs: unexpected expression %T", x))
	}
}
