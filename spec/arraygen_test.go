package spec

import (
	"fmt"
	"math/rand"
	"strings"
	"testing"

	"certsym/spec/integer"
	"certsym/spec/syntax"
)

// genArr generates random programs over arrays a[-1..1] and b[0..3], scalars x, y and
// quantifiers, as source text.
type genArr struct {
	r     *rand.Rand
	bound []string // the binders in scope
}

func (g *genArr) aexpr(d int) string {
	n := g.r.Intn(9)
	if d <= 0 {
		n = g.r.Intn(3)
	}
	switch n {
	case 0:
		return fmt.Sprint(g.r.Intn(7) - 3)
	case 1:
		return []string{"x", "y"}[g.r.Intn(2)]
	case 2:
		if len(g.bound) > 0 {
			return g.bound[g.r.Intn(len(g.bound))]
		}
		return "x"
	case 3, 4:
		return []string{"a", "b"}[g.r.Intn(2)] + "[" + g.aexpr(d-1) + "]"
	case 5:
		return "-" + g.aexpr(d-1)
	case 6:
		return "(" + g.aexpr(d-1) + []string{" + ", " - ", " * "}[g.r.Intn(3)] + g.aexpr(d-1) + ")"
	}
	return "(" + g.aexpr(d-1) + []string{" / ", " % "}[g.r.Intn(2)] + g.aexpr(d-1) + ")"
}

func (g *genArr) bexpr(d int) string {
	n := g.r.Intn(7)
	if d <= 0 {
		n = 0
	}
	switch n {
	case 0, 1:
		return g.aexpr(d-1) + []string{" < ", " == ", " >= "}[g.r.Intn(3)] + g.aexpr(d-1)
	case 2:
		return "not (" + g.bexpr(d-1) + ")"
	case 3:
		return "(" + g.bexpr(d-1) + []string{" and ", " or "}[g.r.Intn(2)] + g.bexpr(d-1) + ")"
	}
	if len(g.bound) >= 2 {
		return "true"
	}
	k := []string{"i", "j"}[len(g.bound)]
	q := []string{"forall", "exists"}[g.r.Intn(2)]
	lo, hi := g.aexpr(1), g.aexpr(1)
	g.bound = append(g.bound, k)
	body := g.bexpr(d - 1)
	g.bound = g.bound[:len(g.bound)-1]
	return "(" + q + " " + k + " in " + lo + ".." + hi + ": " + body + ")"
}

func (g *genArr) stmt(d int) string {
	switch g.r.Intn(6) {
	case 0:
		return []string{"x", "y"}[g.r.Intn(2)] + " = " + g.aexpr(2)
	case 1, 2:
		return []string{"a", "b"}[g.r.Intn(2)] + "[" + g.aexpr(1) + "] = " + g.aexpr(2)
	case 3:
		return "assert " + g.bexpr(3)
	case 4:
		if d > 0 {
			return "if " + g.bexpr(2) + " then " + g.stmt(d-1) + " else " + g.stmt(d-1) + " fi"
		}
	}
	return "assume " + g.bexpr(2)
}

// TestRandomArrayPrograms: random programs with arrays and quantifiers round-trip through the
// printer (the printed program parses back to one that prints the same and runs the same: the
// parser's tests compare the trees themselves), the small-step and big-step semantics agree on
// them from random inputs, and for a statement without quantifiers the first failing check of
// WalkStmtChecks is the error Step reports.
func TestRandomArrayPrograms(t *testing.T) {
	r := rand.New(rand.NewSource(13))
	fails := map[syntax.FailKind]int{}
	for n := 0; n < 400; n++ {
		g := &genArr{r: r}
		var stmts []string
		for k := 0; k < 1+r.Intn(4); k++ {
			stmts = append(stmts, g.stmt(1))
		}
		src := "array a[-1..1];\narray b[0..3];\n" + strings.Join(stmts, ";\n")
		p := mustParse(t, src)
		printed := syntax.PrintProgram(p)
		p2 := mustParse(t, printed)
		if again := syntax.PrintProgram(p2); again != printed {
			t.Fatalf("%s\nprints as\n%s\nwhich prints as\n%s", src, printed, again)
		}
		for trial := 0; trial < 5; trial++ {
			in := make(Store, p.Slots())
			for i := range in {
				in[i] = integer.Of(int64(r.Intn(7) - 3))
			}
			res := Run(p, in, 1000)
			br := ExecBounded(p, in, 1000)
			if res2 := Run(p2, in, 1000); res2.Outcome != res.Outcome || StoreString(p2, res2.Final.Store) != StoreString(p, res.Final.Store) ||
				res.Fail != nil && res2.Fail.Kind != res.Fail.Kind {
				t.Fatalf("%s\nfrom %s: %v, printed and re-parsed %v", src, StoreString(p, in), res.Outcome, res2.Outcome)
			}
			switch res.Outcome {
			case Failed:
				fails[res.Fail.Kind]++
				if br.Behaviour != Error || br.Fail != res.Fail {
					t.Fatalf("%s\nfrom %s: Run fails at %v, ExecBounded %v %v", src, StoreString(p, in), res.Fail, br.Behaviour, br.Fail)
				}
			case Final:
				if br.Behaviour != Normal || StoreString(p, br.Store) != StoreString(p, res.Final.Store) {
					t.Fatalf("%s\nfrom %s: stores differ", src, StoreString(p, in))
				}
			case Blocked:
				if br.Behaviour != Infeasible {
					t.Fatalf("%s\nfrom %s: Run blocked, ExecBounded %v", src, StoreString(p, in), br.Behaviour)
				}
			}
			checkFirstFailure(t, p, in)
		}
	}
	if fails[syntax.FailIndex] == 0 || fails[syntax.FailDivZero] == 0 || fails[syntax.FailAssert] == 0 {
		t.Errorf("the generator reaches too few errors: %v", fails)
	}
}

// checkFirstFailure checks, for the first statement of p if it has no quantifier, that the
// first failing check in WalkStmtChecks order is the kind of error Step reports.
func checkFirstFailure(t *testing.T, p *syntax.Program, in Store) {
	t.Helper()
	s := Head(p.Body)
	quant := false
	syntax.Inspect(s, func(n syntax.Node) bool {
		if _, ok := n.(*syntax.Quant); ok {
			quant = true
		}
		return true
	})
	if quant {
		return
	}
	var first *syntax.FailKind
	syntax.WalkStmtChecks(s, func(c syntax.Check) {
		if first != nil {
			return
		}
		fail := false
		switch {
		case c.Div != nil:
			v, ok := Eval(c.Div.R, in)
			fail = ok && v.IsZero()
		case c.Elem != nil:
			v, ok := Eval(c.Elem.I, in)
			_, inRange := c.Elem.Arr.Slot(v)
			fail = ok && !inRange
		case c.Write != nil:
			v, _ := Eval(c.Write.I, in)
			_, inRange := c.Write.Arr.Slot(v)
			fail = !inRange
		}
		if fail {
			k := c.Kind
			first = &k
		}
	})
	next, _ := Step(State{in, s})
	f, _ := next.Prog.(*syntax.Fail)
	isErr := f != nil && (f.Kind == syntax.FailDivZero || f.Kind == syntax.FailIndex)
	switch {
	case first == nil && isErr:
		t.Fatalf("%s from %s: Step errs with %v, no check fails", syntax.Print(s), StoreString(p, in), f.Kind)
	case first != nil && (!isErr || f.Kind != *first):
		t.Fatalf("%s from %s: first failing check %v, Step gives %v", syntax.Print(s), StoreString(p, in), *first, next.Prog)
	}
}
