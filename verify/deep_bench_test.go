package verify

import (
	"fmt"
	"strings"
	"testing"

	"certsym/engine"
	"certsym/spec/syntax"
	"certsym/spec/syntax/parser"
)

// The deep-nesting benchmarks: certsym parse, run and verify on n nested
// statements, to show that parse and verify take time linear in the size of the program (the
// target: verify within twice the time of run at n = 100,000). Each benchmark does what its
// command does, parsing included: parse is parser.Parse then syntax.PrintProgram; run is parser.Parse
// then the engine's breadth-first bug finder; verify is parser.Parse, then Verify with the default
// loop bound 3, then the coverage of every statement (Report.Code).

// deepIf is n nested conditionals, if x > 0 then if x > 1 then ... y = 1 ... fi fi.
func deepIf(n int) []byte {
	var b strings.Builder
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "if x > %d then\n", i)
	}
	b.WriteString("y = 1\n")
	b.WriteString(strings.Repeat("fi\n", n))
	return []byte(b.String())
}

// deepWhile is n nested loops, every other body a sequence, each loop run once (the innermost
// body sets y, which ends every enclosing loop), after a conditional on the input x:
// y = 0; if x > 0 then while y == 0 do z = z + 1; while y == 0 do while y == 0 do z = z + 1; ...
// y = 1 ... od od od fi.
func deepWhile(n int) []byte {
	var b strings.Builder
	b.WriteString("y = 0;\nif x > 0 then\n")
	for i := 0; i < n; i++ {
		b.WriteString("while y == 0 do\n")
		if i%2 == 0 {
			b.WriteString("z = z + 1;\n")
		}
	}
	b.WriteString("y = 1\n")
	b.WriteString(strings.Repeat("od\n", n))
	b.WriteString("fi\n")
	return []byte(b.String())
}

var deepSizes = []int{10_000, 100_000}

func deepShapes() []struct {
	name string
	src  func(int) []byte
} {
	return []struct {
		name string
		src  func(int) []byte
	}{{"if", deepIf}, {"while", deepWhile}}
}

func parseDeep(b *testing.B, src []byte) *syntax.Program {
	prog, err := parser.Parse("deep.imp", src)
	if err != nil {
		b.Fatal(err)
	}
	return prog
}

// BenchmarkParseDeepIf is certsym parse on deep nesting: parse, then print.
func BenchmarkParseDeepIf(b *testing.B) {
	for _, sh := range deepShapes() {
		for _, n := range deepSizes {
			src := sh.src(n)
			b.Run(fmt.Sprintf("%s/n=%d", sh.name, n), func(b *testing.B) {
				for b.Loop() {
					if out := syntax.PrintProgram(parseDeep(b, src)); len(out) < n {
						b.Fatalf("printed %d bytes", len(out))
					}
				}
			})
		}
	}
}

// BenchmarkVerifyDeepIf is certsym verify on deep nesting (loop bound 3).
func BenchmarkVerifyDeepIf(b *testing.B) {
	for _, sh := range deepShapes() {
		for _, n := range deepSizes {
			src := sh.src(n)
			b.Run(fmt.Sprintf("%s/n=%d", sh.name, n), func(b *testing.B) {
				for b.Loop() {
					rep := Verify(parseDeep(b, src), Options{LoopBound: 3})
					if len(rep.Stmts) < n {
						b.Fatalf("%d statements", len(rep.Stmts))
					}
					// The command reports the coverage of every statement.
					if code := rep.Code(); len(code) != len(rep.Stmts) || code[len(code)-1].Status != CodeCovered {
						b.Fatalf("coverage of %d statements", len(code))
					}
				}
			})
		}
	}
}

// BenchmarkRunDeepIf is certsym run on deep nesting (breadth-first, default options).
func BenchmarkRunDeepIf(b *testing.B) {
	for _, sh := range deepShapes() {
		for _, n := range deepSizes {
			src := sh.src(n)
			b.Run(fmt.Sprintf("%s/n=%d", sh.name, n), func(b *testing.B) {
				for b.Loop() {
					rep, err := engine.New(parseDeep(b, src), engine.Options{}).FindBugs(nil)
					if err != nil {
						b.Fatal(err)
					}
					if rep.Verdict != engine.VerdictSafe {
						b.Fatalf("verdict %s", rep.Verdict)
					}
				}
			})
		}
	}
}
